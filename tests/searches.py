"""What the tests of the expert's search options share: positions to search from, a budget
small enough for tests, and the no-peeking check (V1) every option must pass."""

from __future__ import annotations

import random
from typing import Any

from hidden import differs, hide
from invariants import random_states
from ono99.bots import ExpertBot
from ono99.engine import Rules, State, legal_actions, make_rules, view

SETTINGS = [  # one of each match format, 2 to 4 players, both editions
    make_rules("2022", players=2),
    make_rules("2022", players=4),
    make_rules("1980", players=4, match="tokens"),
    make_rules("2022", players=3, match="points", target=60),
]
TINY = {"worlds": 3, "max_rollouts": 9}  # a search budget small enough for tests


def decisions(rules: Rules, seed: int, every: int = 3) -> list[State]:
    """Some positions of a random game where the seat to play has a choice."""
    found = []
    for t, state in enumerate(random_states(rules, seed)):
        if state.over or state.owes_draw or t % every:
            continue
        if len(legal_actions(state)) > 1:
            found.append(state)
    return found


def assert_searches_from_the_view_alone(rules: Rules, seed: int, **options: Any) -> None:
    """V1 for an expert with ``options``: equal views, seeded alike, give the same move and the
    same hints, whatever the hidden cards; every move is legal; estimates are chances."""
    rng = random.Random(seed)
    checked = hidden = 0
    for state in decisions(rules, 40 + seed, every=5)[:8]:
        seat = state.to_play
        assert seat is not None
        other = hide(state, seat, rng)
        hidden += differs(state, other, seat)
        mine, theirs = view(state, seat), view(other, seat)
        assert mine == theirs
        move = ExpertBot(1, **options, **TINY).choose(mine)
        assert move in mine.legal
        assert move is ExpertBot(1, **options, **TINY).choose(theirs)
        hints = ExpertBot(2, **options, **TINY).evaluate(mine)
        assert hints == ExpertBot(2, **options, **TINY).evaluate(theirs)
        assert all(0.0 <= p <= 1.0 for _, p in hints)
        checked += 1
    assert checked, "no position with a choice"
    assert hidden, "no state had hidden cards to change"
