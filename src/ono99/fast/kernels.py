"""Numba kernels: the rules of ``ono99.engine.game`` over the game records of ``layout.py``.

Each private function works on one game: ``r`` is its record (``games[g]``), ``p`` the rule set
(the record of a ``PARAMS`` array), and ``sc``/``g`` the loaded scripts and the game's index in
them. The entry points at the end loop over the batch. Records are passed as pointers; the hot
functions are inlined into their callers (``inline="always"``), as calls between separately
compiled (cached) functions are not inlined otherwise. The scripts travel as an address and a
row count rather than as an array (``scripts_of``), and bit counts are the CPU's own
instructions: a plain C loop of the same playout (``benchmarks/c/playout.c``) is the yardstick.

The engine settles automatic consequences by mutual recursion (``_advance`` calls ``_settle``);
here a transition only passes the turn on, and one loop in ``_settle`` resolves eliminations,
busts' outs, round ends and new deals until the seat to play has a legal action or the match is
over. It visits the same states in the same order.

Legal actions are an int bitmask: bit c for ``play c`` (canonical card order), bit 16 for
``discard ono99``, bit 17 for ``draw`` — the engine's ``ALL_ACTIONS`` indices. The draw penalty
(X2) is played when ``Params.draw_penalty`` is set, for the rollouts (``rollouts.py``) only: a
played card leaves its player owing a draw (``owes``), which ``take_draw`` takes; the batch
refuses it, as its API steps only the seat to play. Randomness is each game's own splitmix64
generator (``r.rng``): deals, reshuffles and the random playout's choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import carray, njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from ..engine.state import Status
from .layout import (
    CARD_POINTS_ARRAY,
    DECK_COUNTS_ARRAY,
    DISCARD_ACTION,
    DRAW_ACTION,
    EMPTY,
    ERROR_BAD_RESHUFFLE,
    HAND,
    NUM_ACTIONS,
    PILE,
    POINTS,
    ROUND,
    SINGLE,
    TOKENS,
)

IN, OUT, OUT_OF_ROUND = Status.IN.code, Status.OUT.code, Status.OUT_OF_ROUND.code
MINUS_TEN, REVERSE, PLAY2, HOLD, ONO99 = 11, 12, 13, 14, 15  # as ono99.engine.cards
NUM_KINDS = 16
DISCARD_BIT = 1 << DISCARD_ACTION
DRAW_BIT = 1 << DRAW_ACTION

# Global arrays: Numba freezes them into the compiled code as constants.
_POINTS = CARD_POINTS_ARRAY
_DECK_COUNTS = DECK_COUNTS_ARRAY  # row Params.edition: the deck's count of each card kind

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)

Game = Any  # a record of the GAME dtype (typing only)
Params = Any  # the record of a PARAMS array
Scripts = tuple[
    np.int64, np.int64
]  # the scripts array of layout.scripts, as ``scripts_of`` gives it


# --------------------------------------------------------------------------- low-level helpers


def _as_pointer_typing(typingctx: Any, address: Any) -> Any:
    """An integer address as a ``void *`` (for ``carray``)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(types.int64), codegen


_as_pointer: Any = intrinsic(_as_pointer_typing)


@njit(cache=True, inline="always")
def scripts_of(scripts: np.ndarray) -> Scripts:
    """The scripts array as its address and its rows per game. The entry points pass this
    down, not the array: an array is reference-counted in every inlined function it passes
    through (an atomic increment and decrement, about a quarter of each action's time), two
    integers are not. The caller's array keeps the data alive meanwhile."""
    return (np.int64(scripts.ctypes.data), np.int64(scripts.shape[1]))


@njit(cache=True, inline="always")
def _script_rows(sc: Scripts, g: int) -> np.ndarray:
    """Game ``g``'s rows of the scripts (``layout.scripts``): a rows × 113 int8 view."""
    address, rows = sc
    return carray(_as_pointer(address + g * rows * (1 + PILE)), (rows, 1 + PILE), np.int8)


def _widened(builder: Any, value: Any) -> Any:
    """An LLVM integer as an i64 (sign-extended)."""
    i64 = cgutils.ir.IntType(64)  # numba's llvmlite, through numba
    return value if value.type == i64 else builder.sext(value, i64)


def _bit_count_typing(typingctx: Any, x: Any) -> Any:
    """How many bits of an int64 are set (LLVM's ctpop: the popcnt instruction)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(_widened(builder, args[0]))

    return types.int64(x), codegen


bit_count: Any = intrinsic(_bit_count_typing)


def _lowest_bit_typing(typingctx: Any, x: Any) -> Any:
    """The index of the lowest set bit of a nonzero int (LLVM's cttz: tzcnt)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(_widened(builder, args[0]), cgutils.true_bit)

    return types.int64(x), codegen


lowest_bit: Any = intrinsic(_lowest_bit_typing)


# --------------------------------------------------------------------------- randomness


@njit(cache=True, inline="always")
def _next_random(r: Game) -> np.uint64:
    """splitmix64: the game's next 64 random bits."""
    z = r.rng + _GOLDEN
    r.rng = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def below(r: Game, k: int) -> np.int64:
    """A random int in [0, k) for k < 2**32 (multiply-shift; bias below 2**-25)."""
    # np.int64, not int(): Numba compiles int() of a uint64 as a call it does not inline.
    return np.int64(((_next_random(r) >> _S32) * np.uint64(k)) >> _S32)


@njit(cache=True)
def _shuffle_pile(r: Game, length: int) -> None:
    """Fisher–Yates on the first ``length`` cards of the draw pile."""
    pile = r.pile
    for i in range(length - 1, 0, -1):
        j = below(r, i + 1)
        c = pile[i]
        pile[i] = pile[j]
        pile[j] = c


# --------------------------------------------------------------------------- legality


@njit(cache=True, inline="always")
def playable_at(p: Params, t: int, owed: int, ono99_played: int, c: int) -> bool:
    """T1 with K2, K6, P4 and X3: may card ``c`` be played at total ``t``, with ``owed`` cards
    owed and an ONO 99 played this turn or not (not as a bust)? The rollouts' planner asks it
    of positions it only imagines (``rollout_policy``)."""
    if c <= 10:
        return t + c <= p.max_total
    if c == MINUS_TEN:
        after = t - 10
        if after < 0 and p.negative_totals == 0:
            after = 0
        return after <= p.max_total
    if c == ONO99:
        return p.ono99_on_tens != 0 and ono99_played == 0 and t % 10 == 0 and t <= p.max_total
    if c == PLAY2:
        return t <= p.max_total and (owed == 1 or p.play2_deflects_play2 != 0)
    return t <= p.max_total  # Reverse, Hold


@njit(cache=True, inline="always")
def _playable(r: Game, p: Params, c: int) -> bool:
    """May card ``c`` be played now (not as a bust)?"""
    return playable_at(p, r.total, r.owed, r.ono99_played, c)


@njit(cache=True, inline="always")
def legal_bits(r: Game, p: Params) -> int:
    """The legal actions of the seat to play, as a bitmask of ALL_ACTIONS indices (N4 order
    is bit order), computed from the state; 0 once the match is over. ``_settle`` keeps it in
    ``r.legal`` after every transition."""
    if r.over != 0:
        return 0
    h = r.hands[r.to_play]
    draw = DRAW_BIT if r.owes == r.to_play else 0  # X2: an owed draw (rollouts only)
    if (
        p.four_ono99_discard != 0
        and h[0] == ONO99
        and h[1] == ONO99
        and h[2] == ONO99
        and h[3] == ONO99
    ):
        return DISCARD_BIT | draw  # K7: the only play for such a hand
    bits = 0
    for i in range(HAND):
        c = h[i]
        if c != EMPTY and _playable(r, p, c):
            bits |= 1 << c
    if bits != 0 or draw != 0 or p.match != POINTS:
        return bits | draw  # X2: never out while a draw is still yours
    for i in range(HAND):  # M3: nothing playable, so any non-ONO-99 card, as a bust
        c = h[i]
        if c != EMPTY and c != ONO99:
            bits |= 1 << c
    return bits


@njit(cache=True, inline="always")
def nothing_fits(r: Game, p: Params, seat: int) -> bool:
    """No card of ``seat``'s hand may be played now but as a bust (M3)."""
    h = r.hands[seat]
    for i in range(HAND):  # noqa: SIM110 - Numba compiles loops, not generators
        if h[i] != EMPTY and _playable(r, p, h[i]):
            return False
    return True


@njit(cache=True, inline="always")
def random_action(r: Game) -> int:
    """A uniformly random legal action (-1 if none: the match is over)."""
    bits = r.legal
    if bits == 0:
        return -1
    for _ in range(below(r, bit_count(bits))):
        bits &= bits - 1  # drop the lowest legal action
    return lowest_bit(bits)


# --------------------------------------------------------------------------- cards


@njit(cache=True)
def _reshuffle(r: Game, sc: Scripts, g: int) -> bool:
    """T3: the discard pile becomes the draw pile, in the scripted order or shuffled. False
    (and ``error`` set) if the scripted order is not a permutation of the discard pile."""
    k = r.reshuffles
    size = r.discard_size
    pile = r.pile
    if k < r.n_resh:
        row = r.n_decks + k  # a game's reshuffle orders follow its deck orders
        script = _script_rows(sc, g)
        if script[row, 0] != size:
            r.error = ERROR_BAD_RESHUFFLE
            r.error_at = k
            return False
        seen = np.zeros(NUM_KINDS, dtype=np.int16)
        for i in range(size):
            c = script[row, 1 + i]
            seen[c] += 1
            pile[i] = c
        for c in range(NUM_KINDS):
            if seen[c] != r.discard[c]:
                r.error = ERROR_BAD_RESHUFFLE
                r.error_at = k
                return False
    else:
        i = 0
        for c in range(NUM_KINDS):
            for _ in range(r.discard[c]):
                pile[i] = c
                i += 1
        _shuffle_pile(r, size)
    r.pile_len = size
    r.pile_pos = 0
    r.discard[:] = 0
    r.discard_size = 0
    r.reshuffles = k + 1
    return True


@njit(cache=True, inline="always")
def _draw(r: Game, sc: Scripts, g: int, seat: int, k: int) -> None:
    """Draw ``k`` cards into free slots of ``seat``'s hand, reshuffling when needed (T2, T3)."""
    h = r.hands[seat]
    slot = 0
    for _ in range(k):
        if r.pile_pos >= r.pile_len:
            if r.discard_size == 0:
                return  # every card is in a hand: the hand stays short
            if not _reshuffle(r, sc, g):
                return
        while slot < HAND and h[slot] != EMPTY:
            slot += 1
        if slot == HAND:
            return  # a full hand (only an unchecked illegal action gets here)
        h[slot] = r.pile[r.pile_pos]
        r.pile_pos += 1


@njit(cache=True, inline="always")
def _draw_after_play(r: Game, p: Params, sc: Scripts, g: int, seat: int) -> None:
    """T2, or under the draw penalty (X2) a draw owed, to be taken as an action."""
    if p.draw_penalty != 0:
        r.owes = seat
    else:
        _draw(r, sc, g, seat, 1)


@njit(cache=True)
def take_draw(r: Game, p: Params, sc: Scripts, g: int, seat: int) -> None:
    """X2: ``seat`` takes the draw it owes (any seat, in turn or not)."""
    r.owes = -1
    _draw(r, sc, g, seat, 1)
    if seat == r.to_play:
        _settle(r, p, sc, g)


# --------------------------------------------------------------------------- turns


@njit(cache=True, inline="always")
def _next_seat(r: Game, p: Params, seat: int) -> int:
    """T4: the next seat in the current direction whose player is in."""
    n = p.players
    d = r.direction
    s = seat
    while True:
        s += d
        if s < 0:
            s += n
        elif s >= n:
            s -= n
        if r.status[s] == IN:
            return s


@njit(cache=True, inline="always")
def _pass_turn(r: Game, p: Params, seat: int, owed: int) -> None:
    """The turn passes from ``seat`` to the next seat in, who owes ``owed`` cards."""
    r.to_play = _next_seat(r, p, seat)
    r.owed = owed
    r.ono99_played = 0


@njit(cache=True, inline="always")
def _minus_ten(r: Game, p: Params) -> None:
    t = r.total - 10
    if t < 0 and p.negative_totals == 0:
        t = 0  # K2 (2022): never below 0
    r.total = t


@njit(cache=True, inline="always")
def _play(r: Game, p: Params, sc: Scripts, g: int, seat: int, c: int) -> None:
    h = r.hands[seat]
    bust = p.match == POINTS and nothing_fits(r, p, seat)  # M3: a play when nothing fits
    for i in range(HAND):
        if h[i] == c:
            h[i] = EMPTY
            break
    r.discard[c] += 1
    r.discard_size += 1
    r.owes = -1  # X2: a card played makes an owed draw lost
    if bust:
        _bust(r, p, sc, g, seat, c)
        return
    first_of_two = r.owed == 2
    # P2: Reverse and Hold always deflect, Play 2 only when it may answer a Play 2.
    deflect = first_of_two and (
        c in (REVERSE, HOLD) or (c == PLAY2 and p.play2_deflects_play2 != 0)
    )
    if c <= 10:
        r.total += c
    elif c == MINUS_TEN:
        _minus_ten(r, p)
    elif c == REVERSE:
        r.direction = -r.direction
    elif c == ONO99:
        r.ono99_played = 1
    _draw_after_play(r, p, sc, g, seat)
    if first_of_two and not deflect:
        r.owed = 1  # P1: the same player plays their second card
    else:
        # P2/P5: a Play 2, or a deflected obligation, puts two cards on the next player.
        _pass_turn(r, p, seat, 2 if (c == PLAY2 or deflect) else 1)


@njit(cache=True)
def _bust(r: Game, p: Params, sc: Scripts, g: int, seat: int, c: int) -> None:
    """M3: the card is played for nothing (but ``bust_total``) and the seat is out."""
    if p.bust_total == 2:  # reset
        r.total = 0
    elif p.bust_total == 1:  # keep
        if c <= 10:
            r.total += c
        elif c == MINUS_TEN:
            _minus_ten(r, p)
    _draw_after_play(r, p, sc, g, seat)
    _out_of_round(r, p, sc, g, seat)


@njit(cache=True, inline="always")
def _discard_four(r: Game, p: Params, sc: Scripts, g: int, seat: int) -> None:
    """K7: four ONO 99s go to the discard pile and four new cards are drawn at once."""
    r.hands[seat, :] = EMPTY
    r.discard[ONO99] += 4
    r.discard_size += 4
    r.owes = -1  # X2: an owed draw is lost
    _draw(r, sc, g, seat, 4)
    if r.owed == 2:
        r.owed = 1  # the first of two owed cards; it does not deflect
    else:
        _pass_turn(r, p, seat, 1)


# --------------------------------------------------------------------------- outs and rounds


@njit(cache=True, inline="always")
def _count_in(r: Game, p: Params) -> int:
    k = 0
    for s in range(p.players):
        if r.status[s] == IN:
            k += 1
    return k


@njit(cache=True)
def _finish(r: Game, p: Params) -> None:
    """The match is over; ``winners`` has been filled in."""
    r.over = 1
    r.to_play = -1
    r.owes = -1
    r.owed = 0
    r.n_oor = 0
    r.ono99_played = 0
    r.result[:] = r.winners
    r.finished += 1


@njit(cache=True)
def _finish_with_remaining(r: Game, p: Params) -> None:
    for s in range(p.players):
        r.winners[s] = 1 if r.status[s] != OUT else 0
    _finish(r, p)


@njit(cache=True)
def _leave(r: Game, seat: int) -> None:
    r.status[seat] = OUT
    r.out[r.n_out] = seat
    r.n_out += 1


@njit(cache=True, inline="always")
def _eliminate(r: Game, p: Params, seat: int) -> None:
    """E1: the hand is laid down (it stays in ``hands``), the player is out of the game."""
    _leave(r, seat)
    if r.owes == seat:
        r.owes = -1
    if _count_in(r, p) == 1:
        _finish_with_remaining(r, p)
    else:
        _pass_turn(r, p, seat, 1)  # P6: an owed Play 2 lapses


@njit(cache=True)
def _out_of_round(r: Game, p: Params, sc: Scripts, g: int, seat: int) -> None:
    """M3: out of the round (after a bust, or with nothing to bust with)."""
    r.status[seat] = OUT_OF_ROUND
    r.oor[r.n_oor] = seat
    r.n_oor += 1
    if _count_in(r, p) == 1:
        _score_round(r, p, sc, g)
    else:
        _pass_turn(r, p, seat, 1)  # P6


@njit(cache=True)
def _lose_round(r: Game, p: Params, sc: Scripts, g: int, seat: int) -> None:
    """M2: the round ends at this player, who loses a token or, holding none, the game."""
    if r.tokens[seat] > 0:
        r.tokens[seat] -= 1
    else:
        _leave(r, seat)
    _next_round_or_finish(r, p, sc, g)


@njit(cache=True)
def _finish_lowest(r: Game, p: Params, among: np.ndarray) -> None:
    """The lowest score among the seats flagged in ``among`` wins (ties share the win)."""
    best = -1
    for s in range(p.players):
        if among[s] and (best < 0 or r.scores[s] < best):
            best = r.scores[s]
    for s in range(p.players):
        r.winners[s] = 1 if among[s] and r.scores[s] == best else 0
    _finish(r, p)


@njit(cache=True)
def _score_round(r: Game, p: Params, sc: Scripts, g: int) -> None:
    """M3: everyone still in the game scores what is left in hand; the match may end."""
    n = p.players
    in_game = np.zeros(n, dtype=np.bool_)
    reached = np.zeros(n, dtype=np.bool_)
    n_in_game = 0
    n_reached = 0
    for s in range(n):
        st = r.status[s]
        if st == OUT:
            continue
        points = 0
        for i in range(HAND):
            c = r.hands[s, i]
            points += _POINTS[c] if c != EMPTY else 15  # 15 per card short of four
        if st == OUT_OF_ROUND:
            points += 25
        r.scores[s] += points
        in_game[s] = True
        n_in_game += 1
        if r.scores[s] >= p.target:
            reached[s] = True
            n_reached += 1
    if n_reached > 0:
        if p.variant == 1:  # lowest_score: the lowest among those below the target, if any
            _finish_lowest(r, p, in_game if n_reached == n_in_game else in_game & ~reached)
            return
        for s in range(n):  # last_standing: those at or over the target leave
            if reached[s]:
                _leave(r, s)
        if n_reached == n_in_game:
            _finish_lowest(r, p, reached)
            return
    _next_round_or_finish(r, p, sc, g)


@njit(cache=True)
def _next_round_or_finish(r: Game, p: Params, sc: Scripts, g: int) -> None:
    n = p.players
    remaining = 0
    for s in range(n):
        if r.status[s] != OUT:
            remaining += 1
    if remaining == 1:
        _finish_with_remaining(r, p)
        return
    if p.horizon == ROUND:  # a rollout's horizon: the round is over, no new deal, nobody to play
        r.to_play = -1
        return
    d = r.dealer + 1  # M2: the deal passes clockwise to a seat still in the game
    if d == n:
        d = 0
    while r.status[d] == OUT:
        d += 1
        if d == n:
            d = 0
    r.dealer = d
    _deal(r, p, sc, g)


@njit(cache=True)
def _deal(r: Game, p: Params, sc: Scripts, g: int) -> None:
    """S1: the round's deck (scripted, or the canonical deck shuffled), four cards each, one at
    a time from the dealer's left, to the seats still in the game."""
    n = p.players
    size = p.deck_size
    r.round += 1
    pile = r.pile
    if r.round <= r.n_decks:
        pile[:size] = _script_rows(sc, g)[r.round - 1, 1 : 1 + size]
    else:
        i = 0
        for c in range(NUM_KINDS):  # the canonical deck, then shuffled
            for _ in range(_DECK_COUNTS[p.edition, c]):
                pile[i] = c
                i += 1
        _shuffle_pile(r, size)
    for s in range(n):
        if r.status[s] != OUT:
            r.status[s] = IN
    r.hands[:, :] = EMPTY
    pos = 0
    first = -1
    for i in range(HAND):
        s = r.dealer
        for _ in range(n):
            s += 1
            if s == n:
                s = 0
            if r.status[s] == IN:
                if first < 0:
                    first = s
                r.hands[s, i] = pile[pos]
                pos += 1
    r.pile_pos = pos
    r.pile_len = size
    r.discard[:] = 0
    r.discard_size = 0
    r.total = 0
    r.direction = 1
    r.to_play = first
    r.owed = 1
    r.ono99_played = 0
    r.n_oor = 0
    r.owes = -1


@njit(cache=True, inline="always")
def _settle(r: Game, p: Params, sc: Scripts, g: int) -> None:
    """Resolve automatic consequences until the seat to play has a legal action or the match
    is over (E1, M2, M3)."""
    while r.over == 0 and r.to_play >= 0:  # to_play -1: stopped at a round's end (horizon)
        bits = legal_bits(r, p)
        if bits != 0:
            r.legal = bits
            return
        seat = r.to_play
        if p.match == SINGLE:
            _eliminate(r, p, seat)
        elif p.match == TOKENS:
            _lose_round(r, p, sc, g, seat)
        else:
            _out_of_round(r, p, sc, g, seat)  # nothing to bust with (M3)
    r.legal = 0


@njit(cache=True, inline="always")
def apply_action(r: Game, p: Params, sc: Scripts, g: int, action: int) -> None:
    """The seat to play takes ``action`` (a legal ALL_ACTIONS index); consequences settled."""
    seat = r.to_play
    r.moves += 1
    if action == DISCARD_ACTION:
        _discard_four(r, p, sc, g, seat)
    else:
        _play(r, p, sc, g, seat, action)
    _settle(r, p, sc, g)


@njit(cache=True)
def _new_match(r: Game, p: Params, sc: Scripts, g: int) -> None:
    """A new match: the loaded script's dealer and shuffles, if the slot still has them."""
    dealer = r.script_dealer
    if dealer < 0:
        dealer = below(r, p.players)
    r.dealer = dealer
    r.round = 0
    r.n_out = 0
    r.over = 0
    r.reshuffles = 0
    r.moves = 0
    r.error = 0
    r.status[:] = OUT
    r.status[: p.players] = IN
    r.tokens[:] = p.tokens if p.match == TOKENS else 0
    r.scores[:] = 0
    r.winners[:] = 0
    _deal(r, p, sc, g)
    _settle(r, p, sc, g)


@njit(cache=True)
def _restart(r: Game, p: Params, sc: Scripts, g: int) -> None:
    """Auto-reset: drop the slot's script and start new random matches until one is live (a
    match can be decided at its first deal, e.g. a 1980 single game of two players whose
    first player holds four ONO 99s)."""
    r.script_dealer = -1
    r.n_decks = 0
    r.n_resh = 0
    _new_match(r, p, sc, g)
    while r.over != 0:
        _new_match(r, p, sc, g)


# --------------------------------------------------------------------------- entry points


@njit(cache=True)
def reset_games(
    games: np.ndarray, params: np.ndarray, scripts: np.ndarray, auto_reset: bool
) -> None:
    """A new match in every slot (a loaded script plays its deal). With ``auto_reset``, a match
    decided at its first deal is replaced at once, as after a step."""
    p = params[0]
    sc = scripts_of(scripts)
    for g in range(games.shape[0]):
        r = games[g]
        _new_match(r, p, sc, g)
        if auto_reset and r.over != 0:
            _restart(r, p, sc, g)


@njit(cache=True)
def legal_masks(games: np.ndarray, mask: np.ndarray) -> None:
    """``mask[g, i]``: ALL_ACTIONS[i] is legal for game g's seat to play."""
    for g in range(games.shape[0]):
        bits = games[g].legal
        for i in range(NUM_ACTIONS):
            mask[g, i] = ((bits >> i) & 1) != 0


@njit(cache=True)
def check_actions(games: np.ndarray, actions: np.ndarray) -> int:
    """The first game whose action is neither -1 (none) nor legal, or -1 if all are fine."""
    for g in range(games.shape[0]):
        act = actions[g]
        if act == -1:
            continue
        if act < 0 or act >= NUM_ACTIONS or (games[g].legal >> act) & 1 == 0:
            return g
    return -1


@njit(cache=True)
def step_games(
    games: np.ndarray,
    params: np.ndarray,
    scripts: np.ndarray,
    actions: np.ndarray,
    auto_reset: bool,
    done: np.ndarray,
) -> int:
    """Apply ``actions[g]`` to every game (-1: leave it alone). ``done[g]``: game g's match
    ended with this action (and, with ``auto_reset``, a new one has started). Returns the first
    game whose scripted reshuffle was bad, or -1."""
    p = params[0]
    sc = scripts_of(scripts)
    for g in range(games.shape[0]):
        act = actions[g]
        if act < 0:
            continue
        r = games[g]
        apply_action(r, p, sc, g, act)
        if r.error != 0:
            return g
        if r.over != 0:
            done[g] = True
            if auto_reset:
                _restart(r, p, sc, g)
    return -1


@njit(cache=True)
def must_bust(games: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """``out[g]``: every card game g's seat to play may play is a bust (M3), as
    ``View.must_bust`` says it."""
    p = params[0]
    for g in range(games.shape[0]):
        r = games[g]
        out[g] = (
            p.match == POINTS
            and r.over == 0
            and (r.legal & DISCARD_BIT) == 0
            and nothing_fits(r, p, r.to_play)
        )


@njit(cache=True)
def random_actions(games: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random legal action per game (-1 where the match is over), drawn from
    each game's own generator."""
    for g in range(games.shape[0]):
        out[g] = random_action(games[g])


@njit(cache=True)
def random_playout(
    games: np.ndarray, params: np.ndarray, scripts: np.ndarray, steps: int, stats: np.ndarray
) -> int:
    """``steps`` uniformly random legal actions in every game, restarting a match wherever one
    ends, as ``step_games`` with ``auto_reset`` does (the generator draws are the same, so it
    visits the same states as ``step_games`` fed with ``random_actions``). Adds to ``stats``:
    [0] actions, [1] matches finished, [2] the actions of those matches. Returns the first game
    whose scripted reshuffle was bad, or -1."""
    p = params[0]
    sc = scripts_of(scripts)
    actions = 0
    matches = 0
    match_actions = 0
    bad = -1
    for g in range(games.shape[0]):
        r = games[g]
        if r.over != 0:
            _restart(r, p, sc, g)
        for _ in range(steps):
            apply_action(r, p, sc, g, random_action(r))
            actions += 1
            if r.error != 0:
                bad = g
                break
            if r.over != 0:
                matches += 1
                match_actions += r.moves
                _restart(r, p, sc, g)
        if bad >= 0:
            break
    stats[0] += actions
    stats[1] += matches
    stats[2] += match_actions
    return bad
