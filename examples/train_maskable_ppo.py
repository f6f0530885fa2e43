"""Train sb3-contrib's MaskablePPO on the fast vector environment, then measure it (``train``
extra: torch, Stable-Baselines3, sb3-contrib).

The environment is ``ono99.env.vector.VectorEnv`` (the batch simulator; the learner's seat drawn
at random for every match), presented to SB3 by ``ono99.env.sb3.SB3VecEnv``: no other glue.
``--self-play K`` trains against frozen snapshots of the learner itself, refreshed every K
timesteps (``snapshot_of``), with ``--opponents`` at the start; otherwise the opponents stay
``--opponents`` (any bot name; ``greedy``, ``random`` and ``learned`` run batched in the
simulator). At the end, the deterministic policy plays ``--eval-games`` matches against
``greedy`` in a fresh environment and its win rate is printed with the fair share.

    .venv/bin/python examples/train_maskable_ppo.py --timesteps 200000 --out /tmp/ppo
    .venv/bin/python examples/train_maskable_ppo.py --timesteps 2048 --eval-games 50  # smoke
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: the machine is shared

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecMonitor

from ono99.env.sb3 import SB3VecEnv, snapshot_of
from ono99.env.vector import VectorEnv


class SelfPlay(BaseCallback):
    """Every ``every`` timesteps, the opponents become a frozen copy of the learner."""

    def __init__(self, env: VectorEnv, every: int) -> None:
        super().__init__()
        self.env, self.every, self.last, self.snapshots = env, every, 0, 0

    def _on_step(self) -> bool:
        if self.num_timesteps - self.last >= self.every:
            self.env.set_opponents(snapshot_of(self.model))
            self.last = self.num_timesteps
            self.snapshots += 1
        return True


def evaluate(model: MaskablePPO, players: int, games: int, seed: int) -> tuple[int, int]:
    """Matches won and played by the deterministic policy against greedy opponents."""
    env = VectorEnv(players=players, opponents="greedy", num_envs=min(games, 256), seed=seed)
    obs, _ = env.reset(seed=seed)
    won = played = 0
    while played < games:
        actions, _ = model.predict(obs, deterministic=True, action_masks=env.action_masks())
        obs, reward, terminated, _, _ = env.step(actions)
        won += int((reward[terminated] > 0).sum())
        played += int(terminated.sum())
    return won, played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timesteps", type=int, default=200_000, help="learner decisions to train")
    ap.add_argument("--num-envs", type=int, default=64, help="matches stepped at once")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="greedy", help="a bot name (default: greedy)")
    ap.add_argument(
        "--self-play",
        type=int,
        default=0,
        metavar="K",
        help="opponents: a snapshot of the learner, refreshed every K timesteps",
    )
    ap.add_argument("--n-steps", type=int, default=64, help="PPO rollout length per env")
    ap.add_argument("--eval-games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="save the model here (a .zip)")
    args = ap.parse_args()
    torch.set_num_threads(1)

    env = VectorEnv(
        players=args.players, opponents=args.opponents, num_envs=args.num_envs, seed=args.seed
    )
    venv = VecMonitor(SB3VecEnv(env))
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=args.n_steps,
        batch_size=min(1024, args.n_steps * args.num_envs),
        n_epochs=4,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        verbose=0,
    )
    callback = SelfPlay(env, args.self_play) if args.self_play else None
    start = time.perf_counter()
    model.learn(args.timesteps, callback=callback)
    seconds = time.perf_counter() - start
    how = f"self-play, {callback.snapshots} snapshots" if callback else f"vs {args.opponents}"
    print(
        f"MaskablePPO on VectorEnv ({args.players} players, {args.num_envs} envs, {how}): "
        f"{model.num_timesteps:,} timesteps in {seconds:.1f} s "
        f"({model.num_timesteps / seconds:,.0f} steps/s)"
    )
    won, played = evaluate(model, args.players, args.eval_games, args.seed + 1_000_003)
    print(
        f"evaluation vs greedy: won {won} of {played} ({won / played:.1%}; "
        f"fair share {1 / args.players:.1%})"
    )
    if args.out is not None:
        model.save(args.out)
        print(f"model saved to {args.out.with_suffix('.zip')}")
    venv.close()


if __name__ == "__main__":
    main()
