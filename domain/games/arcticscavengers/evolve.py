"""evolve: one event folded onto the table. Never random, never rejects.

`Decision` is the kernel's recorder over this fold: every decider records its events into
one, so each event is folded once, as it is recorded.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.arcticscavengers.commands import Action
from domain.games.arcticscavengers.events import (
    CardPlayed,
    CardsDrawn,
    CardsTrashed,
    ContestedResourcePeeked,
    DeckShuffled,
    DrawPerformed,
    DugCardKept,
    Event,
    FoodHunted,
    ForcesRevealed,
    GameEnded,
    GatheringEnded,
    JunkyardDug,
    MercenaryHired,
    RoundStarted,
    SkirmishActionsEnded,
    SkirmishDeadlocked,
    SkirmishWon,
    TableSetUp,
    ToolDisarmed,
    TribeMemberSniped,
    TribeWithdrew,
)
from domain.games.arcticscavengers.state import (
    Result,
    Skirmish,
    State,
    Tribe,
    Turn,
    current_gatherer,
)
from domain.kernel import Recorder


def evolve(state: State, event: Event) -> State:
    match event:
        case TableSetUp(initiator=initiator, decks=decks, junkyard=junkyard, contested=contested):
            assert decks is not None and junkyard is not None and contested is not None
            return replace(
                state,
                initiator=initiator,
                tribes=[Tribe(deck=list(deck)) for deck in decks],
                junkyard=list(junkyard),
                contested=list(contested),
                mercenaries={k: list(v) for k, v in event.mercenaries.items()},
            )
        case RoundStarted(round=number, initiator=initiator):
            shown = state.skirmish.revealed
            tribes = [
                replace(
                    t,
                    discard=[*t.discard, *t.hand, *t.force, *t.played],
                    discard_seen=[*t.discard_seen, *t.played, *(t.force if shown else [])],
                    hand=[],
                    force=[],
                    played=[],
                )
                for t in state.tribes
            ]
            return replace(
                state,
                phase="gathering",
                round=number,
                initiator=initiator,
                tribes=tribes,
                gathered=[],
                turn=Turn(),
                skirmish=Skirmish(),
                peeked=None,
            )
        case DeckShuffled(seat=seat, order=order):
            assert order is not None
            t = state.tribes[seat]
            return _tribe(state, seat, deck=[*t.deck, *order], discard=[], discard_seen=[])
        case CardsDrawn(seat=seat, count=count):
            t = state.tribes[seat]
            return _tribe(state, seat, hand=[*t.hand, *t.deck[:count]], deck=t.deck[count:])
        case ContestedResourcePeeked(card=card):
            return replace(state, peeked=card)
        case CardPlayed(seat=seat, card=card, action=action):
            t = state.tribes[seat]
            state = _tribe(state, seat, hand=[c for c in t.hand if c != card])
            if action == "hire":
                return replace(state, turn=replace(state.turn, meds=[*state.turn.meds, card]))
            return replace(
                state, turn=replace(state.turn, open=action, team=[*state.turn.team, card])
            )
        case JunkyardDug(seat=seat, count=count):
            state = _close_action(state, seat, "dig")
            return replace(
                state,
                junkyard=state.junkyard[count:],
                turn=replace(state.turn, looking=state.junkyard[:count]),
            )
        case DugCardKept(seat=seat, card=card):
            looking = state.turn.looking
            if card is not None:
                t = state.tribes[seat]
                state = _tribe(state, seat, discard=[*t.discard, card])
            return replace(
                state,
                junkyard=[*state.junkyard, *(c for c in looking if c != card)],
                turn=replace(state.turn, looking=[]),
            )
        case DrawPerformed(seat=seat):
            return _close_action(state, seat, "draw")
        case FoodHunted(seat=seat, strength=strength):
            state = _close_action(state, seat, "hunt")
            return replace(state, turn=replace(state.turn, food=state.turn.food + strength))
        case CardsTrashed(junkyard=junkyard):
            assert junkyard is not None
            turn = state.turn
            turn = replace(turn, used=[*turn.used, "trash"], open=None, team=[])
            return replace(state, junkyard=list(junkyard), turn=turn)
        case MercenaryHired(seat=seat, kind=kind, food=food, card=card):
            assert card is not None
            t = state.tribes[seat]
            turn = state.turn
            state = _spend(_tribe(state, seat, discard=[*t.discard, card]), seat, turn.meds)
            piles = dict(state.mercenaries)
            piles[kind] = piles[kind][1:]
            turn = replace(turn, used=[*turn.used, "hire"], meds=[], food=turn.food - food)
            return replace(state, mercenaries=piles, turn=turn)
        case GatheringEnded(seat=seat):
            t = state.tribes[seat]
            if state.round >= 3:
                state = _tribe(state, seat, force=t.hand, hand=[])
            state = _spend(state, seat, state.turn.meds)
            return replace(state, gathered=[*state.gathered, seat], turn=Turn())
        case ForcesRevealed():
            return replace(state, phase="skirmish", skirmish=replace(state.skirmish, revealed=True))
        case TribeMemberSniped(sniper=sniper, target=target):
            sk = state.skirmish
            return replace(
                state,
                skirmish=replace(sk, acted=[*sk.acted, sniper], sniped=[*sk.sniped, target]),
            )
        case ToolDisarmed(saboteur=saboteur, tool=tool):
            sk = state.skirmish
            return replace(
                state,
                skirmish=replace(sk, acted=[*sk.acted, saboteur], disarmed=[*sk.disarmed, tool]),
            )
        case SkirmishActionsEnded(seat=seat):
            sk = state.skirmish
            return replace(state, skirmish=replace(sk, declared=[*sk.declared, seat]))
        case SkirmishWon(seat=seat, fights=fights, people=people):
            top, rest = state.contested[0], state.contested[1:]
            t = state.tribes[seat]
            state = _tribe(state, seat, discard=[*t.discard, top])
            result = Result(
                round=state.round, fights=list(fights), people=list(people), winner=seat
            )
            return replace(state, contested=rest, phase="round_over", last=result, peeked=None)
        case SkirmishDeadlocked(fights=fights, people=people, junkyard=junkyard):
            assert junkyard is not None
            result = Result(
                round=state.round, fights=list(fights), people=list(people), winner=None
            )
            return replace(
                state,
                contested=state.contested[1:],
                junkyard=list(junkyard),
                phase="round_over",
                last=result,
                peeked=None,
            )
        case GameEnded(tribes=sizes):
            return replace(state, phase="over", final=list(sizes))
        case TribeWithdrew(seat=seat):
            return _withdraw(state, seat)
        case _:
            raise TypeError(f"not an Arctic Scavengers event: {event!r}")


Decision = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to. (The
table's own `Turn` is the gathering turn in progress.)"""


def decision(state: State) -> Decision:
    """A fresh recorder starting from `state`."""
    return Decision(state, evolve)


def _tribe(state: State, seat: int, **changes: Any) -> State:
    tribes = list(state.tribes)
    tribes[seat] = replace(tribes[seat], **changes)
    return replace(state, tribes=tribes)


def _spend(state: State, seat: int, cards: list[str]) -> State:
    """Rule (seed 000, Skirmish): "When cards are played during the Resource Gathering
    phase, they are discarded after use", face up in sight of all. Option
    `used_cards="aside"`: they lie face up until the next round's drawing phase."""
    t = state.tribes[seat]
    if state.options.used_cards == "aside":
        return _tribe(state, seat, played=[*t.played, *cards])
    return _tribe(state, seat, discard=[*t.discard, *cards], discard_seen=[*t.discard_seen, *cards])


def _close_action(state: State, seat: int, action: Action) -> State:
    """The cards of the performed action are spent."""
    turn = state.turn
    state = _spend(state, seat, turn.team)
    return replace(state, turn=replace(turn, used=[*turn.used, action], open=None, team=[]))


def _withdraw(state: State, seat: int) -> State:
    """A conceding tribe leaves the table; a half-done gathering turn is tidied away."""
    if current_gatherer(state) == seat:
        turn = state.turn
        state = _spend(state, seat, [*turn.team, *turn.meds])
        state = replace(state, junkyard=[*state.junkyard, *turn.looking], turn=Turn())
    return _tribe(state, seat, withdrawn=True)
