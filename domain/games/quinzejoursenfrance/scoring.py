"""Page, after day 15: mission smileys (if completed), Location smileys, and +1 per mission
when all of a traveller's missions are completed."""

from __future__ import annotations

from collections import Counter

from domain.games.quinzejoursenfrance.cards import ENCOUNTERS, LOCATIONS, CardId
from domain.games.quinzejoursenfrance.state import ScoreSheet, Table, Traveller


def symbols(traveller: Traveller) -> Counter[str]:
    return Counter(s for c in traveller.cards for s in LOCATIONS[c].symbols)


def mission_met(state: Table, seat: int, mission: CardId) -> bool:
    """Page: a mission scores if its condition is met (cards.py lists the conditions)."""
    me = state.travellers[seat]
    kind, _, rest = ENCOUNTERS[mission].condition.partition(":")
    mine = symbols(me)
    match kind:
        case "most":
            others = [symbols(t)[rest] for s, t in enumerate(state.travellers) if s != seat]
            best = max(others, default=0)
            tie_ok = state.options.most_ties == "count"
            return mine[rest] > 0 and (mine[rest] > best or (tie_ok and mine[rest] == best))
        case "count":
            symbol, _, n = rest.partition(":")
            return mine[symbol] >= int(n)
        case "none":
            return mine[rest] == 0
        case "smiley_cards":
            return sum(1 for c in me.cards if LOCATIONS[c].smileys) >= int(rest)
        case "region":
            region, _, n = rest.partition(":")
            return sum(1 for c in me.cards if LOCATIONS[c].region == region) >= int(n)
        case "distinct":
            return len(mine) >= int(rest)
        case _:
            raise ValueError(f"unknown mission condition {ENCOUNTERS[mission].condition!r}")


def score_sheet(state: Table, seat: int) -> ScoreSheet:
    me = state.travellers[seat]
    met = tuple(mission_met(state, seat, m) for m in me.missions)
    mission_smileys = sum(
        ENCOUNTERS[m].smileys for m, ok in zip(me.missions, met, strict=True) if ok
    )
    location_smileys = sum(LOCATIONS[c].smileys for c in me.cards)
    bonus = len(me.missions) if me.missions and all(met) else 0
    return ScoreSheet(
        missions=tuple(me.missions),
        met=met,
        mission_smileys=mission_smileys,
        location_smileys=location_smileys,
        all_missions_bonus=bonus,
        steps=me.steps,
        total=mission_smileys + location_smileys + bonus,
    )
