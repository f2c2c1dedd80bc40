"""Zenith: the conformance kit, then the page's sentences as short stories."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from domain.games.zenith import GAME
from domain.games.zenith.agents import AGENTS as GAME_AGENTS
from domain.games.zenith.commands import (
    Accept,
    ChooseBonus,
    ChooseCard,
    ChooseOption,
    ChoosePlanet,
    Command,
    Decline,
    Pass,
    PlayDiplomacy,
    PlayInfluence,
    PlayTechnology,
)
from domain.games.zenith.effects import Planet
from domain.games.zenith.events import (
    BadgeTaken,
    BonusTaken,
    CardsDrawn,
    CardTransferred,
    Event,
    GameWon,
    InfluenceGained,
    TokenCaptured,
)
from domain.games.zenith.rules import legal, to_act
from domain.games.zenith.state import Options, Player, State, initial
from domain.games.zenith.view import hidden, redact, view
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged

ANN, BEA = 0, 1
# Cards used below (agents.py): number, planet, faction, cost.
CRESUS = "zn-agent-19"  # Venus, Animod, 1: +1 Venus, +6 credits
NERO = "zn-agent-04"  # Mercury, Animod, 7: +1 Mercury, +3 Zenithium
KHAN = "zn-agent-05"  # Mercury, Animod, 9: +1 Mercury, +2 any (chain), IF give badge +2 other
SECRET_KALI = "zn-agent-08"  # Mercury, Human, 2: IF give 3 credits -> +2 any but Mercury
AMYTIS = "zn-agent-02"  # Mercury, Animod, 3: IF exile 2/4/7 Mercury -> +1/2/3 Mercury
CAESAR = "zn-agent-56"  # Mars, Animod, 2: CHOOSE +1 Zenithium / +7 credits
BARON_GORO = "zn-agent-44"  # Terra, Human, 4: opponent +1 (not Terra), +3 Zenithium
SIR_SAM = "zn-agent-48"  # Terra, Human, 7: reset a disc on the opponent's side
GILGAMESH = "zn-agent-41"  # Terra, Animod, 9: +2 any, +2 on a disc on the opponent's side
BRUSSOLO = "zn-agent-49"  # Terra, Robot, 1: +1 Terra, +1 Zenithium
ELISABETH = "zn-agent-38"  # Terra, Animod, 2: discard 1 from hand, +1 Zenithium
GUY_GAMBLER = "zn-agent-09"  # Mercury, Human, 3: +5 credits, IF badge -> face-down bonus
HANDY_LUKE = "zn-agent-64"  # Mars, Human, 4: take a face-up bonus token
CAPTAIN_ANDREEV = "zn-agent-82"  # Jupiter, Human, 4: IF transfer 1 -> credits = its cost
SULEIMAN = "zn-agent-75"  # Jupiter, Animod, 1: IF spend 3/7/12 credits -> +1/2/3 not Jupiter
LITTLE_BOB = "zn-agent-62"  # Mars, Human, 3: +1 any but Mars
ANNIE = "zn-agent-73"  # Jupiter, Animod, 1 (Mercury cards for stacks below are any)
W4TS0N = "zn-agent-67"  # Mars, Robot, 1: +5 credits, mobilize 1
ROBOT = "zn-agent-13"  # Mercury, Robot, 1 (Orw3ll)
HUMAN = "zn-agent-07"  # Mercury, Human, 1 (Lula Smart)
MERCURY = (
    "zn-agent-01",
    "zn-agent-03",
    "zn-agent-10",
    "zn-agent-11",
    "zn-agent-12",
    "zn-agent-14",
    "zn-agent-15",
)  # Mercury cards


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a rigged table -----------------------------------------------------------------------


def table(
    ann: Sequence[str] = (),
    bea: Sequence[str] = (),
    *,
    turn: int = ANN,
    zones: Mapping[int, Sequence[str]] | None = None,
    credits: tuple[int, int] = (12, 12),
    zen: tuple[int, int] = (1, 1),
    discs: Mapping[Planet, int] | None = None,
    tokens: Mapping[int, Sequence[Planet]] | None = None,
    tracks: Mapping[int, Mapping[str, int]] | None = None,
    badge: tuple[int, str] | None = None,
    sides: tuple[str, str, str] = ("S", "U", "N"),
    deck: Sequence[str] = (),
    planet_bonuses: Mapping[Planet, str] | None = None,
    track_bonuses: Mapping[str, str] | None = None,
    reserve: Sequence[str] = (),
    rows: tuple[int, ...] = (),
) -> State:
    """Ann's or Bea's turn, choosing an action; every other card sits in the discard pile
    unless it is in a hand, a zone or the `deck`."""
    state = initial(Options(), 2)
    players = []
    for seat, hand in enumerate((ann, bea)):
        zone: dict[Planet, tuple[str, ...]] = {p: () for p in state.discs}
        for card in (zones or {}).get(seat, ()):
            planet = GAME_AGENTS[card].planet
            zone[planet] = (*zone[planet], card)
        players.append(
            Player(
                credits=credits[seat],
                zenithium=zen[seat],
                hand=tuple(hand),
                zone=zone,
                tracks={"animod": 0, "human": 0, "robot": 0, **(tracks or {}).get(seat, {})},
                tokens=tuple((tokens or {}).get(seat, ())),
                row_bonuses=rows if seat == ANN else (),
            )
        )
    placed = {*ann, *bea, *deck, *(c for cards in (zones or {}).values() for c in cards)}
    state.players = (players[0], players[1])
    state.phase = "action"
    state.player = turn
    state.sides = sides
    state.discs = {**state.discs, **(discs or {})}
    state.deck = tuple(sorted(deck))
    state.discard = tuple(c for c in sorted(GAME_AGENTS) if c not in placed)
    state.planet_bonuses = {p: (planet_bonuses or {}).get(p) for p in state.discs}
    state.track_bonuses = {f: (track_bonuses or {}).get(f) for f in ("animod", "human", "robot")}
    state.reserve = tuple(sorted(reserve))
    if badge is not None:
        state.badge, state.badge_side = badge[0], badge[1]  # type: ignore[assignment]
    return state


def play(state: State, command: Command, *outcomes: Any) -> tuple[State, list[Event]]:
    """Whoever must act sends `command`; random picks come out as `outcomes`."""
    (seat,) = to_act(state)
    return stories.play(GAME, state, seat, command, Rigged(*outcomes))


def refused(state: State, command: Command) -> str:
    (seat,) = to_act(state)
    return stories.refused(GAME, state, seat, command)


def of(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def asks(state: State) -> list[Command]:
    (seat,) = to_act(state)
    return list(legal(state, seat))


# --- beginning of the game ----------------------------------------------------------------


def test_player_two_starts_with_one_terra_influence_and_both_hold_four_cards() -> None:
    state = initial(Options(), 2)
    events, state = GAME.settle(state, GAME.start(state, Rng(3, 0)))
    second = 1 - state.first
    # Player 2's Terra disc stands one step toward them; everyone holds 4 cards.
    assert InfluenceGained(seat=second, planet="terra", steps=1) in events
    assert state.discs["terra"] == (1 if second == ANN else -1)
    assert [len(p.hand) for p in state.players] == [4, 4]
    # ASSUMPTION (Game Park setup): 12 credits and 1 Zenithium each.
    assert [(p.credits, p.zenithium) for p in state.players] == [(12, 1), (12, 1)]
    # Five tokens lie on the planets, three on the level-2 spaces, eight face down.
    assert len([t for t in state.planet_bonuses.values() if t]) == 5
    assert len([t for t in state.track_bonuses.values() if t]) == 3
    assert len(state.reserve) == 8
    assert to_act(state) == {state.first}


def test_the_board_sides_option_fixes_every_technology_board() -> None:
    state = initial(Options(board_sides="second"), 2)
    _, state = GAME.settle(state, GAME.start(state, Rng(3, 0)))
    assert state.sides == ("D", "O", "P")


# --- influence and winning ----------------------------------------------------------------


def test_influence_moves_the_disc_toward_you_by_the_influence_gained() -> None:
    # Bea's Venus disc stands two steps toward her; Ann plays Cresus (+1 Venus).
    state = table([CRESUS], deck=["zn-agent-20"], discs={"venus": -2})
    after, _ = play(state, PlayInfluence(card=CRESUS))
    assert after.discs["venus"] == -1
    # Cresus's second effect: 6 credits, less the 1 it cost.
    assert after.players[ANN].credits == 12 - 1 + 6


def test_a_disc_reaching_your_edge_is_yours_a_new_one_is_placed_and_the_excess_lost() -> None:
    # Ann's Terra disc is 3 steps toward her; Gilgamesh gives +1 Terra then +2 anywhere.
    state = table([GILGAMESH], discs={"terra": 3, "mars": -1}, credits=(9, 12))
    after, events = play(state, PlayInfluence(card=GILGAMESH))
    assert TokenCaptured(seat=ANN, planet="terra") in events
    assert after.discs["terra"] == 0 and after.players[ANN].tokens == ("terra",)
    # +2 on Terra again: the new disc moves 2 from the centre; the captured excess is gone.
    after, _ = play(after, ChoosePlanet(planet="terra"))
    assert after.discs["terra"] == 2


def test_excess_influence_on_arrival_at_the_edge_is_lost() -> None:
    # Venus is one step from Ann's edge; the row bonus of level 3 brings 3 influence.
    state = table(
        [HUMAN], zen=(3, 1), discs={"venus": 3}, tracks={ANN: {"animod": 3, "robot": 3, "human": 2}}
    )
    after, _ = play(state, PlayTechnology(card=HUMAN))
    # Human U levels 1-3: +1 any, mobilize 2 (no deck: nothing), steal 3; then the row bonus.
    after, _ = play(after, ChoosePlanet(planet="mars"))
    after, events = play(after, ChoosePlanet(planet="venus"))
    assert InfluenceGained(seat=ANN, planet="venus", steps=1) in events
    assert after.discs["venus"] == 0 and after.players[ANN].tokens == ("venus",)


def test_three_tokens_of_one_planet_are_an_absolute_victory_ending_the_game_at_once() -> None:
    state = table(
        [KHAN], tokens={ANN: ["mercury", "mercury"]}, discs={"mercury": 3}, credits=(9, 12)
    )
    after, events = play(state, PlayInfluence(card=KHAN))
    assert events[-1] == GameWon(seat=ANN, victory="absolute")
    # Khan's later effects never happen: play ended immediately.
    assert after.phase == "over" and after.pending == () and to_act(after) == frozenset()
    assert GAME.outcome(after) is not None and GAME.outcome(after).winners == (ANN,)  # type: ignore[union-attr]


def test_four_tokens_of_different_planets_are_a_democratic_victory() -> None:
    state = table([CRESUS], tokens={ANN: ["mercury", "terra", "mars"]}, discs={"venus": 3})
    _, events = play(state, PlayInfluence(card=CRESUS))
    assert events[-1] == GameWon(seat=ANN, victory="democratic")


def test_five_tokens_in_any_combination_are_a_popular_victory() -> None:
    tokens: list[Planet] = ["mercury", "mercury", "terra", "terra"]
    state = table([CRESUS], tokens={ANN: tokens}, discs={"venus": 3})
    _, events = play(state, PlayInfluence(card=CRESUS))
    assert events[-1] == GameWon(seat=ANN, victory="popular")


def test_influence_given_to_the_opponent_can_win_them_the_game_on_your_turn() -> None:
    # Baron Goro gives Bea 1 influence (not on Terra); Bea's Mars disc is at her edge's step.
    state = table([BARON_GORO], tokens={BEA: ["mars", "mars"]}, discs={"mars": -3})
    after, _ = play(state, PlayInfluence(card=BARON_GORO))
    assert ChoosePlanet(planet="terra") not in asks(after)
    after, events = play(after, ChoosePlanet(planet="mars"))
    assert events[-1] == GameWon(seat=BEA, victory="absolute")


# --- diplomacy ----------------------------------------------------------------------------


def test_diplomacy_takes_the_badge_silver_side_up_with_the_faction_bonus() -> None:
    # Bea holds the badge; Ann discards a Robot card: badge silver, +1 Zenithium.
    state = table(
        [ROBOT, CRESUS],
        badge=(BEA, "gold"),
        deck=["zn-agent-20", "zn-agent-21", "zn-agent-22", "zn-agent-23"],
    )
    after, events = play(state, PlayDiplomacy(card=ROBOT))
    assert BadgeTaken(seat=ANN, side="silver") in events
    assert after.players[ANN].zenithium == 2 and ROBOT in after.discard
    # Hand size 5: she holds 1 card and draws 4.
    assert len(after.players[ANN].hand) == 5


def test_diplomacy_with_the_silver_badge_turns_it_gold_and_gold_stays_gold() -> None:
    state = table(
        [HUMAN, ANNIE], badge=(ANN, "silver"), deck=[f"zn-agent-{n}" for n in range(20, 30)]
    )
    after, events = play(state, PlayDiplomacy(card=HUMAN))
    assert BadgeTaken(seat=ANN, side="gold") in events
    # Human bonus: 3 credits. Hand size 6.
    assert after.players[ANN].credits == 15 and len(after.players[ANN].hand) == 6
    state = table([HUMAN], badge=(ANN, "gold"))
    after, events = play(state, PlayDiplomacy(card=HUMAN))
    assert after.badge == ANN and after.badge_side == "gold"


def test_animod_diplomacy_mobilizes_two_cards_into_your_zone() -> None:
    state = table([ANNIE], deck=["zn-agent-20", "zn-agent-40"])
    after, _ = play(state, PlayDiplomacy(card=ANNIE))
    assert after.players[ANN].zone["venus"] == ("zn-agent-20",)
    assert after.players[ANN].zone["terra"] == ("zn-agent-40",)


# --- influence action and the credit discount ---------------------------------------------


def test_each_card_in_your_stack_of_that_planet_takes_a_credit_off_the_cost() -> None:
    # Five Mercury cards in Ann's stack: Nero (7) costs her 2.
    state = table([NERO], zones={ANN: MERCURY[:5]})
    after, events = play(state, PlayInfluence(card=NERO))
    assert after.players[ANN].credits == 10
    assert after.players[ANN].zone["mercury"][-1] == NERO
    assert view(state, ANN).players[ANN].prices == {NERO: 2}


def test_a_card_is_free_when_your_stack_is_as_large_as_its_cost() -> None:
    state = table([NERO], zones={ANN: MERCURY}, credits=(0, 12))
    after, _ = play(state, PlayInfluence(card=NERO))
    # Seven cards against a cost of 7: free; no credit is gained for the larger stack.
    assert after.players[ANN].credits == 0


def test_a_card_you_cannot_pay_for_cannot_be_played_for_influence() -> None:
    state = table([NERO], credits=(6, 12))
    assert refused(state, PlayInfluence(card=NERO)) == "not_enough_credits"
    assert refused(state, PlayInfluence(card=CRESUS)) == "card_not_in_hand"


# --- technology ---------------------------------------------------------------------------


def test_technology_pays_the_next_levels_zenithium_and_gains_that_level_and_all_below() -> None:
    # Animod S: level 1 +2 credits, level 2 +1/+1 on neighbouring planets.
    state = table([ANNIE], zen=(2, 1), tracks={ANN: {"animod": 1}})
    after, _ = play(state, PlayTechnology(card=ANNIE))
    assert after.players[ANN].zenithium == 0 and after.players[ANN].tracks["animod"] == 2
    assert after.players[ANN].credits == 14 and ANNIE in after.discard
    # Neighbours: the row starting on Mars gives Mars and Jupiter 1 each.
    assert ChoosePlanet(planet="jupiter") not in asks(after)
    after, _ = play(after, ChoosePlanet(planet="mars"))
    assert after.discs["mars"] == 1 and after.discs["jupiter"] == 1


def test_technology_needs_the_zenithium_for_the_next_level() -> None:
    state = table([ANNIE], zen=(1, 1), tracks={ANN: {"animod": 1}})
    assert refused(state, PlayTechnology(card=ANNIE)) == "not_enough_zenithium"
    state = table([ANNIE], zen=(9, 1), tracks={ANN: {"animod": 5}})
    assert refused(state, PlayTechnology(card=ANNIE)) == "track_complete"


def test_a_marker_moves_only_one_level_per_turn() -> None:
    state = table([ANNIE], zen=(9, 1))
    after, _ = play(state, PlayTechnology(card=ANNIE))
    assert after.players[ANN].tracks["animod"] == 1 and after.players[ANN].zenithium == 8


def test_the_row_bonus_gives_influence_once_all_three_tracks_reach_a_level() -> None:
    # Ann's Animod and Human tracks are at 1; her Robot card brings Robot to 1.
    state = table([ROBOT], tracks={ANN: {"animod": 1, "human": 1}})
    after, _ = play(state, PlayTechnology(card=ROBOT))
    # Robot N level 1 (transfer 1) finds no card in Bea's zone; the row bonus asks a planet.
    after, _ = play(after, ChoosePlanet(planet="jupiter"))
    assert after.discs["jupiter"] == 1 and after.players[ANN].row_bonuses == (1,)


def test_the_row_bonus_is_one_time_and_not_for_levels_four_and_five() -> None:
    # Ann has had all three row bonuses; her Robot card brings every track to level 4.
    tracks = {"animod": 4, "human": 4, "robot": 3}
    state = table([ROBOT], zen=(4, 1), tracks={ANN: tracks}, rows=(1, 2, 3))
    after, _ = play(state, PlayTechnology(card=ROBOT))
    # Robot N levels 1-4: transfer (nothing to take), the badge, +2 then +1 elsewhere, +20.
    after, _ = play(after, ChoosePlanet(planet="mars"))
    after, _ = play(after, ChoosePlanet(planet="venus"))
    assert after.players[ANN].credits == 32 and after.badge == ANN
    # No row bonus for level 4, none again for 1-3.
    assert after.players[ANN].row_bonuses == (1, 2, 3) and to_act(after) == {BEA}


# --- bonus tokens -------------------------------------------------------------------------


def test_the_first_to_win_a_planets_token_takes_its_bonus_token() -> None:
    state = table([CRESUS], discs={"venus": 3}, planet_bonuses={"venus": "zn-bonus-01"})
    after, events = play(state, PlayInfluence(card=CRESUS))
    assert BonusTaken(seat=ANN, token="zn-bonus-01") in events
    # zn-bonus-01 is 3 credits: 12 - 1 + 3 + 6.
    assert after.players[ANN].credits == 20 and after.planet_bonuses["venus"] is None


def test_the_first_to_reach_level_two_takes_the_tracks_bonus_token() -> None:
    state = table(
        [ROBOT], zen=(2, 1), tracks={ANN: {"robot": 1}}, track_bonuses={"robot": "zn-bonus-11"}
    )
    after, events = play(state, PlayTechnology(card=ROBOT))
    # zn-bonus-11 is 1 Zenithium; Robot N level 2 takes the badge.
    assert BonusTaken(seat=ANN, token="zn-bonus-11") in events
    assert after.players[ANN].zenithium == 1 and after.badge == ANN
    # Bea arrives second: nothing left on the space.
    assert after.track_bonuses["robot"] is None


def test_a_face_down_bonus_token_is_drawn_at_random() -> None:
    state = table([GUY_GAMBLER], badge=(ANN, "silver"), reserve=["zn-bonus-03", "zn-bonus-14"])
    after, events = play(state, PlayInfluence(card=GUY_GAMBLER), "zn-bonus-14")
    # Guy Gambler: +5 credits, and with the badge a face-down token: mobilize 2 (deck empty:
    # the discard pile is shuffled in).
    assert BonusTaken(seat=ANN, token="zn-bonus-14") in events
    assert after.reserve == ("zn-bonus-03",)
    assert sum(len(s) for s in after.players[ANN].zone.values()) == 3


def test_an_effect_may_take_a_face_up_token_which_is_then_gone() -> None:
    state = table(
        [HANDY_LUKE],
        planet_bonuses={"terra": "zn-bonus-05"},
        track_bonuses={"human": "zn-bonus-07"},
    )
    after, _ = play(state, PlayInfluence(card=HANDY_LUKE))
    assert asks(after) == [ChooseBonus(token="zn-bonus-05"), ChooseBonus(token="zn-bonus-07")]
    after, _ = play(after, ChooseBonus(token="zn-bonus-05"))
    # zn-bonus-05 is 1 influence on any planet.
    after, _ = play(after, ChoosePlanet(planet="venus"))
    assert after.planet_bonuses["terra"] is None and after.discs["venus"] == 1


# --- end of turn --------------------------------------------------------------------------


def test_end_of_turn_draws_up_to_the_hand_size() -> None:
    state = table([CRESUS, ANNIE, ROBOT, HUMAN], deck=["zn-agent-30"])
    after, events = play(state, PlayInfluence(card=CRESUS))
    assert CardsDrawn(seat=ANN, count=1, cards=("zn-agent-30",)) in events
    assert len(after.players[ANN].hand) == 4 and to_act(after) == {BEA}


def test_a_larger_hand_than_the_hand_size_keeps_every_card() -> None:
    # Ann lost the badge with 6 cards; after playing one she keeps 5.
    hand = [CRESUS, ANNIE, ROBOT, HUMAN, NERO, KHAN]
    state = table(hand, deck=["zn-agent-30"])
    after, events = play(state, PlayInfluence(card=CRESUS))
    assert not of(events, CardsDrawn) and len(after.players[ANN].hand) == 5


def test_drawn_cards_are_seen_by_the_drawer_only() -> None:
    state = table([CRESUS, ANNIE, ROBOT, HUMAN], deck=["zn-agent-30"])
    after, events = play(state, PlayInfluence(card=CRESUS))
    (drawn,) = of(events, CardsDrawn)
    assert redact(drawn, BEA) == CardsDrawn(seat=ANN, count=1)
    assert redact(drawn, ANN) == drawn
    assert "zn-agent-30" in hidden(after, BEA) and "zn-agent-30" not in hidden(after, ANN)
    assert view(after, BEA).players[ANN].hand is None


# --- card effects -------------------------------------------------------------------------


def test_a_different_planet_chain_sends_the_next_influence_elsewhere() -> None:
    # Khan: +2 any starts a chain; IF Ann gives the badge away, +2 on another planet.
    state = table([KHAN], badge=(ANN, "silver"), credits=(9, 12))
    after, _ = play(state, PlayInfluence(card=KHAN))
    after, _ = play(after, ChoosePlanet(planet="mars"))
    after, events = play(after, Accept(tier=1))
    assert BadgeTaken(seat=BEA, side="silver") in events
    assert ChoosePlanet(planet="mars") not in asks(after)
    after, _ = play(after, ChoosePlanet(planet="venus"))
    assert after.discs["mars"] == 2 and after.discs["venus"] == 2


def test_an_if_may_be_declined_and_its_reward_is_lost() -> None:
    state = table([SECRET_KALI])
    after, _ = play(state, PlayInfluence(card=SECRET_KALI))
    assert asks(after) == [Accept(tier=1), Decline()]
    after, _ = play(after, Decline())
    assert after.players[ANN].credits == 10 and after.players[BEA].credits == 12
    assert to_act(after) == {BEA}


def test_an_if_paid_gives_its_reward_and_the_opponent_the_payment() -> None:
    state = table([SECRET_KALI])
    after, _ = play(state, PlayInfluence(card=SECRET_KALI))
    after, _ = play(after, Accept(tier=1))
    assert ChoosePlanet(planet="mercury") not in asks(after)
    after, _ = play(after, ChoosePlanet(planet="jupiter"))
    assert after.players[ANN].credits == 7 and after.players[BEA].credits == 15
    assert after.discs["jupiter"] == 2


def test_an_if_you_cannot_pay_is_not_offered() -> None:
    state = table([SECRET_KALI], credits=(4, 12))
    after, _ = play(state, PlayInfluence(card=SECRET_KALI))
    # 2 credits left: the 3 to give are missing, so the card's effects are over.
    assert to_act(after) == {BEA}


def test_a_tiered_if_multiplies_the_reward_by_the_tier_paid() -> None:
    # Four Mercury cards and Amytis on top: exile 2 or 4 for +1 or +2 Mercury.
    state = table([AMYTIS], zones={ANN: MERCURY[:4]})
    after, _ = play(state, PlayInfluence(card=AMYTIS))
    assert asks(after) == [Accept(tier=1), Accept(tier=2), Decline()]
    after, _ = play(after, Accept(tier=2))
    assert len(after.players[ANN].zone["mercury"]) == 1 and after.discs["mercury"] == 3


def test_a_tiered_spend_puts_the_whole_reward_on_one_planet() -> None:
    state = table([SULEIMAN], credits=(8, 12))
    after, _ = play(state, PlayInfluence(card=SULEIMAN))
    after, _ = play(after, Accept(tier=2))
    after, _ = play(after, ChoosePlanet(planet="terra"))
    assert after.players[ANN].credits == 0 and after.discs["terra"] == 2


def test_choose_takes_one_option_of_the_card() -> None:
    state = table([CAESAR])
    after, _ = play(state, PlayInfluence(card=CAESAR))
    assert asks(after) == [ChooseOption(option=1), ChooseOption(option=2)]
    after, _ = play(after, ChooseOption(option=2))
    assert after.players[ANN].credits == 12 - 2 + 7 and after.players[ANN].zenithium == 1


def test_transfer_takes_the_top_card_of_an_opponents_stack_with_its_cost_in_credits() -> None:
    state = table([CAPTAIN_ANDREEV], zones={BEA: ["zn-agent-20", "zn-agent-21"]})
    after, _ = play(state, PlayInfluence(card=CAPTAIN_ANDREEV))
    after, events = play(after, Accept(tier=1))
    # Only Venus holds cards: the top one, Moussa (2), moves to Ann.
    assert of(events, CardTransferred) == [CardTransferred(seat=ANN, card="zn-agent-21")]
    assert after.players[ANN].zone["venus"] == ("zn-agent-21",) and after.players[ANN].credits == 10


def test_reset_sends_a_disc_on_the_opponents_side_back_to_the_centre() -> None:
    state = table([SIR_SAM], discs={"mars": -3, "venus": -1, "jupiter": 2})
    after, _ = play(state, PlayInfluence(card=SIR_SAM))
    assert asks(after) == [ChoosePlanet(planet="venus"), ChoosePlanet(planet="mars")]
    after, _ = play(after, ChoosePlanet(planet="mars"))
    assert after.discs["mars"] == 0


def test_influence_only_on_a_disc_on_the_opponents_side() -> None:
    state = table([GILGAMESH], discs={"mars": -1}, credits=(9, 12))
    after, _ = play(state, PlayInfluence(card=GILGAMESH))
    after, _ = play(after, ChoosePlanet(planet="venus"))
    # Only Mars leans toward Bea: the second +2 is taken for Ann there.
    assert after.discs["mars"] == 1 and to_act(after) == {BEA}


def test_influence_only_on_a_disc_still_in_the_centre() -> None:
    anderson = "zn-agent-72"  # Mars, Robot, 6: +2 on a disc still in the centre
    discs: dict[Planet, int] = {"mercury": 1, "venus": -1, "terra": 2, "jupiter": 1}
    state = table([anderson], discs=discs)
    after, _ = play(state, PlayInfluence(card=anderson))
    # Mars moved off the centre with the card's own +1: no disc is left in the centre.
    assert after.discs["mars"] == 1 and to_act(after) == {BEA}
    after, _ = play(table([anderson], discs={"mercury": 1}), PlayInfluence(card=anderson))
    assert asks(after) == [ChoosePlanet(planet=p) for p in ("venus", "terra", "jupiter")]


def test_a_mandatory_if_is_carried_out_whenever_it_can_be() -> None:
    caligula = "zn-agent-59"  # Mars, Animod, 5: transfer 1 [mandatory] -> +1 influence
    state = table([caligula], zones={BEA: ["zn-agent-20"]})
    after, events = play(state, PlayInfluence(card=caligula))
    # Nothing to accept: the only card of Bea's zone comes over, then the influence asks.
    assert of(events, CardTransferred) == [CardTransferred(seat=ANN, card="zn-agent-20")]
    assert all(isinstance(c, ChoosePlanet) for c in asks(after))
    after, _ = play(table([caligula]), PlayInfluence(card=caligula))
    assert to_act(after) == {BEA}


def test_robot_p_level_four_exiles_two_cards_of_different_planets_for_influence_there() -> None:
    tracks = {"robot": 3}
    zone = ["zn-agent-20", "zn-agent-40", "zn-agent-41"]  # Venus, Terra, Terra
    state = table(
        [ROBOT], zen=(4, 1), tracks={ANN: tracks}, zones={ANN: zone}, sides=("S", "U", "P")
    )
    after, _ = play(state, PlayTechnology(card=ROBOT))
    # Levels 1-2 mobilize 2 from the shuffled discard pile; the exiles ask Ann's stacks.
    mobilized = [c for p, stack in after.players[ANN].zone.items() for c in stack if c not in zone]
    assert len(mobilized) == 2
    after, _ = play(after, ChoosePlanet(planet="terra"))
    assert after.discs["terra"] == 2
    assert ChoosePlanet(planet="terra") not in asks(after)
    after, _ = play(after, ChoosePlanet(planet="venus"))
    assert after.discs["venus"] == 2 and "zn-agent-41" in after.discard


def test_discarding_from_the_hand_asks_which_card() -> None:
    state = table([ELISABETH, ANNIE, ROBOT], deck=["zn-agent-30", "zn-agent-31", "zn-agent-32"])
    after, _ = play(state, PlayInfluence(card=ELISABETH))
    assert asks(after) == [ChooseCard(card=ROBOT), ChooseCard(card=ANNIE)]
    assert refused(after, ChooseCard(card=NERO)) == "not_a_choice"
    assert refused(after, ChoosePlanet(planet="mars")) == "answer_the_effect"
    after, _ = play(after, ChooseCard(card=ROBOT))
    assert ROBOT in after.discard and after.players[ANN].zenithium == 2


def test_a_card_that_develops_a_technology_pays_the_discounted_zenithium() -> None:
    archimedes = "zn-agent-24"  # Venus, Animod, 6: develop Animod, cost -1
    state = table([archimedes], zen=(1, 1), tracks={ANN: {"animod": 1}})
    after, _ = play(state, PlayInfluence(card=archimedes))
    # Level 2 costs 1 after the discount; Animod S levels 1-2: +2 credits, neighbours.
    assert after.players[ANN].tracks["animod"] == 2 and after.players[ANN].zenithium == 0
    assert after.players[ANN].credits == 12 - 6 + 2


def test_the_opponent_answers_the_bonus_token_they_win_on_your_turn() -> None:
    # Baron Goro hands Bea the Mars token; its bonus is 1 influence anywhere: Bea picks.
    state = table([BARON_GORO], discs={"mars": -3}, planet_bonuses={"mars": "zn-bonus-05"})
    after, _ = play(state, PlayInfluence(card=BARON_GORO))
    after, _ = play(after, ChoosePlanet(planet="mars"))
    assert to_act(after) == {BEA}
    after, _ = play(after, ChoosePlanet(planet="jupiter"))
    assert after.discs["jupiter"] == -1
    # Then Ann's card goes on: +3 Zenithium.
    assert after.players[ANN].zenithium == 4


def test_mobilized_cards_count_for_the_discount() -> None:
    state = table([W4TS0N, "zn-agent-70"], deck=["zn-agent-68"], credits=(1, 12))
    after, _ = play(state, PlayInfluence(card=W4TS0N))
    # W4ts0n and the mobilized R0bins0n sit on Mars: Bish0p (4) now costs Ann 2.
    assert after.players[ANN].zone["mars"] == (W4TS0N, "zn-agent-68")


def test_with_no_card_to_play_and_none_to_draw_the_player_passes() -> None:
    state = table([], [])
    state.discard = ()
    assert asks(state) == [Pass()]
    after, _ = play(state, Pass())
    assert refused(table([CRESUS]), Pass()) == "must_play_a_card"
    # Bea cannot play either: the game is stuck and ends, tokens deciding.
    after.players = (msgspec.structs.replace(after.players[0], tokens=("mars",)), after.players[1])
    after, events = play(after, Pass())
    assert events[-1] == GameWon(seat=None, victory="stalemate")
    assert GAME.outcome(after).ranks == (1, 2)  # type: ignore[union-attr]


def test_the_card_list_has_ninety_agents_with_the_published_costs() -> None:
    from collections import Counter

    costs = Counter(a.cost for a in GAME_AGENTS.values())
    assert len(GAME_AGENTS) == 90
    assert costs == {1: 16, 2: 14, 3: 13, 4: 12, 5: 6, 6: 12, 7: 4, 8: 3, 9: 5, 10: 5}
    assert Counter(a.planet for a in GAME_AGENTS.values()) == dict.fromkeys(
        ("mercury", "venus", "terra", "mars", "jupiter"), 18
    )
