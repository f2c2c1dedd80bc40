"""A First Giants turn: one main action (excavate a dig site, or exhibit a card), free
actions around it (sets, news, initiative, a double action), then End Turn.

Rule sentences cite the seed (002, "Gamehelpfirstgiants", 2026-04-04), which stands over
rules-batch2.md's account of the published game, and the README's house-made list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

import msgspec

from domain.games.firstgiants.cards import (
    AMBER_PER_POINT,
    BONES,
    DINOSAURS,
    DOUBLE_ACTION_COST,
    FAMILY_SET,
    INITIATIVE_COST,
    MILESTONES,
    NEWS_POINTS,
    SET_TOKEN_POINTS,
    SITE_CARDS,
    SITE_YIELD,
    SITES,
    CardId,
)
from domain.games.firstgiants.commands import (
    Command,
    CompleteSet,
    DoubleAction,
    EndTurn,
    Excavate,
    Exhibit,
    SecureInitiative,
    SpendNews,
)
from domain.games.firstgiants.events import (
    ActionDoubled,
    AmberGained,
    BonesDrawn,
    CardAcquired,
    CardExhibited,
    EndTriggered,
    Event,
    Excavated,
    GameEnded,
    InitiativeSecured,
    NewsEarned,
    NewsSpent,
    PlayerConceded,
    SetCompleted,
    SiteFilled,
    TurnBegan,
)
from domain.games.firstgiants.state import Museum, ScoreSheet, Table
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys

Turn = Recorder[Table, Event]
T = TypeVar("T")
BOOSTED = {"mountains": "skull", "desert": "rib", "jungle": "amber"}
"""What one more token from a boosted visit is."""

# --- reading the table -----------------------------------------------------------------------


def is_active(state: Table, seat: Seat) -> bool:
    return seat not in state.conceded


def active(museum: Museum, effect: str) -> int:
    """How many cards in the workshop have that effect (exhibited cards lost theirs)."""
    return sum(1 for c in museum.workshop if DINOSAURS[c].effect == effect)


def dig_cost(museum: Museum, card: CardId) -> int:
    """A card's excavation cost in amber, less 1 per discount card in the workshop."""
    return max(0, DINOSAURS[card].dig_cost - active(museum, "passive:discount"))


def exhibit_price(state: Table, museum: Museum, card: CardId) -> tuple[dict[str, int], int]:
    """Bones paid and amber paid to exhibit: the card's bones, amber for the missing ones
    (option exhibit_cost="amber": its prestige in amber)."""
    dino = DINOSAURS[card]
    if state.options.exhibit_cost == "amber":
        return {}, dino.prestige
    bones = {b: min(n, museum.bones[b]) for b, n in dino.bones.items()}
    missing = sum(dino.bones.values()) - sum(bones.values())
    return {b: n for b, n in bones.items() if n}, missing


def can_exhibit(state: Table, museum: Museum, card: CardId) -> bool:
    return exhibit_price(state, museum, card)[1] <= museum.amber


def has_set(museum: Museum) -> bool:
    return all(museum.bones[b] >= 1 for b in BONES)


# --- setup -----------------------------------------------------------------------------------


def start(state: Table, rng: Rng) -> Turn:
    """House: two cards face up at each dig site; seat 1 begins, clockwise."""
    turn = Turn(state, evolve)
    for site in SITES:
        refill(turn, site, rng)
    turn.record(TurnBegan(seat=0, round=1, order=tuple(range(state.seats))))
    return turn


def refill(turn: Turn, site: str, rng: Rng) -> None:
    while len(turn.state.sites[site]) < SITE_CARDS and turn.state.deck:
        turn.record(SiteFilled(site=site, card=rng.choice(turn.state.deck)))


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "The game is over; the curators are counted.")
    if state.phase == "setup":
        raise Rejected("not_started", "The dig sites are not laid out yet.")
    if seat != state.player or not is_active(state, seat):
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn.")
    match command:
        case Excavate(site=site, card=card):
            return excavate(state, seat, site, card, rng)
        case Exhibit(card=card):
            return exhibit(state, seat, card)
        case CompleteSet():
            return complete_set(state, seat)
        case SpendNews():
            return spend_news(state, seat, rng)
        case SecureInitiative():
            return secure_initiative(state, seat)
        case DoubleAction():
            return double_action(state, seat)
        case EndTurn():
            return end_turn(state, seat)
        case _:
            raise Rejected(
                "unknown_command", f"{type(command).__name__} is not a First Giants move."
            )


def _main_action_due(state: Table) -> None:
    if state.phase != "main":
        raise Rejected("main_action_done", "Your main action is done; end your turn.")


def excavate(state: Table, seat: Seat, site: str, card: CardId | None, rng: Rng) -> Turn:
    """Page: visit a dig site; the Mountains and the Desert give fossils, the Jungle amber;
    a card acquired goes to your workshop. Passive cards boost visits and cut costs."""
    _main_action_due(state)
    if site not in SITES:
        raise Rejected("no_such_site", f"The dig sites are {', '.join(SITES)}; not {site!r}.")
    museum = state.museums[seat]
    if card is not None:
        if card not in state.sites[site]:
            raise Rejected("card_not_at_site", f"{card} is not at the {site} dig site.")
        if dig_cost(museum, card) > museum.amber:
            raise Rejected("amber_short", f"Excavating it costs {dig_cost(museum, card)} amber.")
    turn = Turn(state, evolve)
    gained = dict(SITE_YIELD[site])
    boosts = active(museum, f"passive:boost:{site}")
    gained[BOOSTED[site]] = gained.get(BOOSTED[site], 0) + boosts
    for bone in BONES:  # the bag may run short of a bone
        if bone in gained:
            gained[bone] = min(gained[bone], state.bag[bone])
    turn.record(Excavated(seat=seat, site=site, gained={k: v for k, v in gained.items() if v}))
    if card is not None:
        paid = dig_cost(museum, card)
        turn.record(CardAcquired(seat=seat, card=card, site=site, amber_paid=paid))
        instant(turn, seat, card, rng)
        refill(turn, site, rng)
        if not turn.state.deck and not turn.state.end_triggered:
            turn.record(EndTriggered(seat=seat, reason="deck_empty"))
    return turn


def instant(turn: Turn, seat: Seat, card: CardId, rng: Rng) -> None:
    """Page (arrow icon): an instant effect triggers once, as the card is acquired."""
    kind, _, rest = DINOSAURS[card].effect.partition(":")
    if kind != "instant":
        return
    what, _, n = rest.partition(":")
    if what == "amber":
        turn.record(AmberGained(seat=seat, amount=int(n), card=card))
    elif what == "bag":
        bag = dict(turn.state.bag)
        drawn: list[str] = []
        for _ in range(int(n)):
            pool = [b for b in BONES for _ in range(bag[b])]
            if not pool:
                break
            bone = rng.choice(pool)
            bag[bone] -= 1
            drawn.append(bone)
        turn.record(BonesDrawn(seat=seat, bones=tuple(drawn)))


def exhibit(state: Table, seat: Seat, card: CardId) -> Turn:
    """Page: move a completed card from the workshop to the museum: it scores its prestige
    and loses its abilities. A set of three of one family, and being first to 3 and 6
    exhibits, earn news tokens; reactive cards react."""
    _main_action_due(state)
    museum = state.museums[seat]
    if card not in museum.workshop:
        raise Rejected("card_not_in_workshop", f"{card} is not in your workshop.")
    if not can_exhibit(state, museum, card):
        raise Rejected("fossils_missing", "Your fossils and amber cannot complete that card.")
    bones, amber = exhibit_price(state, museum, card)
    dino = DINOSAURS[card]
    turn = Turn(state, evolve)
    turn.record(
        CardExhibited(
            seat=seat, card=card, bones_paid=bones, amber_paid=amber, prestige=dino.prestige
        )
    )
    for source in turn.state.museums[seat].workshop:
        if DINOSAURS[source].effect == f"reactive:exhibit:{dino.family}":
            turn.record(AmberGained(seat=seat, amount=1, card=source))
    after = turn.state.museums[seat]
    same = sum(1 for c in after.exhibit if DINOSAURS[c].family == dino.family)
    if same % FAMILY_SET == 0:
        turn.record(NewsEarned(seat=seat, reason=f"family:{dino.family}"))
    size = len(after.exhibit)
    if size in MILESTONES and size not in turn.state.milestones:
        turn.record(NewsEarned(seat=seat, reason=f"milestone:{size}"))
    return turn


def complete_set(state: Table, seat: Seat) -> Turn:
    """Page: completed fossil sets score; house: a skull, a rib and a claw buy a set token.
    Taking the last set token triggers the end."""
    if not has_set(state.museums[seat]):
        raise Rejected("set_incomplete", "A fossil set is a skull, a rib and a claw.")
    if state.set_tokens == 0:
        raise Rejected("no_set_tokens", "The supply holds no set token any more.")
    turn = Turn(state, evolve)
    turn.record(SetCompleted(seat=seat))
    if turn.state.set_tokens == 0 and not turn.state.end_triggered:
        turn.record(EndTriggered(seat=seat, reason="last_set_token"))
    return turn


def spend_news(state: Table, seat: Seat, rng: Rng) -> Turn:
    """Page: a news token may be spent for a one-time bonus, like drawing a card."""
    if state.museums[seat].news == 0:
        raise Rejected("no_news", "You have no news token to spend.")
    if not state.deck:
        raise Rejected("deck_empty", "The deck is empty; there is no card to draw.")
    turn = Turn(state, evolve)
    turn.record(NewsSpent(seat=seat))
    card = rng.choice(state.deck)
    turn.record(CardAcquired(seat=seat, card=card, site=None, amber_paid=0))
    instant(turn, seat, card, rng)
    if not turn.state.deck and not turn.state.end_triggered:
        turn.record(EndTriggered(seat=seat, reason="deck_empty"))
    return turn


def secure_initiative(state: Table, seat: Seat) -> Turn:
    """Page: spend amber to move your marker first in the next round's turn order."""
    if state.initiative is not None:
        who = "You have" if state.initiative == seat else f"Seat {state.initiative + 1} has"
        raise Rejected("initiative_taken", f"{who} already secured the next round's lead.")
    if state.museums[seat].amber < INITIATIVE_COST:
        raise Rejected("amber_short", f"Initiative costs {INITIATIVE_COST} amber.")
    turn = Turn(state, evolve)
    turn.record(InitiativeSecured(seat=seat, amber_paid=INITIATIVE_COST))
    return turn


def double_action(state: Table, seat: Seat) -> Turn:
    """Page: spend amber to perform a second main action this turn."""
    if state.doubled:
        raise Rejected("already_doubled", "You have already bought a second main action.")
    if state.museums[seat].amber < DOUBLE_ACTION_COST:
        raise Rejected("amber_short", f"A double action costs {DOUBLE_ACTION_COST} amber.")
    turn = Turn(state, evolve)
    turn.record(ActionDoubled(seat=seat, amber_paid=DOUBLE_ACTION_COST))
    return turn


def end_turn(state: Table, seat: Seat) -> Turn:
    if state.phase != "after":
        raise Rejected("main_action_due", "Take your main action before ending the turn.")
    turn = Turn(state, evolve)
    next_turn(turn)
    return turn


def next_turn(turn: Turn) -> None:
    """Page: turns go clockwise; the initiative marker sets the next round's order. House:
    once the end is triggered the round is played out; round 30 is the last at most."""
    state = turn.state
    later = [s for s in state.order[state.order.index(state.player) + 1 :] if is_active(state, s)]
    if later:
        turn.record(TurnBegan(seat=later[0], round=state.round, order=tuple(state.order)))
        return
    if state.end_triggered or state.round >= state.options.max_rounds:
        turn.record(GameEnded(sheets=tuple(score_sheet(m) for m in state.museums)))
        return
    lead = state.initiative if state.initiative is not None else state.order[0]
    order = tuple((lead + k) % state.seats for k in range(state.seats))
    first = next(s for s in order if is_active(state, s))
    turn.record(TurnBegan(seat=first, round=state.round + 1, order=order))


# --- the end ---------------------------------------------------------------------------------


def score_sheet(museum: Museum) -> ScoreSheet:
    """Page: displayed dinosaurs' prestige + news tokens + fossil sets + remaining amber."""
    prestige = sum(DINOSAURS[c].prestige for c in museum.exhibit)
    parts = (
        prestige,
        museum.news * NEWS_POINTS,
        museum.set_tokens * SET_TOKEN_POINTS,
        museum.amber // AMBER_PER_POINT,
    )
    return ScoreSheet(*parts, total=sum(parts))


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The seat leaves and ranks last; with one player left the match ends."""
    others = [s for s in range(state.seats) if s != seat and is_active(state, s)]
    if len(others) < 2 or state.phase in ("over", "setup"):
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    if seat == state.player:
        next_turn(turn)
    return turn


def outcome(state: Table) -> Outcome | None:
    """Page: the highest total prestige wins; equal totals share the rank."""
    if state.phase != "over":
        return None
    scores = tuple(sheet.total for sheet in state.sheets)
    keys = [(int(is_active(state, s)), scores[s]) for s in range(state.seats)]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> Iterator[Command]:
    if state.phase in ("setup", "over") or seat != state.player or not is_active(state, seat):
        return
    museum = state.museums[seat]
    if state.phase == "main":
        for site in SITES:
            yield Excavate(site=site)
            for card in state.sites[site]:
                if dig_cost(museum, card) <= museum.amber:
                    yield Excavate(site=site, card=card)
        for card in museum.workshop:
            if can_exhibit(state, museum, card):
                yield Exhibit(card=card)
    else:
        yield EndTurn()
    if has_set(museum) and state.set_tokens:
        yield CompleteSet()
    if museum.news and state.deck:
        yield SpendNews()
    if state.initiative is None and museum.amber >= INITIATIVE_COST:
        yield SecureInitiative()
    if not state.doubled and museum.amber >= DOUBLE_ACTION_COST:
        yield DoubleAction()


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case SiteFilled(site=site, card=card):
            return replace(
                state,
                sites={**state.sites, site: [*state.sites[site], card]},
                deck=[c for c in state.deck if c != card],
            )
        case TurnBegan(seat=seat, round=number, order=order):
            new_round = number != state.round
            return replace(
                state,
                phase="main",
                player=seat,
                round=number,
                order=list(order),
                main_left=1,
                doubled=False,
                initiative=None if new_round else state.initiative,
            )
        case Excavated(seat=seat, gained=gained):
            museum = state.museums[seat]
            bones = {b: n + gained.get(b, 0) for b, n in museum.bones.items()}
            bag = {b: n - gained.get(b, 0) for b, n in state.bag.items()}
            museum = replace(museum, bones=bones, amber=museum.amber + gained.get("amber", 0))
            return _main_done(replace(state, bag=bag, museums=_with(state.museums, seat, museum)))
        case CardAcquired(seat=seat, card=card, site=site, amber_paid=paid):
            museum = state.museums[seat]
            museum = replace(museum, workshop=[*museum.workshop, card], amber=museum.amber - paid)
            sites = state.sites
            if site is not None:
                sites = {**sites, site: [c for c in sites[site] if c != card]}
            return replace(
                state,
                sites=sites,
                deck=[c for c in state.deck if c != card],
                museums=_with(state.museums, seat, museum),
            )
        case AmberGained(seat=seat, amount=amount):
            return _museum(state, seat, lambda m: replace(m, amber=m.amber + amount))
        case BonesDrawn(seat=seat, bones=bones):
            museum = state.museums[seat]
            got = {b: n + bones.count(b) for b, n in museum.bones.items()}
            bag = {b: n - bones.count(b) for b, n in state.bag.items()}
            museum = replace(museum, bones=got)
            return replace(state, bag=bag, museums=_with(state.museums, seat, museum))
        case CardExhibited(seat=seat, card=card, bones_paid=paid, amber_paid=amber):
            museum = state.museums[seat]
            museum = replace(
                museum,
                workshop=[c for c in museum.workshop if c != card],
                exhibit=[*museum.exhibit, card],
                bones={b: n - paid.get(b, 0) for b, n in museum.bones.items()},
                amber=museum.amber - amber,
            )
            bag = {b: n + paid.get(b, 0) for b, n in state.bag.items()}
            return _main_done(replace(state, bag=bag, museums=_with(state.museums, seat, museum)))
        case NewsEarned(seat=seat, reason=reason):
            milestones = state.milestones
            if reason.startswith("milestone:"):
                milestones = sorted({*milestones, int(reason.partition(":")[2])})
            state = replace(state, milestones=milestones)
            return _museum(state, seat, lambda m: replace(m, news=m.news + 1))
        case NewsSpent(seat=seat):
            return _museum(state, seat, lambda m: replace(m, news=m.news - 1))
        case SetCompleted(seat=seat):
            museum = state.museums[seat]
            museum = replace(
                museum,
                bones={b: n - 1 for b, n in museum.bones.items()},
                set_tokens=museum.set_tokens + 1,
            )
            bag = {b: n + 1 for b, n in state.bag.items()}
            return replace(
                state,
                bag=bag,
                museums=_with(state.museums, seat, museum),
                set_tokens=state.set_tokens - 1,
            )
        case InitiativeSecured(seat=seat, amber_paid=cost):
            state = replace(state, initiative=seat)
            return _museum(state, seat, lambda m: replace(m, amber=m.amber - cost))
        case ActionDoubled(seat=seat, amber_paid=cost):
            state = replace(state, doubled=True, main_left=state.main_left + 1, phase="main")
            return _museum(state, seat, lambda m: replace(m, amber=m.amber - cost))
        case EndTriggered():
            return replace(state, end_triggered=True)
        case PlayerConceded(seat=seat):
            return replace(state, conceded=sorted({*state.conceded, seat}))
        case GameEnded(sheets=sheets):
            return replace(state, phase="over", sheets=list(sheets))
        case _:
            raise TypeError(f"not a First Giants event: {event!r}")


def _main_done(state: Table) -> Table:
    left = state.main_left - 1
    return msgspec.structs.replace(state, main_left=left, phase="main" if left else "after")


def _museum(state: Table, seat: Seat, change: Callable[[Museum], Museum]) -> Table:
    museum = change(state.museums[seat])
    return msgspec.structs.replace(state, museums=_with(state.museums, seat, museum))


def _with(rows: list[T], seat: Seat, row: T) -> list[T]:
    return [row if s == seat else r for s, r in enumerate(rows)]
