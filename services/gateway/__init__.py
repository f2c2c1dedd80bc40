"""The gateway: players' HTTP and WebSocket edge (sign-in, lobby, play, live, quick play)."""


class GatewayCannotListen(Exception):
    """The gateway's address is taken or not ours to bind (uvicorn has logged why)."""
