"""Carnuta: the conformance kit, then the page's rules and the public facts as stories."""

from __future__ import annotations

import msgspec

from domain.games.carnuta import GAME
from domain.games.carnuta.cards import CARDS
from domain.games.carnuta.commands import (
    Command,
    FlipRunes,
    PickToken,
    PlayCard,
    TakeCard,
    TakeRunes,
    UseSickle,
)
from domain.games.carnuta.events import (
    CardPlayed,
    CardTaken,
    EndTriggered,
    Event,
    GameEnded,
    RowFilled,
    RunesFlipped,
    RunesTaken,
    SickleUsed,
    SlotOpened,
    StartingCardDealt,
    TokenEarned,
    TokenPicked,
    TurnBegan,
)
from domain.games.carnuta.rules import slots
from domain.games.carnuta.scoring import score_sheet
from domain.games.carnuta.state import CarnutaOptions, Player, Table, initial
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA = 0, 1
FLIP_SUN = "cn-mistletoe-1"  # flip a sun; 1 per mistletoe
FLIP_BOTH = "cn-mistletoe-4"  # flip a sun and a moon; 3 points
DISCARD_MOON_FLIP_SUN = "cn-mistletoe-5"  # 3 points
PER_OAK = "cn-mistletoe-7"  # flip a sun, discard a sun; 1 per oak
DISTINCT = "cn-mistletoe-8"  # 1 per ingredient kind
MOON_RUNES = "cn-mistletoe-9"  # 1 per moon rune
OAKS = [f"cn-oak-{n}" for n in range(1, 10)]
NIGHTS = [f"cn-mushroom-{n}" for n in range(1, 10)]


def player(
    hand: list[str] | None = None,
    tableau: list[str] | None = None,
    sun: int = 2,
    moon: int = 2,
    **fields: object,
) -> Player:
    return Player(
        hand=hand or [],
        tableau=tableau or [],
        runes={"sun": sun, "moon": moon},
        **fields,  # type: ignore[arg-type]
    )


def table(ann: Player | None = None, bea: Player | None = None, **fields: object) -> Table:
    """Ann's turn, two actions left, round 1; the market rows are the decks' first four."""
    state = initial(CarnutaOptions(), 2)
    players = [ann or player(), bea or player()]
    used = {c for p in players for c in p.hand + p.tableau}
    decks = {d: [c for c in cards if c not in used] for d, cards in state.decks.items()}
    rows = {d: cards[-4:] for d, cards in decks.items()}
    decks = {d: cards[:-4] for d, cards in decks.items()}
    state = msgspec.structs.replace(
        state,
        players=players,
        decks=decks,
        rows=rows,
        phase="act",
        player=ANN,
        round=1,
        actions_left=2,
    )
    return msgspec.structs.replace(state, **fields)


def play(state: Table, command: Command, *outcomes: str) -> tuple[Table, list[Event]]:
    return stories.play(GAME, state, state.player, command, Rigged(*outcomes))


def refused(state: Table, command: Command) -> str:
    return stories.refused(GAME, state, state.player, command)


# --- setup (public facts) --------------------------------------------------------------------


def test_each_player_starts_with_a_card_four_runes_and_two_sickles_beside_two_rows() -> None:
    state = initial(CarnutaOptions(), 3)
    events, state = GAME.settle(state, GAME.start(state, Rng(4, 0)))
    assert [type(e) for e in events[:3]] == [StartingCardDealt] * 3
    assert [len(p.tableau) for p in state.players] == [1, 1, 1]
    assert all(p.runes == {"sun": 2, "moon": 2} and p.sickles == 2 for p in state.players)
    assert {row: len(cards) for row, cards in state.rows.items()} == {"day": 4, "night": 4}
    assert all(CARDS[c].deck == "night" for c in state.rows["night"])
    assert sum(state.reserve.values()) == 22 - 12
    assert events[-1] == TurnBegan(seat=ANN, round=1)


# --- the four actions ------------------------------------------------------------------------


def test_a_turn_is_two_actions_the_same_one_twice_if_you_like() -> None:
    state = table()
    state, events = play(state, FlipRunes(symbol="sun", count=1))
    assert events == [RunesFlipped(seat=ANN, symbol="sun", count=1)]
    state, events = play(state, FlipRunes(symbol="moon", count=3))
    assert events[-1] == TurnBegan(seat=BEA, round=1)
    assert state.players[ANN].runes == {"sun": 4, "moon": 0}


def test_taking_a_card_puts_it_in_hand_and_refills_its_row() -> None:
    state = table()
    card = state.rows["day"][0]
    after, events = play(state, TakeCard(card=card), state.decks["day"][0])
    assert events[0] == CardTaken(seat=ANN, card=card, row="day")
    assert events[1] == RowFilled(row="day", card=state.decks["day"][0])
    assert after.players[ANN].hand == [card]


def test_the_hand_limit_is_three() -> None:
    state = table(ann=player(hand=OAKS[:3]))
    assert refused(state, TakeCard(card=state.rows["day"][0])) == "hand_full"


def test_playing_a_card_flips_and_discards_the_runes_on_its_top() -> None:
    state = table(ann=player(hand=[DISCARD_MOON_FLIP_SUN], sun=1, moon=1))
    after, events = play(state, PlayCard(card=DISCARD_MOON_FLIP_SUN))
    assert events[0] == CardPlayed(
        seat=ANN, card=DISCARD_MOON_FLIP_SUN, flipped=("sun",), discarded=("moon",)
    )
    assert after.players[ANN].runes == {"sun": 0, "moon": 1}, "the sun flipped to a moon"
    assert after.reserve["moon"] == state.reserve["moon"] + 1
    assert after.players[ANN].tableau == [DISCARD_MOON_FLIP_SUN]


def test_a_card_whose_runes_you_lack_cannot_be_played() -> None:
    # Two sun items need two suns showing; a rune pays for one item as it shows now.
    state = table(ann=player(hand=[PER_OAK], sun=1, moon=3))
    assert refused(state, PlayCard(card=PER_OAK)) == "runes_missing"
    assert refused(state, PlayCard(card=FLIP_SUN)) == "card_not_in_hand"


def test_taking_runes_takes_one_symbol_up_to_the_reserve_and_the_free_slots() -> None:
    state = table(ann=player(sun=1, moon=1), reserve={"sun": 5, "moon": 1})
    legal = [c for c in GAME.legal(state, ANN) if isinstance(c, TakeRunes)]
    assert legal == [TakeRunes("sun", 1), TakeRunes("sun", 2), TakeRunes("moon", 1)]
    assert refused(state, TakeRunes(symbol="sun", count=3)) == "rune_count"
    after, events = play(state, TakeRunes(symbol="sun", count=2))
    assert events[0] == RunesTaken(seat=ANN, symbol="sun", count=2)
    assert after.players[ANN].runes == {"sun": 3, "moon": 1}
    assert after.reserve == {"sun": 3, "moon": 1}
    full = table(ann=player(sun=2, moon=2))
    assert refused(full, TakeRunes(symbol="sun", count=1)) == "no_runes_to_take"


def test_flipping_turns_as_many_runes_of_one_symbol_as_you_like() -> None:
    state = table(ann=player(sun=3, moon=1))
    assert refused(state, FlipRunes(symbol="sun", count=4)) == "rune_count"
    after, _ = play(state, FlipRunes(symbol="sun", count=3))
    assert after.players[ANN].runes == {"sun": 0, "moon": 4}
    assert refused(after, FlipRunes(symbol="sun", count=1)) == "no_runes_to_flip"


# --- the board -------------------------------------------------------------------------------


def test_the_fourth_card_opens_a_fifth_slot_and_the_eighth_a_sixth() -> None:
    state = table(ann=player(hand=[FLIP_SUN], tableau=OAKS[:3]))
    assert slots(state.players[ANN]) == 4
    after, events = play(state, PlayCard(card=FLIP_SUN))
    assert events[1] == SlotOpened(seat=ANN, slots=5)
    assert slots(after.players[ANN]) == 5
    eighth = table(ann=player(hand=[FLIP_SUN], tableau=OAKS[:7]))
    after, events = play(eighth, PlayCard(card=FLIP_SUN))
    assert events[1] == SlotOpened(seat=ANN, slots=6) and slots(after.players[ANN]) == 6


def test_the_sixth_and_tenth_cards_earn_a_bonus_token_that_counts_as_its_ingredient() -> None:
    state = table(ann=player(hand=[FLIP_SUN], tableau=OAKS[:5]))
    after, events = play(state, PlayCard(card=FLIP_SUN))
    assert events[-1] == TokenEarned(seat=ANN)
    assert refused(after, FlipRunes(symbol="moon", count=1)) == "pick_a_token"
    after, events = play(after, PickToken(ingredient="mistletoe"))
    assert events == [TokenPicked(seat=ANN, ingredient="mistletoe")]
    assert "mistletoe" not in after.tokens and after.actions_left == 1
    # The token adds to the mistletoe count: FLIP_SUN scores 1 per mistletoe, now 2.
    assert score_sheet(after.players[ANN]).cards[-1] == 2
    tenth = table(ann=player(hand=[FLIP_SUN], tableau=OAKS[:9]))
    _, events = play(tenth, PlayCard(card=FLIP_SUN))
    assert TokenEarned(seat=ANN) in events


def test_a_sickle_refreshes_the_row_of_your_choice_without_spending_an_action() -> None:
    state = table()
    old = list(state.rows["night"])
    fresh = state.decks["night"][:4]
    after, events = play(state, UseSickle(row="night"), *fresh)
    assert events[0] == SickleUsed(seat=ANN, row="night", cleared=tuple(old))
    assert after.rows["night"] == fresh and after.actions_left == 2
    assert after.players[ANN].sickles == 1
    spent = table(ann=player(sickles=0))
    assert refused(spent, UseSickle(row="day")) == "no_sickle"


# --- the end ---------------------------------------------------------------------------------


def test_the_eleventh_card_finishes_the_round_and_one_more_is_played() -> None:
    state = table(ann=player(hand=[FLIP_SUN], tableau=OAKS[:9] + NIGHTS[:1]), round=5)
    after, events = play(state, PlayCard(card=FLIP_SUN))
    assert EndTriggered(seat=ANN, last_round=6) in events
    # Round 5 ends and round 6 is played; after Bea's turn in round 6 the game is scored.
    last = msgspec.structs.replace(after, player=BEA, round=6, actions_left=1)
    _, events = play(last, FlipRunes(symbol="sun", count=1))
    assert isinstance(events[-1], GameEnded)
    early = msgspec.structs.replace(after, player=BEA, round=5, actions_left=1)
    _, events = play(early, FlipRunes(symbol="sun", count=1))
    assert events[-1] == TurnBegan(seat=ANN, round=6)


def test_read_as_the_facts_do_the_eleventh_card_only_finishes_the_round() -> None:
    state = table(
        ann=player(hand=[FLIP_SUN], tableau=OAKS[:9] + NIGHTS[:1]),
        round=5,
        options=CarnutaOptions(last_round="finish"),
    )
    _, events = play(state, PlayCard(card=FLIP_SUN))
    assert EndTriggered(seat=ANN, last_round=5) in events


def test_each_card_scores_its_condition() -> None:
    ann = player(
        tableau=[FLIP_SUN, FLIP_BOTH, PER_OAK, DISTINCT, MOON_RUNES, OAKS[0], OAKS[1]],
        sun=1,
        moon=3,
        tokens=["mistletoe"],
    )
    sheet = score_sheet(ann)
    # 6 mistletoe (5 cards + the token) for the first, a flat 3, 2 oaks, 2 kinds, 3 moons.
    assert sheet.cards[:5] == (6, 3, 2, 2, 3)
    assert sheet.total == sum(sheet.cards)


def test_the_highest_score_wins_and_a_tie_goes_to_the_best_single_ingredient() -> None:
    state = table(
        ann=player(tableau=[FLIP_BOTH, OAKS[3]]),  # 3 + 3, best ingredient 3
        bea=player(tableau=[OAKS[3], OAKS[4]]),  # 3 + 3 oak: best ingredient 6
        player=BEA,
        round=30,
        actions_left=1,
    )
    after, events = play(state, FlipRunes(symbol="sun", count=1))
    assert isinstance(events[-1], GameEnded)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (6, 6) and outcome.ranks == (2, 1)
