"""Gatsby events as one sentence for a reader (redacted forms included)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.gatsby.events import (
    ActionChosen,
    ActionRestricted,
    AscensionAdvanced,
    BonusGained,
    BonusLost,
    CabaretInfluencePlaced,
    CabaretLaid,
    CharacterRallied,
    CharacterRevealed,
    CharactersLaid,
    CharactersSwapped,
    Event,
    FirstPlayerChosen,
    FirstTokenAwaited,
    GameEnded,
    InfluenceSwapped,
    RaceFinished,
    RaceInfluencePlaced,
    SpecialDone,
    SpecialKept,
    SpecialsDrawn,
    SpecialsShuffled,
    SpecialTaken,
    SpecialUsed,
    StepSkipped,
    TurnBegan,
)
from domain.games.gatsby.tiles import CABARET_TILES, CHARACTERS, SPECIAL_NAMES, SPECIAL_TILES
from domain.kernel import Seat

REASONS = {
    "three_of_a_suit": "three characters of one suit",
    "five_suits": "one character of each of the five suits",
    "last_character": "the last character was rallied",
    "location_emptied": "a location's last character was rallied",
    "stalled": "no character left can be rallied",
}


def character(tile: str) -> str:
    suit, stars = CHARACTERS[tile]
    return f"a {stars}-star {suit}"


def special(tile: str) -> str:
    return f'"{SPECIAL_NAMES[SPECIAL_TILES[tile]]}"'


def words(name: str) -> str:
    return name.replace("_", " ")


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case CabaretLaid():
            return "The Cabaret tiles were laid face up."
        case CharactersLaid():
            return "The characters were shuffled face down onto the board."
        case CharacterRevealed(space=space, character=c):
            return f"On {space}, {character(c)} was revealed."
        case CharactersSwapped(seat=seat, spaces=(a, b)):
            by = "At setup the" if seat is None else f"{who(seat)} swapped the"
            return f"{by} characters on {a} and {b} changed places."
        case SpecialsShuffled():
            return "The Special Action tiles were shuffled face down."
        case FirstPlayerChosen(seat=seat):
            return f"The Action token chose {who(seat)} to start."
        case SpecialsDrawn(seat=seat, count=count, tiles=tiles):
            shown = f": {', '.join(special(t) for t in tiles)}" if tiles else ""
            return f"{who(seat)} drew {count} Special Action tile(s){shown}."
        case SpecialKept(seat=seat, tile=tile):
            return f"{who(seat)} kept {special(tile)}."
        case SpecialTaken(seat=seat, tile=tile):
            return f"{who(seat)} took the special tile {special(tile)}."
        case FirstTokenAwaited(seat=seat):
            return f"{who(seat)} places a first Influence token in the Cabaret."
        case TurnBegan(seat=seat):
            return f"{who(seat)} began a turn."
        case ActionChosen(seat=seat, space=space):
            return f"{who(seat)} moved the Action token to {words(space)}."
        case SpecialUsed(seat=seat, tile=tile):
            return f"{who(seat)} played {special(tile)}."
        case SpecialDone(seat=seat):
            return f"{who(seat)} finished the special action."
        case StepSkipped(seat=seat, step=step):
            return f"{who(seat)} could not do the {step} step."
        case CabaretInfluencePlaced(seat=seat, row=row, col=col):
            return f"{who(seat)} placed Influence in the Cabaret, row {row + 1}, column {col + 1}."
        case RaceInfluencePlaced(seat=seat, line=line):
            return f"{who(seat)} placed Influence on race line {line + 1}."
        case AscensionAdvanced(seat=seat, height=height):
            return f"{who(seat)} rose to space {height} of the Finance track."
        case BonusGained(seat=seat, bonus=bonus):
            return f"{who(seat)} gained a {words(bonus)} bonus."
        case BonusLost(seat=seat, bonus=bonus):
            return f"{who(seat)} let the {words(bonus)} bonus go."
        case InfluenceSwapped(seat=seat, mine=mine, theirs=theirs):
            return f"{who(seat)} swapped Influence tokens on {mine} and {theirs}."
        case ActionRestricted(seat=seat, opponent=opponent, space=space):
            return f"{who(seat)} closed {words(space)} to {who(opponent)} for the next turn."
        case RaceFinished(line=line, winner=winner):
            return f"Race line {line + 1} is full: {who(winner)} has the majority."
        case CharacterRallied(seat=seat, space=space, character=c):
            return f"{who(seat)} rallied {character(c)} from {space}."
        case GameEnded(reason=reason, winner=winner, sheets=sheets):
            if winner is not None:
                return f"{who(winner)} won at once with {REASONS[reason]}."
            table = ", ".join(f"{who(s)} {sheet.total}" for s, sheet in enumerate(sheets))
            return f"The game is over ({REASONS[reason]}). Prestige: {table}."
        case _:
            raise TypeError(f"not a Gatsby event: {event!r}")


def components() -> dict[str, str]:
    """What the table calls each tile: a character by its stars and suit, a Cabaret tile
    by its letter, a Special Action tile by the action printed on it."""
    characters = {tile: character(tile).removeprefix("a ") for tile in CHARACTERS}
    # A Cabaret tile's face is a pattern of circles, too long for a chip: its letter stands in.
    cabaret = {tile: f"Cabaret tile {tile[-1].upper()}" for tile in CABARET_TILES}
    specials = {tile: SPECIAL_NAMES[kind] for tile, kind in SPECIAL_TILES.items()}
    return {**characters, **cabaret, **specials}
