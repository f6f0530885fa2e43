"""The fast vector environment as a Gymnasium vector environment (ono99.env.vector): spaces,
same-step autoreset with final observations and infos stacked as ``SyncVectorEnv`` stacks the
single environment's, seeds, the illegal-action rule of the single environments, one mask
dtype, Gymnasium's vector wrappers; and its opponents: policies, snapshots, any bot (the engine
backend), the draw penalty (X2)."""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

from ono99.bots import make_bot
from ono99.bots.learned import LearnedBot
from ono99.engine import ALL_ACTIONS, apply, legal_actions, make_rules, new_game, view
from ono99.env import Ono99Env
from ono99.env.pettingzoo_env import env as aec_env
from ono99.env.vector import LearnedPolicy, VectorEnv
from ono99.features import encode


def random_actions(info: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])


def structure(info: dict[str, Any]) -> dict[str, Any]:
    """Every key of a vector info with the dtype and shape of its value (nested)."""
    out: dict[str, Any] = {}
    for k, v in info.items():
        if isinstance(v, dict):
            out[k] = structure(v)
        else:
            out[k] = (np.asarray(v).dtype.kind, np.asarray(v).shape)
    return out


def test_spaces_metadata_and_one_mask_dtype() -> None:
    env = VectorEnv(players=4, num_envs=8, seed=0)
    assert isinstance(env, gym.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    single = Ono99Env(players=4)
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.observation_space.shape == (8, 173)
    assert env.action_space.shape == (8,)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert env.action_space.contains(env.action_space.sample())
    # int8 masks in every environment: vector, Gymnasium, PettingZoo.
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (8, 18)
    assert single.reset(seed=0)[1]["action_mask"].dtype == np.int8
    aec = aec_env(players=3)
    aec.reset(seed=0)
    assert aec.observe(aec.agent_selection)["action_mask"].dtype == np.int8
    # action_masks() is the same mask as bool, as MaskablePPO wants it, in both.
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
    assert single.action_masks().dtype == np.bool_
    env.close()
    assert env.closed


def test_same_step_autoreset_stacks_like_sync_vector_env() -> None:
    """Ended episodes: reward paid, final_obs / final_info hold the last observation and info
    (winners where the match is over), obs is already the next episode's; the info keys and
    dtypes are those SyncVectorEnv gives over the single environment in the same mode."""
    b = 16
    env = VectorEnv(players=4, num_envs=b, opponents="random", seed=1)
    sync = SyncVectorEnv(
        [lambda: Ono99Env(players=4, opponents="random", seat="random") for _ in range(b)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=1)
    _, sinfo = sync.reset(seed=1)
    assert structure(info) == structure(sinfo)
    seen_final = seen_sync_final = seen_winners = 0
    for _ in range(60):
        prev_seat = info["seat"].copy()
        obs, reward, terminated, truncated, info = env.step(random_actions(info, rng))
        assert not truncated.any() and (reward[~terminated] == 0).all()
        if terminated.any():
            seen_final += 1
            assert (info["_final_obs"] == terminated).all()
            assert (info["_final_info"] == terminated).all()
            final = info["final_info"]
            has_winners = final.get("_winners", np.zeros(b, dtype=bool))
            seen_winners += int(has_winners.sum())
            for i in np.flatnonzero(terminated):
                assert env.single_observation_space.contains(info["final_obs"][i])
                assert final["seat"][i] == prev_seat[i]
                assert not final["action_mask"][i].any()  # the episode is over: nothing legal
                if has_winners[i]:
                    won = prev_seat[i] in final["winners"][i]
                    assert reward[i] == (1.0 / len(final["winners"][i]) if won else -1.0)
                else:
                    assert reward[i] == -1.0  # the learner left the game before its end
            for i in np.flatnonzero(~terminated):
                assert info["final_obs"][i] is None
        assert env.observation_space.contains(obs)
        _, _, sterm, _, sinfo = sync.step(random_actions(sinfo, rng))
        if sterm.any() and terminated.any():
            seen_sync_final += 1
            want = structure(sinfo)
            got = structure(info)
            # winners are objects in both; masks of their presence are bool in both
            assert got.keys() == want.keys()
            assert got["final_info"].keys() - {"winners", "_winners"} == (
                want["final_info"].keys() - {"winners", "_winners"}
            )
            for k in ("action_mask", "seat", "illegal_action"):
                assert got["final_info"][k] == want["final_info"][k], k
            for k in ("winners", "_winners"):
                if k in got["final_info"] and k in want["final_info"]:
                    assert got["final_info"][k] == want["final_info"][k], k
    assert seen_final > 10 and seen_sync_final > 3 and seen_winners > 5


def test_seeds_int_and_list_and_options() -> None:
    env = VectorEnv(players=3, num_envs=6, seed=0)
    a, _ = env.reset(seed=5)
    b, _ = env.reset(seed=5, options={})
    c, _ = env.reset(seed=6)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    seeds = [11, 12, 13, 14, 15, 16]
    d, di = env.reset(seed=seeds)
    e, ei = env.reset(seed=seeds)
    np.testing.assert_array_equal(d, e)
    np.testing.assert_array_equal(di["seat"], ei["seat"])
    assert env.np_random_seed == seeds
    for bad in ([1, 2], -1, "x", 1.5, [1, 2, 3, 4, 5, -6]):
        with pytest.raises(ValueError, match="seed must be"):
            env.reset(seed=bad)
    with pytest.raises(ValueError, match="options"):
        env.reset(options="reset_mask")  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", ["fast", "engine"])
def test_illegal_action_ends_the_episode_with_minus_one(backend: str) -> None:
    env = VectorEnv(players=4, num_envs=8, opponents="greedy", seed=2, backend=backend)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(1)
    acts = random_actions(info, rng)
    illegal = np.flatnonzero(info["action_mask"][0] == 0)[0]
    acts[0] = illegal  # masked out
    acts[1] = 99  # not an action
    _, reward, terminated, _, info2 = env.step(acts)
    for i in (0, 1):
        assert terminated[i] and reward[i] == -1.0
        assert info2["final_info"]["illegal_action"][i]
        np.testing.assert_array_equal(info2["final_obs"][i], obs[i])  # the game was left as is
    others = np.arange(2, 8)
    assert not info2["final_info"]["illegal_action"][others].any()
    assert set(reward[others][~terminated[others]]) <= {0.0}
    acts = np.asarray(random_actions(info2, rng), dtype=np.float64)
    acts[3] = 0.5  # not an integer: illegal too, as in the single environment
    _, reward, terminated, _, info3 = env.step(acts)
    assert terminated[3] and reward[3] == -1.0 and info3["final_info"]["illegal_action"][3]
    for _ in range(30):  # and play goes on in every slot
        _, _, _, _, info3 = env.step(random_actions(info3, rng))
    env2 = VectorEnv(players=2, num_envs=4, illegal_reward=-5.0, backend=backend)
    _, info = env2.reset(seed=0)
    bad = np.array([np.flatnonzero(m == 0)[0] for m in info["action_mask"]])
    assert (env2.step(bad)[1] == -5.0).all()


def test_gymnasium_vector_wrappers_take_it() -> None:
    env = DictInfoToList(RecordEpisodeStatistics(VectorEnv(players=2, num_envs=8, seed=0)))
    _, infos = env.reset(seed=0)
    assert isinstance(infos, list) and len(infos) == 8
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(40):
        acts = np.array([rng.choice(np.flatnonzero(i["action_mask"])) for i in infos])
        _, reward, terminated, _, infos = env.step(acts)
        for i in np.flatnonzero(terminated):
            assert infos[i]["episode"]["r"] == reward[i]  # one reward per episode, at its end
            episodes += 1
    assert episodes > 10


def test_learned_policy_chooses_as_the_learned_bot() -> None:
    bot, policy = LearnedBot(), LearnedPolicy()
    rng = random.Random(0)
    for rules in (make_rules("2022", players=4), make_rules("1980", players=3, draw_penalty=True)):
        views = []
        for g in range(6):
            state = new_game(rules, g)
            while not state.over and len(views) < 40 * (g + 1):
                seat = state.owes_draw[0] if state.owes_draw else state.to_play
                v = view(state, seat)
                views.append(v)
                state = apply(state, seat, rng.choice(legal_actions(state, seat)))
        obs = np.stack([encode(v) for v in views])
        mask = np.zeros((len(views), 18), dtype=np.int8)
        for k, v in enumerate(views):
            mask[k, [a.index for a in v.legal]] = 1
        got = policy(obs, mask)
        assert [ALL_ACTIONS[a] for a in got] == [bot.choose(v) for v in views]


class Recorder:
    """A policy opponent that checks what it is given and plays its first legal action."""

    def __init__(self) -> None:
        self.calls = 0
        self.rows = 0

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        assert obs.dtype == np.float32 and obs.shape[1] == 173 and mask.dtype == np.int8
        assert (mask.sum(axis=1) > 0).all()
        np.testing.assert_array_equal(obs[:, 16:34], mask)  # the acting seat's own view
        self.calls += 1
        self.rows += len(obs)
        return mask.argmax(axis=1)


@pytest.mark.parametrize("backend", ["fast", "engine"])
def test_policy_opponents_and_learner_seats(backend: str) -> None:
    rec = Recorder()
    env = VectorEnv(
        players=4,
        num_envs=16,
        seat=(1, 3),
        opponents=(rec, "greedy", "random"),
        seed=0,
        backend=backend,
    )
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    seats = set()
    for _ in range(40):
        seats |= set(info["seat"].tolist())
        _, _, _, _, info = env.step(random_actions(info, rng))
    assert seats == {1, 3}
    assert rec.calls >= 40 and rec.rows > rec.calls  # batched: many games per call
    env.set_opponents(lambda obs, mask: np.full(len(obs), 17))  # draw: never legal here
    with pytest.raises(ValueError, match="illegal action"):
        for _ in range(5):
            env.step(random_actions(info, rng))
    with pytest.raises(ValueError, match="seat must be"):
        VectorEnv(players=4, seat=(0, 4))


def test_engine_backend_any_bot_and_the_draw_penalty() -> None:
    env = VectorEnv(
        "1980", players=3, num_envs=6, opponents=("heuristic", make_bot("learned")),
        draw_penalty=True, seed=4,
    )  # fmt: skip
    assert env.backend == "engine"
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    draws = episodes = 0
    for _ in range(150):
        draws += int(info["action_mask"][:, 17].sum())
        obs, _, terminated, _, info = env.step(random_actions(info, rng))
        episodes += int(terminated.sum())
        assert env.observation_space.contains(obs)
    assert draws > 0 and episodes > 3
