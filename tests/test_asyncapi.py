"""The committed AsyncAPI document is the one the code generates, the official AsyncAPI
parser finds no error in it, and it says what a client needs: every game's moves and
events, every rejection code, and rules that agree with the code."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import typing
import zlib
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain import match as m
from events.keys import REPLY_PREFIX, partition_of
from services.commands.intake import ID
from services.contracts.asyncapi import VIEW_KEYS, all_games, build, render, to_yaml

ROOT = Path(__file__).parents[1]
DOC = ROOT / "docs" / "asyncapi.yaml"
VALIDATOR = ROOT / "tools" / "asyncapi"


@cache
def document() -> dict[str, Any]:
    """What the committed file holds (the first test holds the file to it)."""
    return build()


def schemas() -> dict[str, Any]:
    found: dict[str, Any] = document()["components"]["schemas"]
    return found


def validate(path: Path, samples: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The official parser on a document (tools/asyncapi/validate.js); see .ci/run."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (.ci/run installs it)")
    if not (VALIDATOR / "node_modules" / "@asyncapi" / "parser").is_dir():
        pytest.fail("the AsyncAPI validator is not installed: run npm ci --prefix tools/asyncapi")
    args = [node, str(VALIDATOR / "validate.js"), str(path)]
    return subprocess.run(
        [*args, *([str(samples)] if samples else [])],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_docs_asyncapi_yaml_is_not_stale() -> None:
    committed = DOC.read_text()
    assert committed == render(), "run: python -m services.contracts.asyncapi > docs/asyncapi.yaml"


def _tiny(payload: dict[str, Any], example: dict[str, Any]) -> dict[str, Any]:
    """A one-message AsyncAPI document."""
    return {
        "asyncapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "channels": {"c": {"address": "c", "messages": {"M": {"$ref": "#/components/messages/M"}}}},
        "components": {"messages": {"M": {"payload": payload, "examples": [{"payload": example}]}}},
    }


def test_the_validator_refuses_an_openapi_discriminator(tmp_path: Path) -> None:
    # The error docs/asyncapi.yaml once had: msgspec writes OpenAPI's discriminator.
    union = {"anyOf": [{"type": "object"}], "discriminator": {"propertyName": "type"}}
    path = tmp_path / "openapi.yaml"
    path.write_text(to_yaml(_tiny({"type": "object", "properties": {"c": union}}, {})))
    done = validate(path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert '"discriminator" property type must be string' in done.stdout


def test_the_validator_refuses_an_example_its_schema_refuses(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"status": {"enum": ["accepted"]}}}
    path = tmp_path / "example.yaml"
    path.write_text(to_yaml(_tiny(schema, {"status": "maybe"})))
    done = validate(path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "error payload example M[0]: /status must be equal to one of the allowed values" in (
        done.stdout
    )


def test_every_stream_is_described() -> None:
    channels = {c["address"] for c in document()["channels"].values()}
    assert channels == {
        "tt:{p}:commands",
        "{reply_to}",
        "tt:{p}:log",
        "tt:{p}:match:{match_id}",
        "tt:{p}:public",
        "tt:{p}:notices",
        "tt:{p}:notices:dead",
        "tt:{p}:dead",
    }
    for schema in ("CommandMessage", "Reply", "PublicEvent", "Notice", "LogEntry", "MatchEntry"):
        assert schema in schemas()


def _tags(union: Any) -> set[str]:
    return {str(t.__struct_config__.tag) for t in typing.get_args(union) or (union,)}


def _documented_tags(name: str) -> set[str]:
    found = set()
    for ref in schemas()[name]["anyOf"]:
        member = schemas()[ref["$ref"].rsplit("/", 1)[1]]
        (tag,) = member["properties"]["type"]["enum"]
        found.add(tag)
    return found


def test_every_move_and_event_of_every_game_has_its_schema() -> None:
    games = all_games()
    assert len(games) >= 15
    play = schemas()["PlayMove"]["properties"]["move"]["anyOf"]
    assert {r["$ref"] for r in play} == {f"#/components/schemas/{g.name}.moves" for g in games}
    for game in games:
        assert _documented_tags(f"{game.name}.moves") == _tags(game.command_type), game.name
        assert _documented_tags(f"{game.name}.events") == _tags(game.event_type), game.name
        assert f"{game.name}.options" in schemas() and f"{game.name}.view" in schemas()
    assert _documented_tags("MatchEvent") == _tags(m.MatchEvent)


def test_a_chicken_move_is_documented_with_its_exact_json() -> None:
    go = schemas()["chicken.GoForIt"]
    assert go["properties"]["type"] == {"enum": ["chicken.go_for_it"]}
    assert go["required"] == ["type"]
    text = DOC.read_text()
    assert '\\"move\\":{\\"type\\":\\"chicken.go_for_it\\"}' in text


def _documented_codes() -> set[str]:
    codes: set[str] = set()
    for ref in schemas()["RejectionCode"]["anyOf"]:
        group = schemas()[ref["$ref"].rsplit("/", 1)[1]]
        for one in group["oneOf"]:
            assert one["description"], one
            codes.add(one["const"])
    return codes


# An independent, cruder reading of the source than the generator's: every string
# literal handed to Rejected(...) or Refusal(...), or returned as a (code, message) pair,
# or given as code="..." in the command service.
CALL = re.compile(r"\b(?:Rejected|Refusal)\(\s*\"([a-z][a-z0-9_]*)\"")
PAIR = re.compile(r"return\s*\(?\s*\"([a-z]+_[a-z0-9_]+)\",\s*f?\"")
KEYWORD = re.compile(r"\bcode=\"([a-z][a-z0-9_]*)\"")
REJECTION = re.compile(r"_rejection\([^)]*?\"([a-z]+_[a-z0-9_]+)\"", re.S)


def test_every_rejection_code_in_the_source_is_documented_with_its_meaning() -> None:
    in_source: set[str] = set()
    for path in (ROOT / "domain").rglob("*.py"):
        text = path.read_text()
        in_source |= set(CALL.findall(text)) | set(PAIR.findall(text))
    for path in (ROOT / "services").rglob("*.py"):
        text = path.read_text()
        in_source |= set(KEYWORD.findall(text)) | set(REJECTION.findall(text))
        in_source |= set(CALL.findall(text))
    assert len(in_source) > 150
    missing = in_source - _documented_codes()
    assert not missing, f"codes the document does not explain: {sorted(missing)}"


def test_a_games_rejection_codes_carry_its_readmes_meaning() -> None:
    chicken = {c["const"]: c["description"] for c in schemas()["chicken.rejections"]["oneOf"]}
    assert chicken["roll_first"] == "Reroll / Count before going for it or chickening out"
    lifecycle = {c["const"]: c["description"] for c in schemas()["MatchRejections"]["oneOf"]}
    assert "It is not {player}'s turn." in lifecycle["not_your_turn"]


def test_the_stated_partition_function_is_the_one_the_code_uses() -> None:
    text = document()["info"]["description"]
    stated = re.findall(r"`([\w.:-]+)` -> (\d+)", text)
    assert len(stated) == 3
    for match_id, p in stated:
        assert partition_of(match_id, 16) == int(p) == zlib.crc32(match_id.encode()) % 16


def test_the_stated_id_and_reply_rules_are_the_ones_the_service_applies() -> None:
    props = schemas()["CommandMessage"]["properties"]
    assert props["match_id"]["pattern"] == f"^{ID.pattern}$"
    assert props["reply_to"]["pattern"] == f"^{REPLY_PREFIX}"
    assert props["command_id"]["pattern"] == f"^{ID.pattern}$"


def test_the_documented_match_view_has_the_keys_a_view_has() -> None:
    state = m.fold(
        [
            m.MatchCreated(game="chicken", seats=2, options={}),
            m.PlayerJoined(player="ann", seat=0),
        ]
    )
    assert tuple(m.view(state, None)) == VIEW_KEYS
    assert set(schemas()["MatchView"]["properties"]) == set(VIEW_KEYS)


def _random_match_events(game: Any, moves: int = 200) -> list[Any]:
    """Every event of one random legal match (fixed seed), whole and as a spectator sees
    it, as JSON."""
    seats = max(2, game.min_players)
    events: list[Any] = [
        m.MatchCreated(game=game.name, seats=seats, options={}),
        *(m.PlayerJoined(player=f"p{i}", seat=i) for i in range(seats)),
    ]
    state = m.fold(events)
    decided = m.decide_and_fold(state, m.StartMatch(player="p0", seed=3))
    events += decided.events
    state = decided.after
    choose = random.Random(3)
    for _ in range(moves):
        if state.status != "playing":
            break
        seat = min(game.to_act(state.game_state))
        move = choose.choice(list(game.legal(state.game_state, seat)))
        play = m.PlayMove(player=f"p{seat}", move=msgspec.Raw(msgspec.json.encode(move)))
        decided = m.decide_and_fold(state, play)
        events += decided.events
        state = decided.after
    shown = [m.redact(game.name, e, None) for e in events]
    return [msgspec.to_builtins(e) for e in events + [s for s in shown if s is not None]]


def test_the_official_parser_finds_no_error_and_random_play_fits_the_schemas(
    tmp_path: Path,
) -> None:
    # One run of the parser (it takes seconds): the document, its examples (every message
    # and every move has one), and every event of a random match of every game.
    samples = []
    for game in all_games():
        events = _random_match_events(game)
        reply = {"command_id": "c", "match_id": "m", "status": "accepted", "events": events}
        samples.append({"message": "Reply", "payload": reply})
    path = tmp_path / "events.json"
    path.write_text(json.dumps(samples))
    done = validate(DOC, path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 error(s)" in done.stdout and "0 invalid" in done.stdout
    checked = re.search(r"(\d+) payload\(s\) checked", done.stdout)
    components = document()["components"]
    examples = sum(
        len(c.get("examples", []))
        for c in [*components["messages"].values(), *components["schemas"].values()]
    )
    assert examples > 80  # every message and every move of every game
    assert checked and int(checked.group(1)) == examples + len(samples), done.stdout
