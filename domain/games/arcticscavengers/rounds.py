"""Setup, the drawing phase that opens every round, and the end of the game.

Rule (seed 000, Setup): each tribe starts with 4 refugees, 3 scavengers, a brawler, a
spear and a shovel. Rule (Drawing phase): last round's cards are discarded, each player
draws 5 (shuffling the discard pile into a new deck when the deck runs out), and from
round 3 the initiator peeks at the top contested resource. The initiator card stays
with the first player for rounds 1-3, then passes left each round. The game ends when
the contested resources run out; the largest tribe (most people) wins.
"""

from __future__ import annotations

from domain.games.arcticscavengers.cards import (
    CONTESTED,
    FIRST_SKIRMISH_ROUND,
    HAND_SIZE,
    JUNKYARD,
    MERCENARIES,
    STARTING_DECK,
    card_id,
    is_contested,
    people,
)
from domain.games.arcticscavengers.events import (
    CardsDrawn,
    ContestedResourcePeeked,
    DeckShuffled,
    GameEnded,
    RoundStarted,
    TableSetUp,
)
from domain.games.arcticscavengers.evolve import Decision, decision
from domain.games.arcticscavengers.state import State, Tribe
from domain.kernel import Outcome, Rng, ranks_from_keys
from domain.table import next_seat

INITIATOR_STAYS_UNTIL_ROUND = 3
TWO_PLAYER_REMOVALS = 2


def set_up(state: State, rng: Rng) -> Decision:
    """Deal the starting decks from the stocks, shuffle everything, choose the initiator."""
    n = state.seats
    taken = {kind: per_seat * n for kind, per_seat in STARTING_DECK.items()}
    decks = []
    for seat in range(n):
        deck = [
            card_id(kind, per_seat * seat + i + 1)
            for kind, per_seat in STARTING_DECK.items()
            for i in range(per_seat)
        ]
        decks.append(rng.shuffled(deck))
    piles = {
        kind: [card_id(kind, i + 1) for i in range(taken.get(kind, 0), count)]
        for kind, count in MERCENARIES.items()
    }
    junkyard = []
    for kind, count in JUNKYARD.items():
        stock = [card_id(kind, i + 1) for i in range(taken.get(kind, 0), count)]
        if state.two_player_rules():
            stock = stock[: len(stock) - TWO_PLAYER_REMOVALS]
        junkyard += stock
    contested = [card_id(kind, i + 1) for kind, count in CONTESTED.items() for i in range(count)]
    junkyard = rng.shuffled(junkyard)
    contested = rng.shuffled(contested)
    setup = TableSetUp(
        initiator=rng.below(n),
        deck_sizes=[len(d) for d in decks],
        junkyard_size=len(junkyard),
        contested_size=len(contested),
        mercenaries=piles,
        decks=decks,
        junkyard=junkyard,
        contested=contested,
    )
    turn = decision(state)
    turn.record(setup)
    new_round(turn, rng)
    return turn


def new_round(turn: Decision, rng: Rng) -> None:
    """Discard everything, pass the initiator card if it is time, draw 5 each, peek."""
    state = turn.state
    number = state.round + 1
    initiator = state.initiator
    if number > INITIATOR_STAYS_UNTIL_ROUND or state.tribes[initiator].withdrawn:
        initiator = next_active_left(state, state.initiator)
    turn.record(RoundStarted(round=number, initiator=initiator))
    for seat in turn.state.active():
        draw(turn, seat, HAND_SIZE, rng)
    state = turn.state
    if number >= FIRST_SKIRMISH_ROUND and not state.two_player_rules() and state.contested:
        turn.record(ContestedResourcePeeked(seat=initiator, card=state.contested[0]))


def next_active_left(state: State, seat: int) -> int:
    return next_seat(seat, state.seats, lambda s: not state.tribes[s].withdrawn)


def draw(turn: Decision, seat: int, count: int, rng: Rng) -> None:
    """Draw `count` cards, shuffling the discard pile into the deck when it runs out."""
    tribe = turn.state.tribes[seat]
    first = min(count, len(tribe.deck))
    if first:
        turn.record(CardsDrawn(seat=seat, count=first, cards=tribe.deck[:first]))
    if first < count and tribe.discard:
        order = rng.shuffled(tribe.discard)
        turn.record(DeckShuffled(seat=seat, size=len(order), order=order))
        more = min(count - first, len(order))
        turn.record(CardsDrawn(seat=seat, count=more, cards=order[:more]))


def owned(tribe: Tribe) -> list[str]:
    return [*tribe.deck, *tribe.hand, *tribe.discard, *tribe.force, *tribe.played]


def tribe_size(tribe: Tribe) -> int:
    return sum(people(card) for card in owned(tribe))


def game_over(turn: Decision) -> None:
    """The contested resources are gone: every tribe is counted."""
    turn.record(GameEnded(tribes=[tribe_size(t) for t in turn.state.tribes]))


def outcome(state: State) -> Outcome | None:
    """Largest tribe first; a withdrawn tribe ranks after those that stayed."""
    if state.phase != "over" or state.final is None:
        return None
    keys = []
    for seat, size in enumerate(state.final):
        tribe = state.tribes[seat]
        tiebreak = 0
        if state.options.final_tie_break == "contested_resources":
            tiebreak = sum(1 for card in owned(tribe) if is_contested(card))
        keys.append((0 if tribe.withdrawn else 1, size, tiebreak))
    return Outcome(scores=tuple(state.final), ranks=ranks_from_keys(keys))
