"""The engine played as the bots' ``Playout`` plays a rollout: the reference that
``Playout.run`` (tests/fast/test_fast_differential.py) and the expert's cut-off
(tests/bots/test_cutoff.py) are checked against."""

from __future__ import annotations

from collections.abc import Collection

from ono99.bots.base import Bot
from ono99.bots.greedy import GreedyBot
from ono99.bots.heuristic import Planner, neighbour_sizes
from ono99.engine import DISCARD, DRAW, PLAY, State, apply_unchecked, view

GREEDY = GreedyBot()


def engine_rollout(
    state: State,
    start: int,
    me: int,
    planner: Planner | None,
    *,
    stop: int | None = None,
    turns: int = 1,
    network: Bot | None = None,
    network_seats: Collection[int] = (),
    others: Planner | None = None,
) -> tuple[State, bool]:
    """The engine played on as a rollout plays: owed draws at once, ``GreedyBot`` on every
    seat's view, the planner at seat ``me`` where a card fits (as ``HeuristicBot`` asks it); to
    the end of the game, or of round ``start`` in tokens and points matches. With a ``stop``
    seat, it stops short when that seat is about to choose for the ``turns``-th time, as
    ``Playout.run(stop, turns)`` does. A ``network`` bot plays ``network_seats`` instead, as
    the expert's network rollouts play them. With ``others``, every other seat plans with it
    as seat ``me`` does with ``planner`` (the compiled rollouts' ``PLANNER`` model). The
    state, and whether the horizon was reached."""
    single = state.rules.match == "single"
    while not state.over and (single or state.round == start):
        if state.owes_draw:
            state = apply_unchecked(state, state.owes_draw[0], DRAW)
            continue
        seat = state.to_play
        assert seat is not None
        if seat == stop:
            turns -= 1
            if turns <= 0:
                return state, False
        v = view(state, seat)
        if seat in network_seats:
            assert network is not None
            state = apply_unchecked(state, seat, network.choose(v))
            continue
        action = GREEDY.choose(v)
        plan = planner if seat == me else others
        if plan is not None and action is not DISCARD and not v.must_bust:
            assert v.hand is not None
            in_ = sum(1 for st in v.status if st == "in")
            sizes = neighbour_sizes(v)
            action = PLAY[
                plan.choose(v.hand, v.total, v.owed, v.ono99_played, sizes, players_in=in_)
            ]
        state = apply_unchecked(state, seat, action)
    return state, True
