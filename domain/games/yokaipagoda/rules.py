"""A Yokai Pagoda turn: offer one card, then its effect (give, take, or maybe end the round).

Sources: rules-batch2.md, "Yokai Pagoda" (publisher text and the boardseyeview review).
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from domain.games.yokaipagoda.cards import (
    CARDS,
    END_LIMIT,
    HAND_SIZE,
    KIND_OF,
    OTHER_PILE,
    PILES,
    ROUNDS,
    VALUE_OF,
    CardId,
    Kind,
    Pile,
)
from domain.games.yokaipagoda.commands import (
    CarryOn,
    Command,
    DealRound,
    EndRound,
    GiveCard,
    GiveNothing,
    PlayCard,
    TakeCard,
)
from domain.games.yokaipagoda.events import (
    CardGiven,
    CardPlayed,
    CardTaken,
    Effect,
    Event,
    GameEnded,
    HandDealt,
    PlayerConceded,
    RoundEnded,
    RoundStarted,
    TurnBegan,
)
from domain.games.yokaipagoda.state import Phase, Table, YokaiPagodaOptions
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import next_seat

Turn = Recorder[Table, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- reading the table -----------------------------------------------------------------------


def offering_value(cards: list[CardId] | tuple[CardId, ...]) -> int:
    """Rule: only the lowest card of each Yokai counts, for a hand or failed offerings."""
    lowest: dict[Kind, int] = {}
    for card in cards:
        kind, value = KIND_OF[card], VALUE_OF[card]
        lowest[kind] = min(lowest.get(kind, value), value)
    return sum(lowest.values())


def effect_of(card: CardId, pile: list[CardId]) -> Effect:
    """Same Yokai or same number: match; otherwise higher or lower than the pile's top.
    ASSUMPTION: on an emptied pile there is no top to compare with, so no effect."""
    if not pile:
        return "none"
    top = pile[-1]
    if KIND_OF[card] == KIND_OF[top] or VALUE_OF[card] == VALUE_OF[top]:
        return "match"
    return "higher" if VALUE_OF[card] > VALUE_OF[top] else "lower"


def take_sources(state: Table) -> list[str]:
    """Rule: the top card of the deck or the top face-up card of the other pile, its last
    one included."""
    sources = []
    if state.deck:
        sources.append("deck")
    if state.played_on is not None and state.piles[OTHER_PILE[state.played_on]]:
        sources.append("pile")
    return sources


def active(state: Table) -> list[Seat]:
    return [s for s in range(state.seats) if s not in state.conceded]


def next_player(state: Table, seat: Seat) -> Seat:
    """Clockwise (the next seat), skipping players who left."""
    return next_seat(seat, state.seats, lambda s: s not in state.conceded)


def rounds(state: Table) -> int:
    return ROUNDS[state.seats]


def scores(state: Table) -> tuple[int, ...]:
    return tuple(offering_value(failed) for failed in state.failed)


# --- setup -----------------------------------------------------------------------------------


def initial(options: YokaiPagodaOptions, seats: int) -> Table:
    """The empty table: no hands, no failed offerings, nothing known."""
    return Table(
        seats=seats,
        options=options,
        hands=[[] for _ in range(seats)],
        failed=[[] for _ in range(seats)],
        known=[[] for _ in range(seats)],
    )


def start(state: Table, rng: Rng) -> Turn:
    """Round 1 is dealt; seat 1 offers first."""
    turn = Turn(state, evolve)
    deal(turn, 1, 0, rng)
    return turn


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "The last round is over and the offerings are scored.")
    if state.phase == "setup":
        raise Rejected("not_started", "The cards are not dealt yet; the game has not started.")
    if seat != state.player or seat in state.conceded:
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn to offer.")
    match command:
        case DealRound():
            return deal_round(state, seat, rng)
        case PlayCard(card=card, pile=pile):
            return play_card(state, seat, card, pile)
        case GiveCard(card=card, to=to):
            return give_card(state, seat, card, to)
        case GiveNothing():
            return give_nothing(state, seat)
        case TakeCard(source=source):
            return take_card(state, seat, source, rng)
        case EndRound():
            return end_round(state, seat)
        case CarryOn():
            return carry_on(state, seat)
        case _:
            raise Rejected(
                "unknown_command", f"{type(command).__name__} is not a Yokai Pagoda move."
            )


def deal_round(state: Table, seat: Seat, rng: Rng) -> Turn:
    """The player after the round's ender deals the next round."""
    if state.phase != "between":
        raise Rejected("round_in_progress", "This round is still being played.")
    turn = Turn(state, evolve)
    deal(turn, state.round + 1, seat, rng)
    return turn


def play_card(state: Table, seat: Seat, card: CardId, pile: Pile) -> Turn:
    """Rule: play one card per turn onto either offering pile; its effect follows."""
    if state.phase == "between":
        raise Rejected("deal_first", "The round is over: deal the next one first.")
    if state.phase != "play":
        raise Rejected("resolve_your_offering", "Resolve the effect of the card you offered first.")
    if card not in state.hands[seat]:
        raise Rejected("card_not_in_hand", f"{card} is not in your hand.")
    turn = Turn(state, evolve)
    effect = effect_of(card, state.piles[pile])
    turn.record(CardPlayed(seat=seat, card=card, pile=pile, effect=effect))
    after_offering(turn, seat, effect)
    return turn


def after_offering(turn: Turn, seat: Seat, effect: Effect) -> None:
    """What follows an offering at once: the effect waits for the player's choice, or
    the turn passes (the round ends when the hand is empty)."""
    state = turn.state
    hand = state.hands[seat]
    match effect:
        case "match":
            waits = bool(hand)  # a gift needs a card to give
        case "higher":
            waits = bool(take_sources(state))
        case "lower":
            # The choice to end the round exists only for a hand worth 3 or less.
            waits = bool(hand) and offering_value(hand) <= END_LIMIT
        case "none":
            waits = False
    if waits:
        return
    if hand:
        pass_turn(turn, seat)
    else:
        round_over(turn, seat)


def give_card(state: Table, seat: Seat, card: CardId, to: Seat) -> Turn:
    """Rule: same Yokai or same number lets you give a card from your hand to someone."""
    if state.phase != "give":
        raise Rejected("no_gift_due", "Only matching a pile's Yokai or number lets you give.")
    if card not in state.hands[seat]:
        raise Rejected("card_not_in_hand", f"{card} is not in your hand.")
    if to == seat:
        raise Rejected("give_to_another", "The card goes to another player, not to yourself.")
    if to not in active(state):
        raise Rejected("no_such_player", f"Seat {to + 1} is not playing at this table.")
    turn = Turn(state, evolve)
    turn.record(CardGiven(giver=seat, receiver=to, card=card))
    if turn.state.hands[seat]:
        pass_turn(turn, seat)
    else:
        round_over(turn, seat)
    return turn


def give_nothing(state: Table, seat: Seat) -> Turn:
    if state.phase != "give":
        raise Rejected("no_gift_due", "There is no gift to give or decline now.")
    if state.options.must_give:
        raise Rejected("must_give", "At this table a match obliges you to give a card away.")
    turn = Turn(state, evolve)
    pass_turn(turn, seat)
    return turn


def take_card(state: Table, seat: Seat, source: str, rng: Rng) -> Turn:
    """Rule: another Yokai and higher: take the deck's top card or the other pile's top."""
    if state.phase != "take":
        raise Rejected("no_take_due", "Only a higher card of another Yokai makes you take one.")
    if source not in take_sources(state):
        raise Rejected(
            "cannot_take_there",
            "The Pagoda deck is empty."
            if source == "deck"
            else "The other pile is empty: take from the deck.",
        )
    turn = Turn(state, evolve)
    if source == "deck":
        turn.record(CardTaken(seat=seat, source="deck", card=rng.choice(state.deck)))
    else:
        assert state.played_on is not None
        top = state.piles[OTHER_PILE[state.played_on]][-1]
        turn.record(CardTaken(seat=seat, source="pile", card=top))
    pass_turn(turn, seat)
    return turn


def end_round(state: Table, seat: Seat) -> Turn:
    """Rule: another Yokai and lower: you may end the round if your hand is worth <= 3."""
    if state.phase != "decide":
        raise Rejected(
            "cannot_end_now", "Only a lower card of another Yokai lets you end the round."
        )
    value = offering_value(state.hands[seat])
    if value > END_LIMIT:
        raise Rejected("hand_worth_too_much", f"Your hand is worth {value}; it must be 3 or less.")
    turn = Turn(state, evolve)
    round_over(turn, seat)
    return turn


def carry_on(state: Table, seat: Seat) -> Turn:
    if state.phase != "decide":
        raise Rejected("nothing_to_decide", "There is no round end to decline now.")
    turn = Turn(state, evolve)
    pass_turn(turn, seat)
    return turn


def pass_turn(turn: Turn, seat: Seat) -> None:
    turn.record(TurnBegan(seat=next_player(turn.state, seat)))


def round_over(turn: Turn, ender: Seat) -> None:
    """Every hand goes to its failed offerings; then score, or the player after the ender
    deals the next round. ASSUMPTION: the ender shows their hand, so the table sees it is
    worth 3 or less (the sources do not say it is shown)."""
    state = turn.state
    turn.record(RoundEnded(round=state.round, ender=ender, shown=tuple(state.hands[ender])))
    if state.round >= rounds(state):
        turn.record(game_ended(turn.state))


def deal(turn: Turn, round_number: int, first: Seat, rng: Rng) -> None:
    """Shuffle every card not in failed offerings: two start the piles, seven to each hand.

    ASSUMPTION: with too few cards left, hands are dealt equally as far as they go; with
    not even one card each, the game ends.
    """
    state = turn.state
    out = {card for failed in state.failed for card in failed}
    order = rng.shuffled(sorted(c for c in CARDS if c not in out))
    players = active(state)
    size = min(HAND_SIZE, (len(order) - len(PILES)) // len(players))
    if size < 1:
        turn.record(game_ended(state))
        return
    turn.record(RoundStarted(round=round_number, first=first, left=order[0], right=order[1]))
    for i, seat in enumerate(players):
        cards = tuple(sorted(order[2 + i * size : 2 + (i + 1) * size]))
        turn.record(HandDealt(seat=seat, count=size, cards=cards))


def game_ended(state: Table) -> GameEnded:
    return GameEnded(failed=tuple(tuple(f) for f in state.failed), scores=scores(state))


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The seat stops playing (its hand stays out of play); under two players, it ends."""
    if state.phase in ("setup", "over") or len(active(state)) <= 2:
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    if seat != state.player:
        return turn
    if state.phase == "between":
        deal(turn, state.round + 1, next_player(turn.state, seat), rng)
    else:
        pass_turn(turn, seat)
    return turn


def outcome(state: Table) -> Outcome | None:
    """The lowest failed offerings win; equal totals share the rank; who left ranks last."""
    if state.phase != "over":
        return None
    totals = scores(state)
    keys = [(int(s not in state.conceded), -totals[s]) for s in range(state.seats)]
    return Outcome(scores=totals, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> list[Command]:
    return list(moves(state, seat))


def moves(state: Table, seat: Seat) -> Iterator[Command]:
    """Every command `seat` may send now."""
    if state.phase in ("setup", "over") or seat != state.player or seat in state.conceded:
        return
    hand = state.hands[seat]
    if state.phase == "between":
        yield DealRound()
    elif state.phase == "play":
        for card in hand:
            for pile in PILES:
                yield PlayCard(card=card, pile=pile)
    elif state.phase == "give":
        for card in hand:
            for to in active(state):
                if to != seat:
                    yield GiveCard(card=card, to=to)
        if not state.options.must_give:
            yield GiveNothing()
    elif state.phase == "take":
        for source in take_sources(state):
            yield TakeCard(source="deck" if source == "deck" else "pile")
    elif state.phase == "decide":
        if offering_value(hand) <= END_LIMIT:
            yield EndRound()
        yield CarryOn()


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------

PHASE_AFTER: dict[Effect, Phase] = {
    "match": "give",
    "higher": "take",
    "lower": "decide",
    "none": "play",  # passed on (or the round ends) in the same decision
}


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case RoundStarted(round=number, first=first, left=left, right=right):
            out = {card for failed in state.failed for card in failed}
            deck = [c for c in sorted(CARDS) if c not in out and c not in (left, right)]
            return replace(
                state,
                phase="play",
                round=number,
                player=first,
                played_on=None,
                piles={"left": [left], "right": [right]},
                hands=[[] for _ in range(state.seats)],
                deck=deck,
            )
        case HandDealt(seat=seat, cards=cards):
            dealt = set(cards or ())
            hands = _with(state.hands, seat, sorted(dealt))
            return replace(state, hands=hands, deck=[c for c in state.deck if c not in dealt])
        case TurnBegan(seat=seat):
            return replace(state, phase="play", player=seat, played_on=None)
        case CardPlayed(seat=seat, card=card, pile=pile, effect=effect):
            piles = {**state.piles, pile: [*state.piles[pile], card]}
            hands = _with(state.hands, seat, [c for c in state.hands[seat] if c != card])
            return replace(
                state,
                phase=PHASE_AFTER[effect],
                played_on=pile,
                piles=piles,
                hands=hands,
                public=[c for c in state.public if c != card],
                known=[[c for c in row if c != card] for row in state.known],
            )
        case CardGiven(giver=giver, receiver=receiver, card=card) if card is not None:
            hands = _with(state.hands, giver, [c for c in state.hands[giver] if c != card])
            hands = _with(hands, receiver, sorted([*hands[receiver], card]))
            known = [[c for c in row if c != card] for row in state.known]
            known = _with(known, giver, sorted([*known[giver], card]))
            return replace(
                state, hands=hands, public=[c for c in state.public if c != card], known=known
            )
        case CardTaken(seat=seat, source=source, card=card) if card is not None:
            hands = _with(state.hands, seat, sorted([*state.hands[seat], card]))
            if source == "deck":
                return replace(state, hands=hands, deck=[c for c in state.deck if c != card])
            assert state.played_on is not None
            other = OTHER_PILE[state.played_on]
            piles = {**state.piles, other: state.piles[other][:-1]}
            return replace(state, hands=hands, piles=piles, public=sorted([*state.public, card]))
        case RoundEnded(ender=ender, shown=shown):
            failed = [sorted([*f, *h]) for f, h in zip(state.failed, state.hands, strict=True)]
            return replace(
                state,
                phase="between",
                player=next_player(state, ender),
                hands=[[] for _ in range(state.seats)],
                failed=failed,
                public=sorted({*state.public, *shown}),
            )
        case PlayerConceded(seat=seat):
            return replace(state, conceded=sorted({*state.conceded, seat}))
        case GameEnded():
            return replace(state, phase="over")
        case _:
            raise TypeError(f"not a Yokai Pagoda event (or a redacted one): {event!r}")


def _with(rows: list[list[CardId]], seat: Seat, row: list[CardId]) -> list[list[CardId]]:
    return [row if s == seat else r for s, r in enumerate(rows)]
