"""A vectorized environment over the batch simulator (``ono99.sim.fast``), for training at speed.

``VectorEnv`` holds B matches of one rule set in a ``FastBatch``. In each match one seat is the
*learner* (drawn at random for every new match); the other seats are played inside the
environment by a fast built-in policy over the simulator's arrays: ``"greedy"`` (the ``greedy``
bot's table of rules of thumb, ``greedy.RANKS``, read over NumPy arrays, so it chooses exactly as
``GreedyBot`` does) or ``"random"`` (a uniformly
random legal action). Every call of ``step`` takes one action per game for its learner, then plays
the opponents until the learner is to play again in every game.

Observations are what the single-game encoder gives for the learner's view:
``encode_public(public_of_batch(...), rules)`` fills the same ``Public`` arrays that
``public_of(views)`` fills from ``View`` objects, gathered from the simulator's game records with
seats made relative to the observer, so ``obs[i]`` equals ``encode(view(state, seat))`` of the
engine game in the same position (``tests/test_env_vector.py`` checks this step by step on
identical deals).

The API follows Gymnasium's vector environments with same-step auto-reset, without depending on
Gymnasium: ``reset(seed) -> (obs, info)`` and ``step(actions) -> (obs, reward, terminated,
truncated, info)`` with ``obs`` float32 (B, 173), ``info["action_mask"]`` bool (B, 18) and
``info["seat"]`` the learner's seat per game. When ``terminated[i]`` is set, ``reward[i]`` is the
learner's reward (+1/k for one of k winners, −1 otherwise, as in ``docs/rl.md``) and ``obs[i]``
is already the first observation of the next match in that slot. The learner's episode ends when
its match ends or when the learner leaves the game (its loss is then certain); the opponents finish
that match on their own before the slot starts a new one. Rewards are 0 on every other step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..bots import greedy
from ..engine import Rules, make_rules
from ..engine.cards import NUM_CARD_KINDS
from ..engine.state import OUT
from ..features import ABSENT, NUM_ACTIONS, OBS_SIZE, SEATS, Public, encode_public
from ..sim.fast import Deal, FastBatch

_OUT = OUT.code  # the batch simulator's status arrays hold the codes

OPPONENTS = ("greedy", "random")
_KINDS = np.arange(NUM_CARD_KINDS)


def public_of_batch(
    games: np.ndarray, rules: Rules, observers: np.ndarray, mask: np.ndarray
) -> Public:
    """The ``Public`` arrays of observer ``observers[i]`` in the simulator's game ``games[i]``
    (``mask``: the batch's ``legal_mask()``), exactly as ``public_of`` fills them from the views
    ``view(state, observers[i])`` of the same engine games."""
    b = games.shape[0]
    n = rules.players
    obs = np.asarray(observers, dtype=np.int64)
    rows = np.arange(b)
    seats = (obs[:, None] + np.arange(n)[None, :]) % n  # (B, n): absolute seat of relative k
    hands = games["hands"]  # (B, 6, 4), -1 for a free slot
    counts = (hands[:, :n, :, None] == _KINDS).sum(axis=2)  # (B, n, 16) per seat
    to_play = games["to_play"].astype(np.int64)
    legal = np.where((to_play == obs)[:, None], mask, False).astype(np.int64)

    def rel(values: np.ndarray, fill: int = 0) -> np.ndarray:
        out = np.full((b, SEATS), fill, dtype=np.int64)
        out[:, :n] = np.take_along_axis(values[:, :n].astype(np.int64), seats, axis=1)
        return out

    status_abs = games["status"][:, :n].astype(np.int64)
    sizes_abs = (hands[:, :n, :] >= 0).sum(axis=2)
    laid = np.zeros((b, NUM_CARD_KINDS), dtype=np.int64)
    if rules.match == "single":
        others_out = (status_abs == _OUT) & (np.arange(n)[None, :] != obs[:, None])
        laid = (counts * others_out[:, :, None]).sum(axis=1)
    zeros = np.zeros((b, SEATS), dtype=np.int64)
    return Public(
        hand=counts[rows, obs].astype(np.int64),
        legal=legal,
        total=games["total"].astype(np.int64),
        direction=games["direction"].astype(np.int64),
        owed=games["owed"].astype(np.int64),
        ono99_played=games["ono99_played"].astype(np.int64),
        to_play=np.where(to_play >= 0, (to_play - obs) % n, -1),
        dealer=(games["dealer"].astype(np.int64) - obs) % n,
        status=rel(status_abs, ABSENT),
        hand_sizes=rel(sizes_abs),
        owes_draw=zeros,  # the simulator has no draw penalty (X2)
        tokens=rel(games["tokens"]) if rules.match == "tokens" else zeros.copy(),
        scores=rel(games["scores"]) if rules.match == "points" else zeros.copy(),
        discard=games["discard"].astype(np.int64),
        laid_down=laid,
        draw_pile=(games["pile_len"].astype(np.int64) - games["pile_pos"]),
    )


def observe(batch: FastBatch, observers: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The observation vectors (B, 173) of ``observers[i]`` in each game of ``batch``."""
    if mask is None:
        mask = batch.legal_mask()
    return encode_public(public_of_batch(batch.games, batch.rules, observers, mask), batch.rules)


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


class VectorEnv:
    """B matches, one learner seat each, opponents played inside (see the module docstring)."""

    def __init__(
        self,
        edition: str = "2022",
        *,
        num_envs: int = 256,
        opponents: str = "greedy",
        rules: Rules | None = None,
        seed: int = 0,
        **options: Any,
    ) -> None:
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {OPPONENTS}, not {opponents!r}")
        self.rules = rules if rules is not None else make_rules(edition, **options)
        self.num_envs = num_envs
        self.opponents = opponents
        self.observation_size = OBS_SIZE
        self.num_actions = NUM_ACTIONS
        self.batch = FastBatch(self.rules, num_envs, seed=seed)
        self._rng = np.random.default_rng(seed)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self._ghost = np.zeros(num_envs, dtype=np.bool_)  # learner out: opponents finish it
        self._acted = np.zeros(num_envs, dtype=np.bool_)  # the learner acted in this match
        self._mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.bool_)

    # ------------------------------------------------------------------ starting

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """New random matches everywhere; ``seed`` reseeds the games and the seat draws."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.batch.reset(seed)
        return self._start()

    def load(
        self, deals: Sequence[Deal], seats: Sequence[int]
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start game i on ``deals[i]`` with the learner at ``seats[i]`` (for tests that replay
        the same deals through the engine). Matches started later are random."""
        self.batch.load(deals)
        return self._start(np.asarray(seats, dtype=np.int64))

    def _start(self, seats: np.ndarray | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        n = self.rules.players
        self.seats = (
            self._rng.integers(0, n, self.num_envs) if seats is None else seats.copy()
        ).astype(np.int64)
        self._ghost[:] = False
        self._acted[:] = False
        reward = np.zeros(self.num_envs)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        self._advance(reward, done)
        return self._observe(), self._info()

    # ------------------------------------------------------------------ playing

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One learner action per game (an index legal under ``info["action_mask"]``); returns
        ``(obs, reward, terminated, truncated, info)``. An illegal action raises
        ``IllegalActionError`` (use the mask)."""
        acts = np.asarray(actions, dtype=np.int64)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"step needs {self.num_envs} actions, got shape {acts.shape}")
        reward = np.zeros(self.num_envs)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        ended = self.batch.step(acts, check=True)
        self._acted[:] = True
        self._settle(ended, reward, done)
        self._advance(reward, done)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._observe(), reward, done, truncated, self._info()

    def _settle(self, ended: np.ndarray, reward: np.ndarray, done: np.ndarray) -> None:
        """Pay the learners whose match just ended or who just left the game."""
        g = self.batch.games
        rows = np.arange(self.num_envs)
        if ended.any():
            result = g["result"][:, : self.rules.players]
            won = result[rows, self.seats] != 0
            share = 1.0 / np.maximum(result.sum(axis=1), 1)
            pay = ended & ~self._ghost & self._acted
            reward[pay] = np.where(won[pay], share[pay], -1.0)
            done |= pay
            # A new match has started in every ended slot: a new learner seat.
            k = int(ended.sum())
            self.seats[ended] = self._rng.integers(0, self.rules.players, k)
            self._ghost[ended] = False
            self._acted[ended] = False
        left = ~ended & ~self._ghost & (g["status"][rows, self.seats] == _OUT)
        if left.any():
            pay = left & self._acted
            reward[pay] = -1.0
            done |= pay
            self._ghost |= left

    def _advance(self, reward: np.ndarray, done: np.ndarray) -> None:
        """Play the opponents (and the learner-less rest of ghost matches) until the learner is
        to play in every game."""
        while True:
            mask = self.batch.legal_mask()
            waiting = self._ghost | (self.batch.to_play != self.seats)
            if not waiting.any():
                self._mask = mask
                return
            if self.opponents == "greedy":
                acts = greedy_actions(self.batch, mask)
            else:
                acts = self.batch.random_actions()
            acts[~waiting] = -1
            ended = self.batch.step(acts, check=False)
            self._settle(ended, reward, done)

    # ------------------------------------------------------------------ reading

    def action_mask(self) -> np.ndarray:
        """B × 18 bool: the learner's legal actions now."""
        return self._mask.copy()

    def _observe(self) -> np.ndarray:
        return encode_public(
            public_of_batch(self.batch.games, self.rules, self.seats, self._mask), self.rules
        )

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "seat": self.seats.copy()}


__all__ = ["OPPONENTS", "VectorEnv", "greedy_actions", "observe", "public_of_batch"]
