"""The command service (with the rematch process beside it), the projector, the clocks'
scheduler and the gateway in one process: what `tabletop demo --web`, the gateway tests
and the browser tests run."""

from __future__ import annotations

from services import compose
from services.gateway.app import GatewayConfig
from services.gateway.server import GatewayServer
from services.infra import collector
from services.infra.config import Settings


class Stack:
    def __init__(
        self,
        settings: Settings,
        config: GatewayConfig,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        commands: bool = True,
        projector: bool = True,
        scheduler: bool = True,
    ) -> None:
        self.settings = settings
        self.service = compose.command_service(settings) if commands else None
        self.redis = compose.redis_client(settings)
        self.projector = compose.projector(settings, self.redis) if projector else None
        self.rematch_client = compose.client(settings) if commands else None
        self.rematches = (
            compose.rematcher(settings, self.redis, self.rematch_client)
            if self.rematch_client is not None
            else None
        )
        self.scheduler = compose.scheduler(settings, self.redis) if scheduler else None
        self.server = GatewayServer(compose.gateway(settings, config), host, port)
        self._stopped = False

    @property
    def url(self) -> str:
        return self.server.url

    async def start(self) -> Stack:
        await self.start_services()
        await self.server.start()
        return self

    async def start_services(self) -> None:
        if self.service is not None:
            await self.service.start()
        if self.rematch_client is not None and self.rematches is not None:
            await self.rematch_client.__aenter__()
            self.rematches.start()
        if self.projector is not None:
            self.projector.start()
        if self.scheduler is not None:
            self.scheduler.start()
        collector.settle()

    async def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        await self.server.stop()
        await self.stop_services()

    async def stop_services(self) -> None:
        if self.scheduler is not None:
            await self.scheduler.stop()
        if self.projector is not None:
            await self.projector.stop()
        if self.rematches is not None:
            await self.rematches.stop()
        if self.rematch_client is not None:
            await self.rematch_client.close()
            await self.rematch_client.redis.aclose()
        if self.service is not None:
            await self.service.stop()
        await self.redis.aclose()
