"""A Carnuta turn: two actions (take a card, play a card, take runes, flip runes), a
sickle at any moment of it; the 11th card in a tableau brings the end.

Rule sentences cite the seed (002, "Gamehelpcarnuta", 2025-12-15), rules-batch2.md
"Carnuta", and the README's house-made list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Literal, TypeVar

import msgspec

from domain.games.carnuta.cards import (
    ACTIONS_PER_TURN,
    BASE_SLOTS,
    CARDS,
    END_AT,
    HAND_LIMIT,
    ROW_SIZE,
    SLOT_OPENED_AT,
    SYMBOLS,
    TOKEN_AT,
    CardId,
)
from domain.games.carnuta.commands import (
    Command,
    FlipRunes,
    PickToken,
    PlayCard,
    TakeCard,
    TakeRunes,
    UseSickle,
)
from domain.games.carnuta.events import (
    CardPlayed,
    CardTaken,
    EndTriggered,
    Event,
    GameEnded,
    PlayerConceded,
    RowFilled,
    RunesFlipped,
    RunesTaken,
    SickleUsed,
    SlotOpened,
    StartingCardDealt,
    TokenEarned,
    TokenPicked,
    TurnBegan,
)
from domain.games.carnuta.scoring import score_sheet
from domain.games.carnuta.state import Player, Table
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import next_seat

Turn = Recorder[Table, Event]
T = TypeVar("T")
OTHER = {"sun": "moon", "moon": "sun"}
ROWS: tuple[Literal["day", "night"], ...] = ("day", "night")

# --- reading the table -----------------------------------------------------------------------


def is_active(state: Table, seat: Seat) -> bool:
    return seat not in state.conceded


def slots(player: Player) -> int:
    """Page: 4 rune slots; the 4th card opens a 5th, the 8th a 6th."""
    opened = [n for at, n in SLOT_OPENED_AT.items() if len(player.tableau) >= at]
    return max([BASE_SLOTS, *opened])


def free_slots(player: Player) -> int:
    return slots(player) - sum(player.runes.values())


def row_of(state: Table, card: CardId) -> str | None:
    return next((row for row, cards in state.rows.items() if card in cards), None)


def payment(card: CardId) -> tuple[Counter[str], Counter[str]]:
    """The runes a card's cost flips and discards, by symbol."""
    flips: Counter[str] = Counter()
    discards: Counter[str] = Counter()
    for item in CARDS[card].cost:
        how, _, symbol = item.partition(":")
        (flips if how == "flip" else discards)[symbol] += 1
    return flips, discards


def can_pay(player: Player, card: CardId) -> bool:
    """Each rune pays for one item of the cost, showing that item's symbol before paying."""
    flips, discards = payment(card)
    return all(flips[s] + discards[s] <= player.runes[s] for s in SYMBOLS)


# --- setup -----------------------------------------------------------------------------------


def start(state: Table, rng: Rng) -> Turn:
    """Facts: each player a random starting card (house: into the tableau); 4 day and 4
    night cards face up in two rows; seat 1 begins."""
    turn = Turn(state, evolve)
    for seat in range(state.seats):
        deck = "day" if seat % 2 == 0 else "night"
        turn.record(StartingCardDealt(seat=seat, card=rng.choice(turn.state.decks[deck])))
    for row in ("day", "night"):
        refill(turn, row, rng)
    turn.record(TurnBegan(seat=0, round=1))
    return turn


def refill(turn: Turn, row: str, rng: Rng) -> None:
    while len(turn.state.rows[row]) < ROW_SIZE and turn.state.decks[row]:
        turn.record(RowFilled(row=row, card=rng.choice(turn.state.decks[row])))


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "The last round is over; the game has ended.")
    if state.phase == "setup":
        raise Rejected("not_started", "The market is not laid out yet.")
    if seat != state.player or not is_active(state, seat):
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn.")
    if state.phase == "token" and not isinstance(command, PickToken):
        raise Rejected("pick_a_token", "Pick your bonus-ingredient token first.")
    match command:
        case TakeCard(card=card):
            return take_card(state, seat, card, rng)
        case PlayCard(card=card):
            return play_card(state, seat, card)
        case TakeRunes(symbol=symbol, count=count):
            return take_runes(state, seat, symbol, count)
        case FlipRunes(symbol=symbol, count=count):
            return flip_runes(state, seat, symbol, count)
        case UseSickle(row=row):
            return use_sickle(state, seat, row, rng)
        case PickToken(ingredient=ingredient):
            return pick_token(state, seat, ingredient)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a Carnuta move.")


def _check_symbol(symbol: str) -> None:
    if symbol not in SYMBOLS:
        raise Rejected("no_such_symbol", f"Runes show the sun or the moon, not {symbol!r}.")


def take_card(state: Table, seat: Seat, card: CardId, rng: Rng) -> Turn:
    """Page: take a card into your hand; the hand limit is 3. Facts: the row refills."""
    row = row_of(state, card)
    if row is None:
        raise Rejected("card_not_in_market", f"{card} is not in the market.")
    if len(state.players[seat].hand) >= HAND_LIMIT:
        raise Rejected("hand_full", f"Your hand already holds {HAND_LIMIT} cards.")
    turn = Turn(state, evolve)
    turn.record(CardTaken(seat=seat, card=card, row=row))
    refill(turn, row, rng)
    after_action(turn, seat)
    return turn


def play_card(state: Table, seat: Seat, card: CardId) -> Turn:
    """Page: play a card from your hand, flipping or discarding the runes on its top."""
    player = state.players[seat]
    if card not in player.hand:
        raise Rejected("card_not_in_hand", f"{card} is not in your hand.")
    if not can_pay(player, card):
        raise Rejected("runes_missing", f"Your runes cannot pay {', '.join(CARDS[card].cost)}.")
    flips, discards = payment(card)
    turn = Turn(state, evolve)
    turn.record(
        CardPlayed(
            seat=seat,
            card=card,
            flipped=tuple(sorted(flips.elements())),
            discarded=tuple(sorted(discards.elements())),
        )
    )
    count = len(turn.state.players[seat].tableau)
    if count in SLOT_OPENED_AT:
        turn.record(SlotOpened(seat=seat, slots=SLOT_OPENED_AT[count]))
    if count in TOKEN_AT and turn.state.tokens:
        turn.record(TokenEarned(seat=seat))
    if count >= END_AT and turn.state.final_round is None:
        extra = 1 if state.options.last_round == "another" else 0
        turn.record(EndTriggered(seat=seat, last_round=state.round + extra))
    if turn.state.phase != "token":
        after_action(turn, seat)
    return turn


def take_runes(state: Table, seat: Seat, symbol: str, count: int) -> Turn:
    """Page: take runes of one symbol from the reserve, as many as it has, up to your limit."""
    _check_symbol(symbol)
    most = min(state.reserve[symbol], free_slots(state.players[seat]))
    if most == 0:
        raise Rejected("no_runes_to_take", f"No {symbol} rune can be taken: reserve or slots.")
    if not 1 <= count <= most:
        raise Rejected("rune_count", f"Take 1 to {most} {symbol} runes, not {count}.")
    turn = Turn(state, evolve)
    turn.record(RunesTaken(seat=seat, symbol=symbol, count=count))
    after_action(turn, seat)
    return turn


def flip_runes(state: Table, seat: Seat, symbol: str, count: int) -> Turn:
    """Page: flip as many runes of the same symbol as you like to the other side."""
    _check_symbol(symbol)
    have = state.players[seat].runes[symbol]
    if have == 0:
        raise Rejected("no_runes_to_flip", f"None of your runes shows the {symbol}.")
    if not 1 <= count <= have:
        raise Rejected("rune_count", f"Flip 1 to {have} of your {symbol} runes, not {count}.")
    turn = Turn(state, evolve)
    turn.record(RunesFlipped(seat=seat, symbol=symbol, count=count))
    after_action(turn, seat)
    return turn


def use_sickle(state: Table, seat: Seat, row: str, rng: Rng) -> Turn:
    """Page: a sickle played on your turn refreshes one of the two rows, your choice."""
    if state.players[seat].sickles == 0:
        raise Rejected("no_sickle", "You have no sickle left.")
    if row not in state.rows:
        raise Rejected("no_such_row", f"The rows are day and night, not {row!r}.")
    if not state.decks[row]:
        raise Rejected("row_deck_empty", f"The {row} deck is empty; the row cannot be refreshed.")
    turn = Turn(state, evolve)
    turn.record(SickleUsed(seat=seat, row=row, cleared=tuple(state.rows[row])))
    refill(turn, row, rng)
    return turn


def pick_token(state: Table, seat: Seat, ingredient: str) -> Turn:
    """Page: the 6th and 10th cards let you pick a token from the reserve."""
    if state.phase != "token":
        raise Rejected("no_token_due", "No bonus token is due to you now.")
    if ingredient not in state.tokens:
        raise Rejected("token_not_in_reserve", f"No {ingredient} token is left in the reserve.")
    turn = Turn(state, evolve)
    turn.record(TokenPicked(seat=seat, ingredient=ingredient))
    after_action(turn, seat)
    return turn


# --- turns and the end -----------------------------------------------------------------------


def after_action(turn: Turn, seat: Seat) -> None:
    """Page: two actions a turn; then the next player."""
    if turn.state.actions_left == 0:
        after_turn(turn, seat)


def after_turn(turn: Turn, seat: Seat) -> None:
    """Page: after the 11th card the round is finished (and, by default, one more is
    played); house: the game ends after round `max_rounds` at the latest."""
    state = turn.state
    nxt = next_seat(seat, state.seats, lambda s: is_active(state, s))
    if nxt > seat:
        turn.record(TurnBegan(seat=nxt, round=state.round))
        return
    last = state.options.max_rounds if state.final_round is None else state.final_round
    if state.round >= min(last, state.options.max_rounds):
        turn.record(GameEnded(sheets=tuple(score_sheet(p) for p in state.players)))
        return
    turn.record(TurnBegan(seat=nxt, round=state.round + 1))


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The seat leaves and ranks last; with one player left the match ends."""
    others = [s for s in range(state.seats) if s != seat and is_active(state, s)]
    if len(others) < 2 or state.phase in ("over", "setup"):
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    if seat == state.player:
        after_turn(turn, seat)
    return turn


def outcome(state: Table) -> Outcome | None:
    """Page: the highest score wins; facts: a tie goes to the best single-ingredient
    score; still equal, shared. A seat that left ranks last."""
    if state.phase != "over":
        return None
    scores = tuple(sheet.total for sheet in state.sheets)
    keys = [
        (int(is_active(state, s)), scores[s], state.sheets[s].best_ingredient)
        for s in range(state.seats)
    ]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> Iterator[Command]:
    if state.phase in ("setup", "over") or seat != state.player or not is_active(state, seat):
        return
    if state.phase == "token":
        for ingredient in sorted(set(state.tokens)):
            yield PickToken(ingredient=ingredient)
        return
    player = state.players[seat]
    if len(player.hand) < HAND_LIMIT:
        for row in ("day", "night"):
            for card in state.rows[row]:
                yield TakeCard(card=card)
    for card in player.hand:
        if can_pay(player, card):
            yield PlayCard(card=card)
    for symbol in SYMBOLS:
        for count in range(1, min(state.reserve[symbol], free_slots(player)) + 1):
            yield TakeRunes(symbol=symbol, count=count)
        for count in range(1, player.runes[symbol] + 1):
            yield FlipRunes(symbol=symbol, count=count)
    if player.sickles:
        for row in ROWS:
            if state.decks[row]:
                yield UseSickle(row=row)


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case StartingCardDealt(seat=seat, card=card):
            player = state.players[seat]
            deck = CARDS[card].deck
            return replace(
                state,
                decks=_without(state.decks, deck, card),
                players=_with(state.players, seat, replace(player, tableau=[card])),
            )
        case RowFilled(row=row, card=card):
            rows = {**state.rows, row: [*state.rows[row], card]}
            return replace(state, rows=rows, decks=_without(state.decks, row, card))
        case TurnBegan(seat=seat, round=number):
            return replace(
                state, phase="act", player=seat, round=number, actions_left=ACTIONS_PER_TURN
            )
        case CardTaken(seat=seat, card=card, row=row):
            player = state.players[seat]
            player = replace(player, hand=[*player.hand, card])
            return replace(
                state,
                rows=_without(state.rows, row, card),
                players=_with(state.players, seat, player),
                actions_left=state.actions_left - 1,
            )
        case CardPlayed(seat=seat, card=card, flipped=flipped, discarded=discarded):
            player = state.players[seat]
            runes = dict(player.runes)
            reserve = dict(state.reserve)
            for symbol in flipped:
                runes[symbol] -= 1
                runes[OTHER[symbol]] += 1
            for symbol in discarded:
                runes[symbol] -= 1
                reserve[symbol] += 1
            player = replace(
                player,
                hand=[c for c in player.hand if c != card],
                tableau=[*player.tableau, card],
                runes=runes,
            )
            return replace(
                state,
                players=_with(state.players, seat, player),
                reserve=reserve,
                actions_left=state.actions_left - 1,
            )
        case SlotOpened():
            return state
        case TokenEarned():
            return replace(state, phase="token", tokens_due=state.tokens_due + 1)
        case TokenPicked(seat=seat, ingredient=ingredient):
            player = state.players[seat]
            player = replace(player, tokens=[*player.tokens, ingredient])
            tokens = list(state.tokens)
            tokens.remove(ingredient)
            return replace(
                state,
                players=_with(state.players, seat, player),
                tokens=tokens,
                tokens_due=state.tokens_due - 1,
                phase="act",
            )
        case RunesTaken(seat=seat, symbol=symbol, count=count):
            player = state.players[seat]
            runes = {**player.runes, symbol: player.runes[symbol] + count}
            return replace(
                state,
                players=_with(state.players, seat, replace(player, runes=runes)),
                reserve={**state.reserve, symbol: state.reserve[symbol] - count},
                actions_left=state.actions_left - 1,
            )
        case RunesFlipped(seat=seat, symbol=symbol, count=count):
            player = state.players[seat]
            other = OTHER[symbol]
            runes = {symbol: player.runes[symbol] - count, other: player.runes[other] + count}
            return replace(
                state,
                players=_with(state.players, seat, replace(player, runes=runes)),
                actions_left=state.actions_left - 1,
            )
        case SickleUsed(seat=seat, row=row):
            player = state.players[seat]
            player = replace(player, sickles=player.sickles - 1)
            return replace(
                state, rows={**state.rows, row: []}, players=_with(state.players, seat, player)
            )
        case EndTriggered(last_round=last_round):
            return replace(state, final_round=last_round)
        case PlayerConceded(seat=seat):
            return replace(state, conceded=sorted({*state.conceded, seat}))
        case GameEnded(sheets=sheets):
            return replace(state, phase="over", sheets=list(sheets))
        case _:
            raise TypeError(f"not a Carnuta event: {event!r}")


def _with(rows: list[T], seat: Seat, row: T) -> list[T]:
    return [row if s == seat else r for s, r in enumerate(rows)]


def _without(piles: dict[str, list[CardId]], key: str, card: CardId) -> dict[str, list[CardId]]:
    return {**piles, key: [c for c in piles[key] if c != card]}
