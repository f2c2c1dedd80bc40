"""Choosing players: who a card may choose, and the Countess, Princess and Sycophant limits.

`target_sets` lists every allowed choice of one card, so `legal` and `decide` read the
same rule; `check_choice` says in a referee's words why another choice is refused.
"""

from __future__ import annotations

from itertools import combinations

from domain.games.loveletter.cards import CARDS, ROYALS, CardId, CardName, guessable_values, name_of
from domain.games.loveletter.commands import PlayCard
from domain.games.loveletter.state import State
from domain.kernel import Rejected, Seat

Targets = tuple[Seat, ...]


def must_play_countess(hand: list[CardId]) -> bool:
    """Rule (seed 001, Countess): with the King or a Prince in hand, the Countess is played."""
    names = {name_of(c) for c in hand}
    return "countess" in names and bool(names & ROYALS)


def playable(hand: list[CardId]) -> list[CardName]:
    """The card names you may play: never the Princess (seed 001, Tips), and the
    Countess alone when she is forced."""
    if must_play_countess(hand):
        return ["countess"]
    names = sorted({name_of(c) for c in hand})
    return [n for n in names if n != "princess"]


def choosable(state: State, seat: Seat, card: CardName) -> list[Seat]:
    """Players this card may choose: still in the round and not protected by the
    Handmaid; yourself only for the Prince, the Sycophant and the Cardinal."""
    chooses = CARDS[card].chooses
    if chooses == "nobody":
        return []
    self_ok = chooses in ("anyone", "two_players")
    return [
        p
        for p in range(state.seats)
        if not state.out[p] and (p == seat and self_ok or p != seat and not state.protected[p])
    ]


def target_sets(state: State, seat: Seat, card: CardName) -> list[Targets]:
    """Every allowed choice of players for this card; `()` alone when it chooses nobody
    or nobody can be chosen (then it is played with no effect)."""
    chooses = CARDS[card].chooses
    pool = choosable(state, seat, card)
    if chooses in ("another", "anyone"):
        sets: list[Targets] = [(p,) for p in pool]
    elif chooses == "one_or_two_others":
        sets = [(p,) for p in pool] + list(combinations(pool, 2))
    elif chooses == "two_players":
        sets = list(combinations(pool, 2))
    else:
        sets = []
    marked = state.marked
    if marked is not None and marked in pool:
        sets = [t for t in sets if marked in t]
    return sets or [()]


def check_choice(state: State, seat: Seat, command: PlayCard) -> None:
    """Refuse a choice of players, value or look that the card does not allow."""
    card = CARDS[command.card]
    targets = command.targets
    allowed = target_sets(state, seat, command.card)
    pool = choosable(state, seat, command.card)
    if card.chooses == "nobody" and targets:
        raise Rejected("chooses_nobody", f"The {card.title} does not choose any player.")
    for t in targets:
        if not 0 <= t < state.seats or state.out[t]:
            raise Rejected(
                "target_not_in_round", f"Seat {t + 1} is not a player still in the round."
            )
        if t == seat and t not in pool:
            raise Rejected(
                "cannot_choose_yourself", f"The {card.title} must choose another player."
            )
        if t not in pool:
            raise Rejected(
                "target_protected",
                f"Seat {t + 1} is protected by the Handmaid until the start of their next turn.",
            )
    if list(targets) != sorted(set(targets)):
        raise Rejected("targets_not_in_order", "Name each chosen player once, in seat order.")
    if targets not in allowed:
        _explain_wrong_targets(state, card.title, targets, allowed)
    _check_guess(state, card.title, card.names_a_value and bool(targets), command.guess)
    if card.looks and targets:
        if command.look_at not in looks(seat, targets):
            raise Rejected(
                "look_at_needed",
                "The Cardinal looks at the hand of one of the two players, not your own.",
            )
    elif command.look_at is not None:
        raise Rejected("look_not_allowed", f"The {card.title} does not look at a hand here.")


def looks(seat: Seat, targets: Targets) -> list[Seat]:
    """Whose hand the Cardinal may look at: one of the two players, never your own."""
    return [t for t in targets if t != seat]


def _explain_wrong_targets(
    state: State, title: str, targets: Targets, allowed: list[Targets]
) -> None:
    if allowed == [()]:
        raise Rejected(
            "no_one_to_choose",
            f"The {title} chooses nobody here: play it with no targets (no effect).",
        )
    sizes = sorted({len(t) for t in allowed})
    if len(targets) not in sizes:
        wanted = " or ".join(str(n) for n in sizes)
        raise Rejected(
            "wrong_number_of_targets", f"The {title} must choose {wanted} player(s) here."
        )
    marked = "the marked player" if state.marked is None else f"seat {state.marked + 1}"
    raise Rejected(
        "sycophant_choice",
        f"The Sycophant demands that this card chooses {marked}.",
    )


def _check_guess(state: State, title: str, needed: bool, guess: int | None) -> None:
    if not needed:
        if guess is not None:
            raise Rejected("guess_not_allowed", f"The {title} names no value here.")
        return
    if guess is None:
        raise Rejected("guess_needed", f"The {title} must name a value.")
    if guess == 1:
        raise Rejected("cannot_name_guard", "You may not name the Guard's value, 1.")
    if guess not in guessable_values(state.premium):
        raise Rejected("no_such_value", f"No card of this deck has the value {guess}.")
