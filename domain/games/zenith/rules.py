"""A Zenith turn: one card from the hand for one of three actions, then its effects.

Rule sentences cite the seed (002, "Gamehelpzenith", revision 2025-02-16) and
rules-batch1.md §3 with Appendices A and B. Effects are carried out in `carrying_out.py`.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.games.zenith import carrying_out as effects
from domain.games.zenith.agents import AGENTS, CardId
from domain.games.zenith.board import (
    DIPLOMACY_BONUS,
    FACTIONS,
    SECOND_PLAYER_START,
    START_HAND,
)
from domain.games.zenith.bonus import BONUSES, ON_PLANETS, ON_TRACKS
from domain.games.zenith.commands import (
    Command,
    Pass,
    PlayDiplomacy,
    PlayInfluence,
    PlayTechnology,
)
from domain.games.zenith.effects import Credits, Effect, Faction, Mobilize, TakeBadge, Zenithium
from domain.games.zenith.events import (
    CardPlayed,
    EffectsQueued,
    GameWon,
    TableSetUp,
    TurnBegan,
    TurnPassed,
)
from domain.games.zenith.evolve import evolve
from domain.games.zenith.state import State
from domain.games.zenith.table import Turn, other, price, who
from domain.games.zenith.technology import BOARDS, LEVELS
from domain.kernel import Outcome, Rejected, Rng, Seat, ranks_from_scores

# --- setup -----------------------------------------------------------------------------------


def start(state: State, rng: Rng) -> Turn:
    """Rule: player 1 is decided randomly; player 2 gains 1 Terra influence; both start
    with 4 cards. Each technology board shows a random side; one bonus token face up on
    each planet and on level 2 of each board, the other eight face down."""
    turn = Turn(state, evolve)
    first = rng.below(2)
    sides = tuple(_side(state, faction, rng) for faction in FACTIONS)
    face_up = rng.sample(sorted(BONUSES), ON_PLANETS + ON_TRACKS)
    turn.record(
        TableSetUp(
            first=first,
            sides=sides,
            planet_bonuses=tuple(face_up[:ON_PLANETS]),
            track_bonuses=tuple(face_up[ON_PLANETS:]),
        )
    )
    planet, steps = SECOND_PLAYER_START
    effects.gain_influence(turn, other(first), planet, steps)
    for seat in (first, other(first)):
        effects.draw(turn, seat, START_HAND, rng)
    turn.record(TurnBegan(seat=first))
    return turn


def _side(state: State, faction: Faction, rng: Rng) -> str:
    sides = list(BOARDS[faction])  # in the data's order: first side, second side
    match state.options.board_sides:
        case "first":
            return sides[0]
        case "second":
            return sides[1]
        case _:
            return rng.choice(sides)


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "Someone has already won; the game is over.")
    if state.phase == "setup":
        raise Rejected("not_started", "The board is not set up yet; the game has not started.")
    if seat not in to_act(state):
        raise Rejected("not_your_turn", f"It is {who(next(iter(to_act(state))))}'s move.")
    if state.phase == "effects":
        return effects.answer(state, seat, command, rng)
    match command:
        case PlayInfluence(card=card):
            return influence_action(state, seat, card, rng)
        case PlayTechnology(card=card):
            return technology_action(state, seat, card, rng)
        case PlayDiplomacy(card=card):
            return diplomacy_action(state, seat, card, rng)
        case Pass():
            return pass_turn(state, seat, rng)
        case _:
            raise Rejected(
                "choose_an_action",
                "Nothing is waiting for a choice: play a card from your hand for an action.",
            )


def _in_hand(state: State, seat: Seat, card: CardId) -> None:
    if card not in state.players[seat].hand:
        raise Rejected("card_not_in_hand", f"{card} is not a card in your hand.")


def influence_action(state: State, seat: Seat, card: CardId, rng: Rng) -> Turn:
    """Rule (Influence Action): spend the credit cost, less one per card already in your
    stack of that planet (never below 0), play the card to your stack and carry out its
    effects from left to right."""
    _in_hand(state, seat, card)
    cost = price(state, seat, card)
    if cost > state.players[seat].credits:
        raise Rejected(
            "not_enough_credits",
            f"{AGENTS[card].name} costs you {cost} credits; you have "
            f"{state.players[seat].credits}.",
        )
    turn = Turn(state, evolve)
    turn.record(CardPlayed(seat=seat, card=card, action="influence", credits=cost))
    turn.record(EffectsQueued(seat=seat, effects=AGENTS[card].effects))
    effects.carry_on(turn, rng)
    return turn


def technology_action(state: State, seat: Seat, card: CardId, rng: Rng) -> Turn:
    """Rule (Technology Action): discard the card, pay the next level's Zenithium (1 to
    5) on its faction's track and move up one level."""
    _in_hand(state, seat, card)
    track = AGENTS[card].faction
    level = state.players[seat].tracks[track] + 1
    if level > LEVELS:
        raise Rejected("track_complete", f"Your {track} track is already at level {LEVELS}.")
    if state.players[seat].zenithium < level:
        raise Rejected(
            "not_enough_zenithium",
            f"Level {level} of the {track} track costs {level} Zenithium; you have "
            f"{state.players[seat].zenithium}.",
        )
    turn = Turn(state, evolve)
    turn.record(CardPlayed(seat=seat, card=card, action="technology", zenithium=level))
    effects.advance(turn, seat, track)
    effects.carry_on(turn, rng)
    return turn


def diplomacy_action(state: State, seat: Seat, card: CardId, rng: Rng) -> Turn:
    """Rule (Diplomacy Action): discard the card to gain the Leader Badge plus the
    diplomacy bonus of the card's faction."""
    _in_hand(state, seat, card)
    turn = Turn(state, evolve)
    turn.record(CardPlayed(seat=seat, card=card, action="diplomacy"))
    turn.record(EffectsQueued(seat=seat, effects=(TakeBadge(), _diplomacy_bonus(card))))
    effects.carry_on(turn, rng)
    return turn


def _diplomacy_bonus(card: CardId) -> Effect:
    kind, amount = DIPLOMACY_BONUS[AGENTS[card].faction]
    if kind == "zenithium":
        return Zenithium(amount)
    if kind == "credits":
        return Credits(amount)
    return Mobilize(amount)


def pass_turn(state: State, seat: Seat, rng: Rng) -> Turn:
    """With an empty hand and nothing left to draw, the turn passes; when both players
    pass in a row the game is stuck and ends."""
    if state.players[seat].hand:
        raise Rejected("must_play_a_card", "You hold cards: play one for an action.")
    turn = Turn(state, evolve)
    turn.record(TurnPassed(seat=seat))
    if turn.state.passes >= 2:
        turn.record(GameWon(seat=None, victory="stalemate"))
        return turn
    effects.end_of_turn(turn, rng)
    return turn


def outcome(state: State) -> Outcome | None:
    """The winner ranks first; a stuck game ranks by influence tokens won."""
    if state.phase != "over":
        return None
    scores = tuple(len(p.tokens) for p in state.players)
    if state.winner is not None:
        ranks = tuple(1 if seat == state.winner else 2 for seat in range(2))
        return Outcome(scores=scores, ranks=ranks)
    return Outcome(scores=scores, ranks=ranks_from_scores(scores))


# --- legal -----------------------------------------------------------------------------------


def to_act(state: State) -> frozenset[Seat]:
    if state.phase == "action":
        return frozenset({state.player})
    if state.phase == "effects" and state.pending:
        return frozenset({state.pending[0].seat})
    return frozenset()


def legal(state: State, seat: Seat) -> Iterator[Command]:
    if seat not in to_act(state):
        return
    if state.phase == "effects":
        yield from effects.choices(state, state.pending[0]) or ()
        return
    me = state.players[seat]
    if not me.hand:
        yield Pass()
    for card in me.hand:
        if price(state, seat, card) <= me.credits:
            yield PlayInfluence(card=card)
        level = me.tracks[AGENTS[card].faction] + 1
        if level <= LEVELS and me.zenithium >= level:
            yield PlayTechnology(card=card)
        yield PlayDiplomacy(card=card)
