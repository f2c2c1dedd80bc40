"""Opening a table with options: the command service checks them against the game's
options type, and the gateway answers a mistake with a status and a sentence."""

from __future__ import annotations

import httpx
import pytest

from tests.gateway.conftest import sign_in


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"max_rounds": 99}, "Those options do not suit Carnuta"),
        ({"max_rounds": "many"}, "Expected `int`, got `str`"),
        ({"last_round": "never"}, "Invalid enum value 'never' - at `$.last_round`"),
        ({"turbo": True}, "Carnuta has no option turbo; it has: last_round, max_rounds"),
    ],
)
async def test_options_the_game_refuses_answer_409_with_the_reason(
    http: httpx.AsyncClient, options: dict[str, object], says: str
) -> None:
    ann = await sign_in(http, "Ann")
    body = {"game": "carnuta", "seats": 2, "options": options}
    refused = await http.post("/api/matches", json=body, headers=ann)
    assert refused.status_code == 409, refused.text
    detail = refused.json()["detail"]
    assert detail.startswith("bad_options: ") and says in detail, detail


async def test_options_that_are_not_an_object_answer_400(http: httpx.AsyncClient) -> None:
    ann = await sign_in(http, "Ann")
    body = {"game": "carnuta", "seats": 2, "options": [1, 2]}
    refused = await http.post("/api/matches", json=body, headers=ann)
    assert refused.status_code == 400 and "options" in refused.text, refused.text


async def test_chosen_options_are_kept_and_shown_with_the_table(http: httpx.AsyncClient) -> None:
    ann = await sign_in(http, "Ann")
    body = {"game": "carnuta", "seats": 2, "options": {"max_rounds": 12}}
    made = await http.post("/api/matches", json=body, headers=ann)
    assert made.status_code == 201, made.text
    table = (await http.get(f"/api/matches/{made.json()['match_id']}", headers=ann)).json()
    # The defaults are filled in; the chosen one is kept.
    assert table["view"]["options"] == {"last_round": "another", "max_rounds": 12}
