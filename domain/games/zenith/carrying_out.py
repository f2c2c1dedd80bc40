"""Carrying out effects, left to right, for the seat whose step it is.

The waiting effects form a queue (`State.pending`). Each is taken in turn: one that needs
nothing from the player happens at once; one with a single possible choice is taken for
the player; one with several waits for the seat's command (a planet, a card, a track, a
token, an option, accept or decline); one with no possible choice has no effect. An IF
always waits, since it may be declined.
"""

from __future__ import annotations

import msgspec

from domain.games.zenith.agents import AGENTS, CardId
from domain.games.zenith.board import ABSOLUTE, DEMOCRATIC, EDGE, FACTIONS, PLANETS, POPULAR
from domain.games.zenith.bonus import BONUSES, BonusId
from domain.games.zenith.commands import (
    Accept,
    ChooseBonus,
    ChooseCard,
    ChooseOption,
    ChoosePlanet,
    ChooseTrack,
    Command,
    Decline,
)
from domain.games.zenith.effects import (
    ByTechTracks,
    Choice,
    Cost,
    Credits,
    CreditsPerColour,
    Develop,
    DiscardFromHand,
    DiscardHand,
    Effect,
    EveryPlanet,
    ExileOpponent,
    ExileOwn,
    Faction,
    GiveBadge,
    GiveOpponent,
    Influence,
    Mobilize,
    Neighbours,
    OpponentGains,
    OpponentInfluence,
    Optional,
    Planet,
    ResetDisc,
    Sacrifice,
    Simple,
    Spend,
    Steal,
    TakeBadge,
    TakeBonus,
    Transfer,
    Zenithium,
)
from domain.games.zenith.events import (
    BadgeSide,
    BadgeTaken,
    BonusTaken,
    CardExiled,
    CardsDiscarded,
    CardsDrawn,
    CardsMobilized,
    CardTransferred,
    DiscardReshuffled,
    DiscReset,
    EffectBegan,
    EffectsQueued,
    GameWon,
    InfluenceGained,
    ResourcesChanged,
    RowBonusEarned,
    TechnologyAdvanced,
    TokenCaptured,
    TurnBegan,
    Victory,
)
from domain.games.zenith.evolve import evolve
from domain.games.zenith.state import State, Step
from domain.games.zenith.table import Turn, hand_size, other, pull, who
from domain.games.zenith.technology import BOARDS, BONUS_LEVEL, LEVELS, ROW_BONUS_LEVELS
from domain.kernel import Rejected, Rng, Seat

# --- the queue -------------------------------------------------------------------------------


def carry_on(turn: Turn, rng: Rng) -> None:
    """Carry out waiting effects until one needs the player, or none is left (the turn
    then ends)."""
    while turn.state.phase != "over" and turn.state.pending:
        step = turn.state.pending[0]
        picks = choices(turn.state, step)
        if picks and (len(picks) > 1 or isinstance(step.effect, Optional)):
            return
        turn.record(EffectBegan(seat=step.seat, effect=step.effect))
        if picks is None:
            carry_out(turn, step, None, rng)
        elif picks:
            carry_out(turn, step, picks[0], rng)
    if turn.state.phase != "over":
        end_of_turn(turn, rng)


def answer(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    """The seat answers the effect waiting for it."""
    step = state.pending[0]
    picks = choices(state, step) or []
    if command not in picks:
        if picks and type(command) not in {type(p) for p in picks}:
            raise Rejected(
                "answer_the_effect",
                f"{who(seat)} must first answer the card's effect: {wanted(step.effect)}.",
            )
        raise Rejected(
            "not_a_choice", f"That is not one of the choices for: {wanted(step.effect)}."
        )
    turn = Turn(state, evolve)
    turn.record(EffectBegan(seat=seat, effect=step.effect))
    carry_out(turn, step, command, rng)
    carry_on(turn, rng)
    return turn


def wanted(effect: Effect) -> str:
    """What the waiting effect asks, for a referee's sentence."""
    match effect:
        case Optional():
            return "pay the condition or decline it"
        case Choice():
            return "choose one of the options"
        case DiscardFromHand():
            return "discard a card from your hand"
        case Develop():
            return "choose a technology track"
        case TakeBonus():
            return "choose a face-up bonus token"
        case _:
            return "choose a planet"


def end_of_turn(turn: Turn, rng: Rng) -> None:
    """Rule (End of Turn): draw back up to your hand size (never discard down); play
    passes to the opponent."""
    seat = turn.state.player
    missing = hand_size(turn.state, seat) - len(turn.state.players[seat].hand)
    if missing > 0:
        draw(turn, seat, missing, rng)
    turn.record(TurnBegan(seat=other(seat)))


def _from_deck(turn: Turn, count: int, rng: Rng) -> list[CardId]:
    """Up to `count` cards from the deck; an empty deck takes the discard pile, shuffled."""
    if count > len(turn.state.deck) and turn.state.discard and not turn.state.deck:
        turn.record(DiscardReshuffled(count=len(turn.state.discard)))
    return rng.sample(turn.state.deck, min(count, len(turn.state.deck)))


def draw(turn: Turn, seat: Seat, count: int, rng: Rng) -> None:
    while count > 0:
        cards = _from_deck(turn, count, rng)
        if not cards:
            return
        turn.record(CardsDrawn(seat=seat, count=len(cards), cards=tuple(sorted(cards))))
        count -= len(cards)


# --- choices ---------------------------------------------------------------------------------


def choices(state: State, step: Step) -> list[Command] | None:
    """The answers the effect accepts; None when it needs no answer."""
    seat, effect = step.seat, step.effect
    match effect:
        case Influence(planet=None):
            return _planets(_influence_targets(state, seat, effect))
        case OpponentInfluence(exclude=exclude):
            return _planets([p for p in PLANETS if p != exclude])
        case Neighbours(amounts=amounts):
            return _planets(PLANETS[: len(PLANETS) - len(amounts) + 1])
        case ResetDisc():
            return _planets([p for p in PLANETS if pull(seat) * state.discs[p] < 0])
        case Transfer(planet=None) | ExileOpponent():
            return _planets(_stacks(state, other(seat)))
        case ExileOwn(planet=planet, exclude=exclude):
            stacks = _stacks(state, seat)
            return _planets([p for p in stacks if p != exclude and planet in (None, p)])
        case Sacrifice(chain=chain):
            stacks = _stacks(state, seat)
            return _planets([p for p in stacks if chain != "different" or p != state.chain])
        case TakeBonus(face_up=True):
            return [ChooseBonus(token=t) for t in _face_up_bonuses(state)]
        case DiscardFromHand():
            return [ChooseCard(card=c) for c in sorted(state.players[seat].hand)]
        case Develop():
            return [ChooseTrack(track=t) for t in _developable(state, seat, effect)]
        case Choice(options=options):
            return [ChooseOption(option=i + 1) for i in range(len(options))]
        case Optional(mandatory=False, cost=cost) if cost.kind not in (
            "hold_badge",
            "have_credits",
        ):
            tiers = [i + 1 for i, n in enumerate(effect.tiers) if payable(state, seat, cost, n)]
            return [*(Accept(tier=t) for t in tiers), Decline()] if tiers else []
        case _:
            return None


def _planets(planets: list[Planet] | tuple[Planet, ...]) -> list[Command]:
    return [ChoosePlanet(planet=p) for p in planets]


def _influence_targets(state: State, seat: Seat, effect: Influence) -> list[Planet]:
    """Rule (cards): "any planet", but not the excluded one, only a disc on the opponent's
    side or still in the centre where the card says, and in a chain another planet."""
    out = []
    for p in PLANETS:
        disc = pull(seat) * state.discs[p]
        if p == effect.exclude or (effect.chain == "different" and p == state.chain):
            continue
        if (effect.where == "opponent_side" and disc >= 0) or (effect.where == "centre" and disc):
            continue
        out.append(p)
    return out


def _stacks(state: State, seat: Seat) -> list[Planet]:
    return [p for p in PLANETS if state.players[seat].zone[p]]


def _face_up_bonuses(state: State) -> list[BonusId]:
    tokens = [*state.planet_bonuses.values(), *state.track_bonuses.values()]
    return sorted(t for t in tokens if t is not None)


def _developable(state: State, seat: Seat, effect: Develop) -> list[Faction]:
    tracks = state.players[seat].tracks
    open_tracks = [f for f in FACTIONS if tracks[f] < LEVELS]
    if effect.track == "least":
        low = min((tracks[f] for f in open_tracks), default=LEVELS)
        open_tracks = [f for f in open_tracks if tracks[f] == low]
    elif effect.track != "any":
        open_tracks = [f for f in open_tracks if f == effect.track]
    zen = state.players[seat].zenithium
    return [f for f in open_tracks if _develop_cost(tracks[f] + 1, effect) <= zen]


def _develop_cost(level: int, effect: Develop) -> int:
    return 0 if effect.free else max(0, level - effect.discount)


def payable(state: State, seat: Seat, cost: Cost, amount: int) -> bool:
    """Whether the seat can meet the IF's condition `amount` times."""
    me, them = state.players[seat], state.players[other(seat)]
    match cost.kind:
        case "exile_own":
            own = [p for p in PLANETS if p != cost.exclude and cost.planet in (None, p)]
            return sum(len(me.zone[p]) for p in own) >= amount
        case "give_zenithium" | "spend_zenithium":
            return me.zenithium >= amount
        case "give_credits" | "spend_credits" | "have_credits":
            return me.credits >= amount
        case "give_badge" | "hold_badge":
            return state.badge == seat
        case "discard_card":
            return bool(me.hand)
        case "transfer_card" | "exile_opponent_card":
            return any(them.zone[p] for p in PLANETS)
        case "mobilize_card":
            return bool(state.deck or state.discard)
    raise AssertionError(cost.kind)


# --- carrying out ----------------------------------------------------------------------------


def carry_out(turn: Turn, step: Step, pick: Command | None, rng: Rng) -> None:
    seat, effect, state = step.seat, step.effect, turn.state
    planet = pick.planet if isinstance(pick, ChoosePlanet) else None
    match effect:
        case Influence(amount=amount, planet=fixed, chain=chain):
            target = fixed or planet
            assert target is not None
            gain_influence(turn, seat, target, amount, chain=chain is not None)
        case OpponentInfluence(amount=amount):
            assert planet is not None
            gain_influence(turn, other(seat), planet, amount)
        case Neighbours(amounts=amounts):
            assert planet is not None
            first = PLANETS.index(planet)
            for offset, amount in enumerate(amounts):
                if turn.state.phase != "over":
                    gain_influence(turn, seat, PLANETS[first + offset], amount)
        case EveryPlanet(amount=amount):
            for p in PLANETS:
                if turn.state.phase != "over":
                    gain_influence(turn, seat, p, amount)
        case ResetDisc():
            assert planet is not None
            turn.record(DiscReset(planet=planet))
        case Credits(amount=amount):
            turn.record(ResourcesChanged(seat=seat, credits=amount))
        case Zenithium(amount=amount):
            turn.record(ResourcesChanged(seat=seat, zenithium=amount))
        case OpponentGains(credits=credits, zenithium=zen):
            turn.record(ResourcesChanged(seat=other(seat), credits=credits, zenithium=zen))
        case GiveOpponent(credits=credits, zenithium=zen):
            turn.record(ResourcesChanged(seat=seat, credits=-credits, zenithium=-zen))
            turn.record(ResourcesChanged(seat=other(seat), credits=credits, zenithium=zen))
        case Spend(credits=credits, zenithium=zen):
            turn.record(ResourcesChanged(seat=seat, credits=-credits, zenithium=-zen))
        case Steal(credits=credits, zenithium=zen):
            steal(turn, seat, credits, zen)
        case CreditsPerColour(per=per, whose=whose):
            owner = seat if whose == "own" else other(seat)
            colours = len(_stacks(state, owner))
            turn.record(ResourcesChanged(seat=seat, credits=per * colours))
        case ByTechTracks(credits=credits, zenithium=zen):
            tracks = sum(1 for level in state.players[seat].tracks.values() if level >= 1)
            if tracks:
                gained_credits = credits[tracks - 1] if credits else 0
                gained_zen = zen[tracks - 1] if zen else 0
                turn.record(
                    ResourcesChanged(seat=seat, credits=gained_credits, zenithium=gained_zen)
                )
        case Mobilize(count=count):
            mobilize(turn, seat, count, rng)
        case Transfer(count=count, planet=fixed, refund=refund):
            target = fixed or planet
            assert target is not None
            transfer(turn, seat, target, refund)
            if count > 1:
                turn.record(EffectsQueued(seat=seat, effects=(Transfer(count - 1, fixed, refund),)))
        case ExileOpponent(count=count, refund=refund):
            assert planet is not None
            card = state.players[other(seat)].zone[planet][-1]
            turn.record(CardExiled(owner=other(seat), card=card))
            if refund:
                turn.record(ResourcesChanged(seat=seat, credits=AGENTS[card].cost))
            if count > 1:
                turn.record(EffectsQueued(seat=seat, effects=(ExileOpponent(count - 1, refund),)))
        case ExileOwn(count=count, planet=only, exclude=exclude):
            assert planet is not None
            turn.record(CardExiled(owner=seat, card=state.players[seat].zone[planet][-1]))
            if count > 1:
                turn.record(EffectsQueued(seat=seat, effects=(ExileOwn(count - 1, only, exclude),)))
        case Sacrifice(amount=amount):
            assert planet is not None
            turn.record(CardExiled(owner=seat, card=state.players[seat].zone[planet][-1]))
            gain_influence(turn, seat, planet, amount, chain=True)
        case TakeBadge(gold=gold):
            take_badge(turn, seat, gold)
        case GiveBadge():
            turn.record(BadgeTaken(seat=other(seat), side="silver"))
        case TakeBonus(face_up=face_up):
            token = pick.token if isinstance(pick, ChooseBonus) else None
            if not face_up and state.reserve:
                token = rng.choice(state.reserve)
            if token is not None:
                take_bonus(turn, seat, token)
        case DiscardFromHand(count=count, refund=refund):
            assert isinstance(pick, ChooseCard)
            turn.record(CardsDiscarded(seat=seat, cards=(pick.card,)))
            if refund:
                turn.record(ResourcesChanged(seat=seat, credits=AGENTS[pick.card].cost))
            if count > 1:
                turn.record(EffectsQueued(seat=seat, effects=(DiscardFromHand(count - 1, refund),)))
        case DiscardHand():
            if state.players[seat].hand:
                turn.record(CardsDiscarded(seat=seat, cards=state.players[seat].hand))
        case Develop():
            assert isinstance(pick, ChooseTrack)
            level = state.players[seat].tracks[pick.track] + 1
            cost = _develop_cost(level, effect)
            if cost:
                turn.record(ResourcesChanged(seat=seat, zenithium=-cost))
            advance(turn, seat, pick.track)
        case Optional():
            if isinstance(pick, Accept):
                meet_condition(turn, seat, effect, pick.tier)
            elif pick is None and payable(state, seat, effect.cost, effect.tiers[0]):
                meet_condition(turn, seat, effect, 1)
        case Choice(options=options):
            assert isinstance(pick, ChooseOption)
            turn.record(EffectsQueued(seat=seat, effects=options[pick.option - 1]))
        case _:
            raise TypeError(f"not a Zenith effect: {effect!r}")


def gain_influence(
    turn: Turn, seat: Seat, planet: Planet, steps: int, *, chain: bool = False
) -> None:
    """Rule (Influence): move the planet's disc toward you; at your edge you keep the
    influence token and a new one is placed; excess influence is lost. The first to win a
    planet's token takes its face-up bonus token."""
    to_edge = EDGE - pull(seat) * turn.state.discs[planet]
    moved = min(steps, to_edge)
    turn.record(InfluenceGained(seat=seat, planet=planet, steps=moved, chain=chain))
    if moved < to_edge:
        return
    turn.record(TokenCaptured(seat=seat, planet=planet))
    victory = victory_of(turn.state, seat)
    if victory is not None:
        turn.record(GameWon(seat=seat, victory=victory))
        return
    token = turn.state.planet_bonuses.get(planet)
    if token is not None:
        take_bonus(turn, seat, token)


def victory_of(state: State, seat: Seat) -> Victory | None:
    """Rule (The Game, Winning): 3 tokens of one planet, 4 of different planets or 5 in
    all end the game at once."""
    tokens = state.players[seat].tokens
    if max(tokens.count(p) for p in PLANETS) >= ABSOLUTE:
        return "absolute"
    if len(set(tokens)) >= DEMOCRATIC:
        return "democratic"
    if len(tokens) >= POPULAR:
        return "popular"
    return None


def take_bonus(turn: Turn, seat: Seat, token: BonusId) -> None:
    """Rule (Bonus tokens): a one-time bonus; once claimed it is removed, not replaced."""
    turn.record(BonusTaken(seat=seat, token=token))
    turn.record(EffectsQueued(seat=seat, effects=(BONUSES[token][1],)))


def take_badge(turn: Turn, seat: Seat, gold: bool) -> None:
    """Rule (Diplomacy): gaining the Leader Badge, take it silver side up; already yours
    on silver, turn it gold; already gold, it stays gold. Some cards give it gold at once."""
    state = turn.state
    side: BadgeSide = "gold" if gold or state.badge == seat else "silver"
    turn.record(BadgeTaken(seat=seat, side=side))


def steal(turn: Turn, seat: Seat, credits: int, zen: int) -> None:
    them = turn.state.players[other(seat)]
    credits, zen = min(credits, them.credits), min(zen, them.zenithium)
    if credits or zen:
        turn.record(ResourcesChanged(seat=other(seat), credits=-credits, zenithium=-zen))
        turn.record(ResourcesChanged(seat=seat, credits=credits, zenithium=zen))


def mobilize(turn: Turn, seat: Seat, count: int, rng: Rng) -> None:
    """Mobilize n: the top n cards of the deck straight into your zone, no cost, no effects."""
    while count > 0:
        cards = _from_deck(turn, count, rng)
        if not cards:
            return
        turn.record(CardsMobilized(seat=seat, cards=tuple(sorted(cards))))
        count -= len(cards)


def transfer(turn: Turn, seat: Seat, planet: Planet, refund: bool) -> None:
    """Transfer: the top card of the opponent's stack of that planet moves to yours."""
    stack = turn.state.players[other(seat)].zone[planet]
    if not stack:
        return
    turn.record(CardTransferred(seat=seat, card=stack[-1]))
    if refund:
        turn.record(ResourcesChanged(seat=seat, credits=AGENTS[stack[-1]].cost))


def meet_condition(turn: Turn, seat: Seat, effect: Optional, tier: int) -> None:
    """IF: the condition's `tier`-th amount is paid first, then the reward, multiplied."""
    amount, times = effect.tiers[tier - 1], effect.multipliers[tier - 1]
    paid = _paying(effect.cost, amount)
    reward = tuple(_times(e, times) for e in effect.reward)
    if paid or reward:
        turn.record(EffectsQueued(seat=seat, effects=(*paid, *reward)))


def _paying(cost: Cost, amount: int) -> tuple[Effect, ...]:
    match cost.kind:
        case "exile_own":
            return (ExileOwn(amount, cost.planet, cost.exclude),)
        case "give_zenithium":
            return (GiveOpponent(zenithium=amount),)
        case "give_credits":
            return (GiveOpponent(credits=amount),)
        case "spend_zenithium":
            return (Spend(zenithium=amount),)
        case "spend_credits":
            return (Spend(credits=amount),)
        case "give_badge":
            return (GiveBadge(),)
        case "discard_card":
            return (DiscardFromHand(1, refund=cost.refund),)
        case "transfer_card":
            return (Transfer(1, refund=cost.refund),)
        case "exile_opponent_card":
            return (ExileOpponent(1, refund=cost.refund),)
        case "mobilize_card":
            return (Mobilize(1),)
    return ()


def _times(effect: Simple, times: int) -> Simple:
    match effect:
        case Influence() | Credits() | Zenithium() if times != 1:
            return msgspec.structs.replace(effect, amount=effect.amount * times)
    return effect


def advance(turn: Turn, seat: Seat, track: Faction) -> None:
    """Rule (Technology Action): the marker moves one level and you gain the effect of
    that level plus all previous levels of that board; the first to arrive at level 2
    takes its bonus token; the row bonus (all three tracks at level 1, 2 or 3) gives that
    much influence on a planet of your choice, once each."""
    level = turn.state.players[seat].tracks[track] + 1
    turn.record(TechnologyAdvanced(seat=seat, track=track, level=level))
    side = turn.state.sides[FACTIONS.index(track)]
    gained: list[Effect] = [e for lvl in BOARDS[track][side][:level] for e in lvl]
    token = turn.state.track_bonuses.get(track)
    queued: list[Effect] = []
    if level == BONUS_LEVEL and token is not None:
        turn.record(BonusTaken(seat=seat, token=token))
        queued.append(BONUSES[token][1])
    queued.extend(gained)
    lowest = min(turn.state.players[seat].tracks.values())
    for row in ROW_BONUS_LEVELS:
        if lowest >= row and row not in turn.state.players[seat].row_bonuses:
            turn.record(RowBonusEarned(seat=seat, level=row))
            queued.append(Influence(row))
    turn.record(EffectsQueued(seat=seat, effects=tuple(queued)))
