"""A Gymnasium vector environment over the batch simulator (``ono99.sim.fast``), for training
at speed; see ``docs/rl.md``.

``VectorEnv`` is a ``gymnasium.vector.VectorEnv`` of B matches of one rule set. In each match one
seat is the *learner's* (``seat``: a fixed seat, ``"random"``, or a tuple of seats to draw from,
drawn again for every match); the other seats are played inside the environment by
``opponents``: one spec for every other seat, or one per seat in clockwise order after the
learner's, each of them

- ``"greedy"``, ``"random"`` or ``"learned"``: the bots, batched over the simulator's arrays
  (``greedy.RANKS`` read over NumPy, a uniformly random legal action, the learned network on a
  batch of observations) — each chooses exactly as its bot does;
- a *policy*: any callable ``policy(obs, mask) -> actions`` on a batch (float32 (k, 173), int8
  (k, 18)), e.g. the learner's own policy or a frozen snapshot of it (``ono99.env.sb3`` makes
  both from an SB3 model); ``set_opponents`` swaps them between calls;
- any other registered bot name (``"heuristic"``, ``"expert"``, ``"oracle"``…), a ``Bot`` or
  an ``OmniscientBot`` object: these need the engine's games, so the whole environment then
  runs on them (the ``engine`` backend, at engine speed; ``benchmarks/bench_vector.py``
  measures it). So does the draw penalty (X2), which the batch simulator does not simulate.
  Each of these bots' moves is the game loop's (``ono99.sim.driver.move``): chosen by
  ``decide`` (from the seat's view, or the whole state for an ``OmniscientBot``), applied
  through the engine, a failing bot a ``BotError``.

The batch backend is the game loop's declared second implementation (``ono99.sim.driver``
says so): both backends are held to games stepped through ``advance`` by
``tests/env/test_env_vector.py``.

The API is Gymnasium's, with **same-step autoreset** (``metadata["autoreset_mode"]`` is
``AutoresetMode.SAME_STEP``): where ``terminated[i]``, ``obs[i]`` is already the first
observation of the slot's next episode, and the ended episode's last observation and info are in
``info["final_obs"][i]`` and ``info["final_info"]`` (masked by ``info["_final_obs"]`` and
``info["_final_info"]``), exactly as ``gymnasium.vector.SyncVectorEnv`` in that mode stacks them.
The info holds what the single environment's does, stacked: ``action_mask`` (int8 (B, 18), the
one mask dtype of every ono99 environment), ``seat``, ``illegal_action``, and ``winners`` (a
tuple of seats, in ``final_info`` where the match is over). ``action_masks()`` is the same mask
as bool, for MaskablePPO.

Observations are what the single-game encoder gives for the learner's view:
``encode_public(public_of_records(...), rules)`` fills the same ``Public`` arrays that
``public_of(views)`` fills from ``View`` objects, so ``obs[i]`` equals ``encode(view(state,
seat))`` of the engine game in the same position (``tests/env/test_env_vector.py``).

Rewards and episodes are the single environment's: the learner's episode ends when its match
ends (+1/k for one of k winners, −1 otherwise) or when it leaves the game (−1); an illegal
action (masked out, or not an integer 0–17) ends it with ``illegal_reward`` (−1) and
``illegal_action`` True in its final info. Rewards are 0 on every other step; ``truncated`` is
always False. In the batch simulator a match the learner has left is finished by the opponents
(a random legal action in the learner's seat after an illegal action) before its slot starts a
new one; nothing of it is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from numba import njit

from ..bots import Agent, OmniscientBot, greedy, make_bot
from ..bots.learned import weights_path
from ..engine import (
    ALL_ACTIONS,
    Rules,
    State,
    apply,
    make_rules,
    new_game,
    to_act,
    view,
)
from ..engine.state import OUT
from ..fast import kernels
from ..features import (
    NUM_ACTIONS,
    OBS_SIZE,
    encode,
    encode_public,
    observation_bounds,
    public_of_records,
)
from ..sim.driver import move
from ..sim.fast import Deal, FastBatch
from .action_space import action_mask
from .rewards import ILLEGAL, final_reward

_OUT = OUT.code  # the batch simulator's status arrays hold the codes

Policy = Callable[[np.ndarray, np.ndarray], Any]
Opponent = str | Agent | Policy
OPPONENTS = ("greedy", "random", "learned")  # the batched bots; any other bot runs on the engine
BACKENDS = ("auto", "fast", "engine")


def observe(batch: FastBatch, observers: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The observation vectors (B, 173) of ``observers[i]`` in each game of ``batch``."""
    if mask is None:
        mask = batch.legal_mask()
    return encode_public(public_of_records(batch.games, batch.rules, observers, mask), batch.rules)


_GREEDY_RANKS = np.array(greedy.RANKS, dtype=np.int64)  # (2, 2, 2, 18): greedy's one table


def greedy_actions(batch: FastBatch, mask: np.ndarray | None = None) -> np.ndarray:
    """The ``greedy`` bot's choice (``ono99.bots.greedy``) for the seat to play in each game of
    ``batch``, as ALL_ACTIONS indices (-1 where nothing is legal): the legal action of lowest
    rank in ``greedy.RANKS`` for each game's situation."""
    if mask is None:
        mask = batch.legal_mask()
    games = batch.games
    bust = batch.must_bust().astype(np.intp)
    owed_two = (games["owed"] == 2).astype(np.intp)
    high = (games["total"] >= batch.rules.max_total - greedy.HIGH_MARGIN).astype(np.intp)
    ranks = _GREEDY_RANKS[bust, owed_two, high]  # (B, 18)
    best = np.argmin(np.where(mask, ranks, NUM_ACTIONS), axis=1)
    return np.where(mask.any(axis=1), best, -1)


class LearnedPolicy:
    """The ``learned`` bot's network on a batch: ``policy(obs, mask)`` is the legal action of
    highest score in each row, as ``LearnedBot.choose`` picks it from the same view (the draw
    first when it is legal, X2)."""

    def __init__(self, weights: str | None = None) -> None:
        with np.load(weights or weights_path()) as data:
            self.w1, self.b1, self.w2, self.b2 = (data[k] for k in ("w1", "b1", "w2", "b2"))

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        scores = np.tanh(obs @ self.w1 + self.b1) @ self.w2 + self.b2
        best = np.argmax(np.where(mask != 0, scores, -np.inf), axis=1)
        draw = ALL_ACTIONS[-1].index
        return np.where(mask[:, draw] != 0, draw, best)


@njit(cache=True)
def _restart_where(games: np.ndarray, params: np.ndarray, sc: np.ndarray, where: Any) -> None:
    """A new random match in each slot ``where`` says, as the simulator's auto-reset starts
    one (``FastBatch`` offers auto-reset for every slot or none; this picks the slots)."""
    p = params[0]
    scripts = kernels.scripts_of(sc)  # the kernels take the scripts as an address
    for g in range(games.shape[0]):
        if where[g]:
            kernels._restart(games[g], p, scripts, g)


def _spec(o: Any) -> Any:
    """An opponent spec checked: a batched bot's name, a ``Bot``, or a policy callable."""
    if isinstance(o, str):
        if o not in OPPONENTS:
            make_bot(o)  # an unknown name fails here, listing the known ones
        return o
    if _is_agent(o) or callable(o):
        return o
    raise ValueError(f"an opponent is a bot name, a bot or a policy(obs, mask), not {o!r}")


def _is_agent(o: Any) -> bool:
    """A bot the game loop drives (``ono99.sim.driver``), not a batched policy."""
    return isinstance(o, OmniscientBot) or callable(getattr(o, "choose", None))


def _needs_engine(o: Any) -> bool:
    return (isinstance(o, str) and o not in OPPONENTS) or _is_agent(o)


def _seats_of(seat: Any, n: int) -> tuple[int, ...]:
    if seat == "random":
        return tuple(range(n))
    given = tuple(seat) if isinstance(seat, (tuple, list)) else (seat,)
    if not given or any(
        isinstance(s, bool) or not isinstance(s, (int, np.integer)) or not 0 <= s < n for s in given
    ):
        raise ValueError(f"seat must be 0 to {n - 1}, 'random', or a tuple of seats, not {seat!r}")
    return tuple(int(s) for s in given)


class VectorEnv(gym.vector.VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """B matches, one learner seat each, opponents played inside (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        edition: str = "2022",
        *,
        num_envs: int = 256,
        opponents: Opponent | Sequence[Opponent] = "greedy",
        seat: int | str | Sequence[int] = "random",
        rules: Rules | None = None,
        seed: int = 0,
        illegal_reward: float = ILLEGAL,
        backend: str = "auto",
        **options: Any,
    ) -> None:
        if rules is not None and options:
            raise ValueError("give either rules= or rule options, not both")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, not {backend!r}")
        self.rules = rules if rules is not None else make_rules(edition, **options)
        n = self.rules.players
        self.learner_seats = _seats_of(seat, n)
        self.num_envs = num_envs
        self.illegal_reward = float(illegal_reward)
        self._backend_option = backend
        self._set_opponents(opponents)
        low, high = observation_bounds()
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = gym.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
        self.observation_size = OBS_SIZE
        self.num_actions = NUM_ACTIONS
        self._seed0 = seed
        self._rng = np.random.default_rng(seed)
        self._np_random = self._rng
        self._seed_given: int | list[int] = seed
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self._ghost = np.zeros(num_envs, dtype=np.bool_)  # learner out: opponents finish it
        self._acted = np.zeros(num_envs, dtype=np.bool_)  # the learner acted in this match
        self._mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.bool_)
        self.batch: FastBatch | None = None
        self.states: list[State] = []
        self._bots: list[dict[int, Any]] = []
        if self.backend == "fast":
            self.batch = FastBatch(self.rules, num_envs, seed=seed, auto_reset=False)
        self._started = False

    @property
    def np_random_seed(self) -> int | list[int]:  # type: ignore[override]
        """The seed of the last ``reset`` (or the constructor's): an int, or one per game."""
        return self._seed_given

    # ------------------------------------------------------------------ opponents

    def _set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        n = self.rules.players
        given: tuple[Any, ...] = (
            tuple(opponents) if isinstance(opponents, (tuple, list)) else (opponents,)
        )
        if len(given) not in (1, n - 1):
            raise ValueError(
                f"{n} players need 1 or {n - 1} opponents (one per other seat), not {len(given)}"
            )
        specs = tuple(_spec(o) for o in given)
        engine = self.rules.draw_penalty or any(_needs_engine(o) for o in specs)
        backend = self._backend_option
        if backend == "fast" and engine:
            raise ValueError(
                "the batch simulator runs only the batched opponents "
                f"{OPPONENTS} and policies, without the draw penalty: use backend='engine'"
            )
        backend = "engine" if engine or backend == "engine" else "fast"
        if getattr(self, "backend", backend) != backend:
            raise ValueError(f"these opponents need the {backend} backend; make a new VectorEnv")
        self.backend = backend
        # The opponents sit in the seats after the learner's, clockwise.
        self.opponents = specs * (n - 1) if len(specs) == 1 else specs
        groups: dict[int, tuple[Any, list[int]]] = {}
        for k, o in enumerate(self.opponents):
            groups.setdefault(id(o), (o, []))[1].append(k)
        self._groups = list(groups.values())
        self._learned = (
            LearnedPolicy() if any(isinstance(o, str) and o == "learned" for o in specs) else None
        )

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """New opponents for the moves from now on (e.g. a fresh snapshot of the learner); the
        backend cannot change."""
        self._set_opponents(opponents)
        if self.backend == "engine" and self._started:
            for i in range(self.num_envs):
                self._bots[i] = self._seat_bots(int(self.seats[i]))

    # ------------------------------------------------------------------ starting

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New matches everywhere. ``seed`` (an int, or one per game) reseeds the deals and the
        learner seats; ``options`` are accepted as Gymnasium passes them, and none is used."""
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options must be a dict or None, not {options!r}")
        if seed is not None:
            seeds = self._check_seed(seed)
            self._rng = np.random.default_rng(seeds)
            self._np_random = self._rng
            self._seed_given = seeds[0] if len(seeds) == 1 else seeds
        if self.batch is not None:
            if seed is None:
                self.batch.reset(None)
            elif len(seeds) == 1:
                self.batch.reset(seeds[0])
            else:
                self.batch.reset(0)
                self.batch.games["rng"] = _mix(np.asarray(seeds, dtype=np.uint64))
                self.batch.reset(None)
        return self._start()

    def _check_seed(self, seed: Any) -> list[int]:
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
            return [int(seed)]
        if isinstance(seed, (list, tuple, np.ndarray)) and len(seed) == self.num_envs:
            out = [int(s) for s in seed if isinstance(s, (int, np.integer)) and s >= 0]
            if len(out) == self.num_envs:
                return out
        raise ValueError(
            f"seed must be a whole number ≥ 0 or a list of {self.num_envs} of them, not {seed!r}"
        )

    def load(
        self, deals: Sequence[Deal], seats: Sequence[int]
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start game i on ``deals[i]`` with the learner at ``seats[i]`` (for tests that replay
        the same deals through the engine). Matches started later are random."""
        if len(deals) != self.num_envs or len(seats) != self.num_envs:
            raise ValueError(f"load needs {self.num_envs} deals and seats")
        if self.batch is not None:
            self.batch.load(deals)
        return self._start(np.asarray(seats, dtype=np.int64), deals)

    def _draw_seats(self, k: int) -> np.ndarray:
        pool = np.asarray(self.learner_seats, dtype=np.int64)
        return pool[self._rng.integers(0, len(pool), k)] if len(pool) > 1 else np.full(k, pool[0])

    def _start(
        self, seats: np.ndarray | None = None, deals: Sequence[Deal] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        b = self.num_envs
        self.seats = (self._draw_seats(b) if seats is None else seats.copy()).astype(np.int64)
        self._ghost[:] = False
        self._acted[:] = False
        self._started = True
        reward = np.zeros(b)
        done = np.zeros(b, dtype=np.bool_)
        ends = _Ends(b)
        if self.batch is not None:
            over = self.batch.over
            if over.any():  # a match decided at its first deal
                self._restart(over.copy())
            self._advance(reward, done, ends)
        else:
            self.states = [self._new_match(i) for i in range(b)]
            if deals is not None:
                self.states = [
                    new_game(
                        self.rules,
                        0,
                        dealer=d.dealer,
                        decks=d.decks,
                        reshuffles=d.reshuffles,
                    )
                    for d in deals
                ]
            self._bots = [self._seat_bots(int(s)) for s in self.seats]
            self._engine_advance(reward, done, ends)
        return self._observe(), self._info()

    # ------------------------------------------------------------------ playing

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One learner action per game; returns ``(obs, reward, terminated, truncated, info)``
        (see the module docstring). An illegal action ends that game's episode with
        ``illegal_reward``."""
        if not self._started:
            raise RuntimeError("call reset() first")
        acts = self._actions(actions)
        b = self.num_envs
        legal = (acts >= 0) & (acts < NUM_ACTIONS)
        legal &= self._mask[np.arange(b), np.where(legal, acts, 0)]
        reward = np.zeros(b)
        done = np.zeros(b, dtype=np.bool_)
        ends = _Ends(b)
        illegal = ~legal
        if illegal.any():
            reward[illegal] = self.illegal_reward
            done |= illegal
            ends.record(illegal, self._observe(), self.seats, illegal=True)
        if self.batch is not None:
            self._ghost |= illegal  # the opponents finish that match
            ended = self.batch.step(np.where(legal, acts, -1), check=False)
            self._acted[legal] = True
            self._settle(ended, reward, done, ends)
            self._advance(reward, done, ends)
        else:
            for i in np.flatnonzero(legal):
                self.states[i] = apply(self.states[i], int(self.seats[i]), ALL_ACTIONS[acts[i]])
                self._acted[i] = True
            for i in np.flatnonzero(illegal):
                self._renew(int(i))
            self._engine_advance(reward, done, ends)
        truncated = np.zeros(b, dtype=np.bool_)
        info = self._info()
        ends.into(info, self.rules.players)
        return self._observe(), reward, done, truncated, info

    def _actions(self, actions: Any) -> np.ndarray:
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"step needs {self.num_envs} actions, got shape {acts.shape}")
        if acts.dtype.kind in "iu":
            return acts.astype(np.int64)
        out = np.full(self.num_envs, -1, dtype=np.int64)  # not an integer: illegal
        if acts.dtype.kind == "f":
            whole = np.isfinite(acts) & (acts == np.round(acts))
            out[whole] = acts[whole].astype(np.int64)
        return out

    # ------------------------------------------------------------------ the batch simulator

    def _restart(self, where: np.ndarray) -> None:
        assert self.batch is not None
        _restart_where(self.batch.games, self.batch.params, self.batch.scripts, where)
        k = int(where.sum())
        self.seats[where] = self._draw_seats(k)
        self._ghost[where] = False
        self._acted[where] = False

    def _settle(self, ended: np.ndarray, reward: np.ndarray, done: np.ndarray, ends: _Ends) -> None:
        """Pay the learners whose match just ended or who just left the game, then start new
        matches where they ended."""
        assert self.batch is not None
        g = self.batch.games
        rows = np.arange(self.num_envs)
        n = self.rules.players
        live = ~self._ghost & self._acted
        if ended.any():
            result = g["result"][:, :n]
            won = result[rows, self.seats] != 0
            share = 1.0 / np.maximum(result.sum(axis=1), 1)
            pay = ended & live
            if pay.any():
                reward[pay] = np.where(won[pay], share[pay], -1.0)
                done |= pay
                winners = {
                    int(i): tuple(np.flatnonzero(result[i]).tolist()) for i in np.flatnonzero(pay)
                }
                ends.record(pay, self._observe(), self.seats, winners=winners)
        left = ~ended & ~self._ghost & (g["status"][rows, self.seats] == _OUT)
        if left.any():
            pay = left & self._acted
            if pay.any():
                reward[pay] = -1.0
                done |= pay
                ends.record(pay, self._observe(), self.seats)
            self._ghost |= left
        if ended.any():
            self._restart(ended)

    def _advance(self, reward: np.ndarray, done: np.ndarray, ends: _Ends) -> None:
        """Play the opponents (and the learner-less rest of ghost matches) until the learner is
        to play in every game."""
        assert self.batch is not None
        batch = self.batch
        n = self.rules.players
        while True:
            mask = batch.legal_mask()
            to_play = batch.to_play.astype(np.int64)
            waiting = self._ghost | (to_play != self.seats)
            if not waiting.any():
                self._mask = mask
                return
            offset = (to_play - self.seats - 1) % n  # which opponent: 0 … n-2; n-1 the learner
            acts = np.full(self.num_envs, -1, dtype=np.int64)
            for o, seats in self._groups:
                rows = waiting & np.isin(offset, seats)
                if rows.any():
                    acts[rows] = self._batched(o, rows, mask, to_play)[rows]
            rest = waiting & (offset == n - 1)  # a ghost learner's seat (after an illegal action)
            if rest.any():
                acts[rest] = batch.random_actions()[rest]
            ended = batch.step(acts, check=False)
            self._settle(ended, reward, done, ends)

    def _batched(self, o: Any, rows: np.ndarray, mask: np.ndarray, to_play: np.ndarray) -> Any:
        """Opponent ``o``'s actions (B,) for the games ``rows`` (others are ignored)."""
        assert self.batch is not None
        if isinstance(o, str) and o == "greedy":
            return greedy_actions(self.batch, mask)
        if isinstance(o, str) and o == "random":
            return self.batch.random_actions()
        policy = self._learned if isinstance(o, str) else o
        assert policy is not None
        sub = self.batch.games[rows]
        public = public_of_records(sub, self.rules, to_play[rows], mask[rows])
        obs = encode_public(public, self.rules)
        out = np.full(self.num_envs, -1, dtype=np.int64)
        out[rows] = self._checked(policy, obs, mask[rows].astype(np.int8))
        return out

    @staticmethod
    def _checked(policy: Policy, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        acts = np.asarray(policy(obs, mask)).reshape(-1).astype(np.int64)
        if acts.shape != (len(obs),):
            raise ValueError(f"an opponent policy gave {acts.shape[0]} actions for {len(obs)}")
        ok = (acts >= 0) & (acts < NUM_ACTIONS)
        ok &= mask[np.arange(len(acts)), np.where(ok, acts, 0)] != 0
        if not ok.all():
            raise ValueError(f"an opponent policy chose an illegal action: {acts[~ok][:5]}")
        return acts

    # ------------------------------------------------------------------ the engine

    def _new_match(self, i: int) -> State:
        return new_game(self.rules, int(self._rng.integers(2**62)))

    def _seat_bots(self, seat: int) -> dict[int, Any]:
        """Opponent of each other seat: fresh ``Bot`` objects for bot names, per match."""
        n = self.rules.players
        out: dict[int, Any] = {}
        for k, o in enumerate(self.opponents):
            s = (seat + 1 + k) % n
            if isinstance(o, str) and o == "learned":
                out[s] = o
            elif isinstance(o, str):
                out[s] = make_bot(o, int(self._rng.integers(2**62)))
            else:
                out[s] = o
        return out

    def _renew(self, i: int) -> None:
        self.states[i] = self._new_match(i)
        self.seats[i] = self._draw_seats(1)[0]
        self._bots[i] = self._seat_bots(int(self.seats[i]))
        self._acted[i] = False

    def _engine_advance(self, reward: np.ndarray, done: np.ndarray, ends: _Ends) -> None:
        """Settle ended episodes and play the opponents until the learner acts everywhere."""
        while True:
            policy_rows: dict[int, list[tuple[int, int]]] = {}
            moved = False
            for i in range(self.num_envs):
                state, seat = self.states[i], int(self.seats[i])
                if state.over or state.status[seat] == OUT:
                    if self._acted[i]:
                        reward[i] = final_reward(state, seat)
                        done[i] = True
                        v = view(state, seat)
                        winners = tuple(state.winners) if state.over else None
                        ends.record_one(i, encode(v), seat, winners)
                    self._renew(i)
                    moved = True
                    continue
                actor = to_act(state)
                assert actor is not None
                if actor == seat:
                    continue
                o = self._bots[i][actor]
                if _is_agent(o):
                    self.states[i] = move(state, o, actor)
                    moved = True
                else:
                    policy_rows.setdefault(id(o), []).append((i, actor))
            for rows in policy_rows.values():
                i0, a0 = rows[0]
                o = self._bots[i0][a0]
                policy = self._learned if isinstance(o, str) else o
                assert policy is not None
                views = [view(self.states[i], a) for i, a in rows]
                obs = np.stack([encode(v) for v in views])
                masks = np.stack([action_mask(v, True) for v in views])
                for (i, a), act in zip(rows, self._checked(policy, obs, masks), strict=True):
                    self.states[i] = apply(self.states[i], a, ALL_ACTIONS[act])
                moved = True
            if not moved:
                break
        self._mask = np.stack(
            [
                action_mask(view(s, int(seat)), True)
                for s, seat in zip(self.states, self.seats, strict=True)
            ]
        ).astype(np.bool_)

    # ------------------------------------------------------------------ reading

    def action_masks(self) -> np.ndarray:
        """B × 18 bool: the learner's legal actions now (``info["action_mask"]`` as bool)."""
        return self._mask.copy()

    def action_mask(self) -> np.ndarray:
        """B × 18 bool, as ``action_masks()`` (kept for existing callers)."""
        return self.action_masks()

    def _observe(self) -> np.ndarray:
        if self.batch is not None:
            return encode_public(
                public_of_records(self.batch.games, self.rules, self.seats, self._mask), self.rules
            )
        return np.stack(
            [encode(view(s, int(seat))) for s, seat in zip(self.states, self.seats, strict=True)]
        )

    def _info(self) -> dict[str, Any]:
        b = self.num_envs
        every = np.ones(b, dtype=np.bool_)
        return {
            "action_mask": self._mask.astype(np.int8),
            "_action_mask": every,
            "seat": self.seats.copy(),
            "_seat": every.copy(),
            "illegal_action": np.zeros(b, dtype=np.bool_),
            "_illegal_action": every.copy(),
        }

    def render(self) -> None:
        return None


class _Ends:
    """The final observations and infos of the episodes that end in one call, stacked as
    ``SyncVectorEnv`` stacks the single environment's (same-step autoreset)."""

    def __init__(self, b: int) -> None:
        self.b = b
        self.where = np.zeros(b, dtype=np.bool_)
        self.obs: list[tuple[int, np.ndarray]] = []
        self.seat = np.zeros(b, dtype=np.int64)
        self.illegal = np.zeros(b, dtype=np.bool_)
        self.winners: dict[int, tuple[int, ...]] = {}

    def record(
        self,
        where: np.ndarray,
        obs: np.ndarray,
        seats: np.ndarray,
        *,
        illegal: bool = False,
        winners: dict[int, tuple[int, ...]] | None = None,
    ) -> None:
        for i in np.flatnonzero(where & ~self.where):
            w = winners.get(int(i)) if winners else None
            self.record_one(int(i), obs[i], int(seats[i]), w)
            self.illegal[i] = illegal

    def record_one(
        self, i: int, obs: np.ndarray, seat: int, winners: tuple[int, ...] | None
    ) -> None:
        self.where[i] = True
        self.obs.append((i, obs.copy()))
        self.seat[i] = seat
        if winners is not None:
            self.winners[i] = winners

    def into(self, info: dict[str, Any], players: int) -> None:
        if not self.where.any():
            return
        final_obs = np.full(self.b, None, dtype=object)
        for i, o in self.obs:
            final_obs[i] = o
        winners = np.full(self.b, None, dtype=object)
        has_winners = np.zeros(self.b, dtype=np.bool_)
        for i, w in self.winners.items():
            winners[i] = w
            has_winners[i] = True
        final_info: dict[str, Any] = {
            "action_mask": np.zeros((self.b, NUM_ACTIONS), dtype=np.int8),
            "_action_mask": self.where.copy(),
            "seat": np.where(self.where, self.seat, 0),
            "_seat": self.where.copy(),
            "illegal_action": self.illegal & self.where,
            "_illegal_action": self.where.copy(),
        }
        if has_winners.any():
            final_info["winners"] = winners
            final_info["_winners"] = has_winners
        info["final_obs"] = final_obs
        info["_final_obs"] = self.where.copy()
        info["final_info"] = final_info
        info["_final_info"] = self.where.copy()


def _mix(seeds: np.ndarray) -> np.ndarray:
    """Each game's generator state from its own seed (splitmix64), as ``FastBatch`` derives
    them from one seed."""
    z = seeds + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


__all__ = [
    "BACKENDS",
    "OPPONENTS",
    "LearnedPolicy",
    "Policy",
    "VectorEnv",
    "greedy_actions",
    "observe",
]
