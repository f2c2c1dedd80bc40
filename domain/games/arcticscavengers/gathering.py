"""The resource gathering phase: dig, draw, hunt, hire and trash, each once a round.

Rule (seed 000, Resource Gathering): the initiator gathers first, then clockwise. Cards
played for an action are discarded after use (option: set aside until the next round). A
tribe member may use one tool, and a tool never grants a skill the member lacks (FAQ:
Group Leaders ride on a member too, and may do so alongside a tool). Dig: look at as
many junkyard cards as the dig total, keep at most one, the rest go to the junkyard
bottom. Draw: draw the draw total from your deck. Hunt: food for this round's hire.
Hire (free): one mercenary a round, paid with food and medicine played from hand. Trash
(free): any cards from hand to the junkyard, which is then shuffled.
"""

from __future__ import annotations

from typing import get_args

from domain.games.arcticscavengers.cards import CARDS, Mercenary, card_of, medicine, title
from domain.games.arcticscavengers.commands import (
    Action,
    Command,
    EndGathering,
    HireMercenary,
    KeepDugCard,
    PerformAction,
    PlayCard,
)
from domain.games.arcticscavengers.events import (
    CardPlayed,
    CardsTrashed,
    DrawPerformed,
    DugCardKept,
    FoodHunted,
    GatheringEnded,
    JunkyardDug,
    MercenaryHired,
)
from domain.games.arcticscavengers.evolve import Decision
from domain.games.arcticscavengers.rounds import draw
from domain.games.arcticscavengers.state import State, current_gatherer
from domain.kernel import Rejected, Rng, Seat

SKILL_ACTIONS: tuple[Action, ...] = ("dig", "draw", "hunt")
HIREABLE: tuple[Mercenary, ...] = get_args(Mercenary)


# --- predicates --------------------------------------------------------------------------


def strength(team: list[str], action: str) -> int:
    """The action's total: each member's skill plus the tools and leaders riding on them."""
    return sum(card_of(card).skills.get(action, 0) for card in team)


def joining_problem(team: list[str], card: str, action: str) -> tuple[str, str] | None:
    """Why `card` cannot join the `action` being assembled from `team`, or None."""
    spec = card_of(card)
    if spec.role == "person":
        if action in spec.skills:
            return None
        return "cannot_perform", f"A {spec.title} cannot {action}."
    if spec.role in ("tool", "leader"):
        if action not in spec.skills:
            return "no_bonus", f"The {spec.title} does nothing for a {action}."
        members = sum(1 for c in team if card_of(c).role == "person")
        riders = sum(1 for c in team if card_of(c).role == spec.role)
        if riders >= members:
            what = "tool" if spec.role == "tool" else "Group Leaders card"
            return (
                "no_free_tribe_member",
                f"Each tribe member in the {action} can use only one {what}; "
                f"play another member first.",
            )
        return None
    return "cannot_perform", f"The {spec.title} cannot take part in a {action}."


def affordable(cost_food: int, cost_meds: int, either: int, food: int, meds: int) -> bool:
    return (
        food >= cost_food
        and meds >= cost_meds
        and (food - cost_food) + (meds - cost_meds) >= either
    )


def hire_price(state: State, kind: str) -> tuple[int, int] | None:
    """(food, meds) the current player pays for `kind`, or None if they cannot afford it."""
    cost = CARDS[kind].cost
    assert cost is not None
    food = state.turn.food
    meds = sum(medicine(card) for card in state.turn.meds)
    if not affordable(cost.food, cost.meds, cost.either, food, meds):
        return None
    food_paid = cost.food + min(food - cost.food, cost.either)
    return food_paid, meds


# --- decide ------------------------------------------------------------------------------


def decide(record: Decision, seat: Seat, command: Command, rng: Rng) -> None:
    state = record.state
    if state.phase != "gathering":
        raise Rejected("not_gathering", "Cards are played for actions only during gathering.")
    if current_gatherer(state) != seat:
        raise Rejected("not_your_turn", f"Seat {seat + 1} is not gathering now.")
    turn = state.turn
    if turn.looking and not isinstance(command, KeepDugCard):
        raise Rejected("dig_choice_pending", "First choose which dug card to keep (or keep none).")
    match command:
        case PlayCard(card=card, action=action):
            play_card(record, seat, card, action)
        case PerformAction():
            perform(record, seat, rng)
        case KeepDugCard(card=card):
            keep_dug_card(record, seat, card)
        case HireMercenary(kind=kind):
            hire(record, seat, kind)
        case EndGathering():
            end_gathering(record, seat)
        case _:
            raise Rejected("unknown_command", "That is not a gathering move.")


def play_card(record: Decision, seat: Seat, card: str, action: Action) -> None:
    state = record.state
    turn = state.turn
    if card not in state.tribes[seat].hand:
        raise Rejected("card_not_in_hand", f"{card} is not in your hand.")
    if action in turn.used:
        raise Rejected("action_already_taken", f"You have already used {action} this round.")
    if turn.open is not None and turn.open != action:
        raise Rejected(
            "another_action_open", f"Finish your {turn.open} before starting a {action}."
        )
    if action == "hire":
        if medicine(card) == 0:
            raise Rejected("not_medicine", f"The {title(card)} is not medicine to pay a hire.")
    elif action != "trash":
        problem = joining_problem(turn.team, card, action)
        if problem is not None:
            raise Rejected(*problem)
    record.record(CardPlayed(seat=seat, card=card, action=action))


def perform(record: Decision, seat: Seat, rng: Rng) -> None:
    state = record.state
    turn = state.turn
    if turn.open is None:
        raise Rejected("no_open_action", "Play cards for an action before performing it.")
    total = strength(turn.team, turn.open)
    if turn.open == "dig":
        count = min(total, len(state.junkyard))
        record.record(
            JunkyardDug(seat=seat, strength=total, count=count, cards=state.junkyard[:count])
        )
        if count == 0:
            record.record(DugCardKept(seat=seat, kept=False, returned=0))
    elif turn.open == "draw":
        record.record(DrawPerformed(seat=seat, strength=total))
        draw(record, seat, total, rng)
    elif turn.open == "hunt":
        record.record(FoodHunted(seat=seat, strength=total))
    else:
        junkyard = rng.shuffled([*state.junkyard, *turn.team])
        record.record(
            CardsTrashed(
                seat=seat,
                count=len(turn.team),
                junkyard_size=len(junkyard),
                cards=list(turn.team),
                junkyard=junkyard,
            )
        )


def keep_dug_card(record: Decision, seat: Seat, card: str | None) -> None:
    turn = record.state.turn
    if not turn.looking:
        raise Rejected("no_dig_choice", "You are not looking at dug junkyard cards.")
    if card is not None and card not in turn.looking:
        raise Rejected("card_not_dug", f"{card} is not among the cards you dug up.")
    returned = len(turn.looking) - (card is not None)
    record.record(DugCardKept(seat=seat, kept=card is not None, returned=returned, card=card))


def hire(record: Decision, seat: Seat, kind: str) -> None:
    state = record.state
    turn = state.turn
    if "hire" in turn.used:
        raise Rejected("action_already_taken", "You may hire only one mercenary a round.")
    if turn.open is not None:
        raise Rejected("another_action_open", f"Finish your {turn.open} before hiring.")
    pile = state.mercenaries.get(kind, [])
    if not pile:
        raise Rejected("pile_empty", f"There are no {kind} mercenaries left to hire.")
    price = hire_price(state, kind)
    if price is None:
        raise Rejected(
            "cannot_afford",
            f"Your {turn.food} food and the medicine you played do not pay for a {title(pile[0])}.",
        )
    food, meds = price
    record.record(MercenaryHired(seat=seat, kind=kind, food=food, meds=meds, card=pile[0]))


def end_gathering(record: Decision, seat: Seat) -> None:
    state = record.state
    if state.turn.open is not None:
        raise Rejected("action_open", f"Perform your {state.turn.open} before you stop.")
    force = len(state.tribes[seat].hand) if state.round >= 3 else 0
    record.record(GatheringEnded(seat=seat, force_size=force))


# --- legal -------------------------------------------------------------------------------


def legal(state: State, seat: Seat) -> list[Command]:
    if current_gatherer(state) != seat:
        return []
    turn = state.turn
    if turn.looking:
        return [KeepDugCard(card=None), *(KeepDugCard(card=c) for c in turn.looking)]
    hand = state.tribes[seat].hand
    out: list[Command] = []
    if turn.open is not None:
        action = turn.open
        for card in hand:
            if action == "trash" or joining_problem(turn.team, card, action) is None:
                out.append(PlayCard(card=card, action=action))
        out.append(PerformAction())
        return out
    for card in hand:
        for action in SKILL_ACTIONS:
            if action not in turn.used and joining_problem([], card, action) is None:
                out.append(PlayCard(card=card, action=action))
        if "hire" not in turn.used and medicine(card):
            out.append(PlayCard(card=card, action="hire"))
        if "trash" not in turn.used:
            out.append(PlayCard(card=card, action="trash"))
    if "hire" not in turn.used:
        kinds: list[Mercenary] = [k for k in HIREABLE if state.mercenaries.get(k)]
        out += [HireMercenary(kind=k) for k in kinds if hire_price(state, k) is not None]
    out.append(EndGathering())
    return out
