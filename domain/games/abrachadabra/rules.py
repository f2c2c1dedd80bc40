"""An Abrachadabra exam: in turn, drink a potion or draw a card, then maybe take a diploma.

Sources: the seed page (seed 002 line 1996, 2025-05-02) and rules-batch2.md section 10.
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from domain.games.abrachadabra.cards import (
    CARDS,
    CAT_POINTS,
    CATS_TO_LOSE,
    DIPLOMAS,
    FEATHER_POINTS,
    FIRST_TIME,
    KIND_OF,
    NEXT_TIME,
    PILE_OF,
    PILES,
    RABBITS,
    WINNING_POINTS,
    CardId,
    PileName,
    Time,
)
from domain.games.abrachadabra.commands import (
    Command,
    DrawCard,
    KeepCard,
    KeepStudying,
    TakeDiploma,
    UsePotion,
)
from domain.games.abrachadabra.events import (
    CardDrawn,
    CardKept,
    DiplomaTaken,
    Event,
    ExamBegan,
    ExamLost,
    ExamScored,
    FeatherTaken,
    GameEnded,
    LossReason,
    PlayerConceded,
    StudiesStopped,
    TurnBegan,
    VisionSeen,
)
from domain.games.abrachadabra.state import (
    AbrachadabraOptions,
    KnownTop,
    Phase,
    Student,
    Table,
)
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import next_seat

Turn = Recorder[Table, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- reading the table -----------------------------------------------------------------------


def rabbits(cards: list[CardId]) -> int:
    """Rule: the rabbits you own are counted over every card in front of you."""
    return sum(RABBITS[c] for c in cards)


def count(cards: list[CardId], kind: str) -> int:
    return sum(1 for c in cards if KIND_OF.get(c) == kind)


def loose_cats(cards: list[CardId]) -> int:
    """Rule: each wool ball takes up one black cat."""
    return max(0, count(cards, "cat") - count(cards, "wool"))


def loss_reason(state: Table, cards: list[CardId]) -> LossReason | None:
    """Rule: more rabbits than the biggest diploma, or three cats left loose, lose the exam.
    ASSUMPTION: the biggest diploma still on offer in this exam."""
    if rabbits(cards) > max(state.diplomas, default=0):
        return "rabbits"
    if loose_cats(cards) >= CATS_TO_LOSE:
        return "cats"
    return None


def matching_diploma(state: Table, seat: Seat) -> int | None:
    """Rule: exactly as many rabbits as an available diploma's value lets you take it."""
    owned = rabbits(state.students[seat].cards)
    return owned if owned in state.diplomas else None


def potions(state: Table, seat: Seat) -> list[CardId]:
    return [c for c in state.students[seat].cards if KIND_OF[c] == "potion"]


def exam_points(state: Table, seat: Seat) -> int:
    """Rule: a student who did not lose scores the diploma's value, 1 per black cat and 3
    for the feather."""
    student = state.students[seat]
    if student.standing in ("lost", "out"):
        return 0
    cats = count(student.cards, "cat") * CAT_POINTS
    feather = FEATHER_POINTS if state.feather == seat else 0
    return (student.diploma or 0) + cats + feather


def has_won(state: Table, points: int) -> bool:
    """Rule (page): more than 22 points ends the game; option ends_at_22: 22 or more."""
    if state.options.ends_at_22:
        return points >= WINNING_POINTS
    return points > WINNING_POINTS


def studying(state: Table, seat: Seat) -> bool:
    return state.students[seat].standing == "studying" and seat not in state.conceded


def active(state: Table) -> list[Seat]:
    return [s for s in range(state.seats) if s not in state.conceded]


def totals(state: Table) -> tuple[int, ...]:
    return tuple(s.points for s in state.students)


# --- setup -----------------------------------------------------------------------------------


def initial(options: AbrachadabraOptions, seats: int) -> Table:
    """The empty table: no exam yet."""
    return Table(seats=seats, options=options, students=[Student() for _ in range(seats)])


def start(state: Table, rng: Rng) -> Turn:
    """The first exam is a day exam; seat 1 draws first."""
    turn = Turn(state, evolve)
    begin_exam(turn, 1, FIRST_TIME, 0)
    return turn


def begin_exam(turn: Turn, number: int, time: Time, first: Seat) -> None:
    """ASSUMPTION: every card goes back to its own pile (its back says which) and each pile
    is shuffled at the start of every exam; the feather goes back to the supply."""
    turn.record(ExamBegan(exam=number, time=time, first=first, diplomas=DIPLOMAS[time]))
    turn.record(TurnBegan(seat=first))


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "A student has passed the winning points: the game is over.")
    if state.phase == "setup":
        raise Rejected("not_started", "The first exam has not begun yet.")
    if seat != state.player or not studying(state, seat):
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn in this exam.")
    match command:
        case DrawCard(pile=pile):
            return draw_card(state, seat, pile, rng)
        case UsePotion(potion=potion, pile=pile):
            return use_potion(state, seat, potion, pile, rng)
        case KeepCard(card=card):
            return keep_card(state, seat, card)
        case TakeDiploma(value=value):
            return take_diploma(state, seat, value)
        case KeepStudying():
            return keep_studying(state, seat)
        case _:
            raise Rejected(
                "unknown_command", f"{type(command).__name__} is not an Abrachadabra move."
            )


def ready_to_draw(state: Table, pile: str) -> None:
    """Guards shared by drawing and drinking: the turn's first step, from a pile with cards."""
    if state.phase == "vision":
        raise Rejected("keep_a_card_first", "Keep one of the two cards your potion showed first.")
    if state.phase == "diploma":
        raise Rejected(
            "decide_on_the_diploma", "Your rabbits match a diploma: take it or study on first."
        )
    if pile not in PILES:
        raise Rejected("no_such_pile", f"There is no pile called {pile!r}.")
    if not state.piles[pile]:
        raise Rejected("pile_empty", f"The {pile} pile is empty: draw from another one.")


def top_card(state: Table, pile: str, rng: Rng) -> CardId:
    """The pile's top card: the one a vision put back, else a card of unknown order."""
    known = state.tops.get(pile)
    return known.card if known is not None else rng.choice(state.piles[pile])


def draw_card(state: Table, seat: Seat, pile: PileName, rng: Rng) -> Turn:
    """Rule: draw a single card from one of the four piles and place it face up."""
    ready_to_draw(state, pile)
    turn = Turn(state, evolve)
    card = top_card(state, pile, rng)
    turn.record(CardDrawn(seat=seat, pile=pile, card=card))
    after_card(turn, seat, card)
    return turn


def use_potion(state: Table, seat: Seat, potion: CardId, pile: PileName, rng: Rng) -> Turn:
    """Rule: instead of drawing, secretly look at the top two cards of a pile.
    ASSUMPTION: the potion is spent (it leaves your cards); from a one-card pile you see one."""
    ready_to_draw(state, pile)
    if potion not in potions(state, seat):
        raise Rejected("no_such_potion", "You have no such vision potion in front of you.")
    first = top_card(state, pile, rng)
    rest = [c for c in state.piles[pile] if c != first]
    seen = (first, rng.choice(rest)) if rest else (first,)
    turn = Turn(state, evolve)
    turn.record(VisionSeen(seat=seat, potion=potion, pile=pile, count=len(seen), cards=seen))
    return turn


def keep_card(state: Table, seat: Seat, card: CardId) -> Turn:
    """Rule: keep one of the two cards seen and put the other back in its place (on top)."""
    if state.phase != "vision" or state.vision_pile is None:
        raise Rejected("no_vision", "Only a vision potion lets you choose a card to keep.")
    if card not in state.vision:
        raise Rejected("card_not_seen", "Keep one of the cards your potion showed you.")
    turn = Turn(state, evolve)
    turn.record(CardKept(seat=seat, pile=state.vision_pile, card=card))
    after_card(turn, seat, card)
    return turn


def after_card(turn: Turn, seat: Seat, card: CardId) -> None:
    """What a new card brings at once: the feather for a grimoire, maybe a lost exam, then
    the diploma choice or the next student's turn."""
    if KIND_OF[card] == "grimoire" and turn.state.feather != seat:
        # Rule: a grimoire takes the feather, the only card that can be stolen from you.
        turn.record(FeatherTaken(seat=seat, stolen_from=turn.state.feather))
    reason = loss_reason(turn.state, turn.state.students[seat].cards)
    if reason is not None:
        turn.record(ExamLost(seat=seat, reason=reason))
    elif matching_diploma(turn.state, seat) is not None:
        return  # Rule: you *may* take it: the student chooses.
    pass_turn(turn, seat)


def take_diploma(state: Table, seat: Seat, value: int) -> Turn:
    """Rule: exactly the rabbits of an available diploma: take it; your exam ends."""
    if state.phase != "diploma":
        raise Rejected("no_diploma_due", "Your rabbits match no diploma right after a draw.")
    if value != matching_diploma(state, seat):
        raise Rejected(
            "diploma_not_matched",
            f"You have {rabbits(state.students[seat].cards)} rabbits: no {value} diploma for you.",
        )
    turn = Turn(state, evolve)
    turn.record(DiplomaTaken(seat=seat, value=value))
    pass_turn(turn, seat)
    return turn


def keep_studying(state: Table, seat: Seat) -> Turn:
    if state.phase != "diploma":
        raise Rejected("nothing_to_decide", "There is no diploma to leave on the table now.")
    turn = Turn(state, evolve)
    pass_turn(turn, seat)
    return turn


def pass_turn(turn: Turn, seat: Seat) -> None:
    """The next student still in the exam plays; with nobody left, the exam is scored.
    ASSUMPTION: with every pile empty, the students still in stop, unbeaten, without diploma."""
    state = turn.state
    if not any(state.piles[p] for p in PILES):
        for s in range(state.seats):
            if studying(state, s):
                turn.record(StudiesStopped(seat=s))
    nxt = next_seat(seat, state.seats, lambda s: studying(turn.state, s))
    if studying(turn.state, nxt):
        turn.record(TurnBegan(seat=nxt))
    else:
        end_exam(turn)


def end_exam(turn: Turn) -> None:
    """Rule: once nobody is left to play, the exam is scored; more than 22 points ends the
    game, else a new exam starts in the other time of day.
    ASSUMPTION: the next exam is opened by the next seat after the one that opened this one."""
    state = turn.state
    points = tuple(exam_points(state, s) for s in range(state.seats))
    new_totals = tuple(t + p for t, p in zip(totals(state), points, strict=True))
    turn.record(ExamScored(exam=state.exam, points=points, totals=new_totals))
    if any(has_won(state, new_totals[s]) for s in active(state)):
        turn.record(GameEnded(totals=new_totals))
        return
    first = next_seat(state.first, state.seats, lambda s: s not in state.conceded)
    begin_exam(turn, state.exam + 1, NEXT_TIME[state.time], first)


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The student leaves: out of this exam and every later one; under two, the game ends."""
    if state.phase in ("setup", "over") or len(active(state)) <= 2:
        return None
    turn = Turn(state, evolve)
    was_playing = seat == state.player and studying(state, seat)
    turn.record(PlayerConceded(seat=seat))
    if was_playing:
        pass_turn(turn, seat)
    elif not any(studying(turn.state, s) for s in range(state.seats)):
        end_exam(turn)
    return turn


def outcome(state: Table) -> Outcome | None:
    """Most points wins; equal points share the rank; who left ranks last."""
    if state.phase != "over":
        return None
    scores = totals(state)
    keys = [(int(s not in state.conceded), scores[s]) for s in range(state.seats)]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> list[Command]:
    return list(moves(state, seat))


def moves(state: Table, seat: Seat) -> Iterator[Command]:
    """Every command `seat` may send now."""
    if state.phase in ("setup", "over") or seat != state.player or not studying(state, seat):
        return
    if state.phase == "draw":
        filled = [p for p in PILES if state.piles[p]]
        for pile in filled:
            yield DrawCard(pile=pile)
        for potion in potions(state, seat):
            for pile in filled:
                yield UsePotion(potion=potion, pile=pile)
    elif state.phase == "vision":
        for card in state.vision:
            yield KeepCard(card=card)
    elif state.phase == "diploma":
        value = matching_diploma(state, seat)
        if value is not None:
            yield TakeDiploma(value=value)
        yield KeepStudying()


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case ExamBegan(exam=number, time=time, first=first, diplomas=diplomas):
            piles: dict[str, list[CardId]] = {p: [] for p in PILES}
            for card in sorted(CARDS):
                piles[PILE_OF[card]].append(card)
            students = [
                Student(standing="out" if s in state.conceded else "studying", points=st.points)
                for s, st in enumerate(state.students)
            ]
            return replace(
                state,
                phase="draw",
                exam=number,
                time=time,
                first=first,
                player=first,
                students=students,
                diplomas=list(diplomas),
                piles=piles,
                tops={},
                vision=[],
                vision_pile=None,
                feather=None,
            )
        case TurnBegan(seat=seat):
            return replace(state, phase="draw", player=seat, vision=[], vision_pile=None)
        case CardDrawn(seat=seat, pile=pile, card=card):
            return _laid(replace(state, **_taken_from(state, pile, card)), seat, card)
        case VisionSeen(seat=seat, potion=potion, pile=pile, cards=cards):
            student = state.students[seat]
            cards_left = [c for c in student.cards if c != potion]
            return replace(
                state,
                phase="vision",
                students=_with(state.students, seat, replace(student, cards=cards_left)),
                vision=list(cards or ()),
                vision_pile=pile,
            )
        case CardKept(seat=seat, pile=pile, card=card):
            returned = [c for c in state.vision if c != card]
            after = replace(state, **_taken_from(state, pile, card), vision=[], vision_pile=None)
            if returned:
                old = state.tops.get(pile)
                knew = old.seen_by if old is not None and old.card == returned[0] else []
                tops = {**after.tops, pile: KnownTop(returned[0], sorted({*knew, seat}))}
                after = replace(after, tops=tops)
            return _laid(after, seat, card)
        case FeatherTaken(seat=seat):
            return replace(state, feather=seat)
        case ExamLost(seat=seat):
            student = replace(state.students[seat], standing="lost")
            return replace(state, phase="draw", students=_with(state.students, seat, student))
        case DiplomaTaken(seat=seat, value=value):
            student = replace(state.students[seat], standing="graduated", diploma=value)
            return replace(
                state,
                phase="draw",
                students=_with(state.students, seat, student),
                diplomas=[d for d in state.diplomas if d != value],
            )
        case StudiesStopped(seat=seat):
            student = replace(state.students[seat], standing="stopped")
            return replace(state, students=_with(state.students, seat, student))
        case ExamScored(totals=new_totals):
            students = [
                replace(s, points=t) for s, t in zip(state.students, new_totals, strict=True)
            ]
            return replace(state, students=students)
        case PlayerConceded(seat=seat):
            student = replace(state.students[seat], standing="out")
            return replace(
                state,
                students=_with(state.students, seat, student),
                conceded=sorted({*state.conceded, seat}),
                vision=[] if seat == state.player else state.vision,
                vision_pile=None if seat == state.player else state.vision_pile,
                phase="draw" if seat == state.player else state.phase,
            )
        case GameEnded():
            return replace(state, phase="over")
        case _:
            raise TypeError(f"not an Abrachadabra event (or a redacted one): {event!r}")


def _taken_from(state: Table, pile: str, card: CardId) -> dict[str, object]:
    """The pile without `card`, and without its known top if that was the card."""
    piles = {**state.piles, pile: [c for c in state.piles[pile] if c != card]}
    tops = {p: t for p, t in state.tops.items() if t.card != card}
    return {"piles": piles, "tops": tops}


def _laid(state: Table, seat: Seat, card: CardId) -> Table:
    """The card lies face up in front of `seat`; the turn waits on a diploma if it matches."""
    student = state.students[seat]
    student = msgspec.structs.replace(student, cards=[*student.cards, card])
    state = msgspec.structs.replace(state, students=_with(state.students, seat, student))
    phase: Phase = "diploma" if matching_diploma(state, seat) is not None else "draw"
    return msgspec.structs.replace(state, phase=phase)


def _with(rows: list[Student], seat: Seat, row: Student) -> list[Student]:
    return [row if s == seat else r for s, r in enumerate(rows)]
