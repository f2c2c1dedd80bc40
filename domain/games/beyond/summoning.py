"""Spirit Summoning, the advanced mode's once-per-enchanted-spirit powers (seed 002,
"Advanced Mode"): a Lotus token on the centre of the pattern, then its effect."""

from __future__ import annotations

from collections.abc import Iterator

from domain.games.beyond.cards import (
    AZURE_DRAGON_LOOK,
    SPIRIT_NAMES,
    STOCK_SLOTS,
    TURTLE_SNAKE_LOOK,
    CardId,
    Spirit,
)
from domain.games.beyond.commands import (
    ChooseCard,
    Command,
    SummonAzureDragon,
    SummonMetalTiger,
    SummonTurtleSnake,
    SummonVermilionBird,
    SummonYellowUnicorn,
)
from domain.games.beyond.ending import Turn, nian_shou_check
from domain.games.beyond.events import (
    CaptureCardTaken,
    CardsTurnedUp,
    LotusReclaimed,
    NianShouGained,
    SpiritSummoned,
    TurnedUpCardChosen,
)
from domain.games.beyond.phase3 import must_be_advanced, must_be_phase_three
from domain.games.beyond.state import State
from domain.kernel import Rejected, Seat
from domain.table import top_cards


def may_summon(state: State, seat: Seat, spirit: Spirit) -> None:
    """Rule: once per enchanted spirit, for one Lotus token."""
    must_be_advanced(state)
    must_be_phase_three(state)
    area = state.areas[seat]
    name = SPIRIT_NAMES[spirit]
    if spirit not in area.enchanted:
        raise Rejected("not_enchanted", f"You have not enchanted the {name}.")
    if spirit in area.summoned:
        raise Rejected("already_summoned", f"Your {name} already holds a Lotus token.")
    if area.lotus < 1:
        raise Rejected("no_lotus", "You have no Lotus token left to place.")


def turn_up(turn: Turn, seat: Seat, spirit: Spirit, count: int) -> None:
    may_summon(turn.state, seat, spirit)
    if not turn.state.pile:
        raise Rejected("pile_empty", "The draw pile is empty: nothing to turn up.")
    turn.record(SpiritSummoned(seat=seat, spirit=spirit))
    turn.record(CardsTurnedUp(seat=seat, cards=top_cards(turn.state.pile, count)))


def turtle_snake(turn: Turn, seat: Seat) -> None:
    """Rule: choose 1 of the top 4 cards and add it to your play area."""
    turn_up(turn, seat, "turtle_snake", TURTLE_SNAKE_LOOK)


def azure_dragon(turn: Turn, seat: Seat) -> None:
    """Rule: pick 1 of the top 2 cards and add it to your play area."""
    turn_up(turn, seat, "azure_dragon", AZURE_DRAGON_LOOK)


def vermilion_bird(turn: Turn, seat: Seat, card: CardId) -> None:
    """Rule: take a capture card from the discard pile."""
    state = turn.state
    may_summon(state, seat, "vermilion_bird")
    if card not in state.discard:
        raise Rejected("not_in_discard", f"{card} is not in the discard pile.")
    if len(state.areas[seat].stock) >= STOCK_SLOTS:
        raise Rejected("stock_full", "Your Stock already holds 4 capture cards.")
    turn.record(SpiritSummoned(seat=seat, spirit="vermilion_bird"))
    turn.record(CaptureCardTaken(seat=seat, card=card))


def metal_tiger(turn: Turn, seat: Seat) -> None:
    """Rule: take a Nian Shou card, if any are left."""
    may_summon(turn.state, seat, "metal_tiger")
    if not turn.state.nian_supply:
        raise Rejected("no_nian_shou_left", "No Nian Shou card is left in the centre.")
    turn.record(SpiritSummoned(seat=seat, spirit="metal_tiger"))
    turn.record(NianShouGained(seat=seat, card=turn.state.nian_supply[0]))
    nian_shou_check(turn, seat)


def yellow_unicorn(turn: Turn, seat: Seat, pattern: Spirit) -> None:
    """Rule: reclaim a Lotus from another spirit pattern (which may then be summoned again)."""
    may_summon(turn.state, seat, "yellow_unicorn")
    if pattern == "yellow_unicorn" or pattern not in turn.state.areas[seat].summoned:
        raise Rejected(
            "no_lotus_there", f"Your {SPIRIT_NAMES[pattern]} holds no Lotus token to reclaim."
        )
    turn.record(SpiritSummoned(seat=seat, spirit="yellow_unicorn"))
    turn.record(LotusReclaimed(seat=seat, pattern=pattern))


def choose_card(turn: Turn, seat: Seat, card: CardId) -> None:
    """The turned-up card kept goes spirit side up into the play area; the rest are discarded."""
    state = turn.state
    if state.phase != "choose":
        raise Rejected("nothing_turned_up", "No summoning has turned up cards to choose from.")
    if card not in state.turned_up:
        raise Rejected("card_not_turned_up", f"{card} is not among the cards turned up.")
    rest = tuple(c for c in state.turned_up if c != card)
    turn.record(TurnedUpCardChosen(seat=seat, card=card, discarded=rest))


def summonings(state: State, seat: Seat) -> Iterator[Command]:
    area = state.areas[seat]
    if not state.options.advanced or area.lotus < 1:
        return
    ready = [s for s in area.enchanted if s not in area.summoned]
    if "turtle_snake" in ready and state.pile:
        yield SummonTurtleSnake()
    if "vermilion_bird" in ready and len(area.stock) < STOCK_SLOTS:
        for card in sorted(set(state.discard)):
            yield SummonVermilionBird(card=card)
    if "azure_dragon" in ready and state.pile:
        yield SummonAzureDragon()
    if "metal_tiger" in ready and state.nian_supply:
        yield SummonMetalTiger()
    if "yellow_unicorn" in ready:
        for pattern in sorted(area.summoned):
            if pattern != "yellow_unicorn":
                yield SummonYellowUnicorn(pattern=pattern)


def choices(state: State) -> Iterator[ChooseCard]:
    for card in state.turned_up:
        yield ChooseCard(card=card)
