"""The legal commands the gateway offers, with their schemas, for every game (no Redis)."""

from __future__ import annotations

import msgspec

from domain import match as m
from domain.kernel import games
from services.gateway.tables import commands_for


def started(name: str) -> m.MatchState:
    game = games()[name]
    state = m.fold([m.MatchCreated(game=name, seats=game.min_players, options={})])
    for seat in range(game.min_players):
        state = m.fold([m.PlayerJoined(player=f"p{seat}", seat=seat)], state)
    return m.fold(m.decide(state, m.StartMatch(player="p0", seed=7)), state)


def test_every_game_offers_its_legal_commands_with_a_schema_of_their_fields() -> None:
    for name, game in games().items():
        state = started(name)
        seat = min(game.to_act(state.game_state))
        choices = commands_for(state, seat)
        assert choices, name
        for choice in choices:
            fields = set(choice.schema["properties"])
            assert "type" not in fields
            for legal in choice.legal:
                assert set(legal) - {"type"} <= fields, (name, legal)
                # What is offered is what the game decodes.
                m.decode_move(game, msgspec.json.encode(legal))


def test_a_seat_that_may_not_act_is_offered_nothing() -> None:
    state = started("chicken")
    waiting = next(s for s in range(2) if s not in games()["chicken"].to_act(state.game_state))
    assert commands_for(state, waiting) == []
    assert commands_for(state, None) == []
