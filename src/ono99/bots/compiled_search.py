"""The expert's search with compiled rollouts (``ExpertBot(compiled=True)``; needs the ``fast``
extra).

The same search as ``expert.search`` — worlds sampled from the seat's view, every candidate
action tried in each, valued by ``expert.match_value`` — but the rollouts are played all at
once by ``ono99.fast.rollouts`` in Numba, on the batch simulator's rules, with the same
players: greedy's ranks at every seat and the heuristic's planner at the searching seat (or,
with ``opponents``, each other seat played by a model drawn from what its plays tell:
``bots/opponents.py``). The
worlds are dealt in compiled code as well (``ono99.fast.worlds``, from the ``Determinizer``'s
unseen and forced cards), and their future reshuffles come from each record's own generator:
so the worlds are other draws from the same distribution than the Python search's, not the
same ones, and the candidates still share each world and its shuffles (common random numbers).

Every rule set is compiled, the draw penalty (X2) included. Nothing hidden is read: the
worlds come from the seat's view.
"""

from __future__ import annotations

import functools
import random
import time
from typing import Protocol

import numpy as np

from ..engine import IN, OUT, Action, Rules, State, Status
from ..fast.kernels import NUM_KINDS, legal_masks
from ..fast.layout import EMPTY, NUM_ACTIONS
from ..fast.rollout_policy import NETWORK
from ..fast.rollouts import NO_MODELS, CompiledRollouts, Network, Outcome, outcomes, record_of
from ..fast.worlds import deal_worlds
from ..features import encode_public, public_of_records
from .determinize import Determinizer
from .greedy import RANKED
from .heuristic import Planner
from .inference import Inference
from .neural import NeuralBot
from .opponents import NOISE, OpponentModels
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
    weigh: Inference | None = None,
    opponents: OpponentModels | None = None,
    rollout: str = "heuristic",
    weights: str | None = None,
) -> SearchResult:
    """``expert.search`` without cut-off or network, its rollouts compiled, over ``worlds``
    worlds (``expert.worlds_for`` of the budget). A plain
    ``Determinizer``'s worlds are dealt in compiled code too (``fast.worlds``), from the
    same unseen cards; another sampler's (``infer``) are sampled in Python. With ``stop_z``,
    the search stops after any chunk of worlds (``CHUNK``) in which no candidate could be shown
    better than the first: each trails it by at least ``stop_z`` standard errors of the paired
    difference (or ties it in every world so far). With ``weigh`` (a ``Determinizer`` only),
    the worlds are read by importance: ``OVERSAMPLE`` times as many are dealt, each weighted
    by how well its hands fit the opponents' play (``hand_weights``), and the search's worlds
    drawn from them in proportion (``resample``). With ``opponents``, each world's
    rollouts play every other seat by a model drawn for it from its weights (the same models
    for every candidate of the world); else every other seat plays greedy. With ``rollout``
    ``"neural"`` the ``neural`` network plays the searching seat in the rollouts instead of the
    planner, with ``"neural-all"`` every seat (``NETWORK``: the rollouts waiting for it are
    handed to it all at once, ``network_policy``; ``weights``: another network for the
    searching seat's)."""
    rollouts = CompiledRollouts(
        rules,
        RANKED,
        None if planner is None else planner_values(planner),
        seat,
        their=None if opponents is None else planner_values(opponents.planner),
        noise=NOISE,
    )
    result = SearchResult(actions)
    if weigh is not None and not isinstance(sampler, Determinizer):
        raise ValueError("weighted worlds are dealt by a plain Determinizer")
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
            many = m if weigh is None else m * OVERSAMPLE
            dealt = deal_worlds(
                template, many, rng.getrandbits(64), d.hidden, d.sizes, d.free, d.forced
            )
            if weigh is not None:
                dealt = resample(dealt, hand_weights(weigh, dealt), m, rng)
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
        models = NO_MODELS
        if opponents is not None or rollout != "heuristic":
            rows = np.zeros((m, rules.players), dtype=np.int8)
            if opponents is not None:
                rows[:] = opponents.draw(rng, m)
            if rollout == "neural":
                rows[:, seat] = NETWORK
            elif rollout == "neural-all":
                rows[:] = NETWORK
            models = np.repeat(rows, k, axis=0)
        network = None
        if (models == NETWORK).any():
            network = network_policy(rules, weights if rollout != "heuristic" else None)
        rollouts.run(games, firsts * m, plan=planner is not None, models=models, network=network)
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


@functools.cache
def network_policy(rules: Rules, weights: str | None = None) -> Network:
    """The ``neural`` bot's choice (with ``weights``, None: the shipped ones) for the seat to
    play in each of a batch of rollout records (``fast.rollouts.Network``): their observations
    as the seat's view would give them (``features.public_of_records``), one forward pass."""
    net = NeuralBot(weights=weights).net

    def choose(games: np.ndarray) -> np.ndarray:
        mask = np.zeros((len(games), NUM_ACTIONS), dtype=np.bool_)
        legal_masks(games, mask)
        public = public_of_records(games, rules, games["to_play"].astype(np.int64), mask)
        return np.asarray(net.policy(encode_public(public, rules), mask), dtype=np.int64)

    return choose


OVERSAMPLE = 8  # weigh: worlds dealt per world searched


def hand_weights(inference: Inference, worlds: np.ndarray) -> np.ndarray:
    """``Inference.weight`` of every world's hands at once: for each constraint, the chance
    that the hand's cards of its kinds are all among those drawn since, floored at the error."""
    weights = np.ones(len(worlds))
    error = inference.error
    for seat, constraints in inference.constraints.items():
        hands = worlds["hands"][:, seat].astype(np.int64)
        held = hands != EMPTY
        size = int(held[0].sum()) if len(hands) else 0
        for c in constraints:
            mask = np.zeros(NUM_KINDS + 1, dtype=bool)  # the last for EMPTY (index -1)
            mask[list(c.kinds)] = True
            k = (mask[hands] & held).sum(axis=1)
            chance = np.array([c.chance_of(j, size) for j in range(size + 1)])
            weights *= error + (1.0 - error) * chance[k]
    return weights


def resample(worlds: np.ndarray, weights: np.ndarray, m: int, rng: random.Random) -> np.ndarray:
    """``m`` of ``worlds`` drawn in proportion to ``weights`` (systematic resampling); a world
    drawn again gets its draw pile in another order and another seed for its reshuffles, so no
    two rollouts repeat each other (the pile's order is uniform given the hands)."""
    total = float(weights.sum())
    if total <= 0.0:
        return worlds[:m].copy()
    marks = (np.arange(m) + rng.random()) * (total / m)
    index = np.minimum(np.searchsorted(np.cumsum(weights), marks, side="right"), len(worlds) - 1)
    chosen = worlds[index]
    again = np.concatenate([[False], index[1:] == index[:-1]])
    if not again.any():
        return chosen
    gen = np.random.default_rng(rng.getrandbits(64))
    size = int(chosen["pile_len"][0])
    piles = chosen["pile"][again, :size]
    order = np.argsort(gen.random(piles.shape), axis=1)
    chosen["pile"][again, :size] = np.take_along_axis(piles, order, axis=1)
    chosen["rng"][again] = gen.integers(0, 2**64, size=int(again.sum()), dtype=np.uint64)
    return chosen


def settled(result: SearchResult, z: float) -> bool:
    """Whether no candidate could be shown better than the first: every other one's paired
    mean difference from it, plus ``z`` standard errors, is at most 0."""
    values = np.array(result.values)  # (candidates, worlds)
    diffs = values[1:] - values[0]
    n = values.shape[1]
    if n < 2:
        return False
    se = diffs.std(axis=1, ddof=1) / n**0.5
    return bool(np.all(diffs.mean(axis=1) + z * se <= 0.0))


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
