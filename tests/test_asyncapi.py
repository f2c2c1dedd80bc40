"""The committed AsyncAPI document is the one the code generates."""

from pathlib import Path

from services.contracts.asyncapi import render


def test_docs_asyncapi_yaml_is_not_stale() -> None:
    committed = (Path(__file__).parents[1] / "docs" / "asyncapi.yaml").read_text()
    assert committed == render(), "run: python -m services.contracts.asyncapi > docs/asyncapi.yaml"


def test_every_stream_is_described() -> None:
    text = render()
    for address in ("tt:{p}:commands", "tt:{p}:log", "tt:{p}:public", "{reply_to}"):
        assert f'"address": "{address}"' in text
    for schema in ("CommandMessage", "Reply", "PublicEvent", "LogEntry"):
        assert f'"{schema}":' in text
