"""A sentence speaks to its reader: the games write "You" where a name would stand, and
the verb as after a name; the reader reads English."""

from __future__ import annotations

import pytest

from domain import match as m
from domain.addressing import to_reader


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("You plays first.", "You play first."),
        ("You was dealt 4 cards.", "You were dealt 4 cards."),
        ("You has 2 cards left.", "You have 2 cards left."),
        ("You passes.", "You pass."),
        ("You carries the torch.", "You carry the torch."),
        ("Round 2 begins; You plays first.", "Round 2 begins; you play first."),
        (
            "The 7♣ starts the pile and You plays first.",
            "The 7♣ starts the pile and you play first.",
        ),
        ("Bea stole a card (a red shell) from You.", "Bea stole a card (a red shell) from you."),
        ("Waiting for You: influence.", "Waiting for you: influence."),
        ("Won by You (You 3, Bea 2).", "Won by you (you 3, Bea 2)."),
        ("The Sycophant of You chose Bea.", "Your Sycophant chose Bea."),
        ("A card was exiled from the zone of You.", "A card was exiled from your zone."),
        ("It is not You's turn.", "It is not your turn."),
        ("You's clock has moved on.", "Your clock has moved on."),
        ("It is Bea's turn, not You's.", "It is Bea's turn, not yours."),
    ],
)
def test_you_agrees_with_its_verb_and_is_small_inside_a_sentence(written: str, read: str) -> None:
    assert to_reader(written) == read


@pytest.mark.parametrize(
    "written",
    [
        "You took 3.",  # a past tense agrees already
        "You pass.",
        "Bea gave You cards.",  # an object: its next word is no verb
        "Youssef plays first.",  # a name that starts with You
        "You 4, Bea 3.",  # a score list
    ],
)
def test_what_agrees_already_is_left_as_written(written: str) -> None:
    assert to_reader(written).replace("gave you", "gave You") == written


def test_a_love_letter_round_tells_its_first_player_you_play_first() -> None:
    from domain.games.loveletter.events import RoundStarted

    event = RoundStarted(round=2, first=0, deck=None)
    names = ["Ann", "Bea"]
    assert m.describe("loveletter", event, 0, names) == "Round 2 begins; you play first."
    assert m.describe("loveletter", event, 1, names) == "Round 2 begins; Ann plays first."
    assert m.describe("loveletter", event, None, names) == "Round 2 begins; Ann plays first."


def test_whoever_sat_down_reads_that_they_did_unless_the_seat_changed_hands_since() -> None:
    joined = m.PlayerJoined(player="Bea", seat=1)
    assert m.describe("chicken", joined, 1, ["Ann", "Bea"]) == "You sat down in seat 2."
    assert m.describe("chicken", joined, 0, ["Ann", "Bea"]) == "Bea sat down in seat 2."
    # Bea left before the start and Cy took seat 2: that line is still about Bea.
    assert m.describe("chicken", joined, 1, ["Ann", "Cy"]) == "Bea sat down in seat 2."
