"""The expert's search with compiled rollouts (``ExpertBot(compiled=True)``; needs the ``fast``
extra).

The same search as ``expert.search`` — worlds sampled from the seat's view, every candidate
action tried in each, valued by ``expert.match_value`` — but the rollouts are played all at
once by ``ono99.fast.rollouts`` in Numba, on the batch simulator's rules, with the same
players: greedy's ranks at every seat and the heuristic's planner at the searching seat. The
worlds are dealt in compiled code as well (``ono99.fast.worlds``, from the ``Determinizer``'s
unseen and forced cards), and their future reshuffles come from each record's own generator:
so the worlds are other draws from the same distribution than the Python search's, not the
same ones, and the candidates still share each world and its shuffles (common random numbers).

Every rule set is compiled, the draw penalty (X2) included. Nothing hidden is read: the
worlds come from the seat's view.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Protocol

import numpy as np

from ..engine import IN, OUT, Action, Rules, State, Status
from ..fast.layout import EMPTY
from ..fast.rollouts import CompiledRollouts, Outcome, outcomes, record_of
from ..fast.worlds import deal_worlds
from .determinize import Determinizer
from .greedy import RANKED
from .heuristic import Planner
from .values import SearchResult, match_value


class Sampler(Protocol):
    def sample(self, rng: random.Random) -> State: ...


CHUNK = 100  # worlds per call of the compiled rollouts, between looks at the clock


def supports(rules: Rules) -> bool:
    """Whether compiled rollouts play these rules: all of them (every edition, option and
    player count, the draw penalty included)."""
    del rules
    return True


def planner_values(planner: Planner) -> list[float]:
    """A planner as the numbers ``fast.rollout_policy`` reads (``PLANNER_FIELDS``)."""
    return [
        planner.p_always,
        planner.p_deflect,
        planner.p_minus,
        *planner.p_number,
        *(float(x) for x in planner.constants),
    ]


def compiled_search(
    sampler: Determinizer | Sampler,
    seat: int,
    actions: list[Action],
    rng: random.Random,
    rules: Rules,
    planner: Planner | None,
    *,
    worlds: int,
    time_limit: float | None = None,
    stop_z: float | None = None,
    weigh: Callable[[list[list[int]]], float] | None = None,
) -> SearchResult:
    """``expert.search`` without cut-off or network, its rollouts compiled, over ``worlds``
    worlds (``expert.worlds_for`` of the budget). A plain
    ``Determinizer``'s worlds are dealt in compiled code too (``fast.worlds``), from the
    same unseen cards; another sampler's (``infer``) are sampled in Python. With ``stop_z``,
    the search stops after any chunk of worlds (``CHUNK``) in which no candidate could be shown
    better than the first: each trails it by at least ``stop_z`` standard errors of the paired
    difference (or ties it in every world so far). With ``weigh`` (a ``Determinizer`` only),
    each world counts as much as ``weigh`` of its hands, every seat's (importance weights:
    ``inference.Inference.weight``)."""
    rollouts = CompiledRollouts(
        rules, RANKED, None if planner is None else planner_values(planner), seat
    )
    result = SearchResult(actions)
    if weigh is not None:
        if not isinstance(sampler, Determinizer):
            raise ValueError("weighted worlds are dealt by a plain Determinizer")
        result.weights = []
    n_worlds = worlds
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    firsts = [a.index for a in actions]
    k = len(actions)
    values: dict[Outcome, float] = {}
    template = None
    done = 0
    while done < n_worlds:
        m = min(CHUNK, n_worlds - done)
        done += m
        if isinstance(sampler, Determinizer):
            if template is None:  # the public fields, from one world of the view
                template = record_of(sampler.sample(rng))
            d = sampler
            dealt = deal_worlds(
                template, m, rng.getrandbits(64), d.hidden, d.sizes, d.free, d.forced
            )
            games = np.repeat(dealt, k)
        else:
            states = [sampler.sample(rng) for _ in range(m)]
            games = rollouts.games(
                record_of(states[0]),
                [s.hands for s in states],
                [s.pile[s.pile_pos :] for s in states],
                [s.setup.seed for s in states],
                k,
            )
        rollouts.run(games, firsts * m, plan=planner is not None)
        if weigh is not None:  # each world as likely as its hands fit the opponents' play
            assert result.weights is not None
            n = rules.players
            for hands in dealt["hands"][:, :n].tolist():
                result.weights.append(weigh([[c for c in h if c != EMPTY] for h in hands]))
        if rules.match == "points":  # nearly every end differs: valued all at once
            got = points_values(games, rules, seat).reshape(m, k)
        else:
            ends, index = outcomes(games, rules.players)
            worth = []
            for end in ends:
                value = values.get(end)
                if value is None:
                    value = values[end] = _value(rules, end, seat)
                worth.append(value)
            got = np.array(worth)[index].reshape(m, k)
        for i in range(k):
            result.values[i].extend(got[:, i].tolist())
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if stop_z is not None and done < n_worlds and settled(result, stop_z):
            break
    return result


def settled(result: SearchResult, z: float) -> bool:
    """Whether no candidate could be shown better than the first: every other one's paired
    mean difference from it, plus ``z`` standard errors, is at most 0."""
    if len(result.values[0]) < 2:
        return False
    for i in range(1, len(result.actions)):
        d, se = result.difference(i)
        if d + z * se > 0.0:
            return False
    return True


def points_values(games: np.ndarray, rules: Rules, seat: int) -> np.ndarray:
    """``expert.match_value`` of every ended rollout of a points match, in NumPy: a share of
    the win once the match is over, 0 out of the game, else ``points_value``'s room² shares
    (the same floating-point operations, seat by seat)."""
    n = rules.players
    out = games["status"][:, :n] == OUT.code
    room = np.maximum(1, rules.target - games["scores"][:, :n].astype(np.int64))
    weights = np.where(out, 0.0, room.astype(np.float64) ** 2)
    total = weights[:, 0].copy()
    for s in range(1, n):  # seat order, one addition at a time, as sum() over the seats
        total += weights[:, s]
    value = np.where(out[:, seat], 0.0, weights[:, seat] / np.where(total > 0, total, 1.0))
    winners = games["winners"][:, :n] * games["over"][:, None]
    count = winners.sum(axis=1)
    share = np.where(winners[:, seat] != 0, 1.0 / np.maximum(count, 1), 0.0)
    return np.where(count > 0, share, value)


def _value(rules: Rules, end: Outcome, seat: int) -> float:
    winners, gone, tokens, scores = end
    status: tuple[Status, ...] = tuple(OUT if s in gone else IN for s in range(rules.players))
    return match_value(
        rules,
        winners,
        status,
        tokens if rules.match == "tokens" else None,
        scores if rules.match == "points" else None,
        seat,
    )
