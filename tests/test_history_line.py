"""The projector formats each history line itself: it must be what msgspec encodes."""

from __future__ import annotations

import msgspec
import pytest

from services.readside.projector import history_line
from services.readside.schema import HistoryLine


@pytest.mark.parametrize(
    ("version", "event"),
    [
        (1, b"null"),
        (7, b'{"type":"chicken.dice_rolled","rolls":[{"die":"w1","face":3}]}'),
        (2**40, '{"type":"x","name":"Zoë \\" ✓"}'.encode()),
    ],
)
def test_a_formatted_history_line_is_the_encoded_struct(version: int, event: bytes) -> None:
    encoded = msgspec.json.encode(HistoryLine(version, msgspec.Raw(event)))
    assert history_line(version, event) == encoded
    back = msgspec.json.decode(history_line(version, event), type=HistoryLine)
    assert (back.version, bytes(back.event), back.text) == (version, event, "")
