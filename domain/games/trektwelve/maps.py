"""The trek maps as data: circles, the links between them, the thick (dangerous) circles.

Each map has 19 circles numbered 0-18 (ids arbitrary, following the digitisation in
/work/shared/rules appendix C, which comes from the open trek12-sherpa sheets). A
corrected map is a change to this table only; the rules read nothing else.
"""

from __future__ import annotations

from typing import Literal

import msgspec

MapName = Literal["dunai", "kagkot", "dhaulagiri"]

NORMAL_MAX = 12
"""The largest number an ordinary circle takes; larger numbers become a frown."""

THICK_MAX = 6
"""The largest number a thick-edged circle takes (Kagkot, Dhaulagiri)."""


class TrekMap(msgspec.Struct, frozen=True):
    name: MapName
    title: str
    circles: int
    links: tuple[tuple[int, int], ...]
    thick: tuple[int, ...]
    verified: bool


DUNAI = TrekMap(
    name="dunai",
    title="Dunai",
    circles=19,
    links=(
        (0, 1), (0, 2), (2, 3), (2, 6), (2, 8), (3, 4), (3, 8), (3, 10),
        (4, 5), (4, 10), (4, 12), (6, 7), (6, 8), (7, 8), (7, 9), (8, 9),
        (8, 10), (9, 10), (9, 11), (10, 11), (10, 12), (11, 12), (11, 13), (12, 13),
        (12, 14), (13, 14), (14, 15), (14, 16), (15, 16), (15, 17), (16, 17), (17, 18),
    ),
    thick=(),
    verified=True,
)  # fmt: skip

KAGKOT = TrekMap(
    name="kagkot",
    title="Kagkot",
    circles=19,
    links=(
        (0, 1), (0, 4), (1, 3), (2, 3), (2, 5), (3, 5), (4, 6), (4, 7), (4, 8),
        (6, 8), (6, 10), (7, 8), (7, 9), (8, 10), (9, 12), (10, 11), (10, 13),
        (10, 14), (11, 14), (11, 15), (13, 14), (14, 15), (15, 16), (15, 17),
        (16, 17), (16, 18), (17, 18),
    ),
    thick=(3, 4, 10, 15),
    verified=False,
)  # fmt: skip

DHAULAGIRI = TrekMap(
    name="dhaulagiri",
    title="Dhaulagiri",
    circles=19,
    links=(
        (0, 1), (1, 3), (1, 4), (2, 3), (2, 5), (3, 6), (4, 7), (5, 6), (5, 9),
        (6, 10), (7, 11), (8, 9), (8, 13), (9, 13), (10, 14), (10, 16), (11, 12),
        (11, 16), (12, 17), (12, 18), (14, 15), (15, 16), (17, 18),
    ),
    thick=(0, 4, 7, 10, 11, 16),
    verified=True,
)  # fmt: skip

MAPS: dict[str, TrekMap] = {m.name: m for m in (DUNAI, KAGKOT, DHAULAGIRI)}
