"""A game's box, named: the web table shows "Chaka (Mercury, Animod)" where a view
holds `zn-agent-01`, and anyone may read the list, as anyone may open the box."""

from __future__ import annotations

import httpx


async def test_a_games_components_are_named_for_anyone_and_kept_by_the_browser(
    http: httpx.AsyncClient,
) -> None:
    answer = await http.get("/api/games/zenith/components")  # no sign-in
    assert answer.status_code == 200
    names = answer.json()
    assert names["zn-agent-01"] == "Chaka (Mercury, Animod)"
    assert names["zn-bonus-01"] == "bonus: 3 credits"
    assert len(names) == 90 + 16
    # The box does not change while the gateway runs: the browser keeps the answer.
    assert "public" in answer.headers["cache-control"]
    assert "max-age=3600" in answer.headers["cache-control"]


async def test_a_game_whose_ids_read_as_they_are_has_an_empty_list(
    http: httpx.AsyncClient,
) -> None:
    assert (await http.get("/api/games/chicken/components")).json() == {}


async def test_a_game_that_does_not_exist_is_answered_with_a_sentence(
    http: httpx.AsyncClient,
) -> None:
    answer = await http.get("/api/games/nosuchgame/components")
    assert answer.status_code == 404
    assert answer.json()["detail"] == "There is no game nosuchgame."
