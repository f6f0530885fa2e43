"""The PettingZoo AEC environment (ono99.env.pettingzoo_env): PettingZoo's own API and seed
tests, full random games with masks in every format, dead agents, the draw penalty (X2),
rewards and illegal actions."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from invariants import config_id, sweep_configs
from ono99.engine import DRAW, OUT, RulesError, make_rules, to_act, view
from ono99.env import pettingzoo_env
from ono99.env.rewards import final_reward
from ono99.features import encode

# PettingZoo's checker recommends a bare array observation; an observation that carries its
# action mask is a dict, as in PettingZoo's own classic card games, which its checker exempts by
# name. These two notes are the only warnings allowed.
ALLOWED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or",
)

API_CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "ono99_on_tens": True},
    {"players": 4},
    {"players": 5, "draw_penalty": True},
    {"players": 6, "max_total": 99},
    {"edition": "1980", "players": 2},
    {"edition": "1980", "players": 4, "draw_penalty": True},
    {"edition": "1980", "players": 6, "match": "single"},
    {"edition": "1980", "players": 3, "tokens": 0},
    {"players": 3, "match": "tokens", "tokens": 1},
    {"players": 4, "match": "points", "target": 60},
    {"edition": "1980", "players": 5, "match": "points", "target": 40, "bust_total": "keep"},
    {"players": 6, "match": "points", "target": 80, "variant": "lowest_score"},
    {"edition": "1980", "players": 2, "match": "points", "target": 50, "draw_penalty": True},
]
GAME_CONFIGS = sweep_configs()[5::13]  # 31 rule sets: both editions, every format, 2–6 players


def _id(kw: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in kw.items())


def quietly(fn: Callable[..., object], *args: Any, **kwargs: Any) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args, **kwargs)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(ALLOWED_WARNINGS)]
    assert not unexpected, unexpected


@pytest.mark.parametrize("kw", API_CONFIGS, ids=[_id(kw) for kw in API_CONFIGS])
def test_pettingzoo_api_test(kw: dict[str, Any]) -> None:
    quietly(api_test, pettingzoo_env.env(**kw), num_cycles=1000)


@pytest.mark.parametrize("kw", API_CONFIGS[::4], ids=[_id(kw) for kw in API_CONFIGS[::4]])
def test_pettingzoo_seed_test(kw: dict[str, Any]) -> None:
    quietly(seed_test, lambda: pettingzoo_env.env(**kw), num_cycles=200)


# --------------------------------------------------------------------------- full games


def play(env: Any, seed: int, rng: random.Random) -> dict[str, Any]:
    """One episode with random legal actions, checking the environment at every step."""
    env.reset(seed=seed)
    raw = env.unwrapped
    totals = dict.fromkeys(env.possible_agents, 0.0)
    gone_at: dict[str, int] = {}
    steps = 0
    draws_only = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        seat = raw.agent_name_mapping[agent]
        game = raw.game
        totals[agent] += reward
        assert not truncated
        assert np.array_equal(obs["observation"], encode(view(game, seat)))
        assert env.observation_space(agent).contains(obs)
        if terminated:
            assert game.over or game.status[seat] == OUT
            assert not obs["action_mask"].any()
            gone_at[agent] = steps
            env.step(None)
            continue
        # Dead agents step first: nobody alive is asked while a seat out of the game is pending.
        assert all(game.status[raw.agent_name_mapping[a]] != OUT for a in env.agents)
        assert seat == to_act(game)
        mask = obs["action_mask"]
        legal = sorted(a.index for a in view(game, seat).legal)
        assert np.nonzero(mask)[0].tolist() == legal and legal
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        if legal == [DRAW.index]:
            draws_only += 1
        env.step(rng.choice(legal))
        steps += 1
    final = raw.game
    assert final.over and env.agents == []
    for agent, total in totals.items():
        assert total == final_reward(final, raw.agent_name_mapping[agent]), agent
    return {"final": final, "gone_at": gone_at, "steps": steps, "draws_only": draws_only}


@pytest.mark.parametrize(
    ("index", "rules"), list(enumerate(GAME_CONFIGS)), ids=[config_id(r) for r in GAME_CONFIGS]
)
def test_random_games_with_masks(index: int, rules) -> None:
    env = pettingzoo_env.env(rules=rules)
    rng = random.Random(index)
    result = play(env, 100 + index, rng)
    final = result["final"]
    winners = final.winners
    assert sum(final_reward(final, s) for s in winners) == pytest.approx(1.0)
    if rules.draw_penalty:
        assert result["draws_only"] > 0
    else:
        assert result["draws_only"] == 0


def test_dead_agents_are_terminated_when_they_leave() -> None:
    """E1: a seat eliminated mid-game gets −1 at once, steps None, leaves env.agents, and the
    game goes on without it."""
    env = pettingzoo_env.env(players=5)
    seen = 0
    for seed in range(10):
        result = play(env, seed, random.Random(seed))
        final = result["final"]
        first_out = f"player_{final.out[0]}"
        assert result["gone_at"][first_out] < result["steps"]  # before the game ended
        assert final_reward(final, final.out[0]) == -1.0
        seen += 1
    assert seen == 10


def test_tokens_match_is_one_episode_and_leavers_are_terminated() -> None:
    rules = make_rules("1980", players=4, tokens=1)
    env = pettingzoo_env.env(rules=rules)
    result = play(env, 3, random.Random(3))
    final = result["final"]
    assert final.round > 2  # several rounds in one episode
    assert sorted(result["gone_at"], key=result["gone_at"].get)[0] == f"player_{final.out[0]}"


def test_draw_penalty_asks_the_drawer_first() -> None:
    """X2: a seat owing a draw is asked before anyone plays; its only legal action is draw,
    unless it is also the seat to play (its second owed card), when it may play instead."""
    env = pettingzoo_env.env(players=3, draw_penalty=True)
    env.reset(seed=11)
    raw = env.unwrapped
    rng = random.Random(11)
    forced = choice = 0
    for agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        seat = raw.agent_name_mapping[agent]
        game = raw.game
        legal = np.nonzero(obs["action_mask"])[0].tolist()
        if game.owes_draw:
            assert seat == game.owes_draw[0]
            if seat != game.to_play:
                assert legal == [DRAW.index]
                forced += 1
            elif len(legal) > 1:
                assert DRAW.index in legal
                choice += 1
        else:
            assert DRAW.index not in legal
        env.step(rng.choice(legal))
    assert forced and choice


def test_shared_winners_split_the_win() -> None:
    """M3: tied winners share +1; everyone else gets −1."""
    rules = make_rules("2022", players=4, match="points", target=1, variant="lowest_score")
    env = pettingzoo_env.env(rules=rules)
    for seed in range(200):
        result = play(env, seed, random.Random(seed))
        winners = result["final"].winners
        if len(winners) > 1:
            assert final_reward(result["final"], winners[0]) == pytest.approx(1 / len(winners))
            return
    raise AssertionError("no tied game found")


# --------------------------------------------------------------------------- illegal actions


@pytest.mark.parametrize("bad", ["masked", 18, -1, "play 7", 2.0, True, None])
def test_an_illegal_action_ends_the_episode(bad: object) -> None:
    env = pettingzoo_env.env(players=4)
    env.reset(seed=5)
    offender = env.agent_selection
    if bad == "masked":
        bad = int(np.nonzero(env.last()[0]["action_mask"] == 0)[0][0])
    env.step(bad)
    assert all(env.terminations.values()) and len(env.agents) == 4
    assert env.infos[offender] == {"illegal_action": True}
    rewards = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        assert not env.observe(agent)["action_mask"].any()
        rewards[agent] = reward
        env.step(None)
    assert rewards == {a: (-1.0 if a == offender else 0.0) for a in rewards} and len(rewards) == 4


def test_illegal_reward_is_configurable() -> None:
    env = pettingzoo_env.env(players=2, illegal_reward=-5)
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(17)  # draw: never legal without the draw penalty
    assert env.rewards[offender] == -5.0 and env.unwrapped._cumulative_rewards[offender] == -5.0


# --------------------------------------------------------------------------- the rest


def test_agents_spaces_and_seeding() -> None:
    env = pettingzoo_env.env(edition="1980", players=6)
    env.reset(seed=3)
    assert env.possible_agents == [f"player_{i}" for i in range(6)]
    space = env.observation_space("player_0")
    assert space["action_mask"].shape == (18,) and space["action_mask"].dtype == np.int8
    assert env.action_space("player_5").n == 18
    first = env.unwrapped.game
    env.reset(seed=3)
    assert env.unwrapped.game == first
    env.reset(seed=4)
    assert env.unwrapped.game != first


def test_bad_options_and_order() -> None:
    with pytest.raises(RulesError):
        pettingzoo_env.env(players=7)
    with pytest.raises(ValueError, match="either"):
        pettingzoo_env.env(rules=make_rules(), players=3)
    with pytest.raises(ValueError, match="render_mode"):
        pettingzoo_env.env(render_mode="rgb_array")
    env = pettingzoo_env.env()
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)


def test_render_shows_the_public_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = pettingzoo_env.env(players=3, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "total 0" in text and "seat 2" in text
    assert "(you)" not in text  # a spectator's view: no hand is shown
    human = pettingzoo_env.env(players=3, render_mode="human")
    human.reset(seed=2)
    mask = human.last()[0]["action_mask"]
    human.step(int(np.nonzero(mask)[0][0]))
    assert "last: seat" in capsys.readouterr().out
