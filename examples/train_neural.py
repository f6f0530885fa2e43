"""Train the ``neural`` bot's policy/value network with PyTorch (CPU), on the batch simulator.

The network is an MLP on the shared observation (``ono99.features``, 173 entries):
173 → H (ReLU) → H (ReLU), then a policy head (H → 18, a masked softmax over the legal actions)
and a value head (H → 1, tanh: the learner's expected reward, −1 … +1). It is trained with PPO
(clipped surrogate, ε = 0.2; GAE with γ = 1, λ = 0.95; Adam; entropy bonus) on several
``ono99.env.vector.VectorEnv`` tables at once, each a rule set and an opponent kind:

- ``greedy``: the learner against ``greedy`` bots at every other seat (the bots run batched
  inside the environment, as fast as the simulator);
- ``self``: self-play, every other seat played by a frozen snapshot of the learner itself
  (argmax of its policy), refreshed every ``--snapshot`` iterations.

A table is ``edition/players/opponents`` with an optional ``/tokens`` for a tokens match, e.g.
``2022/4/greedy,2022/2/greedy,1980/4/greedy/tokens,2022/4/self``. The learner's seat is drawn
for every match. Training stops after ``--minutes`` of wall time (or ``--iterations``) and
saves ``<out-dir>/neural.npz``: float32 weights ``w1 b1 w2 b2 wp bp wv bv`` that
``ono99.bots.neural`` runs in NumPy alone, and a ``note`` saying how they were made.

    .venv/bin/python examples/train_neural.py --minutes 30 --out-dir /tmp/neural   # one core
    .venv/bin/python examples/train_neural.py --iterations 2 --num-envs 32 --out-dir /tmp/x

Torch is imported here only (the ``train`` extra); playing needs NumPy alone.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: the machine is shared
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import torch
from torch import nn

from ono99.bots.neural import NeuralNet
from ono99.env.vector import VectorEnv
from ono99.features import NUM_ACTIONS, OBS_SIZE


class Net(nn.Module):
    """The torch twin of ``ono99.bots.neural.NeuralNet`` (same layers, same names)."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.l1 = nn.Linear(OBS_SIZE, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.policy = nn.Linear(hidden, NUM_ACTIONS)
        self.value = nn.Linear(hidden, 1)
        with torch.no_grad():
            self.policy.weight.mul_(0.01)
            self.value.weight.mul_(0.01)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked log-probabilities and values."""
        h = torch.relu(self.l2(torch.relu(self.l1(obs))))
        logits = self.policy(h).masked_fill(~mask, -1e9)
        return torch.log_softmax(logits, dim=1), torch.tanh(self.value(h))[:, 0]

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights as ``NeuralNet`` takes them (inputs on the rows)."""
        out = {}
        for name, layer in (("1", self.l1), ("2", self.l2), ("p", self.policy), ("v", self.value)):
            out[f"w{name}"] = layer.weight.detach().numpy().T.astype(np.float32).copy()
            out[f"b{name}"] = layer.bias.detach().numpy().astype(np.float32).copy()
        return out


def load_weights(net: Net, path: Path) -> None:
    """Weights saved by ``Net.arrays`` (a ``neural.npz``) into ``net``, of the same sizes."""
    with np.load(path) as data:
        layers = (("1", net.l1), ("2", net.l2), ("p", net.policy), ("v", net.value))
        with torch.no_grad():
            for name, layer in layers:
                layer.weight.copy_(torch.from_numpy(data[f"w{name}"].T.copy()))
                layer.bias.copy_(torch.from_numpy(data[f"b{name}"]))


class Table:
    """One vector environment of one rule set and opponent kind, with its rollout buffer."""

    def __init__(self, spec: str, num_envs: int, seed: int) -> None:
        parts = spec.split("/")
        edition, players, self.kind = parts[0], int(parts[1]), parts[2]
        options = {"match": parts[3]} if len(parts) > 3 else {}
        self.name = spec
        self.players = players
        opponents = "greedy" if self.kind == "greedy" else "random"  # self: set below
        self.env = VectorEnv(edition, players=players, opponents=opponents, num_envs=num_envs,
                             seed=seed, **options)  # fmt: skip
        self.obs, info = self.env.reset(seed=seed)
        self.mask = info["action_mask"].astype(bool)
        self.recent: list[float] = []

    def snapshot(self, net: Net) -> None:
        if self.kind == "self":
            self.env.set_opponents(NeuralNet(net.arrays()).policy)

    @torch.no_grad()
    def rollout(self, net: Net, steps: int, gen: torch.Generator) -> dict[str, torch.Tensor]:
        b = self.env.num_envs
        obs = torch.zeros((steps, b, OBS_SIZE))
        mask = torch.zeros((steps, b, NUM_ACTIONS), dtype=torch.bool)
        act = torch.zeros((steps, b), dtype=torch.long)
        logp = torch.zeros((steps, b))
        value = torch.zeros((steps + 1, b))
        reward = torch.zeros((steps, b))
        done = torch.zeros((steps, b))
        for t in range(steps):
            o, m = torch.from_numpy(self.obs), torch.from_numpy(self.mask)
            lp, v = net(o, m)
            a = torch.multinomial(lp.exp(), 1, generator=gen)[:, 0]
            obs[t], mask[t], act[t], value[t] = o, m, a, v
            logp[t] = lp.gather(1, a[:, None])[:, 0]
            self.obs, r, d, _, info = self.env.step(a.numpy())
            self.mask = info["action_mask"].astype(bool)
            reward[t], done[t] = torch.from_numpy(r), torch.from_numpy(d.astype(np.float32))
            self.recent.extend((r[d] > 0).astype(float).tolist())
        value[steps] = net(torch.from_numpy(self.obs), torch.from_numpy(self.mask))[1]
        adv = torch.zeros((steps, b))
        last = torch.zeros(b)
        for t in reversed(range(steps)):  # GAE, gamma 1: a done step does not bootstrap
            keep = 1.0 - done[t]
            delta = reward[t] + keep * value[t + 1] - value[t]
            last = delta + 0.95 * keep * last
            adv[t] = last
        flat = {"obs": obs, "mask": mask, "act": act, "logp": logp, "adv": adv}
        out = {k: v.reshape(steps * b, *v.shape[2:]) for k, v in flat.items()}
        out["ret"] = (adv + value[:steps]).reshape(-1)
        return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="wall-time budget")
    parser.add_argument("--iterations", type=int, default=None, help="stop after this many")
    parser.add_argument("--tables", default="2022/4/greedy,2022/2/greedy,1980/4/greedy/tokens")
    parser.add_argument("--num-envs", type=int, default=256, help="games per table")
    parser.add_argument("--steps", type=int, default=32, help="rollout length per iteration")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatch", type=int, default=2048)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--snapshot", type=int, default=20, help="self-play refresh, iterations")
    parser.add_argument("--init", type=Path, default=None, help="start from these weights")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out-dir", type=Path, default=Path("."))
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    net = Net(args.hidden)
    if args.init is not None:
        load_weights(net, args.init)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    tables = [Table(s, args.num_envs, args.seed * 100 + k)
              for k, s in enumerate(args.tables.split(","))]  # fmt: skip
    for t in tables:
        t.snapshot(net)
    start = time.time()
    decisions = 0
    iteration = 0
    out = args.out_dir / "neural.npz"
    args.out_dir.mkdir(parents=True, exist_ok=True)

    def save() -> None:
        note = (f"PPO (torch), tables {args.tables}, hidden {args.hidden}, {decisions} learner "
                f"decisions, {iteration} iterations, {time.time() - start:.0f} s, "
                f"seed {args.seed}, init {args.init}")  # fmt: skip
        np.savez_compressed(out, note=np.array(note), **net.arrays())
        print(note, flush=True)

    while True:
        if args.iterations is not None and iteration >= args.iterations:
            break
        if args.iterations is None and time.time() - start > 60 * args.minutes:
            break
        iteration += 1
        bufs = [t.rollout(net, args.steps, gen) for t in tables]
        data = {k: torch.cat([b[k] for b in bufs]) for k in bufs[0]}
        n = data["act"].shape[0]
        decisions += n
        adv = data["adv"]
        data["adv"] = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(args.epochs):
            for chunk in torch.randperm(n, generator=gen).split(args.minibatch):
                logp, value = net(data["obs"][chunk], data["mask"][chunk])
                new = logp.gather(1, data["act"][chunk][:, None])[:, 0]
                ratio = (new - data["logp"][chunk]).exp()
                a = data["adv"][chunk]
                surrogate = torch.min(ratio * a, ratio.clamp(0.8, 1.2) * a).mean()
                prob = logp.exp()
                entropy = -(prob * logp.masked_fill(~data["mask"][chunk], 0.0)).sum(1).mean()
                value_loss = ((value - data["ret"][chunk]) ** 2).mean()
                loss = -surrogate + 0.5 * value_loss - args.entropy * entropy
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
        if iteration % args.snapshot == 0:
            for t in tables:
                t.snapshot(net)
        for t in tables:
            t.recent = t.recent[-4000:]
        if iteration % 10 == 0 or args.iterations is not None:
            rates = ", ".join(f"{t.name} {100 * np.mean(t.recent or [0.0]):.1f}%" for t in tables)
            print(f"iter {iteration} decisions {decisions} {time.time() - start:.0f}s: {rates}",
                  flush=True)  # fmt: skip
        if iteration % 100 == 0:
            save()
    save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
