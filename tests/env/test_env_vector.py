"""The vectorized environment against the engine, observation by observation (STYLE.md
principle 9).

Engine games are played with random legal actions; their deals (``Deal.of``) are loaded into the
batch simulator, the same actions are stepped, and after every action the batch observation of
EVERY seat (``public_of_batch`` + ``encode_public``) must equal ``encode(view(state, seat))``
(that its ``greedy`` opponents choose as ``GreedyBot`` does is tests/bots/test_greedy.py's). Then
``VectorEnv`` itself is driven on the same deals as engine games whose opponents are
``GreedyBot``s, on both backends (the batch simulator with the greedy port, and engine games
with ``GreedyBot``s): its observations, masks, rewards and episode ends must match the engine's
at every learner decision.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ono99.bots import GreedyBot
from ono99.engine import Rules, State, apply, legal_actions, make_rules, new_game, view
from ono99.engine.state import OUT
from ono99.env.core import final_reward
from ono99.env.vector import VectorEnv, observe
from ono99.features import encode
from ono99.sim.fast import Deal, FastBatch
from tiers import sampled, slow

CONFIGS = [
    make_rules("2022", players=2),
    make_rules("2022", players=4),
    make_rules("1980", players=2, match="tokens"),
    make_rules("1980", players=4, match="tokens"),
    make_rules("2022", players=3, match="points"),
    make_rules("2022", players=4, match="points", bust_total="keep", max_total=60),
    make_rules("2022", players=5, match="single", max_total=300),  # long rounds: reshuffles
]
GAMES = {"single": 12, "tokens": 4, "points": 6}  # engine games per configuration
IDS = [f"{r.edition}-{r.match}-{r.players}p-{r.max_total}" for r in CONFIGS]


def random_game(rules: Rules, seed: int) -> tuple[list[State], list[int]]:
    rng = random.Random(seed)
    state = new_game(rules, seed)
    states, actions = [state], []
    while not state.over:
        action = rng.choice(legal_actions(state))
        state = apply(state, state.to_play, action)
        states.append(state)
        actions.append(action.index)
    return states, actions


@pytest.mark.parametrize("rules", sampled(CONFIGS, 2, ids=lambda r: IDS[CONFIGS.index(r)]))
def test_batch_observations_equal_the_engine_encoder(rules: Rules) -> None:
    games = [random_game(rules, 100 + k) for k in range(GAMES[rules.match])]
    if rules.max_total > 98:
        assert sum(states[-1].reshuffle_count for states, _ in games) > 0
    batch = FastBatch(rules, len(games), auto_reset=False)
    batch.load([Deal.of(states[-1]) for states, _ in games])
    n = rules.players
    compared = 0
    for t in range(max(len(a) for _, a in games) + 1):
        if t > 0:
            batch.step([a[t - 1] if t <= len(a) else -1 for _, a in games])
        mask = batch.legal_mask()
        live = [i for i, (_, a) in enumerate(games) if t <= len(a)]
        for seat in range(n):
            got = observe(batch, np.full(len(games), seat), mask)
            for i in live:
                want = encode(view(games[i][0][t], seat))
                np.testing.assert_array_equal(got[i], want, err_msg=f"game {i} t {t} seat {seat}")
                compared += 1
    assert compared > 50 * n


class LearnerGame:
    """An engine match from one learner seat's side: the learner plays random legal actions,
    every other seat is a ``GreedyBot``; it records what the learner saw and did."""

    def __init__(self, rules: Rules, seed: int, seat: int) -> None:
        rng = random.Random(seed)
        greedy = GreedyBot()
        state = new_game(rules, seed)
        self.seat = seat
        self.obs: list[np.ndarray] = []
        self.legal: list[list[int]] = []
        self.actions: list[int] = []
        while not state.over and state.status[seat] != OUT:
            if state.to_play == seat:
                legal = legal_actions(state, seat)
                self.obs.append(encode(view(state, seat)))
                self.legal.append([a.index for a in legal])
                action = rng.choice(legal)
                self.actions.append(action.index)
            else:
                action = greedy.choose(view(state, state.to_play))
            state = apply(state, state.to_play, action)
        self.reward = final_reward(state, seat)
        self.deal = Deal.of(state)


@pytest.mark.parametrize("backend", ["fast", "engine"])
@pytest.mark.parametrize("rules", sampled(CONFIGS, 2, ids=lambda r: IDS[CONFIGS.index(r)]))
def test_vector_env_matches_engine_games_against_greedy(rules: Rules, backend: str) -> None:
    rng = random.Random(7)
    games = [LearnerGame(rules, 500 + k, rng.randrange(rules.players)) for k in range(16)]
    games = [g for g in games if g.actions]  # a learner out before acting has no episode
    b = len(games)
    env = VectorEnv(rules=rules, num_envs=b, opponents="greedy", seed=3, backend=backend)
    obs, info = env.load([g.deal for g in games], [g.seat for g in games])
    pending = set(range(b))
    t = 0
    while pending:
        actions = np.zeros(b, dtype=np.int64)
        for k in range(b):
            mask = np.flatnonzero(info["action_mask"][k]).tolist()
            if k not in pending:
                actions[k] = mask[0]  # a later random match in this slot
                continue
            g = games[k]
            np.testing.assert_array_equal(obs[k], g.obs[t], err_msg=f"slot {k} decision {t}")
            assert mask == g.legal[t]
            assert info["seat"][k] == g.seat
            actions[k] = g.actions[t]
        obs, reward, done, truncated, info = env.step(actions)
        assert not truncated.any()
        t += 1
        for k in sorted(pending):
            last = t == len(games[k].actions)
            assert bool(done[k]) == last, f"slot {k}: episode end after decision {t}"
            assert reward[k] == (games[k].reward if last else 0.0)
            if last:
                pending.discard(k)
    assert b >= 12 and t >= 3


@slow
def test_vector_env_runs_and_pays_every_episode() -> None:
    env = VectorEnv(players=4, num_envs=64, opponents="random", seed=1)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    rewards = []
    for _ in range(200):
        assert obs.shape == (64, 173) and obs.dtype == np.float32
        mask = info["action_mask"]
        assert mask.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, reward, done, _, info = env.step(actions)
        assert (reward[~done] == 0).all()
        rewards.extend(reward[done].tolist())
    assert len(rewards) > 100
    assert set(np.unique(rewards)) <= {-1.0, 1.0}  # single games: one winner
    assert 0.1 < np.mean(np.array(rewards) > 0) < 0.45  # random vs random, 4 players


def test_vector_env_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        VectorEnv(opponents="nobody")
    with pytest.raises(ValueError, match="backend='engine'"):
        VectorEnv(opponents="heuristic", backend="fast")
    env = VectorEnv(num_envs=4)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="4 actions"):
        env.step([0, 1])
