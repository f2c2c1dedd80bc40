"""Phase 3 of a Beyond turn: enchant, capture, compensate, and (advanced) protect.

Rule sentences cite seed 002 ("Gamehelpbeyond", 2025-06-12).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from domain.games.beyond.cards import (
    PATTERN_SIZE,
    SPIRIT_NAMES,
    CardId,
    Spirit,
    spirit_of,
    symbol_of,
)
from domain.games.beyond.commands import Capture, Enchant, Protect
from domain.games.beyond.ending import Turn, nian_shou_check
from domain.games.beyond.events import (
    CardCaptured,
    Compensated,
    SpiritEnchanted,
    SpiritProtected,
)
from domain.games.beyond.state import State
from domain.kernel import Rejected, Seat

COMPENSATION_PER_CARD = 1
"""Rule: the opponent gains 1 token from the supply per card lost."""


def must_be_phase_three(state: State) -> None:
    if state.phase == "choose":
        raise Rejected("choose_a_card", "Choose one of the cards your summoning turned up first.")
    if state.phase != "act":
        raise Rejected(
            "not_phase_three", "Enchanting and capturing come after you reveal and place cards."
        )


# --- enchanting ----------------------------------------------------------------------------


def pattern_cards(state: State, seat: Seat, spirit: Spirit, yin: int) -> list[CardId] | None:
    """The 4 cards an enchantment of `spirit` with `yin` Yin cards uses, unprotected cards
    first, then lowest ids; None when the play area lacks them."""
    area = state.areas[seat]
    mine = sorted(
        (c for c in area.spirits if spirit_of(c) == spirit),
        key=lambda c: (c in area.protected, c),
    )
    yins = [c for c in mine if symbol_of(c) == "yin"][:yin]
    yangs = [c for c in mine if symbol_of(c) == "yang"][: PATTERN_SIZE - yin]
    if len(yins) + len(yangs) != PATTERN_SIZE:
        return None
    return sorted(yins + yangs)


def enchant(turn: Turn, seat: Seat, command: Enchant) -> None:
    """Rule: enchant a spirit by completing a valid 4-card pattern."""
    state = turn.state
    must_be_phase_three(state)
    if command.spirit in state.areas[seat].enchanted:
        name = SPIRIT_NAMES[command.spirit]
        raise Rejected("already_enchanted", f"You have already enchanted the {name}.")
    if not 0 <= command.yin <= PATTERN_SIZE:
        raise Rejected(
            "bad_pattern", f"A pattern holds 4 cards: 0 to 4 of them Yin, not {command.yin}."
        )
    cards = pattern_cards(state, seat, command.spirit, command.yin)
    if cards is None:
        raise Rejected(
            "pattern_incomplete",
            f"Your play area lacks {command.yin} Yin and {PATTERN_SIZE - command.yin} Yang "
            f"{SPIRIT_NAMES[command.spirit]} cards.",
        )
    tokens = sum(1 for c in cards if c in state.areas[seat].protected)
    turn.record(
        SpiritEnchanted(
            seat=seat, spirit=command.spirit, cards=tuple(cards), tokens_to_supply=tokens
        )
    )


def enchantments(state: State, seat: Seat) -> Iterator[Enchant]:
    for spirit in sorted({spirit_of(c) for c in state.areas[seat].spirits}):
        if spirit in state.areas[seat].enchanted:
            continue
        for yin in range(PATTERN_SIZE + 1):
            if pattern_cards(state, seat, spirit, yin) is not None:
                yield Enchant(spirit=spirit, yin=yin)


# --- capturing -----------------------------------------------------------------------------


def owner_of_target(state: State, seat: Seat, card: CardId) -> Seat | None:
    """The opponent with `card` spirit side up (not enchanted) or among their Nian Shou."""
    for other, area in enumerate(state.areas):
        if other != seat and (card in area.spirits or card in area.nian_shou):
            return other
    return None


def needs_yin_and_yang(state: State, victim: Seat, card: CardId) -> bool:
    """Rule: Yin + Yang captures a Nian Shou card, and (advanced) a protected spirit."""
    area = state.areas[victim]
    return card in area.nian_shou or card in area.protected


def fits(state: State, victim: Seat, card: CardId, using: tuple[CardId, ...]) -> bool:
    """Rule: a Yin card captures a Yang-protected spirit, a Yang card a Yin-protected one."""
    if needs_yin_and_yang(state, victim, card):
        return sorted(symbol_of(c) for c in using) == ["yang", "yin"]
    return len(using) == 1 and symbol_of(using[0]) != symbol_of(card)


def capture(turn: Turn, seat: Seat, command: Capture) -> None:
    """Rule: the captured card goes to your play area, the capture cards are discarded, and
    the opponent gains 1 token from the supply per card lost."""
    state = turn.state
    must_be_phase_three(state)
    using = command.using
    if list(using) != sorted(set(using)) or not using:
        raise Rejected("cards_not_sorted", "Name your capture cards once each, ids sorted.")
    for card in using:
        if card not in state.areas[seat].stock:
            raise Rejected("not_on_your_stock", f"{card} is not a capture card on your Stock.")
    victim = owner_of_target(state, seat, command.target)
    if victim is None:
        raise Rejected(
            "no_such_target",
            f"{command.target} is not an opponent's spirit card (outside a pattern) "
            "or Nian Shou card.",
        )
    if not fits(state, victim, command.target, using):
        if needs_yin_and_yang(state, victim, command.target):
            raise Rejected(
                "needs_yin_and_yang",
                f"Taking {command.target} from seat {victim + 1} takes one Yin and one Yang card.",
            )
        raise Rejected(
            "wrong_symbol",
            "One capture card of the other symbol takes a spirit: Yin takes Yang-protected, "
            "Yang takes Yin-protected.",
        )
    back = command.target in state.areas[victim].protected
    turn.record(
        CardCaptured(seat=seat, victim=victim, card=command.target, using=using, token_back=back)
    )
    lotus = min(COMPENSATION_PER_CARD, turn.state.lotus_supply)
    if lotus:
        turn.record(Compensated(seat=victim, lotus=lotus))
    nian_shou_check(turn, seat)


def captures(state: State, seat: Seat) -> Iterator[Capture]:
    stock = sorted(state.areas[seat].stock)
    usings = [(c,) for c in stock] + list(combinations(stock, 2))
    for victim, area in enumerate(state.areas):
        if victim == seat:
            continue
        for card in sorted([*area.spirits, *area.nian_shou]):
            for using in usings:
                if fits(state, victim, card, using):
                    yield Capture(target=card, using=using)


# --- protecting (advanced mode) ------------------------------------------------------------


def must_be_advanced(state: State) -> None:
    if not state.options.advanced:
        raise Rejected("advanced_mode_only", "That belongs to the advanced mode, not played here.")


def protect(turn: Turn, seat: Seat, command: Protect) -> None:
    """Rule (advanced): a token on a spirit's Yin/Yang symbol protects it from capture."""
    state = turn.state
    must_be_advanced(state)
    must_be_phase_three(state)
    area = state.areas[seat]
    if command.card not in area.spirits:
        raise Rejected("not_your_spirit", f"{command.card} is not a spirit card in your play area.")
    if command.card in area.protected:
        raise Rejected("already_protected", f"{command.card} already carries a protection token.")
    if area.lotus < 1:
        raise Rejected("no_lotus", "You have no Lotus token left to place.")
    turn.record(SpiritProtected(seat=seat, card=command.card))


def protections(state: State, seat: Seat) -> Iterator[Protect]:
    area = state.areas[seat]
    if state.options.advanced and area.lotus >= 1:
        for card in sorted(area.spirits):
            if card not in area.protected:
                yield Protect(card=card)
