"""Energy points at the end of Beyond (seed 002, "Scoring"), and the tie-break."""

from __future__ import annotations

from domain.games.beyond.cards import (
    CAPTURE_CARD_POINTS,
    ENCHANTED_POINTS,
    LOTUS_POINTS,
    NIAN_SHOU_POINTS,
    SPARE_SPIRIT_POINTS,
    SPIRITS,
)
from domain.games.beyond.events import ScoreSheet
from domain.games.beyond.state import Area


def lotus_held(area: Area) -> int:
    """Every Lotus token in the player's area: the reserve, protection tokens, summonings."""
    return area.lotus + len(area.protected) + len(area.summoned)


def score_sheet(area: Area) -> ScoreSheet:
    """Rule: points from enchanted spirits, +1 per spirit-side card not in a pattern, +1 per
    Nian Shou card, +1 per capture card, +1 per token in the play area."""
    parts = {
        "enchanted": sum(ENCHANTED_POINTS[s] for s in SPIRITS if s in area.enchanted),
        "spare_spirits": len(area.spirits) * SPARE_SPIRIT_POINTS,
        "nian_shou": len(area.nian_shou) * NIAN_SHOU_POINTS,
        "capture_cards": len(area.stock) * CAPTURE_CARD_POINTS,
        "lotus": lotus_held(area) * LOTUS_POINTS,
    }
    return ScoreSheet(**parts, total=sum(parts.values()), face_up_spirits=len(area.spirits))
