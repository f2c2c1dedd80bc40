"""A round of 62 Soleils d'été: three shared dice; every player at once picks a slot by
its pearl, writes a second die in it, and adds the third to the sun row.

decide + evolve + legal + to_act. Sources: seed 002 line 702 (2026-03-12) and
rules-batch2.md section 9; the sheet is house-made (`sheet.py`).
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from domain.games.soixantedeuxsoleilsdete.commands import (
    ChooseSun,
    Command,
    CopyByCrab,
    NoCopy,
    SkipBonus,
    SunOnly,
    WriteBonus,
    WriteNumber,
)
from domain.games.soixantedeuxsoleilsdete.events import (
    BonusDeclined,
    CopyDeclined,
    DiceAllotted,
    DiceRolled,
    Event,
    GameEnded,
    How,
    NumberWritten,
    PlayerLeft,
    SunAdded,
    SunBonusWon,
    ZoneCompleted,
)
from domain.games.soixantedeuxsoleilsdete.sheet import (
    BANNERS,
    DICE,
    DIE_FACES,
    PEARL_STARFISH,
    SHELLFISH_MAJORITY,
    SLOT,
    SLOTS,
    SUN_BONUSES,
    SUN_GOAL,
    SUNS,
    SlotId,
)
from domain.games.soixantedeuxsoleilsdete.state import Sheet, SoleilsOptions, Stage, Table
from domain.games.soixantedeuxsoleilsdete.zones import (
    completes,
    crab_targets,
    may_write,
    zone_problem,
)
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys

Turn = Recorder[Table, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- reading the table -----------------------------------------------------------------------


def stage(state: Table, seat: Seat) -> Stage:
    """Where the player is in this round (see `Stage`)."""
    sheet = state.sheets[seat]
    if sheet.left or state.over:
        return "done"
    if sheet.crab_from is not None:
        return "crab"
    if not sheet.allotted:
        return "write"
    if len(sheet.suns) < state.round:
        return "hat"
    if sheet.bonus_due:
        return "bonus"
    return "done"


def playing(state: Table) -> list[Seat]:
    return [s for s in range(state.seats) if not state.sheets[s].left]


def koi_free(state: Table) -> bool:
    return state.options.koi_free_direction


def dice_writes(state: Table, seat: Seat) -> Iterator[WriteNumber]:
    """Rule: a slot is chosen by a die showing its pearl; another die is written in it."""
    sheet = state.sheets[seat]
    for slot in SLOTS:
        if slot.name in sheet.values or slot.pearl not in state.dice:
            continue
        rest = list(state.dice)
        rest.remove(slot.pearl)
        for value in sorted(set(rest)):
            if may_write(sheet, slot.name, value, koi_free(state)):
                yield WriteNumber(slot=slot.name, value=value)


def bonus_writes(state: Table, seat: Seat) -> Iterator[WriteBonus]:
    """Rule: a bonus number, 1 to 6, in an empty slot of the player's choice (its zone's
    rule still holds: ASSUMPTION)."""
    sheet = state.sheets[seat]
    for slot in SLOTS:
        for value in DIE_FACES:
            if may_write(sheet, slot.name, value, koi_free(state)):
                yield WriteBonus(slot=slot.name, value=value)


def majority(state: Table) -> tuple[Seat, ...]:
    """Rule: the player(s) with the most shellfish. ASSUMPTION: at least one shellfish."""
    counts = {s: state.sheets[s].shellfish for s in playing(state)}
    most = max(counts.values(), default=0)
    return tuple(s for s, n in counts.items() if n == most and most > 0)


def final_scores(state: Table, winners: tuple[Seat, ...]) -> tuple[int, ...]:
    return tuple(
        sheet.starfish + (SHELLFISH_MAJORITY if s in winners else 0)
        for s, sheet in enumerate(state.sheets)
    )


# --- setup -----------------------------------------------------------------------------------


def initial(options: SoleilsOptions, seats: int) -> Table:
    return Table(seats=seats, options=options, sheets=[Sheet() for _ in range(seats)])


def start(state: Table, rng: Rng) -> list[Event]:
    return [roll(1, rng)]


def roll(number: int, rng: Rng) -> DiceRolled:
    """Three dice are rolled at the start of each round."""
    return DiceRolled(round=number, dice=tuple(rng.choice(DIE_FACES) for _ in range(DICE)))


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.over:
        raise Rejected("game_over", "The sun row is full or someone reached 62: it is over.")
    if state.round == 0:
        raise Rejected("not_started", "The first dice are not rolled yet.")
    if seat not in playing(state) or stage(state, seat) == "done":
        raise Rejected("not_your_turn", f"Seat {seat + 1} is done with this roll: wait.")
    match command:
        case WriteNumber(slot=slot, value=value):
            return write_number(state, seat, slot, value, rng)
        case SunOnly(die=die):
            return sun_only(state, seat, die, rng)
        case CopyByCrab(slot=slot):
            return copy_by_crab(state, seat, slot, rng)
        case NoCopy():
            return no_copy(state, seat, rng)
        case ChooseSun(value=value):
            return choose_sun(state, seat, value, rng)
        case WriteBonus(slot=slot, value=value):
            return write_bonus(state, seat, slot, value, rng)
        case SkipBonus():
            return skip_bonus(state, seat, rng)
        case _:
            raise Rejected(
                "unknown_command", f"{type(command).__name__} is not a 62 Soleils d'été move."
            )


def an_empty_slot(state: Table, seat: Seat, slot: SlotId) -> None:
    if slot not in SLOT:
        raise Rejected("no_such_slot", f"The sheet has no slot called {slot!r}.")
    if slot in state.sheets[seat].values:
        raise Rejected("slot_filled", f"The {slot} slot is already written.")


def obeys_zone(state: Table, seat: Seat, slot: SlotId, value: int) -> None:
    problem = zone_problem(state.sheets[seat], slot, value, koi_free(state))
    if problem is not None:
        raise Rejected(problem, ZONE_RULES[problem].format(value=value, slot=slot))


ZONE_RULES = {
    "cabin_must_match": "A cabin's top and bottom hold the same value: {value} does not.",
    "koi_out_of_order": "A koi's values go in strict order: {value} breaks it in {slot}.",
    "boats_differ": "Neighbours on a boat line differ: {value} is next to another {value}.",
    "bottles_alike": "Every bottle holds the same value: {value} is not it.",
    "gulls_differ": "Every seagull holds a different value: {value} is there already.",
}


def write_number(state: Table, seat: Seat, slot: SlotId, value: int, rng: Rng) -> Turn:
    """Rules 1-3 of a round: the pearl's die picks the slot, another die is written, the
    leftover die goes to the sun row."""
    if stage(state, seat) != "write":
        raise Rejected("not_writing_now", "You have shared out this roll already.")
    an_empty_slot(state, seat, slot)
    dice = list(state.dice)
    pearl = SLOT[slot].pearl
    if pearl not in dice:
        raise Rejected("pearl_not_rolled", f"No die shows {pearl}, the pearl of {slot}.")
    dice.remove(pearl)
    if value not in dice:
        raise Rejected("value_not_rolled", f"No other die shows {value}.")
    dice.remove(value)
    obeys_zone(state, seat, slot, value)
    turn = Turn(state, evolve)
    turn.record(DiceAllotted(seat=seat, pearl=pearl, value=value, sun=dice[0]))
    write(turn, seat, slot, value, "dice")
    advance(turn, seat, rng)
    return turn


def sun_only(state: Table, seat: Seat, die: int, rng: Rng) -> Turn:
    """Rule: with no valid slot for any die, steps 1 and 2 are skipped; any die goes to
    the sun row."""
    if stage(state, seat) != "write":
        raise Rejected("not_writing_now", "You have shared out this roll already.")
    if die not in state.dice:
        raise Rejected("no_such_die", f"No die shows {die} this round.")
    if next(dice_writes(state, seat), None) is not None:
        raise Rejected("slot_available", "A slot can take these dice: write a number first.")
    turn = Turn(state, evolve)
    turn.record(DiceAllotted(seat=seat, pearl=None, value=None, sun=die))
    advance(turn, seat, rng)
    return turn


def copy_by_crab(state: Table, seat: Seat, slot: SlotId, rng: Rng) -> Turn:
    """Rule: a crab copies the value into a valid neighbour, even in another zone; that
    slot's bonuses are won too."""
    sheet = state.sheets[seat]
    if stage(state, seat) != "crab" or sheet.crab_from is None:
        raise Rejected("no_crab_now", "Only a slot with a crab, just filled, lets you copy.")
    value = sheet.values[sheet.crab_from]
    if slot not in crab_targets(sheet, sheet.crab_from, value, koi_free(state)):
        raise Rejected(
            "crab_cannot_reach", f"The crab copies {value} only into a valid empty neighbour."
        )
    turn = Turn(state, evolve)
    write(turn, seat, slot, value, "crab")
    advance(turn, seat, rng)
    return turn


def no_copy(state: Table, seat: Seat, rng: Rng) -> Turn:
    if stage(state, seat) != "crab":
        raise Rejected("no_crab_now", "There is no crab's copy to decline now.")
    turn = Turn(state, evolve)
    turn.record(CopyDeclined(seat=seat))
    advance(turn, seat, rng)
    return turn


def choose_sun(state: Table, seat: Seat, value: int, rng: Rng) -> Turn:
    """Rule: a filled sun hat lets you choose this round's sun value, 1 to 6."""
    if stage(state, seat) != "hat":
        raise Rejected("no_hat_now", "Only a sun hat filled this round lets you choose.")
    if value not in DIE_FACES:
        raise Rejected("not_a_die_value", f"The sun value is 1 to 6, not {value}.")
    turn = Turn(state, evolve)
    add_sun(turn, seat, value, chosen=True)
    advance(turn, seat, rng)
    return turn


def write_bonus(state: Table, seat: Seat, slot: SlotId, value: int, rng: Rng) -> Turn:
    """Rule: a sun bonus number (1 to 6) goes in an empty slot of your choice."""
    if stage(state, seat) != "bonus":
        raise Rejected("no_bonus_now", "Only a sun bonus gives a number to write.")
    an_empty_slot(state, seat, slot)
    if value not in DIE_FACES:
        raise Rejected("not_a_die_value", f"A bonus number is 1 to 6, not {value}.")
    obeys_zone(state, seat, slot, value)
    turn = Turn(state, evolve)
    write(turn, seat, slot, value, "bonus")
    advance(turn, seat, rng)
    return turn


def skip_bonus(state: Table, seat: Seat, rng: Rng) -> Turn:
    """ASSUMPTION: the bonus number may be left unwritten."""
    if stage(state, seat) != "bonus":
        raise Rejected("no_bonus_now", "There is no bonus number to leave now.")
    turn = Turn(state, evolve)
    turn.record(BonusDeclined(seat=seat))
    advance(turn, seat, rng)
    return turn


def write(turn: Turn, seat: Seat, slot: SlotId, value: int, how: How) -> None:
    """A value goes in a slot, with the slot's bonuses: its pearl, its crab, its hat, and
    the zone's banner when it was the zone's last slot."""
    state = turn.state
    sheet = state.sheets[seat]
    after = msgspec.structs.replace(sheet, values={**sheet.values, slot: value})
    here = SLOT[slot]
    before_sun = len(sheet.suns) < state.round
    turn.record(
        NumberWritten(
            seat=seat,
            slot=slot,
            value=value,
            how=how,
            pearl=value == here.pearl,
            crab=here.crab and bool(crab_targets(after, slot, value, koi_free(state))),
            hat=here.hat and before_sun,
        )
    )
    sheet = turn.state.sheets[seat]
    if here.zone not in sheet.completed and completes(sheet, here.zone):
        starfish, shellfish = BANNERS[here.zone]
        turn.record(
            ZoneCompleted(seat=seat, zone=here.zone, starfish=starfish, shellfish=shellfish)
        )


def add_sun(turn: Turn, seat: Seat, value: int, *, chosen: bool) -> None:
    """Rule: the sun value is added to the total in the leftmost free sun; an exact 12,
    22, 32, 42, 52 or 62 wins the bonus printed there."""
    total = turn.state.sheets[seat].total + value
    turn.record(SunAdded(seat=seat, value=value, total=total, chosen=chosen))
    if total in SUN_BONUSES:
        kind, amount = SUN_BONUSES[total]
        turn.record(
            SunBonusWon(
                seat=seat,
                threshold=total,
                starfish=amount if kind == "starfish" else 0,
                shellfish=amount if kind == "shellfish" else 0,
                number=kind == "number",
            )
        )


def advance(turn: Turn, seat: Seat, rng: Rng) -> None:
    """Carry the player on to their next choice; once everyone is done, the round ends."""
    while True:
        now = stage(turn.state, seat)
        sheet = turn.state.sheets[seat]
        if now in ("write", "crab"):
            return
        if now == "hat":
            if sheet.hat:
                return
            assert sheet.sun_die is not None
            add_sun(turn, seat, sheet.sun_die, chosen=False)
            continue
        if now == "bonus":
            if next(bonus_writes(turn.state, seat), None) is not None:
                return
            turn.record(BonusDeclined(seat=seat))
            continue
        break
    round_over(turn, rng)


def round_over(turn: Turn, rng: Rng) -> None:
    """Once every player is done: the game ends after the 20th sun or once a total
    reached 62; otherwise the dice roll again."""
    state = turn.state
    if any(stage(state, s) != "done" for s in playing(state)):
        return
    if state.round >= SUNS or any(state.sheets[s].total >= SUN_GOAL for s in playing(state)):
        winners = majority(state)
        turn.record(GameEnded(majority=winners, scores=final_scores(state, winners)))
    else:
        turn.record(roll(state.round + 1, rng))


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The player writes no more; with nobody else left, the match ends."""
    if state.over or state.round == 0 or len(playing(state)) <= 1:
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerLeft(seat=seat))
    round_over(turn, rng)
    return turn


def outcome(state: Table) -> Outcome | None:
    """The most starfish wins; equal totals share the rank; who left ranks last."""
    if not state.over:
        return None
    keys = [(int(not state.sheets[s].left), state.scores[s]) for s in range(state.seats)]
    return Outcome(scores=state.scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> list[Command]:
    return list(moves(state, seat))


def moves(state: Table, seat: Seat) -> Iterator[Command]:
    if state.round == 0 or seat >= state.seats:
        return
    sheet = state.sheets[seat]
    match stage(state, seat):
        case "write":
            writes = list(dice_writes(state, seat))
            yield from writes
            if not writes:
                for die in sorted(set(state.dice)):
                    yield SunOnly(die=die)
        case "crab":
            assert sheet.crab_from is not None
            value = sheet.values[sheet.crab_from]
            for slot in crab_targets(sheet, sheet.crab_from, value, koi_free(state)):
                yield CopyByCrab(slot=slot)
            yield NoCopy()
        case "hat":
            for value in DIE_FACES:
                yield ChooseSun(value=value)
        case "bonus":
            yield from bonus_writes(state, seat)
            yield SkipBonus()
        case "done":
            return


def to_act(state: Table) -> frozenset[Seat]:
    """Every player writes the same roll at once: all who have not finished it."""
    if state.over:
        return frozenset()
    return frozenset(s for s in playing(state) if stage(state, s) != "done")


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case DiceRolled(round=number, dice=dice):
            fresh = [
                sheet
                if sheet.left
                else replace(
                    sheet, allotted=False, sun_die=None, hat=False, crab_from=None, bonus_due=False
                )
                for sheet in state.sheets
            ]
            return replace(state, round=number, dice=dice, sheets=fresh)
        case DiceAllotted(seat=seat, sun=sun):
            return _sheet(state, seat, allotted=True, sun_die=sun)
        case NumberWritten(seat=seat, slot=slot, value=value, how=how, pearl=pearl, crab=crab):
            sheet = state.sheets[seat]
            return _sheet(
                state,
                seat,
                values={**sheet.values, slot: value},
                starfish=sheet.starfish + (PEARL_STARFISH if pearl else 0),
                crab_from=slot if crab else None,
                hat=sheet.hat or event.hat,
                bonus_due=False if how == "bonus" else sheet.bonus_due,
            )
        case CopyDeclined(seat=seat):
            return _sheet(state, seat, crab_from=None)
        case ZoneCompleted(seat=seat, zone=zone, starfish=starfish, shellfish=shellfish):
            sheet = state.sheets[seat]
            return _sheet(
                state,
                seat,
                starfish=sheet.starfish + starfish,
                shellfish=sheet.shellfish + shellfish,
                completed=[*sheet.completed, zone],
            )
        case SunAdded(seat=seat, value=value, total=total):
            sheet = state.sheets[seat]
            return _sheet(state, seat, suns=[*sheet.suns, value], total=total, hat=False)
        case SunBonusWon(seat=seat, starfish=starfish, shellfish=shellfish, number=number):
            sheet = state.sheets[seat]
            return _sheet(
                state,
                seat,
                starfish=sheet.starfish + starfish,
                shellfish=sheet.shellfish + shellfish,
                bonus_due=number,
            )
        case BonusDeclined(seat=seat):
            return _sheet(state, seat, bonus_due=False)
        case PlayerLeft(seat=seat):
            return _sheet(state, seat, left=True, crab_from=None)
        case GameEnded(majority=winners, scores=scores):
            return replace(state, over=True, majority=winners, scores=scores)
        case _:
            raise TypeError(f"not a 62 Soleils d'été event: {event!r}")


def _sheet(state: Table, seat: Seat, **changes: object) -> Table:
    sheets = list(state.sheets)
    sheets[seat] = msgspec.structs.replace(sheets[seat], **changes)
    return msgspec.structs.replace(state, sheets=sheets)
