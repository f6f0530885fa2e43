"""Determinized worlds dealt in compiled code, for compiled rollouts (``rollouts.py``).

``bots.determinize.Determinizer.deal`` deals the cards a seat has not seen at random to the
hidden hands and the draw pile, the *forced* cards (those a reshuffle cannot have put in the
pile) to the hidden hands; in Python that shuffle costs more than a compiled rollout. Here the
same deal is made into game records, from the same inputs (which the bot computes from its
view: nothing else is read): the unforced cards shuffled, the forced ones shuffled in among the
first of them, hand by hand in ``hidden`` seat order, the rest the draw pile, top first. Each
record's own generator (``rng``) shuffles, and goes on to shuffle its future reshuffles.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from .kernels import below
from .layout import EMPTY, HAND, PILE

_GOLDEN = 0x9E3779B97F4A7C15


@njit(cache=True)
def _deal(
    worlds: np.ndarray, hidden: np.ndarray, sizes: np.ndarray, free: np.ndarray, forced: np.ndarray
) -> None:
    nf = free.shape[0]
    nk = forced.shape[0]
    held = 0
    for k in sizes:
        held += k
    held -= nk  # unforced cards that go to the hidden hands
    cards = np.empty(nf + nk, dtype=np.int8)
    for w in range(worlds.shape[0]):
        r = worlds[w]
        cards[:nf] = free
        for i in range(nf - 1, 0, -1):  # Fisher–Yates
            j = below(r, i + 1)
            c = cards[i]
            cards[i] = cards[j]
            cards[j] = c
        if nk > 0:  # the forced cards join the first ``held`` free ones, all in the hands
            for i in range(nf - 1, held - 1, -1):
                cards[i + nk] = cards[i]
            cards[held : held + nk] = forced
            for i in range(held + nk - 1, 0, -1):
                j = below(r, i + 1)
                c = cards[i]
                cards[i] = cards[j]
                cards[j] = c
        pos = 0
        for h in range(hidden.shape[0]):
            s = hidden[h]
            for i in range(HAND):
                if i < sizes[h]:
                    r.hands[s, i] = cards[pos]
                    pos += 1
                else:
                    r.hands[s, i] = EMPTY
        rest = nf + nk - pos
        for i in range(rest):
            r.pile[i] = cards[pos + i]
        r.pile_pos = 0
        r.pile_len = rest


def deal_worlds(
    template: np.ndarray,
    count: int,
    seed: int,
    hidden: Sequence[int],
    sizes: Sequence[int],
    free: Sequence[int],
    forced: Sequence[int],
) -> np.ndarray:
    """``count`` copies of the one-record ``template`` (``rollouts.record_of``), each with the
    hidden seats' hands (``sizes[i]`` cards for seat ``hidden[i]``) and the draw pile dealt
    at random from ``free`` and ``forced`` (see the module doc); world w's generator starts
    from ``seed`` and w."""
    if len(free) + len(forced) > PILE + HAND * len(hidden) or len(forced) > sum(sizes):
        raise ValueError("more cards to deal than places for them")
    worlds = np.repeat(template, count)
    z = np.uint64(seed % 2**64) + np.arange(1, count + 1, dtype=np.uint64) * np.uint64(_GOLDEN)
    worlds["rng"] = z  # splitmix64 mixes the state it steps from: any distinct starts will do
    _deal(
        worlds,
        np.array(hidden, dtype=np.int64),
        np.array(sizes, dtype=np.int64),
        np.array(free, dtype=np.int8),
        np.array(forced, dtype=np.int8),
    )
    return worlds
