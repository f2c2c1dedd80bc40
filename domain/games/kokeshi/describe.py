"""Kokeshi events as one sentence for a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.kokeshi.events import (
    AnimalAdvanced,
    AnimalChosen,
    ChoiceAwaited,
    Event,
    GameEnded,
    HalfChosen,
    KokeshiChosen,
    KokeshiMoved,
    KokeshiToppedOut,
    KokeshiWentHome,
    NoTileLeft,
    PlayerConceded,
    StartingTilesDrawn,
    TileGained,
    TileIgnored,
    TilePlaced,
    TileTriggered,
    TurnBegan,
)
from domain.games.kokeshi.tiles import TILES
from domain.kernel import Seat

CHOICES = {
    "choose_half": "which half of a slashed tile to use",
    "choose_doll": "which doll to move",
    "choose_animal": "which animal to move",
}


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    def whose(seat: Seat) -> str:
        return "your" if seat == reader else f"{who(seat)}'s"

    match event:
        case StartingTilesDrawn(seat=seat, tiles=tiles):
            drawn = " and ".join(_tile(t) for t in tiles)
            return f"{who(seat)} drew {drawn} as starting tiles."
        case TurnBegan(seat=seat, round=number):
            return f"Round {number}: {who(seat)} took the turn."
        case KokeshiMoved(seat=seat, doll=doll, track=track, row=row):
            where = "home" if row == 0 else f"row {row}"
            return f"{whose(seat).capitalize()} {doll.title()} moved to track {track + 1}, {where}."
        case KokeshiToppedOut(seat=seat, doll=doll, happiness=happiness):
            return (
                f"{whose(seat).capitalize()} {doll.title()} reached the top: {happiness} "
                "happiness, and back home."
            )
        case KokeshiWentHome(seat=seat, doll=doll):
            return f"{whose(seat).capitalize()} {doll.title()} found an empty space and went home."
        case TileGained(seat=seat, tile=tile, track=track):
            return f"{who(seat)} gained {_tile(tile)} for track {track + 1}."
        case NoTileLeft(seat=seat, track=track):
            return f"No tile was left for {whose(seat)} track {track + 1}."
        case TileTriggered(seat=seat, tile=tile, doll=doll):
            return f"{whose(seat).capitalize()} {doll.title()} landed on {_tile(tile)}."
        case ChoiceAwaited(seat=seat, agenda=agenda):
            what = CHOICES.get(agenda[-1].kind, "what comes next") if agenda else "what comes next"
            return f"{who(seat)} must choose {what}."
        case HalfChosen(seat=seat, effect=effect):
            return f"{who(seat)} chose the {_effect(effect)} half."
        case KokeshiChosen(seat=seat, doll=doll, effect=effect, direction=direction):
            how = "to leap 2 spaces" if effect == "leap" else f"to step {direction}"
            return f"{who(seat)} chose {doll.title()} {how}."
        case AnimalChosen(seat=seat, animal=animal):
            return f"{who(seat)} chose the {animal}."
        case AnimalAdvanced(seat=seat, animal=animal, step=step):
            return f"{whose(seat).capitalize()} {animal} marker reached step {step}."
        case TilePlaced(seat=seat, tile=tile, track=track, row=row):
            return f"{who(seat)} placed {_tile(tile)} on track {track + 1}, row {row}."
        case TileIgnored(seat=seat, tile=tile, track=track):
            return (
                f"Track {track + 1} of {whose(seat)} workshop is full: {_tile(tile)} is set aside."
            )
        case PlayerConceded(seat=seat):
            return f"{who(seat)} closed the workshop and left the game."
        case GameEnded(sheets=sheets):
            table = ", ".join(f"{who(s)} {sheet.total}" for s, sheet in enumerate(sheets))
            return f"The last round is over. Final scores: {table}."
        case _:
            raise TypeError(f"not a Kokeshi event: {event!r}")


def _effect(effect: str) -> str:
    kind, _, name = effect.partition(":")
    return {
        "up": f"move {name.title()} up",
        "shift": "step a doll sideways",
        "leap": "leap a doll 2",
        "animal": f"move the {name} animal" if name != "any" else "move any animal",
        "tile": f"gain a tile ({name})",
        "rest": "rest",
    }.get(kind, effect)


def _tile(tile: str) -> str:
    found = TILES.get(tile)
    if found is None:
        return "a tile"
    kind = "Quality tile" if found.quality else "tile"
    return f"a {found.colour} {kind} ({' / '.join(_effect(h) for h in found.halves)})"


def _face(tile: str) -> str:
    found = TILES[tile]
    kind = f"{found.colour} Quality" if found.quality else found.colour
    # A recognition tile's face is its points alone: "rest" is our word, not the print.
    effects = " / ".join(_effect(h) for h in found.halves if h != "rest")
    points = f"{found.points} pt{'s' if found.points != 1 else ''}" if found.points else ""
    return f"{kind}: {', '.join(part for part in (effects, points) if part)}"


def components() -> dict[str, str]:
    """What the table calls each of the 68 tiles: its colour, effect and printed points."""
    return {tile: _face(tile) for tile in TILES}
