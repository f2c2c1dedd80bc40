"""The gateway's OpenAPI document, as `docs/openapi.json` holds it
(`python -m services.gateway.openapi > docs/openapi.json` writes it again)."""

from __future__ import annotations

import json

from services.gateway.app import create_app


def document() -> str:
    schema = create_app(None).openapi_schema.to_schema()
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(document(), end="")
