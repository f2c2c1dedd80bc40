"""Which winning hand wins the rounds of random Panda Panda matches.

Random legal play with the pure domain (no match, no services): each match seats 2 to 4
players in turn, every decision draws its chance from `Rng(seed, version)`, and every
`RoundWon` is counted by the letters of the hand shown. The README's table comes from

    python -m tests.games.pandapanda.win_shares --matches 1000
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from domain.games.pandapanda import GAME
from domain.games.pandapanda.cards import LETTER_OF, WINNING_HANDS
from domain.games.pandapanda.events import RoundWon
from domain.games.pandapanda.state import Options
from domain.kernel import Rng


def letters(hand: tuple[str, ...]) -> str:
    return "".join(sorted(LETTER_OF[card] for card in hand))


def play_match(seed: int, seats: int) -> list[str]:
    """One random match: the letters of each round's winning hand, in order."""
    bot = random.Random(seed)
    state = GAME.initial(Options(), seats)
    version = 0
    won: list[str] = []
    decided = GAME.start(state, Rng(seed, version))
    while True:
        events, state = GAME.settle(state, decided)
        version += len(events)
        won += [letters(e.hand) for e in events if isinstance(e, RoundWon)]
        acting = sorted(GAME.to_act(state))
        if not acting or GAME.outcome(state) is not None:
            return won
        seat = bot.choice(acting)
        command = bot.choice(list(GAME.legal(state, seat)))
        decided = GAME.decide(state, seat, command, Rng(seed, version))


def win_shares(matches: int) -> tuple[Counter[str], int]:
    """Rounds won by each winning hand over `matches` matches, and the rounds played."""
    counts: Counter[str] = Counter()
    for seed in range(matches):
        counts.update(play_match(seed, 2 + seed % 3))
    return counts, sum(counts.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    matches = parser.parse_args().matches
    counts, rounds = win_shares(matches)
    print(f"{matches} random matches (2-4 players), {rounds} rounds won:\n")
    print("| hand | source | rounds won | share |")
    print("|---|---|---:|---:|")
    for hand in WINNING_HANDS:
        source = "sourced" if hand.sourced else "placeholder"
        won = counts[hand.letters]
        print(f"| {'-'.join(hand.letters)} | {source} | {won} | {won / rounds:.1%} |")


if __name__ == "__main__":
    main()
