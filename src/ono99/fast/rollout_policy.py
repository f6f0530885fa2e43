"""The rollouts' players, compiled: greedy's ranks at every seat, the heuristic's planner at one.

These are the choices ``playout.Playout.choice`` and ``plan`` make, as Numba functions over a
game record of ``layout.py``, for ``rollouts``. Both are given as data by the bots, which own
them (this package imports nothing from ``bots``):

- greedy (``bots.greedy.RANKED``): ``ranks[bust, owed_two, high, action]`` as an int array and
  its ``margin``; the legal action of lowest rank is played.
- the planner (``bots.heuristic.Planner``, one decision's knowledge): a float array laid out
  as ``PLANNER_FIELDS``, its chances from the unseen cards and the heuristic's constants.
  ``planned_card`` is ``Planner.choose`` step for step, in the same floating-point operations in the
  same order (a sum over a sorted hand, ``pow`` for the powers), so the two pick the same card.

The other seats play greedy, or each its own model (``run_rollouts``' ``models``, drawn by
``bots.opponents``): ``GREEDY``, ``PLANNER`` (the heuristic's planner, its own constants),
``NOISY`` (greedy, but a random legal action ``noise`` / ``NOISE_SCALE`` of the time) or
``NETWORK`` (a network, which is not compiled: the rollout waits for its choice, which the
caller makes for every waiting rollout at once; ``rollouts.CompiledRollouts.run``).

The planner keeps a hand as counts per card kind in a scratch array (``cnt``) that the caller
allocates once, so no choice allocates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .kernels import (
    DISCARD_BIT,
    HOLD,
    IN,
    MINUS_TEN,
    NUM_KINDS,
    ONO99,
    PLAY2,
    REVERSE,
    bit_count,
    lowest_bit,
    nothing_fits,
    playable_at,
)
from .layout import DISCARD_ACTION, EMPTY, HAND, POINTS

# The models of the other seats (``bots.opponents.MODELS``, in this order).
GREEDY, PLANNER, NOISY, NETWORK = 0, 1, 2, 3
NOISE_SCALE = 1 << 20  # a noisy seat plays at random when ``below(NOISE_SCALE)`` < its noise

# The planner's array: its chances, then the heuristic's constants (``heuristic.py``).
PLANNER_FIELDS = (
    "p_always",
    "p_deflect",
    "p_minus",
    *(f"p_number_{n}" for n in range(11)),
    "KEEP_ZERO",
    "KEEP_REVERSE",
    "KEEP_PLAY2",
    "KEEP_HOLD",
    "KEEP_MINUS_TEN",
    "KEEP_REPEAT",
    "KEEP_FITS",
    "KEEP_SMALL",
    "PRESSURE",
    "PLAY2_BAIT",
    "SECOND_STEP",
    "BUST",
    "HOARD",
    "COME_BACK",
)
_P_ALWAYS, _P_DEFLECT, _P_MINUS, _P_NUMBER = 0, 1, 2, 3
_K = 3 + 11
(
    _KEEP_ZERO,
    _KEEP_REVERSE,
    _KEEP_PLAY2,
    _KEEP_HOLD,
    _KEEP_MINUS_TEN,
    _KEEP_REPEAT,
    _KEEP_FITS,
    _KEEP_SMALL,
    _PRESSURE,
    _PLAY2_BAIT,
    _SECOND_STEP,
    _BUST,
    _HOARD,
    _COME_BACK,
) = range(_K, _K + 14)

Game = Any
Params = Any


# --------------------------------------------------------------------------- greedy


@njit(cache=True, inline="always")
def greedy_action(r: Game, p: Params, ranks: np.ndarray, margin: int) -> int:
    """greedy's action for the seat to play (``r.legal`` nonzero): four ONO 99s are laid
    down (K7), else the legal action of lowest rank in the position's situation."""
    bits = r.legal
    if bits & DISCARD_BIT:
        return DISCARD_ACTION
    bust = 1 if p.match == POINTS and nothing_fits(r, p, r.to_play) else 0
    row = ranks[bust, 1 if r.owed == 2 else 0, 1 if r.total >= p.max_total - margin else 0]
    best = -1
    top = 1 << 30
    while bits != 0:
        c = lowest_bit(bits)
        bits &= bits - 1
        if row[c] < top:
            best = c
            top = row[c]
    return best


# --------------------------------------------------------------------------- the planner


@njit(cache=True, inline="always")
def _after(p: Params, total: int, c: int) -> int:
    if c <= 10:
        return total + c
    if c == MINUS_TEN:
        t = total - 10
        return 0 if t < 0 and p.negative_totals == 0 else t
    return total


@njit(cache=True, inline="always")
def _deflects(p: Params, c: int) -> bool:
    return c in (REVERSE, HOLD) or (c == PLAY2 and p.play2_deflects_play2 != 0)


@njit(cache=True)
def _keep(p: Params, pl: np.ndarray, cnt: np.ndarray, total: int) -> float:
    """``Planner.keep`` of the hand ``cnt`` (counts per kind) at ``total``."""
    room = p.max_total - total
    value = 0.0
    for c in range(NUM_KINDS):  # card order, as the planner sums a sorted hand
        k = cnt[c]
        if k == 0 or c == ONO99:
            continue
        if c <= 10:
            v = pl[_KEEP_ZERO] if c == 0 else pl[_KEEP_SMALL] * (10 - c) / 10
            if 0 < c <= room:
                v += pl[_KEEP_FITS]
        elif c == MINUS_TEN:
            v = pl[_KEEP_MINUS_TEN]
        elif c == REVERSE:
            v = pl[_KEEP_REVERSE]
        elif c == PLAY2:
            v = pl[_KEEP_PLAY2]
        else:
            v = pl[_KEEP_HOLD]
        for j in range(k):
            value += v * pl[_KEEP_REPEAT] ** np.float64(j)
    return value


@njit(cache=True)
def _fail_one(p: Params, pl: np.ndarray, total: int, size: int) -> float:
    room = p.max_total - total
    prob = pl[_P_ALWAYS] * pl[_HOARD] if room >= 0 else 0.0
    if room >= 0:
        s = 0.0
        for n in range(min(10, room) + 1):
            s += pl[_P_NUMBER + n]
        prob += s
    else:
        prob += 0.0
    return (1.0 - min(1.0, prob)) ** np.float64(size)


@njit(cache=True)
def _fail_two(p: Params, pl: np.ndarray, total: int, size: int) -> float:
    if size <= 0:
        return 1.0
    stuck = _fail_one(p, pl, total, size)
    hoard = pl[_HOARD]
    plain = (1.0 - pl[_P_DEFLECT] * hoard - pl[_P_MINUS] * hoard) ** np.float64(size)
    later = _fail_one(p, pl, min(p.max_total, total + int(pl[_SECOND_STEP])), size - 1)
    return stuck + (1.0 - stuck) * plain * later


@njit(cache=True, inline="always")
def _target(c: int, ahead: int, behind: int, players_in: int) -> int:
    return behind if c == REVERSE and players_in > 2 else ahead


@njit(cache=True)
def _attack(
    p: Params, pl: np.ndarray, c: int, total: int, ahead: int, behind: int, n_in: int
) -> float:
    size = _target(c, ahead, behind, n_in)
    value = pl[_PRESSURE] * _fail_two(p, pl, total, size) + pl[_PLAY2_BAIT]
    if pl[_COME_BACK] != 0.0:  # its target's chance of a deflector, to send them on again
        hold = max(0.0, 1.0 - pl[_P_DEFLECT] * pl[_HOARD])
        value -= pl[_COME_BACK] * (1.0 - hold ** np.float64(size))
    return value


@njit(cache=True)
def _ending(
    p: Params, pl: np.ndarray, c: int, total: int, ahead: int, behind: int, n_in: int
) -> float:
    if c == PLAY2:
        return _attack(p, pl, c, total, ahead, behind, n_in)
    return pl[_PRESSURE] * _fail_one(p, pl, total, _target(c, ahead, behind, n_in))


@njit(cache=True)
def _second(
    p: Params, pl: np.ndarray, cnt: np.ndarray, total: int, ahead: int, behind: int, n_in: int
) -> float:
    bust = pl[_BUST]
    best = bust
    for c in range(NUM_KINDS):
        if cnt[c] == 0 or c == ONO99 or not playable_at(p, total, 1, 0, c):
            continue
        cnt[c] -= 1
        t = _after(p, total, c)
        best = max(best, _keep(p, pl, cnt, t) + _ending(p, pl, c, t, ahead, behind, n_in))
        cnt[c] += 1
    if best == bust:
        return bust * _fail_one(p, pl, total, 1)
    return best


@njit(cache=True)
def planned_card(r: Game, p: Params, pl: np.ndarray, cnt: np.ndarray) -> int:
    """``Planner.choose`` for the seat to play, which has a card it may play (not a bust,
    not four ONO 99s): the card."""
    seat = r.to_play
    legal = r.legal
    if bit_count(legal) == 1:
        return lowest_bit(legal)
    if (legal >> ONO99) & 1:
        return ONO99  # X3: a dead card turned into a free play
    # ``playout.neighbours``: the hand sizes of the next seat in and of the previous one.
    n = p.players
    d = r.direction
    ahead = -1
    behind = -1
    n_in = 1
    for i in range(1, n):
        s = (seat + d * i) % n
        if r.status[s] == IN:
            n_in += 1
            if ahead < 0:
                ahead = s
        s = (seat - d * i) % n
        if behind < 0 and r.status[s] == IN:
            behind = s
    size_ahead = HAND
    size_behind = HAND
    if ahead >= 0:
        size_ahead = 0
        size_behind = 0
        for i in range(HAND):
            if r.hands[ahead, i] != EMPTY:
                size_ahead += 1
            if r.hands[behind, i] != EMPTY:
                size_behind += 1
    cnt[:] = 0
    for i in range(HAND):
        c = r.hands[seat, i]
        if c != EMPTY:
            cnt[c] += 1
    total = r.total
    two = r.owed == 2
    best = lowest_bit(legal)
    best_value = -1e9
    bits = legal
    while bits != 0:
        c = lowest_bit(bits)
        bits &= bits - 1
        cnt[c] -= 1
        t = _after(p, total, c)
        if two and _deflects(p, c):
            value = _keep(p, pl, cnt, t) + _attack(p, pl, c, t, size_ahead, size_behind, n_in)
        elif two:
            value = _second(p, pl, cnt, t, size_ahead, size_behind, n_in)
        else:
            value = _keep(p, pl, cnt, t) + _ending(p, pl, c, t, size_ahead, size_behind, n_in)
        cnt[c] += 1
        if value > best_value:
            best = c
            best_value = value
    return best
