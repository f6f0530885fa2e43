"""Stable-Baselines3 takes the environments with no glue (the ``train`` extra): MaskablePPO
trains a few hundred steps on the fast vector environment through ``ono99.env.sb3``, against
bots, a frozen snapshot of itself and its own live policy; SB3's ``make_vec_env`` and its env
checker take the registered Gymnasium environment."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_checker import check_env as sb3_check_env
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

from ono99.env import GYM_ID, Ono99Env
from ono99.env.sb3 import SB3VecEnv, policy_of, snapshot_of
from ono99.env.vector import VectorEnv
from tiers import slow

torch.set_num_threads(1)  # the machine is shared: one core per test process


def test_sb3_vec_env_steps_like_sb3_wants() -> None:
    env = VectorEnv(players=3, num_envs=8, opponents="random", seed=0)
    venv = SB3VecEnv(env)
    assert isinstance(venv, VecEnv) and venv.num_envs == 8
    assert is_masking_supported(venv)
    venv.seed(7)
    obs = venv.reset()
    assert obs.shape == (8, 173) and venv.observation_space.contains(obs[0])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        masks = get_action_masks(venv)
        assert masks.shape == (8, 18) and masks.dtype == np.bool_ and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, reward, done, infos = venv.step(actions)
        assert reward.dtype == np.float32 and len(infos) == 8
        for i in np.flatnonzero(done):
            assert venv.observation_space.contains(infos[i]["terminal_observation"])
            assert infos[i]["TimeLimit.truncated"] is False
            assert reward[i] in (-1.0, 1.0)
            ended += 1
        assert (reward[~done] == 0).all()
    assert ended > 10
    # the same seed through SB3's seed() gives the same matches
    venv.seed(7)
    again = venv.reset()
    venv.seed(7)
    np.testing.assert_array_equal(venv.reset(), again)
    venv.close()


@slow
def test_maskable_ppo_trains_on_the_vector_env_and_plays_itself() -> None:
    env = VectorEnv(players=4, num_envs=16, opponents="greedy", seed=1)
    venv = VecMonitor(SB3VecEnv(env))
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=1,
        policy_kwargs={"net_arch": [32]},
    )  # fmt: skip
    model.learn(256)
    assert model.num_timesteps >= 256
    assert len(model.ep_info_buffer) > 0  # episodes ended and were counted
    env.set_opponents(snapshot_of(model))
    model.learn(128, reset_num_timesteps=False)
    env.set_opponents([policy_of(model), "random", "greedy"])
    model.learn(128, reset_num_timesteps=False)
    assert model.num_timesteps >= 512
    # the trained policy, masked, only ever plays legal actions
    obs, info = env.reset(seed=2)
    for _ in range(50):
        actions, _ = model.predict(obs, action_masks=env.action_masks())
        assert info["action_mask"][np.arange(16), actions].all()
        obs, _, _, _, info = env.step(actions)


def test_sb3_make_vec_env_and_checker_take_the_gymnasium_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        venv = make_vec_env(GYM_ID, n_envs=2, env_kwargs={"players": 3})  # renders rgb_array
    obs = venv.reset()
    assert obs.shape == (2, 173)
    frames = venv.get_images()
    assert all(f.dtype == np.uint8 and f.ndim == 3 and f.shape[2] == 3 for f in frames)
    masks = get_action_masks(venv)
    _, _, done, infos = venv.step(masks.argmax(axis=1))
    assert len(infos) == 2 and done.shape == (2,)
    venv.close()
    sb3_check_env(Ono99Env(players=2), warn=True)


# The researcher's snippet as docs/rl.md prints it (its ```py block with SubprocVecEnv), run
# as `python -c`: no __main__ file for the workers to import again; SB3's real SubprocVecEnv.
SUBPROC_SNIPPET = [
    code
    for code in re.findall(
        r"```py\n(.*?)```", (Path(__file__).parents[2] / "docs" / "rl.md").read_text("utf-8"), re.S
    )
    if "SubprocVecEnv" in code
]


@slow
@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_sb3_subproc_workers_find_the_registered_environment(method: str) -> None:
    """The forkserver's workers never imported ono99.env, so the bare id was unknown there
    (Gymnasium 1.x loads no entry-point plugins). Spawned workers, as the page says, are
    given the id with its module, ``ono99.env:ono99/Ono99-v0``."""
    (code,) = SUBPROC_SNIPPET
    assert 'make_vec_env("ono99/Ono99-v0", n_envs=2, vec_env_cls=SubprocVecEnv)' in code
    if method == "spawn":
        code = code.replace(
            '"ono99/Ono99-v0", n_envs=2, vec_env_cls=SubprocVecEnv',
            '"ono99.env:ono99/Ono99-v0", n_envs=2, vec_env_cls=SubprocVecEnv, '
            'vec_env_kwargs={"start_method": "spawn"}',
        )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd="/"
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "subprocess workers 2 (2, 173)" in done.stdout


def test_gymnasium_make_vec_gives_the_fast_vector_env() -> None:
    venv = gym.make_vec(GYM_ID, num_envs=4, vectorization_mode="vector_entry_point", players=3)
    assert isinstance(venv, VectorEnv) and venv.num_envs == 4 and venv.rules.players == 3
    obs, info = venv.reset(seed=1)
    assert obs.shape == (4, 173) and info["action_mask"].shape == (4, 18)
    assert isinstance(gym.make_vec(GYM_ID, num_envs=4), VectorEnv)  # Gymnasium's default then
    venv.close()


def test_snapshot_does_not_follow_the_learner() -> None:
    env = VectorEnv(players=2, num_envs=8, seed=3)
    model = MaskablePPO("MlpPolicy", SB3VecEnv(env), n_steps=16, batch_size=64, seed=3)
    frozen = snapshot_of(model, deterministic=True)
    live = policy_of(model, deterministic=True)
    obs, info = env.reset(seed=3)
    np.testing.assert_array_equal(frozen(obs, info["action_mask"]), live(obs, info["action_mask"]))
    at_snapshot = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(256)
    for p, q in zip(frozen.policy.parameters(), at_snapshot, strict=True):
        assert torch.equal(p, q)  # the snapshot kept the weights it was taken with
    assert any(
        not torch.equal(q, r) for q, r in zip(at_snapshot, model.policy.parameters(), strict=True)
    )


@slow
def test_the_sb3_example_in_docs_rl_runs() -> None:
    """docs/rl.md's ```py blocks need the train extra (the fast,rl profile runs its ```python
    blocks): they run here, as a reader pasting them would."""
    page = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```py\n(.*?)```", page, re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "docs/rl.md", "exec"), {"__name__": "__docs__"})
