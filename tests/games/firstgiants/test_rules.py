"""First Giants: the conformance kit, then the page's rules as short stories."""

from __future__ import annotations

import msgspec

from domain.games.firstgiants import GAME
from domain.games.firstgiants.cards import DINOSAURS
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
    AmberGained,
    BonesDrawn,
    CardAcquired,
    CardExhibited,
    EndTriggered,
    Event,
    Excavated,
    GameEnded,
    NewsEarned,
    SiteFilled,
    TurnBegan,
)
from domain.games.firstgiants.rules import score_sheet
from domain.games.firstgiants.state import FirstGiantsOptions, Museum, Table, initial
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA, CID = 0, 1, 2
RAPTOR = "fg-raptor"  # carnivore 2, a skull; instant: 1 amber
ALLOSAUR = "fg-allosaur"  # carnivore 2, a rib; instant: 2 bones from the bag
TYRANT = "fg-tyrant"  # carnivore 3, claw + rib; boosts the Mountains
CERATOSAUR = "fg-ceratosaur"  # carnivore 5, dig 1; discount
CARNOTAUR = "fg-carnotaur"  # carnivore 5; reacts to exhibiting a carnivore
GIGANOTOSAUR = "fg-giganotosaur"  # carnivore 10, 2 of each bone, dig 2
STEGOSAUR = "fg-stegosaur"  # herbivore 2, a rib


def museum(**fields: object) -> Museum:
    return msgspec.structs.replace(Museum(), **fields)


def bones(skull: int = 0, rib: int = 0, claw: int = 0) -> dict[str, int]:
    return {"skull": skull, "rib": rib, "claw": claw}


def table(
    ann: Museum | None = None,
    bea: Museum | None = None,
    sites: dict[str, list[str]] | None = None,
    seats: int = 2,
    **fields: object,
) -> Table:
    """Ann's main action in round 1; the deck holds every card not shown."""
    state = initial(FirstGiantsOptions(), seats)
    museums = [ann or museum(), bea or museum()] + [museum() for _ in range(seats - 2)]
    sites = sites or {"mountains": [], "desert": [], "jungle": []}
    shown = {c for m in museums for c in m.workshop + m.exhibit}
    shown |= {c for cards in sites.values() for c in cards}
    state = msgspec.structs.replace(
        state,
        museums=museums,
        sites=sites,
        deck=[c for c in sorted(DINOSAURS) if c not in shown],
        phase="main",
        player=ANN,
        round=1,
        main_left=1,
    )
    return msgspec.structs.replace(state, **fields)


def play(state: Table, command: Command, *outcomes: str) -> tuple[Table, list[Event]]:
    return stories.play(GAME, state, state.player, command, Rigged(*outcomes))


def refused(state: Table, command: Command) -> str:
    return stories.refused(GAME, state, state.player, command)


# --- excavation ------------------------------------------------------------------------------


def test_the_mountains_and_the_desert_give_fossils_and_the_jungle_amber() -> None:
    state = table()
    after, events = play(state, Excavate(site="mountains"))
    assert events == [Excavated(seat=ANN, site="mountains", gained={"skull": 1, "claw": 1})]
    assert after.museums[ANN].bones == bones(skull=1, claw=1)
    assert after.bag["skull"] == state.bag["skull"] - 1
    _, events = play(state, Excavate(site="desert"))
    assert events[0].gained == {"rib": 1, "claw": 1}  # type: ignore[union-attr]
    after, _ = play(state, Excavate(site="jungle"))
    assert after.museums[ANN].amber == state.museums[ANN].amber + 2


def test_an_acquired_card_goes_to_the_workshop_and_the_site_refills() -> None:
    state = table(sites={"mountains": [CERATOSAUR, STEGOSAUR], "desert": [], "jungle": []})
    refill = state.deck[0]
    after, events = play(state, Excavate(site="mountains", card=CERATOSAUR), refill)
    assert events[1] == CardAcquired(seat=ANN, card=CERATOSAUR, site="mountains", amber_paid=1)
    assert events[2] == SiteFilled(site="mountains", card=refill)
    assert after.museums[ANN].workshop == [CERATOSAUR]
    assert after.museums[ANN].amber == 2 - 1


def test_a_card_costs_its_amber_and_a_discount_card_makes_excavating_cheaper() -> None:
    sites = {"mountains": [GIGANOTOSAUR], "desert": [], "jungle": []}
    poor = table(ann=museum(amber=1), sites=sites)
    assert refused(poor, Excavate(site="mountains", card=GIGANOTOSAUR)) == "amber_short"
    cheaper = table(ann=museum(amber=1, workshop=[CERATOSAUR]), sites=sites)
    refill = cheaper.deck[:2]
    _, events = play(cheaper, Excavate(site="mountains", card=GIGANOTOSAUR), *refill)
    assert events[1] == CardAcquired(seat=ANN, card=GIGANOTOSAUR, site="mountains", amber_paid=1)


def test_a_boost_card_gives_one_more_token_at_its_site() -> None:
    state = table(ann=museum(workshop=[TYRANT]))
    _, events = play(state, Excavate(site="mountains"))
    assert events[0] == Excavated(seat=ANN, site="mountains", gained={"skull": 2, "claw": 1})


def test_instant_effects_trigger_once_on_acquiring_the_card() -> None:
    sites = {"mountains": [RAPTOR, ALLOSAUR], "desert": [], "jungle": []}
    state = table(sites=sites)
    _, events = play(state, Excavate(site="mountains", card=RAPTOR), state.deck[0])
    assert AmberGained(seat=ANN, amount=1, card=RAPTOR) in events
    # The fossil-set bag: the allosaur draws two random bones from the bag.
    _, events = play(state, Excavate(site="mountains", card=ALLOSAUR), "rib", "claw", state.deck[0])
    assert BonesDrawn(seat=ANN, bones=("rib", "claw")) in events


# --- the exhibit -----------------------------------------------------------------------------


def test_exhibiting_pays_the_fossils_with_amber_for_the_missing_and_scores_prestige() -> None:
    state = table(ann=museum(workshop=[GIGANOTOSAUR], bones=bones(2, 2, 1), amber=1))
    after, events = play(state, Exhibit(card=GIGANOTOSAUR))
    assert events[0] == CardExhibited(
        seat=ANN,
        card=GIGANOTOSAUR,
        bones_paid={"skull": 2, "rib": 2, "claw": 1},
        amber_paid=1,
        prestige=10,
    )
    assert after.museums[ANN].exhibit == [GIGANOTOSAUR] and after.museums[ANN].amber == 0
    assert score_sheet(after.museums[ANN]).prestige == 10
    short = table(ann=museum(workshop=[GIGANOTOSAUR], bones=bones(2, 2, 0), amber=1))
    assert refused(short, Exhibit(card=GIGANOTOSAUR)) == "fossils_missing"


def test_an_exhibited_card_loses_its_ability() -> None:
    state = table(ann=museum(workshop=[TYRANT], bones=bones(0, 1, 1)))
    after, _ = play(state, Exhibit(card=TYRANT))
    after = msgspec.structs.replace(after, phase="main", main_left=1)
    _, events = play(after, Excavate(site="mountains"))
    assert events[0] == Excavated(seat=ANN, site="mountains", gained={"skull": 1, "claw": 1})


def test_a_reactive_card_gives_amber_when_its_family_is_exhibited() -> None:
    state = table(ann=museum(workshop=[CARNOTAUR, RAPTOR], bones=bones(1, 0, 0)))
    _, events = play(state, Exhibit(card=RAPTOR))
    assert events[1] == AmberGained(seat=ANN, amount=1, card=CARNOTAUR)


def test_read_as_the_published_game_an_exhibit_costs_its_prestige_in_amber() -> None:
    options = FirstGiantsOptions(exhibit_cost="amber")
    state = table(ann=museum(workshop=[TYRANT], amber=3), options=options)
    _, events = play(state, Exhibit(card=TYRANT))
    assert events[0] == CardExhibited(
        seat=ANN, card=TYRANT, bones_paid={}, amber_paid=3, prestige=3
    )


# --- news ------------------------------------------------------------------------------------


def test_three_exhibited_cards_of_one_family_make_the_news() -> None:
    carnivores = ["fg-tyrant", "fg-spinosaur"]
    state = table(ann=museum(workshop=[RAPTOR], exhibit=carnivores, bones=bones(1, 0, 0)))
    after, events = play(state, Exhibit(card=RAPTOR))
    assert NewsEarned(seat=ANN, reason="family:carnivore") in events
    assert after.museums[ANN].news >= 1


def test_the_first_to_exhibit_three_makes_the_news_and_the_second_does_not() -> None:
    mixed = ["fg-stegosaur", "fg-plesiosaur"]
    state = table(ann=museum(workshop=[RAPTOR], exhibit=mixed, bones=bones(1, 0, 0)))
    after, events = play(state, Exhibit(card=RAPTOR))
    assert events[-1] == NewsEarned(seat=ANN, reason="milestone:3")
    later = table(
        ann=museum(workshop=[RAPTOR], exhibit=mixed, bones=bones(1, 0, 0)), milestones=[3]
    )
    _, events = play(later, Exhibit(card=RAPTOR))
    assert not [e for e in events if isinstance(e, NewsEarned)]


def test_a_news_token_is_spent_to_draw_a_card_or_kept_for_points() -> None:
    state = table(ann=museum(news=2))
    card = state.deck[3]
    after, events = play(state, SpendNews(), card, *(["rib", "rib"] if card in (ALLOSAUR,) else []))
    assert events[1] == CardAcquired(seat=ANN, card=card, site=None, amber_paid=0)
    assert after.museums[ANN].news == 1
    assert score_sheet(after.museums[ANN]).news == 2
    assert refused(table(), SpendNews()) == "no_news"


# --- amber -----------------------------------------------------------------------------------


def test_initiative_puts_its_buyer_first_in_the_next_round() -> None:
    state = table(seats=3, bea=museum(amber=3), player=BEA, phase="after", main_left=0)
    state, _ = play(state, SecureInitiative())
    assert state.museums[BEA].amber == 0
    assert refused(msgspec.structs.replace(state, player=CID), SecureInitiative()) in (
        "initiative_taken",
    )
    state = msgspec.structs.replace(state, player=CID)
    _, events = play(state, EndTurn())
    assert events[-1] == TurnBegan(seat=BEA, round=2, order=(BEA, CID, ANN))


def test_a_double_action_buys_a_second_main_action() -> None:
    state = table(ann=museum(amber=4))
    state, _ = play(state, DoubleAction())
    state, _ = play(state, Excavate(site="mountains"))
    assert state.phase == "main"
    assert refused(state, DoubleAction()) == "already_doubled"
    state, _ = play(state, Excavate(site="desert"))
    assert state.phase == "after" and state.museums[ANN].bones == bones(1, 1, 2)
    assert refused(state, Excavate(site="jungle")) == "main_action_done"


# --- the end ---------------------------------------------------------------------------------


def test_taking_the_last_set_token_triggers_the_end_and_the_round_is_played_out() -> None:
    state = table(ann=museum(bones=bones(1, 1, 1)), set_tokens=1, phase="after", main_left=0)
    state, events = play(state, CompleteSet())
    assert events[-1] == EndTriggered(seat=ANN, reason="last_set_token")
    assert refused(state, CompleteSet()) == "set_incomplete"
    state, events = play(state, EndTurn())
    assert events[-1] == TurnBegan(seat=BEA, round=1, order=(ANN, BEA))
    state = msgspec.structs.replace(state, phase="after", main_left=0)
    state, events = play(state, EndTurn())
    assert isinstance(events[-1], GameEnded)


def test_an_empty_deck_after_refilling_a_site_triggers_the_end() -> None:
    state = table(sites={"mountains": [RAPTOR], "desert": [], "jungle": []})
    last = state.deck[-1]
    state = msgspec.structs.replace(state, deck=[last])
    _, events = play(state, Excavate(site="mountains", card=RAPTOR), last)
    assert events[-1] == EndTriggered(seat=ANN, reason="deck_empty")


def test_the_score_is_prestige_news_sets_and_remaining_amber() -> None:
    sheet = score_sheet(museum(exhibit=[GIGANOTOSAUR, RAPTOR], news=2, set_tokens=1, amber=7))
    assert (sheet.prestige, sheet.news, sheet.sets, sheet.amber) == (12, 4, 3, 2)
    assert sheet.total == 21


def test_setup_lays_two_cards_at_each_site_and_seat_one_begins() -> None:
    state = initial(FirstGiantsOptions(), 3)
    events, state = GAME.settle(state, GAME.start(state, Rng(2, 0)))
    assert {site: len(cards) for site, cards in state.sites.items()} == {
        "mountains": 2,
        "desert": 2,
        "jungle": 2,
    }
    assert events[-1] == TurnBegan(seat=ANN, round=1, order=(0, 1, 2))
    assert state.set_tokens == 6 and all(m.amber == 2 for m in state.museums)
