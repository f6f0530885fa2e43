"""The Gymnasium single-agent environment (ono99.env.gym_env): Gymnasium's env checker, full
episodes with random legal actions, the illegal-action penalty, seeding and opponents."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from ono99.bots import OracleBot, UnknownBotError, make_bot
from ono99.engine import OUT, Action, State, make_rules, to_act, view
from ono99.env import GYM_ID, Ono99Env
from ono99.env.rewards import final_reward
from ono99.features import encode

CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 4, "opponents": ("greedy", "random", "greedy"), "seat": "random"},
    {"players": 6, "opponents": "random", "seat": 5, "ono99_on_tens": True},
    {"edition": "1980", "players": 3, "draw_penalty": True, "seat": "random"},
    {"edition": "1980", "players": 5, "tokens": 0, "opponents": ("random",)},
    {"players": 3, "match": "tokens", "tokens": 1, "seat": 1},
    {"players": 4, "match": "points", "target": 60, "seat": "random"},
    {"edition": "1980", "players": 2, "match": "points", "target": 40, "bust_total": "keep"},
    {
        "players": 5,
        "match": "points",
        "target": 30,
        "variant": "lowest_score",
        "draw_penalty": True,
    },
]


def _id(kw: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in kw.items())


@pytest.mark.parametrize("kw", CONFIGS[::2], ids=[_id(kw) for kw in CONFIGS[::2]])
def test_gymnasium_check_env(kw: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gym.make(GYM_ID, **kw)
        check_env(env.unwrapped)  # with a spec, so that every render mode is checked too
        env.close()
    assert [str(w.message) for w in caught] == []
    assert "total" in capsys.readouterr().out  # the "human" render mode printed


def play_episode(env: Any, seed: int, rng: random.Random) -> tuple[float, dict[str, Any]]:
    raw = env.unwrapped
    obs, info = env.reset(seed=seed)
    while True:
        game = raw.game
        seat = raw.seat
        assert info["seat"] == seat and not info["illegal_action"]
        assert obs in env.observation_space
        assert np.array_equal(obs, encode(view(game, seat)))
        mask = info["action_mask"]
        assert mask.dtype == np.int8
        assert np.array_equal(raw.action_masks(), mask.astype(bool))
        legal = np.nonzero(mask)[0].tolist()
        assert legal == [a.index for a in view(game, seat).legal]
        assert to_act(game) == seat and not game.over
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal))
        assert not truncated
        if terminated:
            return float(reward), info
        assert reward == 0.0


@pytest.mark.parametrize("kw", CONFIGS, ids=[_id(kw) for kw in CONFIGS])
def test_random_masked_episodes_finish(kw: dict[str, Any]) -> None:
    env = gym.make(GYM_ID, **kw)
    raw = env.unwrapped
    rng = random.Random(0)
    seats = set()
    for seed in range(3):
        reward, info = play_episode(env, seed, rng)
        final = raw.game
        seat = raw.seat
        seats.add(seat)
        assert final.over or final.status[seat] == OUT
        assert reward == final_reward(final, seat)
        if final.over:
            assert info["winners"] == final.winners
            assert reward == (1 / len(final.winners) if seat in final.winners else -1.0)
        else:
            assert reward == -1.0 and "winners" not in info
        assert not info["action_mask"].any() and not raw.action_masks().any()
        with pytest.raises(RuntimeError, match="reset"):
            env.step(0)
    if kw.get("seat") in (None, 0, 1, 5):
        assert seats == {kw.get("seat", 0)}


def test_a_random_seat_varies() -> None:
    env = Ono99Env(players=4, seat="random")
    seats = set()
    for seed in range(20):
        env.reset(seed=seed)
        seats.add(env.seat)
    assert seats == {0, 1, 2, 3}


@pytest.mark.parametrize("bad", ["masked", 18, -3, 2.5, "play 7", None, np.array([1, 2])])
def test_an_illegal_action_ends_the_episode_with_a_penalty(bad: object) -> None:
    env = Ono99Env(players=3)
    _, info = env.reset(seed=9)
    before = env.game
    if isinstance(bad, str) and bad == "masked":
        bad = int(np.nonzero(info["action_mask"] == 0)[0][0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] is True
    assert env.game is before  # the game is left as it was
    assert np.array_equal(obs, encode(view(before, env.seat)))
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_the_illegal_penalty_is_configurable() -> None:
    env = Ono99Env(players=2, illegal_reward=-3)
    env.reset(seed=1)
    assert env.step(17)[1] == -3.0  # draw: never legal without the draw penalty


def test_seeding_is_deterministic() -> None:
    def run(seed: int) -> list[tuple[bytes, float]]:
        env = Ono99Env(players=4, opponents=("random", "greedy", "random"), seat="random")
        obs, info = env.reset(seed=seed)
        rng = random.Random(1)
        out = [(obs.tobytes(), 0.0)]
        terminated = False
        while not terminated:
            legal = np.nonzero(info["action_mask"])[0].tolist()
            obs, reward, terminated, _, info = env.step(rng.choice(legal))
            out.append((obs.tobytes(), float(reward)))
        return out

    assert run(21) == run(21)
    assert len({tuple(run(s)) for s in (21, 22, 23)}) == 3


def test_opponents_are_checked_and_placed_clockwise() -> None:
    with pytest.raises(UnknownBotError):
        Ono99Env(opponents=("nobody",))
    with pytest.raises(ValueError, match="opponents"):
        Ono99Env(players=4, opponents=("greedy", "random"))
    with pytest.raises(ValueError, match="seat"):
        Ono99Env(players=3, seat=3)
    with pytest.raises(ValueError, match="bot"):
        Ono99Env(players=2, opponents=(42,))
    bot = make_bot("greedy")
    env = Ono99Env(players=3, opponents=(bot, "random"), seat=1)
    env.reset(seed=0)
    assert env._bots[2] is bot and env._bots[0].name == "random" and env._bots[1] is None


def test_an_omniscient_opponent_is_handed_the_referees_state() -> None:
    """The opponents move through the one game loop, which hands an ``OmniscientBot`` the
    whole state (the referee's); the learner still sees its own view only."""
    oracle = OracleBot(1, worlds=2, max_rollouts=4)
    asked: list[State] = []
    choose_state = oracle.choose_state

    def spy(state: State, seat: int) -> Action:
        asked.append(state)
        return choose_state(state, seat)

    oracle.choose_state = spy  # type: ignore[method-assign]
    env = Ono99Env(players=2, opponents=oracle)
    obs, info = env.reset(seed=4)
    terminated = False
    while not terminated:
        obs, _, terminated, _, info = env.step(int(np.nonzero(info["action_mask"])[0][0]))
    assert asked and all(isinstance(s, State) for s in asked)
    assert obs.tobytes() == encode(view(env._game(), env.seat)).tobytes()


def test_registered_with_gymnasium() -> None:
    env = gym.make(GYM_ID, edition="1980", players=3, opponents="random")
    assert isinstance(env.unwrapped, Ono99Env)
    assert env.unwrapped.rules == make_rules("1980", players=3)
    assert env.action_space == gym.spaces.Discrete(18)
    env.close()
