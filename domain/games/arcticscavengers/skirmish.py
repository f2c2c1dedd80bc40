"""The skirmish, from round 3: forces revealed, snipers and saboteurs, then the fight.

Rule (seed 000, Skirmish): all players reveal their skirmish cards at once. Starting
with the initiator and going clockwise, each player declares the actions of their
units: a sniper team snipes one of another player's tribe members, a saboteur disarms
one of another player's tools; a unit sniped before its owner's turn loses its action.
Then the remaining fight values are summed and the highest wins the top contested
resource. Tie: most people in the skirmish wins; still tied, a deadlock (the contested
resource goes unseen into the junkyard, which is shuffled). 2-player variant: people do
not count and a skirmish must be won by 2, otherwise it is a tie.
"""

from __future__ import annotations

from domain.games.arcticscavengers.cards import card_of, is_person, is_tool, people
from domain.games.arcticscavengers.commands import Command, EndSkirmishActions, Sabotage, Snipe
from domain.games.arcticscavengers.events import (
    SkirmishActionsEnded,
    SkirmishDeadlocked,
    SkirmishWon,
    ToolDisarmed,
    TribeMemberSniped,
)
from domain.games.arcticscavengers.evolve import Decision
from domain.games.arcticscavengers.state import State
from domain.kernel import Rejected, Rng, Seat

TWO_PLAYER_MARGIN = 2


# --- the fight ---------------------------------------------------------------------------


def fight(force: list[str], sniped: list[str], disarmed: list[str]) -> int:
    """Fight total with tools and leaders handed to the fighters for the best result.

    Each fighter wields at most one tool and follows at most one Group Leaders card (FAQ:
    after a snipe the owner may rearrange the tools), so the strongest tools go first.
    """
    standing = [c for c in force if c not in sniped]
    fighters = [c for c in standing if card_of(c).role == "person" and "fight" in card_of(c).skills]
    base = sum(card_of(c).skills["fight"] for c in fighters)
    tools = sorted(
        (card_of(c).skills.get("fight", 0) for c in force if is_tool(c) and c not in disarmed),
        reverse=True,
    )
    leaders = sorted(
        (card_of(c).skills.get("fight", 0) for c in standing if card_of(c).role == "leader"),
        reverse=True,
    )
    return base + sum(tools[: len(fighters)]) + sum(leaders[: len(fighters)])


def people_in(force: list[str], sniped: list[str]) -> int:
    """People in the skirmish (refugees and families count, sniped members do not)."""
    return sum(people(c) for c in force if c not in sniped)


def totals(state: State) -> tuple[list[int], list[int]]:
    sk = state.skirmish
    fights = [0] * state.seats
    crowd = [0] * state.seats
    for seat in state.active():
        force = state.tribes[seat].force
        fights[seat] = fight(force, sk.sniped, sk.disarmed)
        crowd[seat] = people_in(force, sk.sniped)
    return fights, crowd


def winner(state: State, fights: list[int], crowd: list[int]) -> int | None:
    """The skirmish winner, or None for a tie that nobody breaks."""
    seats = state.active()
    if state.two_player_rules() and len(seats) == 2:
        a, b = seats
        if fights[a] >= fights[b] + TWO_PLAYER_MARGIN:
            return a
        if fights[b] >= fights[a] + TWO_PLAYER_MARGIN:
            return b
        return None
    best = max(fights[s] for s in seats)
    top = [s for s in seats if fights[s] == best]
    if len(top) > 1:
        most = max(crowd[s] for s in top)
        top = [s for s in top if crowd[s] == most]
    return top[0] if len(top) == 1 else None


def resolve(turn: Decision, rng: Rng) -> None:
    """The fight: the winner takes the top contested resource; a deadlock buries it."""
    state = turn.state
    fights, crowd = totals(state)
    won = winner(state, fights, crowd)
    prize = state.contested[0]
    if won is not None:
        turn.record(SkirmishWon(seat=won, fights=fights, people=crowd, card=prize))
        return
    junkyard = rng.shuffled([prize, *state.junkyard])
    turn.record(
        SkirmishDeadlocked(
            fights=fights, people=crowd, junkyard_size=len(junkyard), junkyard=junkyard
        )
    )


# --- declarations ------------------------------------------------------------------------


def ready(state: State, seat: Seat, card: str, special: str) -> bool:
    """A unit in `seat`'s force with that special, not sniped and not yet used."""
    sk = state.skirmish
    return (
        card in state.tribes[seat].force
        and card_of(card).special == special
        and card not in sk.sniped
        and card not in sk.acted
    )


def targets(state: State, seat: Seat) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(people that can be sniped, tools that can be disarmed) in the other forces."""
    sk = state.skirmish
    members: list[tuple[int, str]] = []
    tools: list[tuple[int, str]] = []
    for other in state.active():
        if other == seat:
            continue
        for card in state.tribes[other].force:
            if is_person(card) and card not in sk.sniped:
                members.append((other, card))
            elif is_tool(card) and card not in sk.disarmed:
                tools.append((other, card))
    return members, tools


def options(state: State, seat: Seat) -> list[Command]:
    members, tools = targets(state, seat)
    out: list[Command] = []
    for card in state.tribes[seat].force:
        if ready(state, seat, card, "snipe"):
            out += [Snipe(sniper=card, target=t) for _, t in members]
        if ready(state, seat, card, "disarm"):
            out += [Sabotage(saboteur=card, tool=t) for _, t in tools]
    return out


def resolver(state: State) -> int | None:
    """Who declares now: the first seat from the initiator that has not finished declaring.

    Every player ends their declarations explicitly, even with no sniper or saboteur
    left: the skirmish is settled only once the last player has spoken.
    """
    if state.phase != "skirmish":
        return None
    declared = state.skirmish.declared
    return next((s for s in state.active() if s not in declared), None)


def legal(state: State, seat: Seat) -> list[Command]:
    if resolver(state) != seat:
        return []
    return [*options(state, seat), EndSkirmishActions()]


def decide(turn: Decision, seat: Seat, command: Command) -> None:
    state = turn.state
    if state.phase != "skirmish":
        raise Rejected("not_skirmish", "Snipers and saboteurs act only during a skirmish.")
    if resolver(state) != seat:
        raise Rejected("not_your_turn", f"Seat {seat + 1} is not declaring skirmish actions now.")
    match command:
        case Snipe(sniper=sniper, target=target):
            snipe(turn, seat, sniper, target)
        case Sabotage(saboteur=saboteur, tool=tool):
            sabotage(turn, seat, saboteur, tool)
        case EndSkirmishActions():
            turn.record(SkirmishActionsEnded(seat=seat))
        case _:
            raise Rejected("unknown_command", "That is not a skirmish move.")


def snipe(turn: Decision, seat: Seat, sniper: str, target: str) -> None:
    state = turn.state
    if not ready(state, seat, sniper, "snipe"):
        raise Rejected(
            "sniper_not_ready", f"{sniper} is not a sniper team of yours that can still shoot."
        )
    members, _ = targets(state, seat)
    owner = next((s for s, card in members if card == target), None)
    if owner is None:
        raise Rejected(
            "no_such_target",
            f"{target} is not a tribe member standing in another player's skirmish force.",
        )
    turn.record(TribeMemberSniped(seat=seat, sniper=sniper, target_seat=owner, target=target))


def sabotage(turn: Decision, seat: Seat, saboteur: str, tool: str) -> None:
    state = turn.state
    if not ready(state, seat, saboteur, "disarm"):
        raise Rejected(
            "saboteur_not_ready", f"{saboteur} is not a saboteur of yours that can still act."
        )
    _, tools = targets(state, seat)
    owner = next((s for s, card in tools if card == tool), None)
    if owner is None:
        raise Rejected(
            "no_such_tool", f"{tool} is not an armed tool in another player's skirmish force."
        )
    turn.record(ToolDisarmed(seat=seat, saboteur=saboteur, target_seat=owner, tool=tool))
