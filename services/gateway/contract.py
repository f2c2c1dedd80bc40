"""What the gateway's OpenAPI document promises, kept true of what it serves.

A platform generates its client from docs/openapi.json, so the document says every
refusal a route may answer with (and its body, `api.Problem`), that a body with a field
it does not know is refused (`additionalProperties: false`, as msgspec's
`forbid_unknown_fields` makes it), what a match id in a path may be, and which methods
each path takes (`Allow` of OPTIONS; Litestar 2 lists only the first method registered
on a path, litestar-org/litestar#4169); and it links each answer that names a match to
the routes of that match. tests/gateway/test_api_contract.py checks the running gateway
against the document with Schemathesis.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
from litestar import Response

# Litestar's own schema plugin for msgspec Structs, which this one extends.
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import ResponseSpec
from litestar.openapi.spec import Link, OpenAPI, OpenAPIResponse, Reference, Schema
from litestar.params import Parameter
from litestar.status_codes import HTTP_204_NO_CONTENT

from services.commands.intake import ID
from services.gateway import api
from services.gateway.tokens import ID_PATTERN

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator
    from litestar.typing import FieldDefinition

# A match id as the command streams take it (services/commands/intake.py).
MatchIdPath = Annotated[
    str,
    Parameter(
        pattern=f"^{ID.pattern}$",
        min_length=1,
        max_length=128,
        description="The match id: 1 to 128 letters, digits or `_.:-`.",
    ),
]

# A player id as the platform gives it (tokens.py, ID_PATTERN).
PlayerIdPath = Annotated[
    str,
    Parameter(
        pattern=ID_PATTERN,
        description="The player id: 1 to 64 letters, digits or `_.:@-`.",
    ),
]

WHY: Mapping[int, str] = {
    400: "The request is malformed: a field missing, unknown, of the wrong type or out of "
    "bounds (`extra` says which), or a query value out of range.",
    401: "No token, or a bad or expired one (sign in again); for the platform's sign-in, "
    "a wrong gateway secret.",
    403: "Signed in, but not allowed: a body naming another player, another seat's view "
    "before the match is over, a bot asked for by someone not at the table.",
    404: "There is no such match (or seat, for `?as=`), or the route is off on this gateway.",
    409: "The referee refuses: `detail` is `code: sentence`, as the command service "
    "rejected the command (docs/gateway.md).",
    413: "The body is larger than the gateway takes.",
    429: "Too many requests from this player (or tables opened): `Retry-After` says when "
    "to try again.",
    503: "Redis is unreachable, or this gateway is not following the logs yet.",
}


def refusals(*codes: int) -> dict[int, ResponseSpec]:
    """The refusals a route may answer with, for its `responses=`."""
    return {
        code: ResponseSpec(
            data_container=api.Problem, description=WHY[code], generate_examples=False
        )
        for code in codes
    }


# Every route that reads the caller's token, and what each kind of route adds.
SIGNED = refusals(400, 401, 429)
READS_MATCH = refusals(400, 401, 403, 404, 429)
SENDS = refusals(400, 401, 403, 404, 409, 413, 429)
REPLAYS = refusals(400, 401, 403, 404, 409, 429)  # 409: the match is not over yet


# msgspec's JSON Schema keywords for a field's bounds, and Litestar's Schema attributes.
BOUNDS = {
    "minimum": "minimum",
    "maximum": "maximum",
    "minLength": "min_length",
    "maxLength": "max_length",
    "minItems": "min_items",
    "maxItems": "max_items",
    "minProperties": "min_properties",
    "maxProperties": "max_properties",
}


class StrictStructs(StructSchemaPlugin):
    """Litestar's schema of a msgspec Struct, made to say what msgspec checks: that the
    Struct refuses unknown fields (`additionalProperties: false`), and each field's
    bounds where Litestar's drops them (a `ge=0` taken for no bound, a dict's
    `max_length`). A client reading the schema otherwise sends what is refused."""

    def to_openapi_schema(
        self, field_definition: FieldDefinition, schema_creator: SchemaCreator
    ) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        info = msgspec.inspect.type_info(field_definition.type_)
        if isinstance(info, msgspec.inspect.StructType) and info.forbid_unknown_fields:
            schema.additional_properties = False
        (ref,), components = msgspec.json.schema_components([field_definition.type_])
        own = components[ref["$ref"].rsplit("/", 1)[-1]].get("properties", {})
        for name, prop in (schema.properties or {}).items():
            if isinstance(prop, Reference) or name not in own:
                continue
            for found in _branches(own[name]):
                for key, attr in BOUNDS.items():
                    if key in found and getattr(prop, attr) is None:
                        setattr(prop, attr, found[key])
        return schema


def _branches(prop: dict[str, Any]) -> list[dict[str, Any]]:
    """A property's schema, or the branches of its union (an optional field's value)."""
    return [prop, *prop.get("anyOf", [])]


def options_handlers(handlers: Iterable[Any]) -> list[HTTPRouteHandler]:
    """An OPTIONS handler for each path that more than one HTTP handler serves, naming
    all their methods; to be registered before them, so Litestar makes none of its own."""
    methods: dict[str, set[str]] = {}
    for handler in handlers:
        if isinstance(handler, HTTPRouteHandler):
            for path in handler.paths:
                methods.setdefault(path, set()).update(handler.http_methods)
    return [
        _options(path, sorted({*found, "OPTIONS"}))
        for path, found in methods.items()
        if len(found) > 1
    ]


def _options(path: str, methods: Sequence[str]) -> HTTPRouteHandler:
    allow = ", ".join(methods)

    def options_handler() -> Response[None]:
        return Response(content=None, status_code=HTTP_204_NO_CONTENT, headers={"Allow": allow})

    return HTTPRouteHandler(
        path=path, http_method=["OPTIONS"], include_in_schema=False, sync_to_thread=False
    )(options_handler)


# The answers that name a match (`Created`, `Seated`): a client goes on from them to
# every route of that match, and the document says so (OpenAPI links), so a generated
# client, and Schemathesis's chained requests, can follow a table from its opening.
NAMES_A_MATCH = ("#/components/schemas/Created", "#/components/schemas/Seated")


def link_match_ids(document: OpenAPI) -> None:
    """Link every answer that names a match to every operation on a match."""
    on_match = [
        op
        for path, item in (document.paths or {}).items()
        if "{match_id}" in path
        for op in (item.get, item.post)
        if op is not None and op.operation_id
    ]
    for item in (document.paths or {}).values():
        for op in (item.get, item.post):
            for status, answer in (op.responses or {}).items() if op else ():
                if not status.startswith("2") or not isinstance(answer, OpenAPIResponse):
                    continue
                body = (answer.content or {}).get("application/json")
                ref = getattr(body.schema, "ref", None) if body is not None else None
                if ref not in NAMES_A_MATCH:
                    continue
                answer.links = {
                    str(target.operation_id): Link(
                        operation_id=target.operation_id,
                        parameters={"match_id": "$response.body#/match_id"},
                    )
                    for target in on_match
                }


def show_a_game(document: OpenAPI, name: str) -> None:
    """A body's `game` gets an example (the list of games varies with the deployment,
    `TABLETOP_GAMES`, so the document names one, and `GET /api/games` lists them)."""
    schemas = document.components.schemas if document.components else None
    for found in (schemas or {}).values():
        game = (found.properties or {}).get("game")
        if isinstance(game, Schema) and game.pattern is not None:
            game.examples = [name]
