"""A Beyond turn: reveal and collect, place, then enchant / capture / compensate.

Rule sentences cite seed 002 line 1239 ("Gamehelpbeyond", 2025-06-12) and
rules-batch2.md, "13. Beyond". Phase 3 is in `phase3.py`, the advanced summonings in
`summoning.py`, the end in `ending.py`.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from domain.games.beyond import phase3, summoning
from domain.games.beyond.cards import (
    HAND_SIZE,
    MAX_REVEALED,
    STOCK_SLOTS,
    CardId,
    spirit_of,
)
from domain.games.beyond.commands import (
    Capture,
    ChooseCard,
    Command,
    Enchant,
    EndTurn,
    PlaceCards,
    Protect,
    RevealCard,
    SummonAzureDragon,
    SummonMetalTiger,
    SummonTurtleSnake,
    SummonVermilionBird,
    SummonYellowUnicorn,
    TakeCards,
)
from domain.games.beyond.ending import (
    Turn,
    after_turn,
    begin_turn,
    card_available,
    is_active,
    nian_shou_check,
)
from domain.games.beyond.events import (
    CardRevealed,
    CardsPlaced,
    CardsTaken,
    HandDealt,
    HandToPlace,
    NianShouGained,
    PileRebuilt,
    PileShuffled,
    PlayerConceded,
)
from domain.games.beyond.evolve import evolve
from domain.games.beyond.state import State
from domain.kernel import Outcome, Rejected, Rng, Seat, ranks_from_keys
from domain.table import top_cards

# --- setup ---------------------------------------------------------------------------------


def start(state: State, rng: Rng) -> Turn:
    """Shuffle the spirit cards, deal 4 to each player; each places them as in phase 2."""
    turn = Turn(state, evolve)
    turn.record(PileShuffled(cards=tuple(rng.shuffled(state.pile))))
    for seat in range(state.seats):
        turn.record(HandDealt(seat=seat, cards=top_cards(turn.state.pile, HAND_SIZE)))
    turn.record(HandToPlace(seat=0))
    return turn


def next_to_place(turn: Turn, seat: Seat) -> None:
    """The next seat with a starting hand places it; after the last, seat 1's first turn."""
    state = turn.state
    for other in range(seat + 1, state.seats):
        if is_active(state, other) and state.hands[other]:
            turn.record(HandToPlace(seat=other))
            return
    first = next(s for s in range(state.seats) if is_active(state, s))
    begin_turn(turn, first)


# --- decide --------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "The game of Beyond is over.")
    if state.phase == "setup":
        raise Rejected("not_started", "The cards are not dealt yet; the game has not started.")
    if seat != state.player or not is_active(state, seat):
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn.")
    turn = Turn(state, evolve)
    match command:
        case PlaceCards(capture=capture):
            place_cards(turn, seat, capture)
        case RevealCard():
            reveal_card(turn, seat, rng)
        case TakeCards(extra=extra):
            take_cards(turn, seat, extra)
        case Enchant():
            phase3.enchant(turn, seat, command)
        case Capture():
            phase3.capture(turn, seat, command)
        case Protect():
            phase3.protect(turn, seat, command)
        case SummonTurtleSnake():
            summoning.turtle_snake(turn, seat)
        case SummonVermilionBird(card=card):
            summoning.vermilion_bird(turn, seat, card)
        case SummonAzureDragon():
            summoning.azure_dragon(turn, seat)
        case SummonMetalTiger():
            summoning.metal_tiger(turn, seat)
        case SummonYellowUnicorn(pattern=pattern):
            summoning.yellow_unicorn(turn, seat, pattern)
        case ChooseCard(card=card):
            summoning.choose_card(turn, seat, card)
        case EndTurn():
            end_turn(turn, seat)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a Beyond move.")
    return turn


# --- phase 1: reveal and collect -----------------------------------------------------------


def duplicate_revealed(revealed: list[CardId]) -> bool:
    """A spirit already revealed this turn came up again."""
    return len({spirit_of(c) for c in revealed}) < len(revealed)


def may_reveal(state: State) -> bool:
    """Rule: while all revealed spirits differ, keep going (5 cards at most, while cards last)."""
    return (
        len(state.revealed) < MAX_REVEALED
        and not duplicate_revealed(state.revealed)
        and card_available(state)
    )


def reveal_card(turn: Turn, seat: Seat, rng: Rng) -> None:
    """Rule: reveal cards one by one; the first two the same spirit gain a Nian Shou card."""
    state = turn.state
    if state.phase != "reveal":
        raise Rejected("not_revealing", "Cards are revealed in phase 1 only, before you take them.")
    if duplicate_revealed(state.revealed):
        raise Rejected(
            "duplicate_revealed", "A duplicate was revealed: stop and take the last card."
        )
    if len(state.revealed) >= MAX_REVEALED:
        raise Rejected("five_revealed", "Five cards are revealed: stop and take them all.")
    if not card_available(state):
        raise Rejected("pile_empty", "No card is left to reveal: take what is revealed.")
    if not state.pile:
        turn.record(PileRebuilt(cards=tuple(rng.shuffled(state.discard))))
    turn.record(CardRevealed(seat=seat, card=turn.state.pile[-1]))
    revealed = turn.state.revealed
    if len(revealed) == 2 and duplicate_revealed(revealed) and turn.state.nian_supply:
        turn.record(NianShouGained(seat=seat, card=turn.state.nian_supply[0]))
        nian_shou_check(turn, seat)


def take_cards(turn: Turn, seat: Seat, extra: tuple[CardId, ...]) -> None:
    """Rule: all different, stop and take all; a duplicate, take only the last card, plus
    one extra revealed card per Lotus token paid."""
    state = turn.state
    if state.phase != "reveal" or not state.revealed:
        raise Rejected("nothing_revealed", "Reveal at least one card before taking any.")
    revealed = state.revealed
    if not duplicate_revealed(revealed):
        if extra:
            raise Rejected(
                "no_extras_needed", "All revealed spirits differ: you take them all, no Lotus paid."
            )
        turn.record(CardsTaken(seat=seat, cards=tuple(revealed), lotus_paid=0, discarded=()))
        return
    if list(extra) != sorted(set(extra)):
        raise Rejected("cards_not_sorted", "Name each extra card once, ids sorted.")
    for card in extra:
        if card not in revealed[:-1]:
            raise Rejected("card_not_revealed", f"{card} is not an earlier revealed card.")
    if len(extra) > state.areas[seat].lotus:
        raise Rejected(
            "not_enough_lotus",
            f"{len(extra)} extra cards cost {len(extra)} Lotus tokens; "
            f"you have {state.areas[seat].lotus}.",
        )
    taken = (revealed[-1], *extra)
    rest = tuple(c for c in revealed if c not in taken)
    turn.record(CardsTaken(seat=seat, cards=taken, lotus_paid=len(extra), discarded=rest))


# --- phase 2: place collected cards --------------------------------------------------------


def to_place(state: State, seat: Seat) -> list[CardId]:
    return state.hands[seat] if state.phase == "opening" else state.collected


def place_cards(turn: Turn, seat: Seat, capture: tuple[CardId, ...]) -> None:
    """Rule: each card goes spirit side up into the play area or capture side up on the
    Stock (max 4)."""
    state = turn.state
    if state.phase not in ("opening", "place"):
        raise Rejected("nothing_to_place", "You have no collected cards to place now.")
    cards = to_place(state, seat)
    if list(capture) != sorted(set(capture)):
        raise Rejected("cards_not_sorted", "Name each capture card once, ids sorted.")
    for card in capture:
        if card not in cards:
            raise Rejected("card_not_collected", f"{card} is not among the cards you place.")
    if len(state.areas[seat].stock) + len(capture) > STOCK_SLOTS:
        raise Rejected("stock_full", "Your Stock holds at most 4 capture cards.")
    spirits = tuple(c for c in cards if c not in capture)
    opening = state.phase == "opening"
    turn.record(CardsPlaced(seat=seat, spirit_side=spirits, capture_side=capture))
    if opening:
        next_to_place(turn, seat)


def placements(state: State, seat: Seat) -> Iterator[PlaceCards]:
    cards = sorted(to_place(state, seat))
    room = STOCK_SLOTS - len(state.areas[seat].stock)
    for size in range(min(room, len(cards)) + 1):
        for capture in combinations(cards, size):
            yield PlaceCards(capture=capture)


# --- the end of the turn -------------------------------------------------------------------


def end_turn(turn: Turn, seat: Seat) -> None:
    phase3.must_be_phase_three(turn.state)
    after_turn(turn, seat)


def concede(state: State, seat: Seat, rng: Rng) -> Turn | None:
    """The seat leaves: its cards in play stay, what it holds is discarded; alone, the
    match ends."""
    others = [s for s in range(state.seats) if s != seat and is_active(state, s)]
    if not others or state.phase in ("over", "setup"):
        return None
    turn = Turn(state, evolve)
    opening = state.phase == "opening"
    turn.record(PlayerConceded(seat=seat))
    if seat == state.player:
        if opening:
            next_to_place(turn, seat)
        else:
            after_turn(turn, seat)
    return turn


def outcome(state: State) -> Outcome | None:
    """All 6 Nian Shou win outright; else most energy, tie: fewer face-up spirit cards."""
    if state.phase != "over":
        return None
    scores = tuple(sheet.total for sheet in state.sheets)
    keys = [
        (
            int(state.nian_shou_winner == s),
            int(is_active(state, s)),
            scores[s],
            -state.sheets[s].face_up_spirits,
        )
        for s in range(state.seats)
    ]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal ---------------------------------------------------------------------------------


def legal(state: State, seat: Seat) -> Iterator[Command]:
    if state.phase in ("setup", "over") or seat != state.player or not is_active(state, seat):
        return
    if state.phase in ("opening", "place"):
        yield from placements(state, seat)
    elif state.phase == "reveal":
        if may_reveal(state):
            yield RevealCard()
        if state.revealed and not duplicate_revealed(state.revealed):
            yield TakeCards()
        elif state.revealed:
            earlier = sorted(state.revealed[:-1])
            for size in range(min(len(earlier), state.areas[seat].lotus) + 1):
                for extra in combinations(earlier, size):
                    yield TakeCards(extra=extra)
    elif state.phase == "act":
        yield EndTurn()
        yield from phase3.enchantments(state, seat)
        yield from phase3.captures(state, seat)
        yield from phase3.protections(state, seat)
        yield from summoning.summonings(state, seat)
    elif state.phase == "choose":
        yield from summoning.choices(state)


def to_act(state: State) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})
