"""Arctic Scavengers: the conformance kit, then the tricky cases of the rules page."""

from __future__ import annotations

from typing import Any

from domain.games.arcticscavengers import GAME
from domain.games.arcticscavengers.cards import MERCENARIES, card_id, kind_of
from domain.games.arcticscavengers.commands import (
    EndGathering,
    EndSkirmishActions,
    HireMercenary,
    KeepDugCard,
    PerformAction,
    PlayCard,
    Sabotage,
    Snipe,
)
from domain.games.arcticscavengers.events import (
    DeckShuffled,
    Event,
    ForcesRevealed,
    SkirmishDeadlocked,
    SkirmishWon,
)
from domain.games.arcticscavengers.skirmish import totals
from domain.games.arcticscavengers.state import Options, Skirmish, State, Tribe
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories

FAMILY = "as-tribe-family-5-01"


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a rigged table ----------------------------------------------------------------------


def table(
    *hands: list[str],
    round: int = 3,
    initiator: int = 0,
    junkyard: tuple[str, ...] = (),
    contested: tuple[str, ...] = (FAMILY, "as-grenade-01"),
    decks: list[list[str]] | None = None,
    discards: list[list[str]] | None = None,
    **options: Any,
) -> State:
    """A table in the gathering phase with these hands (seat 0 first)."""
    seats = len(hands)
    tribes = [
        Tribe(
            hand=list(hand),
            deck=list(decks[s]) if decks else [],
            discard=list(discards[s]) if discards else [],
        )
        for s, hand in enumerate(hands)
    ]
    piles = {kind: [card_id(kind, 60 + i) for i in range(3)] for kind in MERCENARIES}
    return State(
        options=Options(**options),
        seats=seats,
        phase="gathering",
        round=round,
        initiator=initiator,
        tribes=tribes,
        junkyard=list(junkyard),
        contested=list(contested),
        mercenaries=piles,
    )


def skirmish(*forces: list[str], **options: Any) -> State:
    """A revealed skirmish with these forces (seat 0 is the initiator)."""
    state = table(*([] for _ in forces), **options)
    tribes = [Tribe(force=list(force)) for force in forces]
    return State(
        options=state.options,
        seats=state.seats,
        phase="skirmish",
        round=3,
        tribes=tribes,
        contested=state.contested,
        mercenaries=state.mercenaries,
        skirmish=Skirmish(revealed=True),
    )


def play(state: State, seat: int, *commands: Any) -> tuple[State, list[Event]]:
    """Send commands for one seat; each must be listed by `legal` and accepted."""
    events: list[Event] = []
    for command in commands:
        assert command in GAME.legal(state, seat), f"{command} is not legal"
        state, new = stories.play(GAME, state, seat, command, Rng(7, len(events)))
        events += new
    return state, events


def rejected(state: State, seat: int, command: Any) -> str:
    return stories.refused(GAME, state, seat, command, Rng(7, 0))


def end_skirmish(state: State) -> tuple[State, list[Event]]:
    events: list[Event] = []
    while state.phase == "skirmish":
        (seat,) = GAME.to_act(state)
        state, new = play(state, seat, EndSkirmishActions())
        events += new
    return state, events


# --- setup and the round ---------------------------------------------------------------


def test_each_tribe_starts_with_refugees_scavengers_a_brawler_a_spear_and_a_shovel() -> None:
    state = GAME.initial(Options(), 3)
    _, state = GAME.settle(state, GAME.start(state, Rng(1, 1)))
    for tribe in state.tribes:
        cards = sorted(kind_of(c) for c in [*tribe.deck, *tribe.hand])
        assert cards == ["brawler"] + ["refugee"] * 4 + ["scavenger"] * 3 + ["shovel", "spear"]
        assert len(tribe.hand) == 5
    # The starting cards come out of the stocks: 20 - 9 scavengers, 46 - 6 junkyard cards.
    assert len(state.mercenaries["scavenger"]) == 11
    assert len(state.mercenaries["brawler"]) == 7
    assert len(state.junkyard) == 40
    assert len(state.contested) == 14


def test_two_player_variant_removes_two_of_each_junkyard_card_and_peeking() -> None:
    state = GAME.initial(Options(), 2)
    _, state = GAME.settle(state, GAME.start(state, Rng(1, 1)))
    # 46 junkyard cards, 2 spears and 2 shovels in the decks, 2 of each of 8 kinds out.
    assert len(state.junkyard) == 46 - 4 - 16
    # Round 3 starts without the initiator peeking.
    state = table([], [], round=2)
    state, events = play(state, 0, EndGathering())
    state, events = play(state, 1, EndGathering())
    assert state.round == 3
    assert not any(type(e).__name__ == "ContestedResourcePeeked" for e in events)
    # With three players the initiator peeks at the top contested resource.
    state = table([], [], [], round=2)
    for seat in range(3):
        state, events = play(state, seat, EndGathering())
    assert state.peeked == FAMILY
    assert FAMILY not in GAME.hidden(state, 0) and FAMILY in GAME.hidden(state, 1)


def test_the_initiator_card_stays_for_three_rounds_then_passes_left() -> None:
    state = table([], [], [], round=2, initiator=1)
    for seat in (1, 2, 0):
        state, _ = play(state, seat, EndGathering())
    assert (state.round, state.initiator) == (3, 1)
    for seat in (1, 2, 0):
        state, _ = play(state, seat, EndGathering())
    state, _ = end_skirmish(state)
    assert (state.round, state.initiator) == (4, 2)


# --- gathering ---------------------------------------------------------------------------


def test_a_tool_only_helps_a_tribe_member_who_has_the_skill() -> None:
    state = table(["as-spear-01", "as-shovel-01", "as-refugee-01", "as-sniper-team-01"], [])
    # Nobody yet to carry the shovel, and a spear does nothing for a dig.
    assert rejected(state, 0, PlayCard(card="as-shovel-01", action="dig")) == (
        "no_free_tribe_member"
    )
    # A sniper team has no dig skill, so no shovel can give it one.
    assert rejected(state, 0, PlayCard(card="as-sniper-team-01", action="dig")) == (
        "cannot_perform"
    )
    # A refugee digs 0, but with a shovel she digs 2.
    state, _ = play(state, 0, PlayCard(card="as-refugee-01", action="dig"))
    assert rejected(state, 0, PlayCard(card="as-spear-01", action="dig")) == "no_bonus"
    state, _ = play(state, 0, PlayCard(card="as-shovel-01", action="dig"))
    assert GAME.view(state, 0).turn.strength == 2  # type: ignore[attr-defined]


def test_one_tool_per_tribe_member_but_group_leaders_ride_alongside() -> None:
    hand = ["as-scavenger-01", "as-shovel-01", "as-pickaxe-01", "as-group-leaders-01"]
    state = table(hand, [])
    state, _ = play(
        state,
        0,
        PlayCard(card="as-scavenger-01", action="dig"),
        PlayCard(card="as-shovel-01", action="dig"),
    )
    # The scavenger already holds the shovel; the pickaxe has nobody to use it.
    assert rejected(state, 0, PlayCard(card="as-pickaxe-01", action="dig")) == (
        "no_free_tribe_member"
    )
    state, _ = play(state, 0, PlayCard(card="as-group-leaders-01", action="dig"))
    assert GAME.view(state, 0).turn.strength == 1 + 2 + 2  # type: ignore[attr-defined]


def test_dig_looks_at_the_dig_total_keeps_one_and_returns_the_rest_to_the_bottom() -> None:
    junk = ("as-junk-01", "as-medkit-01", "as-net-01", "as-pills-01")
    state = table(["as-brawler-01", "as-shovel-01"], [], junkyard=junk)
    state, _ = play(
        state,
        0,
        PlayCard(card="as-brawler-01", action="dig"),
        PlayCard(card="as-shovel-01", action="dig"),
        PerformAction(),
    )
    # Dig 1 + 2: the digger alone sees the top three cards.
    assert state.turn.looking == list(junk[:3])
    assert "as-net-01" not in GAME.hidden(state, 0) and "as-net-01" in GAME.hidden(state, 1)
    assert GAME.legal(state, 0) == [
        KeepDugCard(card=None),
        *(KeepDugCard(card=c) for c in junk[:3]),
    ]
    state, _ = play(state, 0, KeepDugCard(card="as-medkit-01"))
    # The digging cards were discarded after use; the kept card follows them.
    assert state.tribes[0].discard == ["as-brawler-01", "as-shovel-01", "as-medkit-01"]
    assert state.junkyard == ["as-pills-01", "as-junk-01", "as-net-01"]


def test_each_action_is_taken_at_most_once_a_round() -> None:
    state = table(["as-scavenger-01", "as-hunter-01"], [])
    state, _ = play(state, 0, PlayCard(card="as-scavenger-01", action="hunt"), PerformAction())
    assert state.turn.food == 1
    assert rejected(state, 0, PlayCard(card="as-hunter-01", action="hunt")) == (
        "action_already_taken"
    )


def test_hiring_pays_food_from_the_hunt_and_medicine_from_the_hand() -> None:
    state = table(["as-hunter-01", "as-pills-01", "as-junk-01"], [])
    state, _ = play(state, 0, PlayCard(card="as-hunter-01", action="hunt"), PerformAction())
    # Two food is not enough for a Scout, which also wants a med.
    assert rejected(state, 0, HireMercenary(kind="scout")) == "cannot_afford"
    state, _ = play(state, 0, PlayCard(card="as-pills-01", action="hire"))
    state, events = play(state, 0, HireMercenary(kind="scout"))
    # The scout goes to the discard pile, after the hunter; the pills paid for it follow.
    assert [kind_of(c) for c in state.tribes[0].discard] == ["hunter", "scout", "pills"]
    # One mercenary a round.
    assert rejected(state, 0, HireMercenary(kind="scavenger")) == "action_already_taken"
    # The others learn the kind, not the card.
    assert GAME.redact(events[0], 1).card is None  # type: ignore[union-attr]


def test_thugs_take_six_food_and_meds_in_any_mix() -> None:
    hand = ["as-field-crew-01", "as-wolf-pack-01", "as-medkit-01", "as-pills-01"]
    state = table(hand, [])
    state, _ = play(
        state,
        0,
        PlayCard(card="as-field-crew-01", action="hunt"),
        PlayCard(card="as-wolf-pack-01", action="hunt"),
        PerformAction(),
    )
    assert state.turn.food == 5
    assert HireMercenary(kind="thugs") not in GAME.legal(state, 0)
    state, _ = play(state, 0, PlayCard(card="as-pills-01", action="hire"))
    state, _ = play(state, 0, HireMercenary(kind="thugs"))
    assert "thugs" in [kind_of(c) for c in state.tribes[0].discard]


def test_trash_sends_hand_cards_to_the_junkyard_which_is_shuffled() -> None:
    state = table(["as-junk-01", "as-refugee-01", "as-scavenger-01"], [], junkyard=("as-net-01",))
    state, events = play(
        state,
        0,
        PlayCard(card="as-junk-01", action="trash"),
        PlayCard(card="as-refugee-01", action="trash"),
        PerformAction(),
    )
    assert sorted(state.junkyard) == ["as-junk-01", "as-net-01", "as-refugee-01"]
    assert state.tribes[0].hand == ["as-scavenger-01"]
    assert GAME.redact(events[-1], 0).junkyard is None  # type: ignore[union-attr]


def test_drawing_past_the_deck_shuffles_the_discard_pile_into_a_new_deck() -> None:
    state = table(
        ["as-scout-01"], [], decks=[["as-junk-01"], []], discards=[["as-pills-01", "as-net-01"], []]
    )
    state, events = play(state, 0, PlayCard(card="as-scout-01", action="draw"), PerformAction())
    assert [type(e).__name__ for e in events[-4:]] == [
        "DrawPerformed",
        "CardsDrawn",
        "DeckShuffled",
        "CardsDrawn",
    ]
    assert len(state.tribes[0].hand) == 2 and state.tribes[0].hand[0] == "as-junk-01"
    # The scout was discarded after drawing, so it is shuffled in with the pills and the net.
    assert len(state.tribes[0].deck) == 2 and state.tribes[0].discard == []


def test_a_draw_that_empties_the_deck_mid_round_reshuffles_the_cards_used_this_round() -> None:
    # Ann hunts with her scavenger, then draws 2 with her scout; one card is left in her deck.
    hand = ["as-scavenger-01", "as-scout-01"]
    state = table(hand, [], decks=[["as-junk-01"], []])
    state, _ = play(state, 0, PlayCard(card="as-scavenger-01", action="hunt"), PerformAction())
    # Cards played while gathering are discarded after use.
    assert state.tribes[0].discard == ["as-scavenger-01"]
    state, events = play(state, 0, PlayCard(card="as-scout-01", action="draw"), PerformAction())
    # The deck runs out after one card: the discard pile, both used cards in it, is shuffled.
    shuffled = next(e for e in events if isinstance(e, DeckShuffled))
    assert sorted(shuffled.order or []) == ["as-scavenger-01", "as-scout-01"]
    assert len(state.tribes[0].hand) == 2 and state.tribes[0].hand[0] == "as-junk-01"
    assert state.tribes[0].hand[1] in hand and state.tribes[0].played == []


def test_with_used_cards_set_aside_a_draw_that_empties_the_deck_reshuffles_without_them() -> None:
    hand = ["as-scavenger-01", "as-scout-01"]
    state = table(hand, [], round=2, decks=[["as-junk-01"], []], used_cards="aside")
    state, _ = play(state, 0, PlayCard(card="as-scavenger-01", action="hunt"), PerformAction())
    state, events = play(state, 0, PlayCard(card="as-scout-01", action="draw"), PerformAction())
    # The used cards lie face up in front of Ann: the empty discard pile gives nothing more.
    assert not any(isinstance(e, DeckShuffled) for e in events)
    assert state.tribes[0].hand == ["as-junk-01"]
    assert state.tribes[0].played == hand and state.tribes[0].discard == []
    # The next round's drawing phase discards them.
    state, _ = play(state, 0, EndGathering())
    state, _ = play(state, 1, EndGathering())
    assert state.tribes[0].played == []


def test_cards_left_in_hand_go_face_down_to_the_skirmish_until_revealed() -> None:
    state = table(["as-brawler-01", "as-spear-01"], ["as-refugee-01"])
    state, _ = play(state, 0, EndGathering())
    assert state.tribes[0].force == ["as-brawler-01", "as-spear-01"]
    assert "as-brawler-01" in GAME.hidden(state, 1)
    assert GAME.view(state, 1).tribes[0].force is None  # type: ignore[attr-defined]
    state, events = play(state, 1, EndGathering())
    assert isinstance(events[1], ForcesRevealed)
    assert "as-brawler-01" not in GAME.hidden(state, 1)


# --- the skirmish --------------------------------------------------------------------------


def test_highest_fight_wins_the_top_contested_resource_unseen() -> None:
    state = skirmish(["as-brawler-01", "as-spear-01"], ["as-thugs-01"], ["as-scout-01"])
    state, events = end_skirmish(state)
    won = next(e for e in events if isinstance(e, SkirmishWon))
    # Brawler 2 + spear 2 beats Thugs 3 and Scout 2.
    assert (won.seat, won.fights) == (0, [4, 3, 2])
    assert FAMILY in [*state.tribes[0].discard, *state.tribes[0].deck, *state.tribes[0].hand]
    assert GAME.redact(won, 1).card is None  # type: ignore[union-attr]


def test_a_fight_tie_goes_to_the_most_people_refugees_included() -> None:
    state = skirmish(["as-brawler-01", "as-refugee-01"], ["as-scout-01"], ["as-hunter-01"])
    state, events = end_skirmish(state)
    won = next(e for e in events if isinstance(e, SkirmishWon))
    # Brawler and Scout both fight 2; the refugee makes seat 0 the larger party.
    assert (won.seat, won.fights, won.people) == (0, [2, 2, 1], [2, 1, 1])


def test_a_full_tie_is_a_deadlock_and_the_resource_goes_unseen_into_the_junkyard() -> None:
    state = skirmish(["as-brawler-01"], ["as-scout-01"], ["as-hunter-01"])
    state, events = end_skirmish(state)
    dead = next(e for e in events if isinstance(e, SkirmishDeadlocked))
    assert dead.fights == [2, 2, 1] and dead.people == [1, 1, 1]
    assert FAMILY in state.junkyard and state.contested == ["as-grenade-01"]
    assert GAME.redact(dead, 0).junkyard is None  # type: ignore[union-attr]


def test_a_sniped_unit_loses_its_action_and_its_fight() -> None:
    # Seat 0 (initiator) snipes seat 1's saboteur before it can disarm the grenade.
    state = skirmish(
        ["as-sniper-team-01", "as-scavenger-01", "as-grenade-01"],
        ["as-saboteur-01", "as-brawler-01"],
    )
    state, _ = play(state, 0, Snipe(sniper="as-sniper-team-01", target="as-saboteur-01"))
    assert rejected(state, 0, Snipe(sniper="as-sniper-team-01", target="as-brawler-01")) == (
        "sniper_not_ready"
    )
    state, _ = play(state, 0, EndSkirmishActions())
    assert GAME.legal(state, 1) == [EndSkirmishActions()]
    assert rejected(state, 1, Sabotage(saboteur="as-saboteur-01", tool="as-grenade-01")) == (
        "saboteur_not_ready"
    )
    # Scavenger 1 + grenade 3 against the brawler's 2; the saboteur no longer counts.
    assert totals(state) == ([4, 2], [3, 1])


def test_a_saboteur_disarms_a_tool_and_tools_pass_to_the_members_left_standing() -> None:
    state = skirmish(
        ["as-saboteur-01", "as-sniper-team-01"],
        ["as-brawler-01", "as-scavenger-01", "as-grenade-01", "as-spear-01"],
    )
    assert totals(state)[0][1] == 2 + 1 + 3 + 2
    state, _ = play(
        state,
        0,
        Snipe(sniper="as-sniper-team-01", target="as-brawler-01"),
        Sabotage(saboteur="as-saboteur-01", tool="as-spear-01"),
    )
    # The brawler is down; the scavenger picks up the grenade, the spear is disarmed.
    assert totals(state)[0][1] == 1 + 3
    assert rejected(state, 0, Sabotage(saboteur="as-saboteur-01", tool="as-grenade-01")) == (
        "saboteur_not_ready"
    )


def test_two_players_must_win_a_skirmish_by_two() -> None:
    state = skirmish(["as-thugs-01"], ["as-brawler-01", "as-refugee-01", "as-refugee-02"])
    state, events = end_skirmish(state)
    # 3 against 2 is a tie in the 2-player variant, and the people do not matter.
    assert any(isinstance(e, SkirmishDeadlocked) for e in events)
    state = skirmish(["as-thugs-01", "as-spear-01"], ["as-brawler-01"])
    state, events = end_skirmish(state)
    assert next(e for e in events if isinstance(e, SkirmishWon)).seat == 0
    # Without the variant, 3 against 2 wins outright.
    state = skirmish(["as-thugs-01"], ["as-brawler-01"], two_player_variant=False)
    state, events = end_skirmish(state)
    assert next(e for e in events if isinstance(e, SkirmishWon)).seat == 0


def test_the_game_ends_when_the_contested_resources_run_out_and_the_largest_tribe_wins() -> None:
    state = skirmish(["as-brawler-01"], ["as-thugs-01"], ["as-refugee-01"], contested=(FAMILY,))
    state.tribes[2].deck.extend(["as-tribe-family-4-01", "as-refugee-02"])
    state, events = end_skirmish(state)
    assert state.phase == "over" and GAME.to_act(state) == frozenset()
    # Thugs 3 + the family of 5 won; seat 2 holds 1 + 4 + 1.
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (1, 8, 6) and outcome.ranks == (3, 1, 2)


def test_equal_tribes_share_the_win_unless_contested_resources_break_the_tie() -> None:
    forces = (["as-refugee-01"], ["as-thugs-01"])
    state = skirmish(*forces, contested=("as-grenade-01",), two_player_variant=False)
    state.tribes[0].deck.extend(["as-refugee-02", "as-scavenger-01"])
    state, _ = end_skirmish(state)
    assert GAME.outcome(state).ranks == (1, 1)  # type: ignore[union-attr]
    state = skirmish(
        *forces,
        contested=("as-grenade-01",),
        two_player_variant=False,
        final_tie_break="contested_resources",
    )
    state.tribes[0].deck.extend(["as-refugee-02", "as-scavenger-01"])
    state, _ = end_skirmish(state)
    assert GAME.outcome(state).ranks == (2, 1)  # type: ignore[union-attr]


def test_before_edition_2_a_conceding_tribe_leaves_and_the_others_play_on() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    junk = ("as-junk-01", "as-net-01")
    state = table(["as-brawler-01"], ["as-thugs-01"], ["as-scout-01"], junkyard=junk)
    state, _ = play(state, 0, PlayCard(card="as-brawler-01", action="dig"), PerformAction())
    # Ann walks away while looking at a dug card: it goes back to the junkyard.
    conceded = GAME.concede(state, 0, Rng(7, 0))
    assert conceded is not None
    _, state = GAME.settle(state, conceded)
    assert sorted(state.junkyard) == sorted(junk)
    assert GAME.to_act(state) == frozenset({1})
    # With two tribes left, the next one to leave ends the game.
    state, _ = play(state, 1, EndGathering())
    assert GAME.concede(state, 2, Rng(7, 1)) is None
