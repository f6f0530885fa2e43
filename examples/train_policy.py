"""Train a small policy for ONO 99 on the vectorized environment, with NumPy only.

The policy is an MLP, 173 → 128 (tanh) → 18, with a masked softmax over the legal actions; a
value head (128 → 1) on the same hidden layer serves as the baseline. Training is PPO (clipped
surrogate, generalized advantage estimation with γ = 1, λ = 0.95, Adam), on-policy, on
``ono99.env.vector.VectorEnv`` tables where the learner's opponents are the ``greedy`` bot
(played inside the environment by its NumPy port), by default one 4-player and one 2-player
table of 2022 single games. Gradients are written out by hand, so no deep-learning framework is
needed, and the weights are saved as a small ``.npz`` that the ``learned`` bot
(``ono99.bots.learned``) reads with NumPy alone.

    .venv/bin/python examples/train_policy.py --minutes 15          # the shipped weights
    .venv/bin/python examples/train_policy.py --iterations 3 --out-dir /tmp/x   # a smoke run

It writes ``<out-dir>/learned-2022.npz`` (policy weights), ``<out-dir>/learning-curve.png`` and
``<out-dir>/learning-curve.csv`` (win rate per table against training steps).
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: the machine is shared
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from ono99.env.vector import VectorEnv

OBS, HIDDEN, ACTIONS = 173, 128, 18
NEG = -1e9  # logit of an illegal action


def init_params(rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {
        "w1": rng.normal(0, 1 / np.sqrt(OBS), (OBS, HIDDEN)),
        "b1": np.zeros(HIDDEN),
        "w2": rng.normal(0, 0.01, (HIDDEN, ACTIONS)),
        "b2": np.zeros(ACTIONS),
        "wv": rng.normal(0, 0.01, (HIDDEN, 1)),
        "bv": np.zeros(1),
    }


def forward(
    p: dict[str, np.ndarray], obs: np.ndarray, mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hidden layer, log-probabilities (masked) and values."""
    h = np.tanh(obs @ p["w1"] + p["b1"])
    logits = np.where(mask, h @ p["w2"] + p["b2"], NEG)
    logits -= logits.max(axis=1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    value = (h @ p["wv"] + p["bv"])[:, 0]
    return h, logp, value


def sample(logp: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row from the masked distribution (Gumbel-max)."""
    return np.argmax(logp - np.log(-np.log(rng.random(logp.shape))), axis=1)


class Adam:
    def __init__(self, params: dict[str, np.ndarray], lr: float) -> None:
        self.lr = lr
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def update(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        norm = np.sqrt(sum(float((g**2).sum()) for g in grads.values()))
        scale = min(1.0, 0.5 / (norm + 1e-8))  # gradient clipping at norm 0.5
        for k, g in grads.items():
            g = g * scale
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            params[k] -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def ppo_grads(
    p: dict[str, np.ndarray],
    obs: np.ndarray,
    mask: np.ndarray,
    act: np.ndarray,
    old_logp: np.ndarray,
    adv: np.ndarray,
    ret: np.ndarray,
    clip: float = 0.2,
    vf_coef: float = 0.5,
    ent_coef: float = 0.01,
) -> dict[str, np.ndarray]:
    """Gradients of the PPO loss (clipped surrogate + value MSE − entropy bonus), by hand."""
    n = obs.shape[0]
    rows = np.arange(n)
    h, logp, value = forward(p, obs, mask)
    prob = np.exp(logp)
    ratio = np.exp(logp[rows, act] - old_logp)
    active = np.where(adv >= 0, ratio < 1 + clip, ratio > 1 - clip)
    # d(-ratio * adv)/d logp[a] = -ratio * adv where the clip is inactive.
    coef = np.where(active, -ratio * adv, 0.0) / n
    onehot = np.zeros_like(prob)
    onehot[rows, act] = 1.0
    dlogits = coef[:, None] * (onehot - prob)
    safe_logp = np.where(mask, logp, 0.0)
    entropy = -(prob * safe_logp).sum(axis=1, keepdims=True)
    dlogits += ent_coef / n * prob * (safe_logp + entropy)  # gradient of −ent_coef · H
    dlogits = np.where(mask, dlogits, 0.0)
    dvalue = vf_coef * 2 * (value - ret) / n
    grads = {
        "w2": h.T @ dlogits,
        "b2": dlogits.sum(axis=0),
        "wv": h.T @ dvalue[:, None],
        "bv": np.array([dvalue.sum()]),
    }
    dh = dlogits @ p["w2"].T + dvalue[:, None] @ p["wv"].T
    dpre = dh * (1 - h * h)
    grads["w1"] = obs.T @ dpre
    grads["b1"] = dpre.sum(axis=0)
    return grads


class Table:
    """One vector environment and its rollout bookkeeping."""

    def __init__(self, players: int, opponents: str, num_envs: int, seed: int) -> None:
        self.name = f"{players}p vs {opponents}"
        self.env = VectorEnv("2022", players=players, opponents=opponents, num_envs=num_envs,
                             seed=seed)  # fmt: skip
        self.obs, info = self.env.reset(seed=seed)
        self.mask = info["action_mask"]
        self.recent: list[float] = []  # outcomes of recent episodes (1 = a win)

    def rollout(
        self, p: dict[str, np.ndarray], steps: int, rng: np.random.Generator
    ) -> dict[str, np.ndarray]:
        b = self.env.num_envs
        buf = {
            "obs": np.zeros((steps, b, OBS), np.float32),
            "mask": np.zeros((steps, b, ACTIONS), bool),
            "act": np.zeros((steps, b), np.int64),
            "logp": np.zeros((steps, b)),
            "value": np.zeros((steps + 1, b)),
            "reward": np.zeros((steps, b)),
            "done": np.zeros((steps, b), bool),
        }
        for t in range(steps):
            _, logp, value = forward(p, self.obs, self.mask)
            act = sample(logp, rng)
            buf["obs"][t], buf["mask"][t], buf["act"][t] = self.obs, self.mask, act
            buf["logp"][t] = logp[np.arange(b), act]
            buf["value"][t] = value
            self.obs, reward, done, _, info = self.env.step(act)
            self.mask = info["action_mask"]
            buf["reward"][t], buf["done"][t] = reward, done
            self.recent.extend((reward[done] > 0).astype(float).tolist())
        buf["value"][steps] = forward(p, self.obs, self.mask)[2]
        # GAE with gamma = 1: a done step does not bootstrap from the next match.
        adv = np.zeros((steps, b))
        last = np.zeros(b)
        for t in reversed(range(steps)):
            nonterminal = 1.0 - buf["done"][t]
            delta = buf["reward"][t] + nonterminal * buf["value"][t + 1] - buf["value"][t]
            last = delta + 0.95 * nonterminal * last
            adv[t] = last
        buf["adv"] = adv
        buf["ret"] = adv + buf["value"][:steps]
        return buf


def save_policy(path: Path, p: dict[str, np.ndarray], note: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        w1=p["w1"].astype(np.float32),
        b1=p["b1"].astype(np.float32),
        w2=p["w2"].astype(np.float32),
        b2=p["b2"].astype(np.float32),
        note=np.array(note),
    )


def plot(curve: list[dict[str, float]], names: list[str], path: Path, baselines: dict[str, float]):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    x = [row["steps"] / 1e6 for row in curve]
    for i, name in enumerate(names):
        color = f"C{i}"
        ax.plot(x, [100 * row[name] for row in curve], color=color, label=f"learned, {name}")
        if name in baselines:
            ax.axhline(100 * baselines[name], color=color, ls=":", lw=1,
                       label=f"fair share, {name}")  # fmt: skip
    ax.set_xlabel("learner decisions in training (millions)")
    ax.set_ylabel("win rate over recent training games (%)")
    ax.set_title("PPO policy (173→128→18) vs greedy bots, ONO 99 2022 single game")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="wall-time budget")
    parser.add_argument("--iterations", type=int, default=None, help="stop after this many")
    parser.add_argument("--tables", default="4:greedy,2:greedy",
                        help="players:opponents per table, comma-separated")  # fmt: skip
    parser.add_argument("--num-envs", type=int, default=512, help="games per table")
    parser.add_argument("--steps", type=int, default=32, help="rollout length per iteration")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out-dir", type=Path, default=Path("."))
    parser.add_argument("--no-plot", action="store_true")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    params = init_params(rng)
    opt = Adam(params, args.lr)
    tables = []
    for k, spec in enumerate(args.tables.split(",")):
        players, opponents = spec.split(":")
        tables.append(Table(int(players), opponents, args.num_envs, args.seed * 100 + k))
    names = [t.name for t in tables]
    baselines = {t.name: 1 / t.env.rules.players for t in tables}
    curve: list[dict[str, float]] = []
    steps_done = 0
    start = time.time()
    iteration = 0
    while True:
        if args.iterations is not None and iteration >= args.iterations:
            break
        if args.iterations is None and time.time() - start > 60 * args.minutes:
            break
        iteration += 1
        bufs = [t.rollout(params, args.steps, rng) for t in tables]
        data = {
            k: np.concatenate([b[k].reshape(-1, *b[k].shape[2:]) for b in bufs])
            for k in ("obs", "mask", "act", "logp", "adv", "ret")
        }
        n = data["act"].shape[0]
        steps_done += n
        adv = data["adv"]
        data["adv"] = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(args.epochs):
            order = rng.permutation(n)
            for chunk in np.array_split(order, args.minibatches):
                grads = ppo_grads(params, data["obs"][chunk], data["mask"][chunk],
                                  data["act"][chunk], data["logp"][chunk], data["adv"][chunk],
                                  data["ret"][chunk])  # fmt: skip
                opt.update(params, grads)
        row: dict[str, float] = {"iteration": iteration, "steps": steps_done,
                                 "seconds": time.time() - start}  # fmt: skip
        for t in tables:
            recent = t.recent[-4000:]
            t.recent = recent
            row[t.name] = float(np.mean(recent)) if recent else float("nan")
        curve.append(row)
        if iteration % 10 == 0 or args.iterations is not None:
            rates = ", ".join(f"{name} {100 * row[name]:.1f}%" for name in names)
            # Not evaluate_policy.py's figure: these are the learner's own training games, its
            # moves sampled from the policy (exploring), the last 4,000 per table.
            print(
                f"iter {iteration} steps {steps_done} {row['seconds']:.0f}s: training games, "
                f"moves sampled (evaluate_policy.py plays its best move): {rates}",
                flush=True,
            )

    args.out_dir.mkdir(parents=True, exist_ok=True)
    note = (f"PPO, tables {args.tables}, {steps_done} learner decisions, "
            f"{time.time() - start:.0f} s, seed {args.seed}")  # fmt: skip
    save_policy(args.out_dir / "learned-2022.npz", params, note)
    with open(args.out_dir / "learning-curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["iteration", "steps", "seconds", *names])
        writer.writeheader()
        writer.writerows(curve)
    if not args.no_plot and curve:
        plot(curve, names, args.out_dir / "learning-curve.png", baselines)
    print(note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
