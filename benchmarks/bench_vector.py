"""The fast vector environment through Stable-Baselines3 against the Gymnasium single env that
SB3's ``make_vec_env`` wraps, measured in one run (needs the ``train`` extra).

Run by hand (never part of the tests):

    .venv/bin/python benchmarks/bench_vector.py                 # about three minutes
    .venv/bin/python benchmarks/bench_vector.py --seconds 3 --ppo-steps 4096

Rows, 4-player 2022 single games against ``greedy`` unless said, learner decisions per second
(one "step" is one learner decision; the opponents' moves in between are inside it):

- **stepping**: uniformly random legal actions (the masks read as sb3-contrib reads them),
  ``SB3VecEnv(VectorEnv(num_envs=64))`` against ``make_vec_env("ono99/Ono99-v0", n_envs=8)``
  (a ``DummyVecEnv`` of the engine-backed single env); then the vector env's other opponents:
  ``random``, ``learned`` (its network, batched), a policy callable (a frozen MaskablePPO
  snapshot, the self-play case), ``heuristic`` (a bot that needs the engine: the engine
  backend) and the draw penalty (X2, engine backend too), and ``greedy`` on the engine backend
  for the cost of the backend alone;
- **MaskablePPO**: ``learn()`` timesteps per second on each of the two environments, same
  hyperparameters (n_steps 64 × envs, batch 512, 4 epochs, MLP 64×64), one torch thread.

Each row is the best of ``--repeats`` timed runs of ``--seconds`` after a warm-up; the load
average (``uptime``) is printed before and after, since the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_util import make_vec_env

from ono99.env import GYM_ID
from ono99.env.sb3 import SB3VecEnv, snapshot_of
from ono99.env.vector import VectorEnv


def load() -> str:
    with open("/proc/loadavg", encoding="ascii") as f:
        return " ".join(f.read().split()[:3])


def stepping(venv: Any, seconds: float, repeats: int) -> float:
    """Learner decisions per second with random legal actions, masks read each step."""
    rng = np.random.default_rng(0)
    venv.reset()

    def run(limit: float) -> tuple[int, float]:
        steps, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < limit:
            masks = get_action_masks(venv)
            noise = rng.random(masks.shape)
            venv.step(np.argmax(np.where(masks, noise, -1.0), axis=1))
            steps += venv.num_envs
        return steps, elapsed

    run(min(1.0, seconds))  # warm-up: compilation, caches
    return max(s / t for s, t in (run(seconds) for _ in range(repeats)))


def ppo_rate(venv: Any, steps: int) -> float:
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=64, batch_size=512, n_epochs=4, seed=0,
        policy_kwargs={"net_arch": [64, 64]},
    )  # fmt: skip
    model.learn(min(steps, 64 * venv.num_envs))  # warm-up
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=True)
    return model.num_timesteps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--single-envs", type=int, default=8)
    ap.add_argument("--ppo-steps", type=int, default=16384)
    args = ap.parse_args()
    torch.set_num_threads(1)
    print(f"load average before: {load()}")
    snapshot_model = MaskablePPO("MlpPolicy", SB3VecEnv(VectorEnv(num_envs=8)), seed=0)
    rows: list[tuple[str, Callable[[], Any]]] = [
        ("SB3VecEnv(VectorEnv) greedy, fast", lambda: SB3VecEnv(VectorEnv(num_envs=args.num_envs))),
        (
            f"make_vec_env({GYM_ID}) greedy",
            lambda: make_vec_env(GYM_ID, n_envs=args.single_envs, env_kwargs={"players": 4}),
        ),
        (
            "SB3VecEnv(VectorEnv) random",
            lambda: SB3VecEnv(VectorEnv(num_envs=args.num_envs, opponents="random")),
        ),
        (
            "SB3VecEnv(VectorEnv) learned",
            lambda: SB3VecEnv(VectorEnv(num_envs=args.num_envs, opponents="learned")),
        ),
        (
            "SB3VecEnv(VectorEnv) PPO snapshot",
            lambda: SB3VecEnv(
                VectorEnv(num_envs=args.num_envs, opponents=snapshot_of(snapshot_model))
            ),
        ),
        (
            "SB3VecEnv(VectorEnv) greedy, engine",
            lambda: SB3VecEnv(VectorEnv(num_envs=args.num_envs, backend="engine")),
        ),
        (
            "SB3VecEnv(VectorEnv) heuristic, engine",
            lambda: SB3VecEnv(VectorEnv(num_envs=args.num_envs, opponents="heuristic")),
        ),
        (
            "SB3VecEnv(VectorEnv) greedy, draw penalty",
            lambda: SB3VecEnv(VectorEnv(num_envs=args.num_envs, draw_penalty=True)),
        ),
    ]
    rates: dict[str, float] = {}
    print(f"\nstepping, random legal actions ({args.seconds:g} s × {args.repeats}, best):")
    for name, make in rows:
        rates[name] = stepping(make(), args.seconds, args.repeats)
        print(f"  {name:44s} {rates[name]:>10,.0f} steps/s", flush=True)
    fast, single = rates[rows[0][0]], rates[rows[1][0]]
    print(f"  vector / single: {fast / single:.1f}×")
    print(f"\nMaskablePPO.learn({args.ppo_steps:,}) timesteps/s:")
    ppo_fast = ppo_rate(SB3VecEnv(VectorEnv(num_envs=args.num_envs)), args.ppo_steps)
    print(f"  {rows[0][0]:44s} {ppo_fast:>10,.0f} steps/s", flush=True)
    ppo_single = ppo_rate(
        make_vec_env(GYM_ID, n_envs=args.single_envs, env_kwargs={"players": 4}), args.ppo_steps
    )
    print(f"  {rows[1][0]:44s} {ppo_single:>10,.0f} steps/s")
    print(f"  vector / single: {ppo_fast / ppo_single:.1f}×")
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
