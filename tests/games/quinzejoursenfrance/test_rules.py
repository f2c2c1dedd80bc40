"""Quinze jours en France: the conformance kit, then the page's rules as short stories."""

from __future__ import annotations

import msgspec

from domain.games.quinzejoursenfrance import GAME
from domain.games.quinzejoursenfrance.cards import ENCOUNTERS, LOCATIONS
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
    StepsGained,
    Travelled,
    TurnBegan,
)
from domain.games.quinzejoursenfrance.scoring import mission_met, score_sheet
from domain.games.quinzejoursenfrance.state import QuinzeOptions, Table, Traveller, initial
from domain.games.quinzejoursenfrance.view import hidden, redact, view
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA = 0, 1
INDUSTRY_1 = "qj-n01"  # industry, cost 1
CHATEAU_SMILEY = "qj-n05"  # chateau, 1 smiley, cost 2
STEPS_REWARD = "qj-n08"  # industry, cost 2, reward 2 steps
BONUS = "qj-n11"  # nature, 1 smiley, cost 1, bonus action
NATURE_0 = "qj-n09"  # nature, free
VILLAGE_0 = "qj-n07"


def table(ann: Traveller | None = None, bea: Traveller | None = None, **fields: object) -> Table:
    """Ann's turn on day 1; the rows are the decks' last four; every Encounter in the deck."""
    state = initial(QuinzeOptions(), 2)
    travellers = [ann or Traveller(), bea or Traveller()]
    used = {c for t in travellers for c in t.cards + t.missions + t.drawn}
    decks = {r: [c for c in cards if c not in used] for r, cards in state.decks.items()}
    rows = {r: cards[-4:] for r, cards in decks.items()}
    decks = {r: cards[:-4] for r, cards in decks.items()}
    state = msgspec.structs.replace(
        state,
        travellers=travellers,
        decks=decks,
        rows=rows,
        encounters=[c for c in state.encounters if c not in used],
        phase="act",
        player=ANN,
        day=1,
        order=[ANN, BEA],
    )
    return msgspec.structs.replace(state, **fields)


def offering(*cards: str, **fields: object) -> Table:
    """A table whose Nord row shows these cards, made up to four from the deck."""
    state = table(**fields)  # type: ignore[arg-type]
    nord = [c for c in state.decks["nord"] + state.rows["nord"] if c not in cards]
    row = [*cards, *nord[: 4 - len(cards)]]
    decks = {**state.decks, "nord": nord[4 - len(cards) :]}
    return msgspec.structs.replace(state, rows={"nord": row, "sud": state.rows["sud"]}, decks=decks)


def play(state: Table, command: Command, *outcomes: str) -> tuple[Table, list[Event]]:
    return stories.play(GAME, state, state.player, command, Rigged(*outcomes))


def refused(state: Table, command: Command) -> str:
    return stories.refused(GAME, state, state.player, command)


# --- setup and days --------------------------------------------------------------------------


def test_setup_lays_four_nord_and_four_sud_cards_and_seat_one_begins_day_one() -> None:
    state = initial(QuinzeOptions(), 3)
    events, state = GAME.settle(state, GAME.start(state, Rng(1, 0)))
    assert {r: len(c) for r, c in state.rows.items()} == {"nord": 4, "sud": 4}
    assert all(LOCATIONS[c].region == "sud" for c in state.rows["sud"])
    assert events[-1] == TurnBegan(seat=ANN, day=1, order=(0, 1, 2))
    assert all(t.steps == 3 for t in state.travellers)


def test_each_day_every_traveller_takes_one_action_and_the_lead_moves_on() -> None:
    state = table(player=BEA)
    _, events = play(state, Recuperer())
    assert events[-1] == TurnBegan(seat=BEA, day=2, order=(BEA, ANN))


def test_the_itinerary_changes_at_the_start_of_days_four_eight_and_twelve() -> None:
    state = table(player=BEA, day=3)
    shown = [c for r in ("nord", "sud") for c in state.rows[r]]
    fresh = state.decks["nord"][:4] + state.decks["sud"][:4]
    after, events = play(state, Recuperer(), *fresh)
    assert events[1] == ItineraryChanged(day=4, discarded=tuple(shown))
    assert after.rows == {"nord": fresh[:4], "sud": fresh[4:]}
    assert not set(shown) & {c for d in after.decks.values() for c in d}
    _, events = play(table(player=BEA, day=4), Recuperer())
    assert not [e for e in events if isinstance(e, ItineraryChanged)]


def test_the_game_ends_after_day_fifteen() -> None:
    state = table(player=BEA, day=15, order=[ANN, BEA])
    _, events = play(state, Recuperer())
    assert isinstance(events[-1], GameEnded)


# --- the three actions -----------------------------------------------------------------------


def test_voyager_takes_a_location_pays_its_steps_and_the_row_refills() -> None:
    state = offering(CHATEAU_SMILEY, INDUSTRY_1)
    refill = state.decks["nord"][0]
    after, events = play(state, Voyager(card=CHATEAU_SMILEY), refill)
    assert events[0] == Travelled(seat=ANN, card=CHATEAU_SMILEY, row="nord", steps_paid=2)
    assert after.travellers[ANN].cards == [CHATEAU_SMILEY] and after.travellers[ANN].steps == 1
    assert refill in after.rows["nord"]
    poor = offering(CHATEAU_SMILEY, ann=Traveller(steps=1))
    assert refused(poor, Voyager(card=CHATEAU_SMILEY)) == "steps_short"
    assert refused(state, Voyager(card=state.decks["sud"][0])) == "card_not_on_offer"


def test_a_location_reward_gives_steps_or_another_action() -> None:
    state = offering(STEPS_REWARD, BONUS)
    after, events = play(state, Voyager(card=STEPS_REWARD), state.decks["nord"][0])
    assert events[1] == StepsGained(seat=ANN, steps=2, rested=False)
    assert after.travellers[ANN].steps == 3 - 2 + 2
    after, events = play(state, Voyager(card=BONUS), state.decks["nord"][0])
    assert events[1] == BonusAction(seat=ANN, card=BONUS)
    assert after.player == ANN, "the bonus action comes at once"
    after, events = play(after, Recuperer())
    assert events[-1] == TurnBegan(seat=BEA, day=1, order=(ANN, BEA))


def test_recuperer_gains_four_steps() -> None:
    after, events = play(table(), Recuperer())
    assert events[0] == StepsGained(seat=ANN, steps=4, rested=True)
    assert after.travellers[ANN].steps == 7


def test_rencontrer_draws_two_keeps_one_and_puts_the_other_under_the_deck() -> None:
    state = table()
    after, events = play(state, Rencontrer(), "qj-m07", "qj-m12")
    assert events == [EncountersDrawn(seat=ANN, cards=("qj-m07", "qj-m12"))]
    assert redact(events[0], BEA) == EncountersDrawn(seat=ANN, cards=(None, None))
    assert refused(after, Recuperer()) == "keep_an_encounter"
    assert refused(after, Garder(card="qj-m01")) == "encounter_not_drawn"
    after, events = play(after, Garder(card="qj-m12"))
    assert events[0] == EncounterKept(seat=ANN, card="qj-m12", under="qj-m07", put_under=True)
    assert redact(events[0], BEA) == EncounterKept(seat=ANN, card=None, under=None, put_under=True)
    assert after.travellers[ANN].missions == ["qj-m12"] and after.under == ["qj-m07"]
    # Ann knows the card under the deck and her mission; Bea knows neither.
    assert "qj-m07" not in hidden(after, ANN) and {"qj-m07", "qj-m12"} <= hidden(after, BEA)
    assert view(after, BEA).travellers[ANN].missions == [None]


def test_cards_put_under_the_deck_come_out_last() -> None:
    state = table(encounters=["qj-m01"], under=["qj-m02", "qj-m03"], under_by=[BEA, BEA])
    _, events = play(state, Rencontrer(), "qj-m01")
    assert events == [EncountersDrawn(seat=ANN, cards=("qj-m01", "qj-m02"))]


# --- missions and scoring --------------------------------------------------------------------


def test_a_mission_scores_its_smileys_when_met_and_nothing_when_failed() -> None:
    ann = Traveller(cards=[INDUSTRY_1, STEPS_REWARD], missions=["qj-m12", "qj-m16"])
    state = table(ann=ann, bea=Traveller(cards=["qj-n02"]))
    assert mission_met(state, ANN, "qj-m12"), "two industry"
    assert mission_met(state, ANN, "qj-m16"), "no chateau"
    sheet = score_sheet(state, ANN)
    assert sheet.mission_smileys == 6 + 3
    failing = table(ann=Traveller(cards=[INDUSTRY_1], missions=["qj-m12"]))
    assert score_sheet(failing, ANN).mission_smileys == 0


def test_most_of_a_symbol_needs_nobody_ahead_and_ties_are_an_option() -> None:
    ann = Traveller(cards=[INDUSTRY_1], missions=["qj-m06"])
    state = table(ann=ann, bea=Traveller(cards=[STEPS_REWARD]))
    assert mission_met(state, ANN, "qj-m06")
    strict = msgspec.structs.replace(state, options=QuinzeOptions(most_ties="fail"))
    assert not mission_met(strict, ANN, "qj-m06")
    empty = table(ann=Traveller(missions=["qj-m06"]))
    assert not mission_met(empty, ANN, "qj-m06"), "none of it is not the most"


def test_the_score_adds_location_smileys_and_one_per_mission_when_all_are_met() -> None:
    ann = Traveller(cards=[INDUSTRY_1, STEPS_REWARD, CHATEAU_SMILEY], missions=["qj-m12", "qj-m18"])
    state = table(ann=ann)
    sheet = score_sheet(state, ANN)
    assert (sheet.mission_smileys, sheet.location_smileys) == (6, 1)
    assert not all(sheet.met) and sheet.all_missions_bonus == 0
    both = table(
        ann=Traveller(
            cards=[INDUSTRY_1, STEPS_REWARD, CHATEAU_SMILEY, BONUS], missions=["qj-m12", "qj-m18"]
        )
    )
    sheet = score_sheet(both, ANN)
    assert sheet.all_missions_bonus == 2 and sheet.total == 6 + 3 + 2 + 2


def test_ties_go_to_the_most_step_tokens_then_share() -> None:
    state = table(
        ann=Traveller(cards=[CHATEAU_SMILEY], steps=5),
        bea=Traveller(cards=[BONUS], steps=2),
        player=BEA,
        day=15,
    )
    after, _ = play(state, Recuperer())  # Bea rests to 6 steps
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (1, 1) and outcome.ranks == (2, 1)
    even = msgspec.structs.replace(
        state, travellers=[Traveller(cards=[CHATEAU_SMILEY], steps=6), state.travellers[1]]
    )
    after, _ = play(even, Recuperer())
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranks == (1, 1)


def test_every_mission_is_shown_at_the_end() -> None:
    state = table(ann=Traveller(missions=["qj-m01"]), player=BEA, day=15)
    after, events = play(state, Recuperer())
    assert isinstance(events[-1], GameEnded) and events[-1].sheets[ANN].missions == ("qj-m01",)
    assert view(after, BEA).travellers[ANN].missions == ["qj-m01"]
    assert "qj-m01" in ENCOUNTERS
