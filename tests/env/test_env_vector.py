"""The vectorized environment against the engine, observation by observation (STYLE.md
principle 9).

Engine games are played with random legal actions; their deals (``Deal.of``) are loaded into the
batch simulator, the same actions are stepped, and after every action the batch observation of
EVERY seat (``public_of_records`` + ``encode_public``) must equal ``encode(view(state, seat))``
(that its ``greedy`` opponents choose as ``GreedyBot`` does is tests/bots/test_greedy.py's). Then
``VectorEnv`` itself is driven on the same deals as engine games whose opponents move through
the game loop (``ono99.sim.driver.advance``), on both backends (the batch simulator with its
batched bots, and engine games): its observations, masks, rewards and episode ends must match
the loop's at every learner decision. That is the one contract of the loop's declared second
implementation (the batch backend), and it holds the engine backend to the loop as well: bots
that only the loop knows how to drive (one that sees the whole state), and bots that fail, must
behave there as the loop says.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ono99.bots import Agent, GreedyBot, HeuristicBot, LearnedBot, OmniscientBot
from ono99.engine import (
    ALL_ACTIONS,
    Action,
    Rules,
    State,
    View,
    apply,
    legal_actions,
    make_rules,
    new_game,
    view,
)
from ono99.engine.state import OUT
from ono99.env.rewards import final_reward
from ono99.env.vector import VectorEnv, observe
from ono99.features import encode, legal_mask
from ono99.sim.driver import BotError, advance
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
    """An engine match from one learner seat's side, played by the game loop: the learner plays
    random legal actions, ``opponent`` (a ``GreedyBot`` unless given) sits at every other seat
    and moves through ``advance``; it records what the learner saw and did."""

    def __init__(self, rules: Rules, seed: int, seat: int, opponent: Agent | None = None) -> None:
        rng = random.Random(seed)
        bot = opponent if opponent is not None else GreedyBot()
        agents = [None if s == seat else bot for s in range(rules.players)]

        def out(state: State) -> bool:
            return state.status[seat] == OUT

        state = advance(new_game(rules, seed), agents, stop=out)
        self.seat = seat
        self.obs: list[np.ndarray] = []
        self.legal: list[list[int]] = []
        self.actions: list[int] = []
        while not state.over and not out(state):
            legal = legal_actions(state, seat)
            self.obs.append(encode(view(state, seat)))
            self.legal.append([a.index for a in legal])
            action = rng.choice(legal)
            self.actions.append(action.index)
            state = advance(apply(state, seat, action), agents, stop=out)
        self.reward = final_reward(state, seat)
        self.deal = Deal.of(state)


class Peeker(OmniscientBot):
    """A bot that plays from the whole state (as the oracle does, cheaply): its choice hangs on
    every hidden card, so only ``decide`` (``choose_state``) can drive it."""

    name = "peeker"

    def choose_state(self, state: State, seat: int) -> Action:
        legal = legal_actions(state, seat)
        top = state.pile[state.pile_pos : state.pile_pos + 3]
        hidden = sum(sum(hand) for hand in state.hands) + sum(top)
        return legal[hidden % len(legal)]


@pytest.mark.parametrize("backend", ["fast", "engine"])
@pytest.mark.parametrize("rules", sampled(CONFIGS, 2, ids=lambda r: IDS[CONFIGS.index(r)]))
def test_vector_env_matches_engine_games_against_greedy(rules: Rules, backend: str) -> None:
    plays_as_the_loop(rules, backend, "greedy", GreedyBot())


OPPONENTS = [
    ("fast", "learned", LearnedBot),  # the batched network against the bot
    ("engine", "learned", LearnedBot),  # the same policy on engine games
    ("engine", "heuristic", HeuristicBot),  # a bot by name: the loop's move
    ("engine", Peeker(), Peeker),  # a bot that sees everything: the loop's decide
]


@pytest.mark.parametrize(
    ("backend", "spec", "bot"), OPPONENTS, ids=[f"{o[0]}-{o[2].__name__}" for o in OPPONENTS]
)
@pytest.mark.parametrize("rules", sampled(CONFIGS, 1, ids=lambda r: IDS[CONFIGS.index(r)]))
def test_vector_env_plays_every_kind_of_opponent_as_the_loop(
    rules: Rules, backend: str, spec: object, bot: type
) -> None:
    plays_as_the_loop(rules, backend, spec, bot())


def plays_as_the_loop(rules: Rules, backend: str, spec: object, opponent: Agent) -> None:
    rng = random.Random(7)
    games = [LearnerGame(rules, 500 + k, rng.randrange(rules.players), opponent) for k in range(16)]
    games = [g for g in games if g.actions]  # a learner out before acting has no episode
    b = len(games)
    env = VectorEnv(rules=rules, num_envs=b, opponents=spec, seed=3, backend=backend)  # type: ignore[arg-type]
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


class Broken:
    """A bot from outside that fails: it raises, or (``illegal``) names an action never legal."""

    name = "broken"

    def __init__(self, illegal: bool) -> None:
        self.illegal = illegal

    def choose(self, v: View) -> Action:
        if self.illegal:
            return next(a for a in ALL_ACTIONS if a not in legal_actions_of(v))
        raise KeyError("no such card")


def legal_actions_of(v: View) -> list[Action]:
    return [a for a in ALL_ACTIONS if legal_mask(v)[a.index]]


@pytest.mark.parametrize(
    ("illegal", "says"), [(False, "raised KeyError"), (True, "chose an illegal action")]
)
def test_a_failing_bot_in_the_vector_env_is_the_loops_bot_error(illegal: bool, says: str) -> None:
    env = VectorEnv(players=2, num_envs=4, opponents=Broken(illegal), seat=0, seed=5)
    with pytest.raises(BotError, match=f"bot 'broken' at seat 1 {says}") as failed:
        _, info = env.reset(seed=5)
        for _ in range(20):  # the bot is asked before the learner's first move or soon after
            _, _, _, _, info = env.step(info["action_mask"].argmax(axis=1))
    assert failed.value.seat == 1 and failed.value.bot == "broken"


def test_the_oracle_can_sit_in_the_vector_env() -> None:
    """The registry's omniscient bot, by name: the loop's ``decide`` gives it the whole state."""
    env = VectorEnv(players=2, num_envs=2, opponents="oracle", seed=1)
    assert env.backend == "engine"
    obs, info = env.reset(seed=1)
    for _ in range(3):
        obs, _, _, _, info = env.step(info["action_mask"].argmax(axis=1))
    assert obs.shape == (2, 173) and info["action_mask"].any(axis=1).all()
