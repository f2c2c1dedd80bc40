from __future__ import annotations

from pathlib import Path

from services.gateway.openapi import document

DOC = Path(__file__).parents[2] / "docs" / "openapi.json"


def test_the_openapi_document_in_docs_is_the_one_the_gateway_generates() -> None:
    assert DOC.read_text() == document(), (
        "docs/openapi.json is stale: python -m services.gateway.openapi > docs/openapi.json"
    )


def test_the_openapi_document_describes_play_and_sign_in() -> None:
    text = document()
    for path in ("/api/matches/{match_id}/commands", "/api/signin", "/api/quickplay", "/healthz"):
        assert f'"{path}"' in text
