"""History sentences, as a table commentator would say them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.games.chicken.dice import COLOUR, GOAL, ORDER, Colour, DieId
from domain.games.chicken.events import (
    Busted,
    ChickenedOut,
    ChickensCounted,
    CoopRefilled,
    DicePassed,
    DiceReturned,
    DiceRolled,
    DieHatched,
    EggsUnhatched,
    Event,
    GameWon,
    PlayerConceded,
    Roll,
    StartingPlayerChosen,
)
from domain.kernel import Seat

_ONE_DIE: dict[Colour, str] = {
    "white": "a white die",
    "yellow": "a yellow die",
    "orange": "an orange die",
    "dog": "Blue the Dog",
    "hen": "Mother Hen",
}
_ROLLED_COLOUR: dict[Colour, str] = {
    "white": "white",
    "yellow": "yellow",
    "orange": "orange",
    "dog": "Blue the Dog",
    "hen": "Mother Hen",
}


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case StartingPlayerChosen(seat=seat):
            return f"{who(seat)} will start, with the 4 white dice."
        case CoopRefilled(dice=dice):
            return f"The Coop was refilled from the Seed Bag with {dice_phrase(dice)}."
        case ChickenedOut(seat=seat, points_lost=0):
            return f"{who(seat)} chickened out from the starting space, at no cost."
        case ChickenedOut(seat=seat, points_lost=lost):
            return f"{who(seat)} chickened out and lost {plural(lost, 'point')}."
        case DiceReturned(seat=seat, dice=dice, to=to):
            where = "in the Coop" if to == "coop" else "into the Seed Bag"
            return f"{who(seat)} put {dice_phrase(dice)} back {where}."
        case DiceRolled(seat=seat, rolls=rolls, reroll=reroll):
            verb = "rerolled" if reroll else "rolled"
            return f"{who(seat)} {verb}: {faces_phrase(rolls)}."
        case Busted(seat=seat, foxes=foxes, barks=0):
            return f"{who(seat)} busted with {foxes} foxes and scored nothing this turn."
        case Busted(seat=seat, foxes=foxes):
            return (
                f"{who(seat)} busted with {foxes} foxes, too many for Blue the Dog's bark, "
                "and scored nothing this turn."
            )
        case DieHatched(seat=seat, die=die, source="coop"):
            return f"{who(seat)} hatched {_ONE_DIE[COLOUR[die]]} from the Coop."
        case DieHatched(seat=seat, die=die):
            return f"{who(seat)} hatched {_ONE_DIE[COLOUR[die]]}, drawn from the Seed Bag."
        case EggsUnhatched(seat=seat, eggs=eggs):
            return f"{who(seat)} had no die left to hatch for {plural(eggs, 'egg')}."
        case ChickensCounted(seat=seat, points=points, score=score):
            return f"{who(seat)} counted the chickens: {plural(points, 'point')}, {score} in all."
        case DicePassed(seat=seat, to=to, dice=dice):
            whom = "you" if to == reader else who(to)
            return f"{who(seat)} passed {dice_phrase(dice)} to {whom}."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} left the farm; that seat's turns are skipped from now on."
        case GameWon(seat=seat, reason="goal"):
            return f"{who(seat)} reached {GOAL} points and won the game!"
        case GameWon(seat=seat):
            return f"{who(seat)} won the game: every other farmer has left."
        case _:
            raise TypeError(f"not a Chicken! event: {event!r}")


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def dice_phrase(dice: Iterable[DieId]) -> str:
    """ "4 white dice, a yellow die and Blue the Dog", in table order."""
    counts: dict[Colour, int] = {}
    for die in sorted(dice, key=ORDER.__getitem__):
        counts[COLOUR[die]] = counts.get(COLOUR[die], 0) + 1
    parts = [f"{n} {colour} dice" if n > 1 else _ONE_DIE[colour] for colour, n in counts.items()]
    if not parts:
        return "no dice"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def faces_phrase(rolls: Iterable[Roll]) -> str:
    """ "chicken, chicken, egg, fox (white); double chicken (orange)" """
    groups: list[tuple[Colour, list[str]]] = []
    for r in rolls:
        colour = COLOUR[r.die]
        if not groups or groups[-1][0] != colour:
            groups.append((colour, []))
        groups[-1][1].append(r.face.replace("_", " "))
    return "; ".join(f"{', '.join(faces)} ({_ROLLED_COLOUR[c]})" for c, faces in groups)
