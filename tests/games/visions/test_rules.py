"""Visions: the conformance kit, then the page's sentences as short stories."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.games.visions import GAME
from domain.games.visions.commands import (
    Command,
    EndTurn,
    PlayCard,
    PlayNightmare,
    TakeCard,
)
from domain.games.visions.events import (
    CardsDealt,
    CardStolen,
    EchoTriggered,
    Event,
    GameEnded,
    NightmarePlayed,
    ReflectionMoved,
    RiverFilled,
)
from domain.games.visions.rules import dream_score, legal, to_act
from domain.games.visions.state import Options, Slot, State, initial
from domain.games.visions.view import hidden, redact, view
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged

ANN, BEA, CID = 0, 1, 2


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a rigged table -----------------------------------------------------------------------


def c(name: str) -> str:
    """`red moon` -> vi-red-moon-1; `red moon 2` -> the second copy."""
    colour, symbol, *copy = name.split()
    return f"vi-{colour}-{symbol}-{copy[0] if copy else 1}"


def table(
    *hands: Sequence[str],
    dreams: Mapping[int, Sequence[Sequence[str]]] | None = None,
    river: Sequence[str] = (),
    deck: Sequence[str] = (),
    track: Sequence[int] | None = None,
    options: Options | None = None,
) -> State:
    """Ann's turn to place a card. Cards are named `colour symbol [copy]`; a dream card
    starting with `!` is a nightmare. Cards named nowhere are out of the game."""
    state = initial(options or Options(), len(hands))
    state.phase = "play"
    state.hands = tuple(tuple(c(n) for n in hand) for hand in hands)
    state.dreams = tuple(
        tuple(
            tuple(Slot(c(n.lstrip("!")), nightmare=n.startswith("!")) for n in dream)
            for dream in [*(dreams or {}).get(s, ()), (), ()][:2]
        )
        for s in range(len(hands))
    )
    state.river = tuple(c(n) for n in river)
    state.deck = tuple(sorted(c(n) for n in deck))
    state.track = tuple(track or [0] * len(hands))
    return state


def play(state: State, command: Command, *outcomes: Any) -> tuple[State, list[Event]]:
    (seat,) = to_act(state)
    return stories.play(GAME, state, seat, command, Rigged(*outcomes))


def refused(state: State, command: Command) -> str:
    (seat,) = to_act(state)
    return stories.refused(GAME, state, seat, command)


def of(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


RIVER = ("green key", "green eye", "blue star", "pink shell", "yellow feather")


# --- setup --------------------------------------------------------------------------------


def test_each_player_is_dealt_three_and_five_cards_open_the_river() -> None:
    state = initial(Options(), 3)
    events, state = GAME.settle(state, GAME.start(state, Rng(5, 0)))
    assert [len(h) for h in state.hands] == [3, 3, 3] and len(state.river) == 5
    assert len(state.deck) == 72 - 14 and to_act(state) == {ANN}
    # A deal is seen by its player only.
    deal = of(events, CardsDealt)[1]
    assert redact(deal, ANN) == CardsDealt(seat=BEA, count=3)


# --- placing ------------------------------------------------------------------------------


def test_any_card_starts_a_dream_and_two_dreams_is_the_maximum() -> None:
    state = table(["red moon", "blue star"], ["pink eye"], river=RIVER)
    after, _ = play(state, PlayCard(card=c("red moon"), dream=2))
    assert after.dreams[ANN][1] == (Slot(c("red moon")),)
    assert refused(state, PlayCard(card=c("red moon"), dream=3)) == "no_such_dream"


def test_a_card_is_added_when_it_matches_the_previous_card_in_colour_or_symbol() -> None:
    state = table(
        ["red star", "blue moon", "green key"],
        ["pink eye"],
        dreams={ANN: [["yellow moon", "red moon"], ["blue eye"]]},
        river=RIVER,
    )
    # Red star follows red moon by colour; blue moon follows it by symbol.
    assert PlayCard(card=c("red star"), dream=1) in legal(state, ANN)
    assert PlayCard(card=c("blue moon"), dream=1) in legal(state, ANN)
    # Only the last card counts: green key matches neither.
    assert refused(state, PlayCard(card=c("green key"), dream=1)) == "does_not_match"


def test_after_placing_the_player_draws_back_up_to_three_from_the_river() -> None:
    state = table(["red moon", "blue star", "pink eye"], ["pink eye 2"], river=RIVER)
    after, _ = play(state, PlayCard(card=c("red moon"), dream=1))
    assert to_act(after) == {ANN}
    assert sorted(legal(after, ANN), key=str) == sorted(
        (TakeCard(card=c(n)) for n in RIVER), key=str
    )
    assert refused(after, PlayCard(card=c("blue star"), dream=2)) == "draw_from_the_river"
    after, _ = play(after, TakeCard(card=c("blue star")))
    assert len(after.hands[ANN]) == 3 and to_act(after) == {BEA}


def test_the_river_is_refilled_to_five_only_when_completely_empty() -> None:
    deck = ("red key", "red eye", "red star", "red shell", "red feather", "pink key")
    state = table(
        ["red moon", "blue star"], ["pink eye"], river=["green key", "green eye"], deck=deck
    )
    after, _ = play(state, PlayCard(card=c("red moon"), dream=1))
    after, events = play(after, TakeCard(card=c("green key")))
    # One card is left in the River: no refill.
    assert not of(events, RiverFilled) and len(after.river) == 1
    state = table(["red moon", "blue star"], ["pink eye"], river=["green key"], deck=deck)
    after, _ = play(state, PlayCard(card=c("red moon"), dream=1))
    after, events = play(after, TakeCard(card=c("green key")))
    assert len(of(events, RiverFilled)[0].cards) == 5 and len(after.river) == 5


# --- reflection ---------------------------------------------------------------------------


def test_a_colour_or_symbol_matched_in_the_other_dream_moves_the_track_by_one() -> None:
    # The new card is the second of dream 1; the second of dream 2 is a blue star.
    state = table(
        ["red star", "red moon 2"],
        ["pink eye"],
        dreams={ANN: [["red moon"], ["green key", "blue star"]]},
        river=RIVER,
        deck=["pink key", "pink moon"],
    )
    after, events = play(state, PlayCard(card=c("red star"), dream=1))
    assert ReflectionMoved(seat=ANN, steps=1) in events and after.track[ANN] == 1
    # The step lays a deck card in the River.
    assert len(after.river) == 6


def test_both_colour_and_symbol_matched_move_the_track_by_two() -> None:
    state = table(
        ["blue star 2", "red moon 2"],
        ["pink eye"],
        dreams={ANN: [["blue moon"], ["green key", "blue star"]]},
        river=RIVER,
    )
    after, events = play(state, PlayCard(card=c("blue star 2"), dream=1))
    assert ReflectionMoved(seat=ANN, steps=2) in events and after.track[ANN] == 2


def test_reaching_the_end_of_the_track_wins_the_game_instantly() -> None:
    state = table(
        ["blue star 2", "red moon 2"],
        ["pink eye"],
        dreams={ANN: [["blue moon"], ["green key", "blue star"]]},
        river=RIVER,
        track=[9, 4],
    )
    after, events = play(state, PlayCard(card=c("blue star 2"), dream=1))
    # Two steps from 9: the track ends on 10 (no 11th step), and so does the game.
    assert after.track[ANN] == 10 and after.phase == "over"
    # Ann: blue moon + blue star (2 x 1), green key + blue star (1 x 1), 10 steps.
    assert events[-1] == GameEnded(scores=(2 + 1 + 10, 4), woke=ANN)
    assert GAME.outcome(after).winners == (ANN,)  # type: ignore[union-attr]


def test_reflection_reads_the_whole_other_dream_under_that_option() -> None:
    options = Options(reflection="whole_dream")
    state = table(
        ["red star"],
        ["pink eye"],
        dreams={ANN: [["red moon"], ["pink star", "green key", "yellow key"]]},
        river=RIVER,
        options=options,
    )
    after, _ = play(state, PlayCard(card=c("red star"), dream=1))
    # Green key at the same position matches nothing; the pink star elsewhere does.
    assert after.track[ANN] == 1
    after, _ = play(
        table(
            ["red star"],
            ["pink eye"],
            dreams={ANN: [["red moon"], ["pink star", "green key"]]},
            river=RIVER,
        ),
        PlayCard(card=c("red star"), dream=1),
    )
    assert after.track[ANN] == 0


def test_without_river_feeding_a_reflection_adds_no_card() -> None:
    options = Options(reflection_feeds_river=False)
    state = table(
        ["red star"],
        ["pink eye"],
        dreams={ANN: [["red moon"], ["green key", "blue star"]]},
        river=RIVER,
        deck=["pink key"],
        options=options,
    )
    after, _ = play(state, PlayCard(card=c("red star"), dream=1))
    assert after.track[ANN] == 1 and len(after.river) == 5


# --- echo ---------------------------------------------------------------------------------


def test_an_echo_matches_a_card_of_the_same_dream_exactly_and_gives_another_play() -> None:
    # Red moon 2 goes after red star; the first red moon, two cards back, echoes it.
    state = table(
        ["red moon 2", "red key", "pink eye 2"],
        ["pink eye"],
        dreams={ANN: [["red moon", "red star"], []]},
        river=RIVER,
    )
    after, events = play(state, PlayCard(card=c("red moon 2"), dream=1))
    assert EchoTriggered(seat=ANN) in events and to_act(after) == {ANN}
    # Another card now, or stop.
    assert EndTurn() in legal(after, ANN)
    after, _ = play(after, PlayCard(card=c("red key"), dream=1))
    assert after.phase == "refill"


def test_an_echo_may_be_declined_and_echoes_chain() -> None:
    state = table(
        ["red moon 2", "red star 2"],
        ["pink eye"],
        dreams={ANN: [["red moon", "red star"], []]},
        river=RIVER,
    )
    after, _ = play(state, PlayCard(card=c("red moon 2"), dream=1))
    after, events = play(after, PlayCard(card=c("red star 2"), dream=1))
    # The hand is empty: the second Echo gives nothing more to play.
    assert not of(events, EchoTriggered) and after.phase == "refill"
    state = table(
        ["red moon 2", "red key"], ["pink eye"], dreams={ANN: [["red moon"], []]}, river=RIVER
    )
    after, _ = play(state, PlayCard(card=c("red moon 2"), dream=1))
    after, _ = play(after, EndTurn())
    assert after.phase == "refill" and c("red key") in after.hands[ANN]
    assert refused(table(["red key"], ["pink eye"], river=RIVER), EndTurn()) == "no_echo"


# --- nightmares ---------------------------------------------------------------------------

STUCK = {ANN: [["red moon"], ["blue star"]]}


def test_a_nightmare_only_when_no_card_can_be_placed() -> None:
    state = table(["red star"], ["pink eye"], dreams=STUCK, river=RIVER)
    move = PlayNightmare(card=c("red star"), dream=1, target=BEA)
    assert refused(state, move) == "you_can_place_a_card"
    # Under the option, by choice too.
    chosen = table(
        ["red star"],
        ["pink eye"],
        dreams=STUCK,
        river=RIVER,
        options=Options(nightmare_by_choice=True),
    )
    assert move in legal(chosen, ANN)


def test_a_nightmare_steals_instead_of_drawing_and_the_opponent_refills() -> None:
    state = table(
        ["green key", "pink shell"], ["pink eye", "yellow feather"], dreams=STUCK, river=RIVER
    )
    after, events = play(
        state, PlayNightmare(card=c("green key"), dream=2, target=BEA), c("pink eye")
    )
    assert CardStolen(seat=ANN, target=BEA, card=c("pink eye")) in events
    assert sorted(after.hands[ANN]) == sorted([c("pink shell"), c("pink eye")])
    # Bea draws from the River, not Ann.
    assert to_act(after) == {BEA} and after.phase == "refill"
    after, _ = play(after, TakeCard(card=c("green eye")))
    after, _ = play(after, TakeCard(card=c("blue star")))
    assert len(after.hands[BEA]) == 3 and len(after.hands[ANN]) == 2
    assert to_act(after) == {BEA} and after.phase == "play"


def test_a_nightmare_is_face_down_and_any_card_may_follow_it() -> None:
    state = table(["green key", "pink shell"], ["pink eye"], dreams=STUCK, river=RIVER)
    after, events = play(
        state, PlayNightmare(card=c("green key"), dream=2, target=BEA), c("pink eye")
    )
    nightmare = of(events, NightmarePlayed)[0]
    assert redact(nightmare, BEA) == NightmarePlayed(seat=ANN, dream=2)
    assert c("green key") in hidden(after, BEA) and c("green key") not in hidden(after, ANN)
    assert view(after, BEA).players[ANN].dreams[1][-1].card is None
    # The theft is seen by thief and victim only.
    stolen = of(events, CardStolen)[0]
    assert redact(stolen, CID) == CardStolen(seat=ANN, target=BEA)
    assert c("pink eye") not in hidden(after, BEA)
    # Any card may follow a nightmare.
    after.phase, after.player = "play", ANN
    assert PlayCard(card=c("pink shell"), dream=2) in legal(after, ANN)


def test_a_nightmare_scores_nothing() -> None:
    assert dream_score((Slot(c("red moon")), Slot(c("red star"), nightmare=True))) == 1


# --- end and scoring ----------------------------------------------------------------------


def test_each_dream_scores_its_top_colour_count_times_its_top_symbol_count() -> None:
    dream = tuple(
        Slot(c(n)) for n in ("red moon", "red star", "blue star", "red key", "green star")
    )
    # Red 3 times, star 3 times: 9.
    assert dream_score(dream) == 9


def test_the_game_ends_when_the_deck_runs_out_and_every_card_is_placed() -> None:
    state = table(
        ["red star"],
        [],
        dreams={ANN: [["red moon"], ["pink eye", "pink key"]], BEA: [["blue moon"], []]},
        track=[2, 3],
    )
    after, events = play(state, PlayCard(card=c("red star"), dream=1))
    # Ann: 2 x 1 for red moon-star, 2 x 1 for the pinks, 2 steps; Bea: 1 and 3 steps.
    assert events[-1] == GameEnded(scores=(6, 4))
    assert GAME.outcome(after).ranks == (1, 2)  # type: ignore[union-attr]


def test_a_player_with_no_card_is_skipped_while_others_still_play() -> None:
    state = table(["red star"], [], ["pink eye"], dreams={ANN: [["red moon"], []]})
    after, _ = play(state, PlayCard(card=c("red star"), dream=1))
    assert to_act(after) == {CID}


def test_a_card_taken_from_the_river_is_known_to_everyone() -> None:
    state = table(["red moon", "blue star", "pink eye"], ["pink eye 2"], river=RIVER)
    after, _ = play(state, PlayCard(card=c("red moon"), dream=1))
    after, _ = play(after, TakeCard(card=c("blue star")))
    assert c("blue star") not in hidden(after, BEA)
    assert c("pink eye") in hidden(after, BEA)
