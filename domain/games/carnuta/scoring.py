"""Page: "Scores are determined by the scoring condition of each card" (house-made
conditions, cards.py); facts: ties go to the best single-ingredient score."""

from __future__ import annotations

from collections import Counter

from domain.games.carnuta.cards import CARDS, CardId
from domain.games.carnuta.state import Player, ScoreSheet


def ingredient_counts(player: Player) -> Counter[str]:
    """Cards of each ingredient in the tableau, plus bonus tokens (page: a token adds to
    your count of that symbol)."""
    counts = Counter(CARDS[c].ingredient for c in player.tableau)
    counts.update(player.tokens)
    return counts


def card_points(card: CardId, player: Player) -> int:
    kind, _, rest = CARDS[card].scoring.partition(":")
    counts = ingredient_counts(player)
    match kind:
        case "flat":
            return int(rest)
        case "per":
            ingredient, _, n = rest.partition(":")
            return counts[ingredient] * int(n)
        case "distinct":
            return len(counts) * int(rest)
        case "runes":
            symbol, _, n = rest.partition(":")
            return player.runes[symbol] * int(n)
        case _:
            raise ValueError(f"unknown scoring condition {CARDS[card].scoring!r}")


def score_sheet(player: Player) -> ScoreSheet:
    points = tuple(card_points(c, player) for c in player.tableau)
    by_ingredient: Counter[str] = Counter()
    for card, p in zip(player.tableau, points, strict=True):
        by_ingredient[CARDS[card].ingredient] += p
    return ScoreSheet(
        cards=points,
        best_ingredient=max(by_ingredient.values(), default=0),
        total=sum(points),
    )
