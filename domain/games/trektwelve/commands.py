"""What a trekker may ask: write this roll's chosen number in a circle."""

from __future__ import annotations

import msgspec

from domain.games.trektwelve.sheet import OptionName


class WriteNumber(
    msgspec.Struct,
    tag="trektwelve.write_number",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Use the roll as `option`, write the number in `circle`.

    `down` names the neighbour holding the number one lower that the new circle joins by
    a rope, `up` the neighbour holding the number one higher. Each is required when such
    a free neighbour exists (the rope is drawn automatically) and None otherwise.
    """

    option: OptionName
    circle: int
    down: int | None = None
    up: int | None = None


Command = WriteNumber
