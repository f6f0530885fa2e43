"""Compiled rollouts: the searching bots' imagined games, played by the batch simulator's rules.

A ``Playout`` (``playout.py``) plays one rollout at a time in Python; ``CompiledRollouts`` plays
many at once in Numba, on the game records and transitions of ``kernels.py`` — the rules the
contract already holds to the engine (``contract.BATCH``), not a third copy of them. What is
added here is only what a rollout needs beyond the rules:

- ``record_of(state)``: an engine state (any position of any round) as a game record;
- ``run_rollouts``: from each record, a first action, then greedy's ranks at every seat and the
  heuristic's planner at the searching seat (``rollout_policy.py``; or, at each other seat,
  the model a search gave it: ``GREEDY``, ``PLANNER``, ``NOISY``) to the ``Playout``'s
  horizon: the end of the game in a single game, the end of the round in tokens and points
  matches (``Params.horizon``: the kernels play a round's end out as the engine does, then
  deal nothing and leave ``to_play`` at -1), so ``winners``, ``status``, ``tokens`` and
  ``scores`` say where the match stands, as they do after ``Playout.run``.

Shuffles: a record's reshuffles come from its own generator (``rng``), seeded from the world's
seed, so the same world gives every first action the same future shuffles (common random
numbers), but not the engine's shuffles for that seed; scripted reshuffles (``scripts``, as
the batch takes them) make it follow the engine's card for card, which is how the tests check
it (tests/fast/test_compiled_rollouts.py).

The draw penalty (X2): the kernels keep the one owed draw (``owes``) when ``Params.draw_penalty``
is set, and a rollout has it taken at once, by whichever seat owes it, before anything else —
as ``Playout.run`` does. (The batch itself still refuses the draw penalty: its API steps only
the seat to play.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numba import njit

from ..engine import OUT, Rules, State
from .kernels import (
    apply_action,
    below,
    legal_bits,
    lowest_bit,
    nothing_fits,
    random_action,
    scripts_of,
    take_draw,
)
from .layout import (
    DISCARD_ACTION,
    DRAW_ACTION,
    EMPTY,
    HAND,
    MATCH,
    NUM_ACTIONS,
    POINTS,
    ROUND,
    allocate,
    params_of,
    scripts,
)
from .playout import RankedPolicy
from .rollout_policy import (
    GREEDY,
    NETWORK,
    NOISE_SCALE,
    NOISY,
    PLANNER,
    PLANNER_FIELDS,
    Game,
    Params,
    greedy_action,
    planned_card,
)

NO_TRACE = np.zeros((0, 0), dtype=np.int16)
NO_MODELS = np.zeros((0, 0), dtype=np.int8)  # every other seat greedy
# A network's choices for the records of rollouts waiting at its seats (ALL_ACTIONS indices).
Network = Callable[[np.ndarray], np.ndarray]
WAIT = -3  # ``_policy``: a ``NETWORK`` seat is to choose
SKIP = -4  # ``run_rollouts``' first action: a game to leave as it is


@njit(cache=True, inline="always")
def _policy(
    r: Game,
    p: Params,
    me: int,
    ranks: np.ndarray,
    margin: int,
    planner: np.ndarray,
    use_plan: bool,
    cnt: np.ndarray,
    model: int,
    their: np.ndarray,
    noise: int,
) -> int:
    """The rollout policy's next action: an owed draw at once, by whichever seat owes it;
    else, at a seat whose ``model`` is ``NETWORK``, its only legal action or ``WAIT`` (the
    network chooses); else greedy's, or the planner's at seat ``me`` where a card fits (as
    ``Playout.choice``); at another seat, its ``model``'s (``rollout_policy.GREEDY``,
    ``PLANNER`` with the ``their`` planner, or ``NOISY``: a random legal action ``noise`` /
    2**20 of the time)."""
    if r.owes >= 0:
        return DRAW_ACTION
    if model == NETWORK:
        bits = r.legal
        if bits & (bits - 1) != 0:
            return WAIT
        return lowest_bit(bits)
    a = greedy_action(r, p, ranks, margin)
    if r.to_play == me:
        if use_plan and a != DISCARD_ACTION and not (p.match == POINTS and nothing_fits(r, p, me)):
            a = planned_card(r, p, planner, cnt)
    elif model == PLANNER:
        if a != DISCARD_ACTION and not (p.match == POINTS and nothing_fits(r, p, r.to_play)):
            a = planned_card(r, p, their, cnt)
    elif model == NOISY and below(r, NOISE_SCALE) < noise:
        a = random_action(r)
    return a


@njit(cache=True)
def run_rollouts(
    games: np.ndarray,
    params: np.ndarray,
    script: np.ndarray,
    first: np.ndarray,
    me: int,
    ranks: np.ndarray,
    margin: int,
    planner: np.ndarray,
    trace: np.ndarray,
    models: np.ndarray,
    their: np.ndarray,
    noise: int,
    waiting: np.ndarray,
    steps: np.ndarray,
) -> int:
    """Play every game on from its record: ``first[g]`` by the seat to play (-1: the
    policy's choice; ``SKIP``: leave game g as it is), then the rollout policy (the planner at
    seat ``me`` when ``planner`` is not empty; at a seat s, greedy, or ``models[g, s]`` when
    ``models`` has rows) to the horizon, or until a ``NETWORK`` seat is to choose: then
    ``waiting[g]`` is set and game g stops there, for its next call to give that choice as
    ``first[g]``. With a ``trace`` of shape (B, T), ``trace[g]`` receives the actions played
    (``first`` included) from ``steps[g]`` on, then -1; ``steps[g]`` counts game g's actions
    over the calls. Returns the number of actions played."""
    p = params[0]
    sc = scripts_of(script)
    use_plan = planner.shape[0] > 0
    modelled = models.shape[0] > 0
    cnt = np.zeros(16, dtype=np.int64)
    room = trace.shape[1]
    played = 0
    for g in range(games.shape[0]):
        r = games[g]
        a = first[g]
        if a == SKIP:
            continue
        if a < 0:  # no first action: the policy's, from a position where a seat is to play
            r.legal = legal_bits(r, p)  # (``record_of`` leaves it unset)
            m = models[g, r.to_play] if modelled else GREEDY
            a = _policy(r, p, me, ranks, margin, planner, use_plan, cnt, m, their, noise)
        t = steps[g]
        start = t
        while a != WAIT:
            if t < room:
                trace[g, t] = a
            t += 1
            if a == DRAW_ACTION:  # X2: the owing seat (first, it may be ``me`` out of turn)
                take_draw(r, p, sc, g, r.owes)
            else:
                apply_action(r, p, sc, g, a)
            if r.over != 0 or r.error != 0 or r.to_play < 0:  # to_play -1: the round ended
                break
            m = models[g, r.to_play] if modelled else GREEDY
            a = _policy(r, p, me, ranks, margin, planner, use_plan, cnt, m, their, noise)
        if a == WAIT:
            waiting[g] = 1
        elif t < room:
            trace[g, t] = -1
        steps[g] = t
        played += t - start
    return played


def record_of(state: State) -> np.ndarray:
    """The position of an engine state as a one-record array of ``layout.GAME`` (its draw
    pile as it lies, its owed draw, no scripted shuffles, the generator at 0)."""
    rules = state.rules
    if len(state.owes_draw) > 1:  # the engine owes one draw at most (the last player's)
        raise ValueError(f"more than one owed draw: {state.owes_draw}")
    rec = allocate(1)
    r = rec[0]
    n = rules.players
    r["total"] = state.total
    r["round"] = state.round
    r["reshuffles"] = state.reshuffle_count
    r["moves"] = state.moves
    if state.scores is not None:
        r["scores"][:n] = state.scores
    if state.tokens is not None:
        r["tokens"][:n] = state.tokens
    pile = state.pile[state.pile_pos :]
    r["pile"][: len(pile)] = pile
    r["pile_pos"] = 0
    r["pile_len"] = len(pile)
    r["discard"][:] = np.bincount(np.array(state.discard, dtype=np.int64), minlength=16)
    r["discard_size"] = len(state.discard)
    for s, hand in enumerate(state.hands):
        r["hands"][s, : len(hand)] = hand
    r["status"][:] = OUT.code
    r["status"][:n] = [st.code for st in state.status]
    r["out"][: len(state.out)] = state.out
    r["n_out"] = len(state.out)
    r["oor"][: len(state.out_of_round)] = state.out_of_round
    r["n_oor"] = len(state.out_of_round)
    r["winners"][:n] = [1 if s in state.winners else 0 for s in range(n)]
    r["direction"] = state.direction
    r["to_play"] = -1 if state.to_play is None else state.to_play
    r["owed"] = state.owed
    r["ono99_played"] = state.ono99_played
    r["over"] = state.over
    r["dealer"] = state.dealer
    r["owes"] = state.owes_draw[0] if state.owes_draw else -1
    return rec


def ranks_array(policy: RankedPolicy) -> np.ndarray:
    """A ranked policy's ranks as the int array ``rollout_policy.greedy_action`` reads."""
    ranks = np.array(policy.ranks, dtype=np.int64)
    assert ranks.shape == (2, 2, 2, NUM_ACTIONS)
    return ranks


class CompiledRollouts:
    """Rollouts of one searching seat's decision, many at a time (see the module doc).
    ``their`` (a planner's numbers) and ``noise`` (a share) are how the other seats play
    when their models (``run``'s ``models``) say ``PLANNER`` or ``NOISY``."""

    def __init__(
        self,
        rules: Rules,
        policy: RankedPolicy,
        planner: Sequence[float] | None,
        me: int,
        *,
        their: Sequence[float] | None = None,
        noise: float = 0.0,
    ) -> None:
        self.rules = rules
        self.params = params_of(rules, MATCH if rules.match == "single" else ROUND)
        self.ranks = ranks_array(policy)
        self.margin = policy.margin
        self.me = me
        self.planner = _planner_array(planner)
        self.their = _planner_array(their)
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise is a share, from 0 to 1, not {noise}")
        self.noise = round(noise * NOISE_SCALE)

    def games(
        self,
        template: np.ndarray,
        hands: Sequence[Sequence[Sequence[int]]],
        piles: Sequence[Sequence[int]],
        seeds: Sequence[int],
        copies: int,
    ) -> np.ndarray:
        """``copies`` records of each world: the ``template`` position (``record_of``) with
        world w's hands (every seat's), draw pile (top first) and seed for its shuffles."""
        worlds = len(hands)
        n = self.rules.players
        flat = np.full((worlds, n, HAND), EMPTY, dtype=np.int8)
        for w, seats in enumerate(hands):
            for s, hand in enumerate(seats):
                flat[w, s, : len(hand)] = hand
        games = np.repeat(template, worlds * copies)
        games["hands"][:, :n] = np.repeat(flat, copies, axis=0)
        size = len(piles[0]) if worlds else 0
        if size:
            games["pile"][:, :size] = np.repeat(np.array(piles, dtype=np.int8), copies, axis=0)
        games["pile_len"] = size
        games["rng"] = np.repeat(np.array(seeds, dtype=np.uint64), copies)
        return games

    def run(
        self,
        games: np.ndarray,
        first: Sequence[int] | np.ndarray,
        *,
        plan: bool = True,
        script: np.ndarray | None = None,
        trace: np.ndarray = NO_TRACE,
        models: np.ndarray = NO_MODELS,
        network: Network | None = None,
    ) -> int:
        """Play every record on (see ``run_rollouts``); the actions played. ``models``: a
        row per record, each seat's model (``GREEDY``, ``PLANNER``, ``NOISY``, ``NETWORK``).
        Where a ``NETWORK`` seat is to choose, the rollouts waiting there are handed to
        ``network`` all at once (their records), whose actions they then play on from."""
        firsts = np.asarray(first, dtype=np.int64)
        planner = self.planner if plan else self.planner[:0]
        sc = scripts(len(games)) if script is None else script
        if len(models) and (models.shape != (len(games), self.rules.players)):
            raise ValueError(f"models must be a row of {self.rules.players} per record")
        if len(models) and (models == PLANNER).any() and not len(self.their):
            raise ValueError("a seat modelled by the planner needs their planner's numbers")
        if len(models) and network is None and (models == NETWORK).any():
            raise ValueError("a seat modelled by a network needs the network")
        rows = np.ascontiguousarray(models, dtype=np.int8)
        waiting = np.zeros(len(games), dtype=np.int8)
        steps = np.zeros(len(games), dtype=np.int64)
        played = 0
        while True:
            played += int(
                run_rollouts(
                    games,
                    self.params,
                    sc,
                    firsts,
                    self.me,
                    self.ranks,
                    self.margin,
                    planner,
                    trace,
                    rows,
                    self.their,
                    self.noise,
                    waiting,
                    steps,
                )
            )
            if network is None or not waiting.any():
                return played
            wait = np.flatnonzero(waiting)
            firsts = np.full(len(games), SKIP, dtype=np.int64)
            firsts[wait] = network(games[wait])
            waiting[:] = 0


def _planner_array(planner: Sequence[float] | None) -> np.ndarray:
    if planner is not None and len(planner) != len(PLANNER_FIELDS):
        raise ValueError(f"a planner is {len(PLANNER_FIELDS)} numbers: {PLANNER_FIELDS}")
    return np.array(planner if planner is not None else (), dtype=np.float64)


# Odd 64-bit multipliers, one per column of an end (``outcomes``), for hashing the ends.
_MIX = np.random.default_rng(28).integers(0, 2**63, size=4 * 6, dtype=np.uint64) * 2 + 1

Outcome = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def outcomes(games: np.ndarray, players: int) -> tuple[list[Outcome], np.ndarray]:
    """Where the rollouts ended, as what a value needs: the distinct ends, each (winners,
    seats out of the game, tokens, scores), and for every game the index of its end (so equal
    ends are valued once)."""
    n = players
    rows = np.concatenate(
        [
            games["winners"][:, :n] * games["over"][:, None],
            games["status"][:, :n] == OUT.code,
            games["tokens"][:, :n],
            games["scores"][:, :n],
        ],
        axis=1,
        dtype=np.int64,
    )
    # Group equal rows by a hash (np.unique of rows sorts them as bytes, ten times slower),
    # and make sure each group's rows really are equal before trusting it.
    keys = (rows.astype(np.uint64) * _MIX[: rows.shape[1]]).sum(axis=1, dtype=np.uint64)
    _, first, index = np.unique(keys, return_index=True, return_inverse=True)
    ends = rows[first]
    if not np.array_equal(ends[index], rows):  # a collision: group by the rows themselves
        ends, index = np.unique(rows, axis=0, return_inverse=True)
    found = []
    for row in ends.tolist():
        win, gone = row[:n], row[n : 2 * n]
        found.append(
            (
                tuple(s for s in range(n) if win[s]),
                tuple(s for s in range(n) if gone[s]),
                tuple(row[2 * n : 3 * n]),
                tuple(row[3 * n :]),
            )
        )
    return found, index.reshape(-1)
