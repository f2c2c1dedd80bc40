"""Melding a hand into sets and runs with wild cards, exactly.

Rules (seed 002, 3-13, "Melds"): a meld has at least 3 cards; a set is cards of one
rank, a run is consecutive cards of one suit; wild cards stand for any card; an ace is
low (A-2-3) or high (Q-K-A) in a run, never both (no K-A-2), so a run holds at most 13
cards. ASSUMPTIONS: a set may hold two identical cards (two decks), and three or more
wild cards alone make a meld (an option).

The search works on the natural cards as a sorted tuple of codes (see `cards.py`) plus
a count of wild cards. It always settles the lowest remaining card: either it stays
unmelded, or it joins one of the melds that can hold it together with higher cards.
Identical cards share a code, so a hand's two 7♥ never branch twice. Results are
memoised on (cards, wilds, room): the same sub-hands recur across the discards tried
when checking who may go out, across turns and across rounds. "room" is how many more
wild cards the melds already made could still take (capped): sets take any number, a
run only until it is 13 long. Wild cards left over at the end join a wild-only meld
when there are three or more, else fill that room, else cost 50 each.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import product

import msgspec

from .cards import NATURALS, WILD_PENALTY, CardId, is_wild, penalty, rank_of, suit_of

ROOM_CAP = 14
"""More room than any hand has wild cards: "room" is capped here."""

RUN_LIMIT = 13
"""A run holds at most 13 cards (A-K or 2-A)."""

Codes = tuple[int, ...]
MeldShape = tuple[Codes, int, int]
"""One meld holding the lowest card: (the other natural codes it takes, wilds it needs, room)."""


class Melding(msgspec.Struct, frozen=True):
    """One best arrangement of a hand: the melds, the cards left over and what they cost."""

    melds: tuple[tuple[CardId, ...], ...]
    deadwood: tuple[CardId, ...]
    points: int


def melds_holding_first(cards: Codes, wilds: int) -> list[MeldShape]:
    """Every set and run that holds `cards[0]`, using the other cards and at most `wilds`."""
    first = cards[0]
    rest = cards[1:]
    return [*_sets(first, rest, wilds), *_runs(first, rest, wilds)]


def _sets(first: int, rest: Codes, wilds: int) -> Iterator[MeldShape]:
    """Sets of `first`'s rank: any copies of that rank in any suit, wilds filling up to 3."""
    rank = rank_of(first)
    same = [c for c in rest if rank_of(c) == rank]
    kinds = sorted(set(same))
    for counts in product(*(range(same.count(k) + 1) for k in kinds)):
        taken = tuple(k for k, n in zip(kinds, counts, strict=True) for _ in range(n))
        need = max(0, 3 - 1 - len(taken))
        if need <= wilds:
            yield taken, need, ROOM_CAP


def _runs(first: int, rest: Codes, wilds: int) -> Iterator[MeldShape]:
    """Runs of `first`'s suit starting at `first` (or, for an ace, ending at it, ace high)."""
    suit = suit_of(first)
    rank = rank_of(first)
    present = {rank_of(c) for c in rest if suit_of(c) == suit}
    yield from _run_from(suit, rank, range(rank + 1, 14), present, wilds)
    if rank == 1:  # the ace may also sit above the king
        yield from _run_from(suit, 1, range(13, 1, -1), present, wilds)


def _run_from(
    suit: int, start: int, positions: range, present: set[int], wilds: int
) -> Iterator[MeldShape]:
    """Walk away from the first card; each position is a natural card or a wild in a gap.

    A run is yielded only when it ends on a natural card: wilds past the end would only
    be extra cards, which the "room" already accounts for.
    """

    def walk(index: int, taken: tuple[int, ...], gaps: int) -> Iterator[MeldShape]:
        if index == len(positions) or gaps > wilds:
            return
        rank = positions[index]
        span = index + 2  # the first card and every position up to this one
        if rank in present:
            code = suit * 13 + rank - 1
            now = (*taken, code)
            need = gaps + max(0, 3 - span)
            if need <= wilds:
                yield tuple(sorted(now)), need, min(ROOM_CAP, RUN_LIMIT - max(3, span))
            yield from walk(index + 1, now, gaps)
        if gaps < wilds:
            yield from walk(index + 1, taken, gaps + 1)

    yield from walk(0, (), 0)


def _without(cards: Codes, taken: Codes) -> Codes:
    if not taken:
        return cards
    out = list(cards)
    for code in taken:
        out.remove(code)
    return tuple(out)


def _leftover_wilds(wilds: int, room: int, wild_melds: bool) -> int:
    """What the wild cards nobody melded cost: a wild-only meld, room in melds, or 50 each."""
    if wilds == 0 or (wild_melds and wilds >= 3):
        return 0
    return WILD_PENALTY * max(0, wilds - room)


@lru_cache(maxsize=1 << 18)
def least_deadwood(cards: Codes, wilds: int, room: int = 0, wild_melds: bool = True) -> int:
    """The fewest penalty points `cards` (sorted codes) and `wilds` can leave unmelded."""
    if not cards:
        return _leftover_wilds(wilds, room, wild_melds)
    best = penalty(cards[0]) + least_deadwood(cards[1:], wilds, room, wild_melds)
    for taken, need, more in melds_holding_first(cards, wilds):
        if best == 0:
            break
        rest = _without(cards[1:], taken)
        cost = least_deadwood(rest, wilds - need, min(ROOM_CAP, room + more), wild_melds)
        best = min(best, cost)
    return best


@lru_cache(maxsize=1 << 18)
def melds_fully(cards: Codes, wilds: int, room: int = 0, wild_melds: bool = True) -> bool:
    """Whether `cards` and `wilds` can all be melded (a faster `least_deadwood(...) == 0`)."""
    if not cards:
        return _leftover_wilds(wilds, room, wild_melds) == 0
    for taken, need, more in melds_holding_first(cards, wilds):
        rest = _without(cards[1:], taken)
        if melds_fully(rest, wilds - need, min(ROOM_CAP, room + more), wild_melds):
            return True
    return False


def split(hand: Sequence[CardId], wild_rank: int) -> tuple[Codes, list[CardId]]:
    """A hand as the search reads it: sorted natural codes, and its wild cards."""
    naturals = sorted(NATURALS[c] for c in hand if not is_wild(c, wild_rank))
    return tuple(naturals), [c for c in hand if is_wild(c, wild_rank)]


def hand_melds_fully(hand: Sequence[CardId], wild_rank: int, wild_melds: bool = True) -> bool:
    codes, wild_cards = split(hand, wild_rank)
    return melds_fully(codes, len(wild_cards), 0, wild_melds)


def going_out_discards(
    hand: Sequence[CardId], wild_rank: int, wild_melds: bool = True
) -> list[CardId]:
    """The cards of `hand` whose discard leaves the rest fully melded."""
    codes, wild_cards = split(hand, wild_rank)
    wilds = len(wild_cards)
    stranded = [c for c in set(codes) if _stranded(c, codes, wilds)]
    if len(stranded) > 1:  # two cards no meld can hold: one discard cannot save both
        return []
    candidates = stranded or sorted(set(codes))
    fits: dict[int | None, bool] = {}
    for code in candidates:
        rest = list(codes)
        rest.remove(code)
        fits[code] = melds_fully(tuple(rest), wilds, 0, wild_melds)
    if wilds and not stranded:
        fits[None] = melds_fully(codes, wilds - 1, 0, wild_melds)
    return [
        card for card in hand if fits.get(None if card in wild_cards else NATURALS[card], False)
    ]


def _stranded(code: int, codes: Codes, wilds: int) -> bool:
    """No set or run in the hand could hold this card, whatever else is melded.

    A meld holding the card has 3 cards around it: two more of its rank or wilds (a set),
    or, in a run, a stretch of 3 ranks holding it with at most `wilds` of them missing.
    """
    rank, suit = rank_of(code), suit_of(code)
    if (
        wilds >= 2
        or codes.count(code) - 1 + sum(1 for c in codes if rank_of(c) == rank and c != code) + wilds
        >= 2
    ):
        return False
    held = {rank_of(c) for c in codes if suit_of(c) == suit}
    if 1 in held:
        held.add(14)  # an ace is also the rank above the king
    for position in [rank, 14] if rank == 1 else [rank]:
        for low in range(position - 2, position + 1):
            window = range(low, low + 3)
            if low >= 1 and low + 2 <= 14 and sum(r not in held for r in window) <= wilds:
                return False
    return True


def best_melding(hand: Sequence[CardId], wild_rank: int, wild_melds: bool = True) -> Melding:
    """One arrangement of `hand` leaving the fewest penalty points, with the cards named."""
    codes, wild_cards = split(hand, wild_rank)
    by_code: dict[int, list[CardId]] = {}
    for card in sorted(c for c in hand if c not in wild_cards):
        by_code.setdefault(NATURALS[card], []).append(card)
    spare = sorted(wild_cards)
    melds: list[list[CardId]] = []
    rooms: list[int] = []
    deadwood: list[CardId] = []
    wilds, room = len(spare), 0
    target = least_deadwood(codes, wilds, room, wild_melds)
    points = target
    while codes:
        first, rest = codes[0], codes[1:]
        if penalty(first) + least_deadwood(rest, wilds, room, wild_melds) == target:
            deadwood.append(by_code[first].pop(0))
            target -= penalty(first)
            codes = rest
            continue
        for taken, need, more in melds_holding_first(codes, wilds):
            after = _without(rest, taken)
            new_room = min(ROOM_CAP, room + more)
            if least_deadwood(after, wilds - need, new_room, wild_melds) == target:
                melds.append([by_code[c].pop(0) for c in (first, *taken)] + spare[:need])
                rooms.append(more)
                spare = spare[need:]
                codes, wilds, room = after, wilds - need, new_room
                break
        else:  # pragma: no cover - least_deadwood found one of these options
            raise AssertionError("the melding search lost its way")
    _place_spare_wilds(spare, melds, rooms, deadwood, wild_melds)
    return Melding(melds=tuple(tuple(m) for m in melds), deadwood=tuple(deadwood), points=points)


def _place_spare_wilds(
    spare: list[CardId],
    melds: list[list[CardId]],
    rooms: list[int],
    deadwood: list[CardId],
    wild_melds: bool,
) -> None:
    """Leftover wilds: a meld of their own (3+), else into melds with room, else unmelded."""
    if not spare:
        return
    if wild_melds and len(spare) >= 3:
        melds.append(list(spare))
        return
    for index, room in enumerate(rooms):
        while spare and room > 0:
            melds[index].append(spare.pop(0))
            room -= 1
    deadwood.extend(spare)
