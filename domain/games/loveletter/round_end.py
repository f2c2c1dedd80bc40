"""The turn's end, the round's end (showdown, tokens) and the deal of a new round."""

from __future__ import annotations

from domain.games.loveletter.cards import deck, name_of, value_of
from domain.games.loveletter.effects import Script, award, settle
from domain.games.loveletter.events import (
    CardDealt,
    CardDrawn,
    CardSetAside,
    CardsSetFaceUp,
    Reveal,
    RoundEnded,
    RoundStarted,
    TurnBegan,
)
from domain.games.loveletter.state import State, in_round, next_at_table, next_in_round
from domain.kernel import Rng, Seat
from domain.table import clockwise


def deal_round(s: Script, first: Seat, rng: Rng) -> None:
    """Rule (seed 001, The Game): shuffle, set the top card aside face down, deal one
    card to each player; with two players also set three cards aside face up."""
    st = s.state
    order = tuple(rng.shuffled(deck(st.premium)))
    s.record(RoundStarted(round=st.round + 1, first=first, deck=order))
    s.record(CardSetAside(card=order[0]))
    taken = 1
    if st.seats == 2 and st.options.two_player_face_up:
        s.record(CardsSetFaceUp(cards=order[1:4]))
        taken = 4
    for seat in (p for p in clockwise(first, st.seats, inclusive=True) if not st.gone[p]):
        s.record(CardDealt(seat=seat, card=order[taken]))
        taken += 1
    begin_turn(s, first)


def begin_turn(s: Script, seat: Seat) -> None:
    """A turn: the Handmaid's protection of that player ends, then the player draws."""
    s.record(TurnBegan(seat=seat))
    s.record(CardDrawn(seat=seat, card=s.state.deck[0]))


def finish_turn(s: Script) -> None:
    """Rule (seed 001, The Game): the round ends when one player is left, or when the
    deck is empty for the next player to draw; otherwise the next player's turn begins."""
    st = s.state
    if st.phase != "turn" or st.turn is None:
        return
    if len(in_round(st)) <= 1 or not st.deck:
        end_round(s)
    else:
        begin_turn(s, next_in_round(st, st.turn))


def end_round(s: Script) -> None:
    """The winner gains a token (and the Jester's player, if the Jester chose the winner);
    the winner starts the next round."""
    st = s.state
    players = in_round(st)
    showdown: tuple[Reveal, ...] = ()
    winner: Seat | None = None
    if len(players) == 1:
        winner = players[0]
    elif players:
        showdown = tuple(_reveal(st, p) for p in players)
        winner = showdown_winner(showdown)
    last = st.turn if st.turn is not None else 0
    starter = winner if winner is not None else _next_starter(st, last)
    s.record(RoundEnded(winner=winner, starter=starter, showdown=showdown))
    if winner is not None:
        award(s, winner, "round")
        bet = st.jester
        if bet is not None and bet.target == winner and not st.gone[bet.player]:
            award(s, bet.player, "jester")
    settle(s)


def _next_starter(st: State, last: Seat) -> Seat:
    """ASSUMPTION: without a round winner, the player who would have drawn next starts."""
    if in_round(st):
        return next_in_round(st, last)
    return next_at_table(st, (last + 1) % st.seats)


def _reveal(st: State, seat: Seat) -> Reveal:
    """Rule (premium, Count): each Count in your discards adds 1 to your hand."""
    card = st.hands[seat][0]
    counts = sum(1 for c in st.discards[seat] if name_of(c) == "count")
    return Reveal(
        seat=seat,
        card=card,
        strength=value_of(card) + counts,
        discard_sum=sum(value_of(c) for c in st.discards[seat]),
    )


def beats(a: Reveal, b: Reveal) -> bool:
    """The higher hand wins; the Princess always beats the Bishop (seed 001, Bishop)."""
    pair = (name_of(a.card), name_of(b.card))
    if pair == ("princess", "bishop"):
        return True
    if pair == ("bishop", "princess"):
        return False
    return a.strength > b.strength


def showdown_winner(hands: tuple[Reveal, ...]) -> Seat | None:
    """Rule (seed 001, The Game): the highest hand wins; a tie goes to the higher sum of
    discarded values; still tied, nobody wins the round."""
    unbeaten = [h for h in hands if not any(beats(o, h) for o in hands if o is not h)]
    contenders = unbeaten or list(hands)  # ASSUMPTION: a Princess-Bishop cycle is a tie
    best = max(h.discard_sum for h in contenders)
    top = [h.seat for h in contenders if h.discard_sum == best]
    return top[0] if len(top) == 1 else None
