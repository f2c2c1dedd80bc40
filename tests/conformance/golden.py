"""Golden transcripts: a few seeded matches per game, stored as JSON files under
tests/golden/<game>/. The test replays their commands and compares the events byte for
byte, so a rules change that alters recorded matches cannot pass silently.

After an intended rules change (and a bumped `rules_version`), write them anew:

    python -m tests.conformance.golden [GAME ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec

from domain.kernel import games
from tests.conformance.kit import Transcript, play_random_match

GOLDEN = Path(__file__).parents[1] / "golden"
SEEDS = (1, 2, 3)


class Line(msgspec.Struct, omit_defaults=True):
    """One line of a golden file: the header, a command as sent, or an event as stored."""

    kind: str
    body: msgspec.Raw = msgspec.Raw(b"null")


class Header(msgspec.Struct):
    game: str
    seats: int
    options: dict[str, object]
    seed: int


def path_for(game: str, seed: int) -> Path:
    return GOLDEN / game / f"seed-{seed}.jsonl"


def write(game: str) -> None:
    for seed in SEEDS:
        transcript = play_random_match(games()[game], seed)
        target = path_for(game, seed)
        target.parent.mkdir(parents=True, exist_ok=True)
        header = Header(transcript.game, transcript.seats, transcript.options, transcript.seed)
        lines = [Line("header", msgspec.Raw(msgspec.json.encode(header)))]
        lines += [Line("command", msgspec.Raw(c)) for c in transcript.commands]
        lines += [Line("event", msgspec.Raw(e)) for e in transcript.events]
        target.write_bytes(b"".join(msgspec.json.encode(line) + b"\n" for line in lines))


def read(path: Path) -> Transcript:
    lines = [msgspec.json.decode(raw, type=Line) for raw in path.read_bytes().splitlines()]
    header = msgspec.json.decode(lines[0].body, type=Header)
    return Transcript(
        game=header.game,
        seats=header.seats,
        options=header.options,
        seed=header.seed,
        commands=[bytes(line.body) for line in lines if line.kind == "command"],
        events=[bytes(line.body) for line in lines if line.kind == "event"],
    )


if __name__ == "__main__":
    import tests.support.countdown  # noqa: F401 - the services' test game

    for name in sys.argv[1:] or sorted(games()):
        write(name)
        print(f"wrote golden transcripts of {name}")
