"""A day of Quinze jours en France: each traveller takes one action (Voyager, Rencontrer,
Récupérer); the itinerary changes at the start of days 4, 8 and 12; after day 15 the
smileys are counted.

Rule sentences cite the seed (002, "Gamehelpquinzejoursenfrance"), rules-batch2.md
"Quinze jours en France", and the README's house-made list.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

import msgspec

from domain.games.quinzejoursenfrance.cards import (
    DAYS,
    ENCOUNTERS_DRAWN,
    ITINERARY_CHANGES,
    LOCATIONS,
    REGIONS,
    REST_STEPS,
    ROW_SIZE,
    CardId,
)
from domain.games.quinzejoursenfrance.commands import (
    Command,
    Garder,
    Recuperer,
    Rencontrer,
    Voyager,
)
from domain.games.quinzejoursenfrance.events import (
    BonusAction,
    EncounterKept,
    EncountersDrawn,
    Event,
    GameEnded,
    ItineraryChanged,
    PlayerConceded,
    RowFilled,
    StepsGained,
    Travelled,
    TurnBegan,
)
from domain.games.quinzejoursenfrance.scoring import score_sheet
from domain.games.quinzejoursenfrance.state import Table
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys

Turn = Recorder[Table, Event]
T = TypeVar("T")

# --- reading the table -----------------------------------------------------------------------


def is_active(state: Table, seat: Seat) -> bool:
    return seat not in state.conceded


def row_of(state: Table, card: CardId) -> str | None:
    return next((row for row, cards in state.rows.items() if card in cards), None)


def encounters_left(state: Table) -> int:
    return len(state.encounters) + len(state.under)


def day_order(state: Table, day: int) -> tuple[Seat, ...]:
    """House: each day a different traveller goes first, then the others in seat order."""
    lead = (day - 1) % state.seats
    order = ((lead + k) % state.seats for k in range(state.seats))
    return tuple(s for s in order if is_active(state, s))


# --- setup -----------------------------------------------------------------------------------


def start(state: Table, rng: Rng) -> Turn:
    """Facts: 4 Nord and 4 Sud Location cards face up; house: seat 1 goes first on day 1."""
    turn = Turn(state, evolve)
    for row in REGIONS:
        refill(turn, row, rng)
    turn.record(TurnBegan(seat=0, day=1, order=day_order(state, 1)))
    return turn


def refill(turn: Turn, row: str, rng: Rng) -> None:
    while len(turn.state.rows[row]) < ROW_SIZE and turn.state.decks[row]:
        turn.record(RowFilled(row=row, card=rng.choice(turn.state.decks[row])))


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "Day 15 is over; the journey has ended.")
    if state.phase == "setup":
        raise Rejected("not_started", "The Location cards are not laid out yet.")
    if seat != state.player or not is_active(state, seat):
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn.")
    match command:
        case Voyager(card=card):
            return voyager(state, seat, card, rng)
        case Rencontrer():
            return rencontrer(state, seat, rng)
        case Recuperer():
            return recuperer(state, seat, rng)
        case Garder(card=card):
            return garder(state, seat, card, rng)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a travel move.")


def _choosing_an_action(state: Table) -> None:
    if state.phase == "keep":
        raise Rejected("keep_an_encounter", "Keep one of the two Encounters you drew first.")


def voyager(state: Table, seat: Seat, card: CardId, rng: Rng) -> Turn:
    """Page: take 1 Location card, pay its steps, gain its symbols and reward."""
    _choosing_an_action(state)
    row = row_of(state, card)
    if row is None:
        raise Rejected("card_not_on_offer", f"{card} is not among the 8 Location cards.")
    location = LOCATIONS[card]
    if location.cost > state.travellers[seat].steps:
        raise Rejected("steps_short", f"That trip costs {location.cost} Step tokens.")
    turn = Turn(state, evolve)
    turn.record(Travelled(seat=seat, card=card, row=row, steps_paid=location.cost))
    kind, _, n = location.reward.partition(":")
    if kind == "steps":
        turn.record(StepsGained(seat=seat, steps=int(n), rested=False))
    elif kind == "bonus":
        turn.record(BonusAction(seat=seat, card=card))
    refill(turn, row, rng)
    after_action(turn, seat, rng)
    return turn


def rencontrer(state: Table, seat: Seat, rng: Rng) -> Turn:
    """Page: draw 2 Encounter cards, keep 1 (facts: the other goes under the deck)."""
    _choosing_an_action(state)
    if encounters_left(state) == 0:
        raise Rejected("no_encounters", "The Encounter deck is empty.")
    turn = Turn(state, evolve)
    drawn: list[CardId] = []
    pool, under = list(state.encounters), list(state.under)
    for _ in range(ENCOUNTERS_DRAWN):
        if pool:
            card = rng.choice(pool)
            pool.remove(card)
        elif under:
            card = under.pop(0)
        else:
            break
        drawn.append(card)
    turn.record(EncountersDrawn(seat=seat, cards=tuple(drawn)))
    return turn


def garder(state: Table, seat: Seat, card: CardId, rng: Rng) -> Turn:
    if state.phase != "keep":
        raise Rejected("nothing_to_keep", "You have drawn no Encounters to choose between.")
    drawn = state.travellers[seat].drawn
    if card not in drawn:
        raise Rejected("encounter_not_drawn", f"{card} is not one of the Encounters you drew.")
    other = next((c for c in drawn if c != card), None)
    turn = Turn(state, evolve)
    turn.record(EncounterKept(seat=seat, card=card, under=other, put_under=other is not None))
    after_action(turn, seat, rng)
    return turn


def recuperer(state: Table, seat: Seat, rng: Rng) -> Turn:
    """Page: gain 4 Step tokens."""
    _choosing_an_action(state)
    turn = Turn(state, evolve)
    turn.record(StepsGained(seat=seat, steps=REST_STEPS, rested=True))
    after_action(turn, seat, rng)
    return turn


# --- days ------------------------------------------------------------------------------------


def after_action(turn: Turn, seat: Seat, rng: Rng) -> None:
    """A bonus reward gives another action at once; otherwise the next traveller plays."""
    if turn.state.bonus:
        return
    next_turn(turn, rng)


def next_turn(turn: Turn, rng: Rng) -> None:
    """Page: 15 days; at the start of days 4, 8 and 12 all 8 Location cards are replaced."""
    state = turn.state
    later = [s for s in state.order[state.order.index(state.player) + 1 :] if is_active(state, s)]
    if later:
        turn.record(TurnBegan(seat=later[0], day=state.day, order=tuple(state.order)))
        return
    if state.day >= DAYS:
        turn.record(GameEnded(sheets=tuple(score_sheet(state, s) for s in range(state.seats))))
        return
    day = state.day + 1
    if day in ITINERARY_CHANGES:
        shown = tuple(c for row in REGIONS for c in state.rows[row])
        turn.record(ItineraryChanged(day=day, discarded=shown))
        for row in REGIONS:
            refill(turn, row, rng)
    order = day_order(turn.state, day)
    turn.record(TurnBegan(seat=order[0], day=day, order=order))


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The traveller leaves (drawn Encounters go under the deck) and ranks last; with one
    traveller left the match ends."""
    others = [s for s in range(state.seats) if s != seat and is_active(state, s)]
    if len(others) < 2 or state.phase in ("over", "setup"):
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    if seat == state.player:
        next_turn(turn, rng)
    return turn


def outcome(state: Table) -> Outcome | None:
    """Page: most points wins; ties: most Step tokens, then a shared win."""
    if state.phase != "over":
        return None
    scores = tuple(sheet.total for sheet in state.sheets)
    keys = [
        (int(is_active(state, s)), scores[s], state.sheets[s].steps) for s in range(state.seats)
    ]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> Iterator[Command]:
    if state.phase in ("setup", "over") or seat != state.player or not is_active(state, seat):
        return
    traveller = state.travellers[seat]
    if state.phase == "keep":
        for card in traveller.drawn:
            yield Garder(card=card)
        return
    for row in REGIONS:
        for card in state.rows[row]:
            if LOCATIONS[card].cost <= traveller.steps:
                yield Voyager(card=card)
    if encounters_left(state):
        yield Rencontrer()
    yield Recuperer()


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case RowFilled(row=row, card=card):
            return replace(
                state,
                rows={**state.rows, row: [*state.rows[row], card]},
                decks={**state.decks, row: [c for c in state.decks[row] if c != card]},
            )
        case ItineraryChanged():
            return replace(state, rows={row: [] for row in state.rows})
        case TurnBegan(seat=seat, day=day, order=order):
            return replace(state, phase="act", player=seat, day=day, order=list(order), bonus=0)
        case Travelled(seat=seat, card=card, row=row, steps_paid=paid):
            t = state.travellers[seat]
            t = replace(t, cards=[*t.cards, card], steps=t.steps - paid)
            state = replace(
                state,
                rows={**state.rows, row: [c for c in state.rows[row] if c != card]},
                travellers=_with(state.travellers, seat, t),
            )
            return _spent(state)
        case StepsGained(seat=seat, steps=steps, rested=rested):
            t = state.travellers[seat]
            state = replace(
                state, travellers=_with(state.travellers, seat, replace(t, steps=t.steps + steps))
            )
            return _spent(state) if rested else state
        case BonusAction():
            return replace(state, bonus=state.bonus + 1)
        case EncountersDrawn(seat=seat, cards=cards):
            drawn = [c for c in cards if c is not None]
            t = replace(state.travellers[seat], drawn=drawn)
            return replace(
                state,
                encounters=[c for c in state.encounters if c not in drawn],
                under_by=[
                    s for c, s in zip(state.under, state.under_by, strict=True) if c not in drawn
                ],
                under=[c for c in state.under if c not in drawn],
                travellers=_with(state.travellers, seat, t),
                phase="keep",
            )
        case EncounterKept(seat=seat, card=card, under=under):
            assert card is not None, "the state folds unredacted events"
            t = state.travellers[seat]
            t = replace(t, missions=[*t.missions, card], drawn=[])
            state = replace(
                state,
                travellers=_with(state.travellers, seat, t),
                under=[*state.under, under] if under else state.under,
                under_by=[*state.under_by, seat] if under else state.under_by,
                phase="act",
            )
            return _spent(state)
        case PlayerConceded(seat=seat):
            t = state.travellers[seat]
            return replace(
                state,
                conceded=sorted({*state.conceded, seat}),
                under=[*state.under, *t.drawn],
                under_by=[*state.under_by, *([seat] * len(t.drawn))],
                travellers=_with(state.travellers, seat, replace(t, drawn=[])),
                phase="act" if seat == state.player else state.phase,
            )
        case GameEnded(sheets=sheets):
            return replace(state, phase="over", sheets=list(sheets))
        case _:
            raise TypeError(f"not a Quinze jours en France event: {event!r}")


def _spent(state: Table) -> Table:
    """An action is done: a bonus action due is used up by it."""
    return msgspec.structs.replace(state, bonus=max(0, state.bonus - 1))


def _with(rows: list[T], seat: Seat, row: T) -> list[T]:
    return [row if s == seat else r for s, r in enumerate(rows)]
