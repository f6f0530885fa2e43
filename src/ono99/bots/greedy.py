"""``greedy``: a sensible rule-based player, the standard opponent.

It plays its highest number that keeps the total legal, holds −10, Reverse, Hold and
Play 2 back for emergencies, answers a Play 2 with a deflector, and lays its own Play 2
when the total is high so that the next player has to find two safe cards.

The policy is data, written once: ``GREEDY`` lists its rules of thumb in order, each the
situation in which it applies and the actions it prefers there, best first; the first rule
that names a legal action decides. Compiled at import into ``RANKS`` (every action's rank in
each situation), it is what every version of greedy reads: ``GreedyBot`` here, the other seats
of the searching bots' rollouts (``ono99.fast.playout``, given ``RANKED``) and the vector
environment's opponents (``ono99.env.vector``, a NumPy copy). ``tests/bots/test_greedy.py`` checks
that they choose alike.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine import ALL_ACTIONS, DISCARD, DRAW, PLAY, Action, View
from ..engine.cards import CARD_POINTS, HOLD, MINUS_TEN, NUM_CARD_KINDS, ONO99, PLAY2, REVERSE

# The situations a rule of thumb may depend on; a position is in any number of them.
ALWAYS = "always"
BUST = "bust"  # every card the seat may play is a bust (M3, ``View.must_bust``)
OWED_TWO = "owed two"  # the first of two cards owed after a Play 2 (P1)
HIGH = "high"  # a total of at least max_total − HIGH_MARGIN
HIGH_MARGIN = 10
SITUATIONS = (BUST, OWED_TWO, HIGH)  # the axes of RANKS, in this order

# What a bust sheds: the costliest card under points scoring (M3), the higher id on a tie.
_COSTLIEST = sorted(
    (c for c in range(NUM_CARD_KINDS) if c != ONO99), key=lambda c: (CARD_POINTS[c], c)
)[::-1]

GREEDY: tuple[tuple[str, tuple[Action, ...]], ...] = (
    (ALWAYS, (DRAW,)),  # never let an owed draw be lost (X2)
    (ALWAYS, (DISCARD,)),  # four ONO 99s are laid down (K7)
    (BUST, tuple(PLAY[c] for c in _COSTLIEST)),  # nothing fits: shed the costliest card
    (ALWAYS, (PLAY[ONO99],)),  # a dead card turned into a free play (X3)
    # Answer a Play 2 with a deflector. (A Play 2 may be the first of two owed cards only where
    # it deflects, P4, and Reverse and Hold always do.)
    (OWED_TWO, (PLAY[REVERSE], PLAY[HOLD], PLAY[PLAY2])),
    (HIGH, (PLAY[PLAY2],)),  # near the limit, make the next player find two safe cards
    (ALWAYS, tuple(PLAY[n] for n in range(10, -1, -1))),  # the highest number that fits
    (ALWAYS, (PLAY[PLAY2], PLAY[HOLD], PLAY[REVERSE], PLAY[MINUS_TEN])),  # emergencies
)


def _ranks(situation: set[str]) -> tuple[int, ...]:
    """Every action's rank (0 = preferred) in a situation: the actions in the order the rules
    that apply there name them."""
    order: list[int] = []
    for when, actions in GREEDY:
        if when == ALWAYS or when in situation:
            for action in actions:
                if action.index not in order:
                    order.append(action.index)
    assert len(order) == len(ALL_ACTIONS), "GREEDY must rank every action in every situation"
    ranks = [0] * len(ALL_ACTIONS)
    for rank, index in enumerate(order):
        ranks[index] = rank
    return tuple(ranks)


# RANKS[bust][owed_two][high][action index]
RANKS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            _ranks({s for s, on in zip(SITUATIONS, (bust, two, high), strict=True) if on})
            for high in (False, True)
        )
        for two in (False, True)
    )
    for bust in (False, True)
)


class Ranked(NamedTuple):
    """greedy compiled, as a rollout reads it (``ono99.fast.playout.RankedPolicy``)."""

    ranks: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]
    margin: int


RANKED = Ranked(RANKS, HIGH_MARGIN)


def ranks(bust: bool, owed: int, total: int, max_total: int) -> tuple[int, ...]:
    """The ranks of every action in the situation of a position."""
    return RANKS[bust][owed == 2][total >= max_total - HIGH_MARGIN]


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic

    def choose(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        rank = ranks(view.must_bust, view.owed, view.total, view.rules.max_total)
        return min(legal, key=lambda action: rank[action.index])
