"""Expert iteration: the expert's searched moves become the next network's training targets.

One generation, from the network ``W`` (``--init``; the shipped ``neural`` weights by default):

1. **play**: ``--games`` games per setting of the expert searching with ``W`` (``--options``,
   by default ``{"prior": "neural"}``: the network's move as the prior; ``"cutoff": 2`` adds
   its value at a cut-off) against ``greedy`` at every other seat, the expert's seat rotated.
   At every decision the search actually made (more than one candidate), the seat's
   observation, its legal mask and the move the search chose are kept; once the game is over,
   the reward the seat got (+1 a win, −1 a loss, a shared win its share) is the value target of
   each of them.
2. **learn**: from ``W``, minimize the cross-entropy of the policy to the searched moves plus
   ``--value-weight`` times the squared error of the value to the rewards (Adam, PyTorch on the
   CPU, one thread), for ``--epochs`` epochs, holding out a tenth of the games to report on.
3. **save** ``<out-dir>/gen<g>.npz``, the weights ``ono99.bots.neural`` plays in NumPy, and
   ``<out-dir>/gen<g>-data.npz``, the positions it learned from; then the next generation
   starts from it (``--generations``).

The strength of each generation is then measured with ``benchmarks/bench_paired.py``, the
bot or the expert given the weights file (``{"bot": "neural", "weights": "…/gen1.npz"}``,
``{"prior": "neural", "cutoff": 2, "weights": "…/gen1.npz"}``); docs/bots.md has the figures.

    .venv/bin/python examples/expert_iteration.py --games 300 --workers 2 --out-dir /tmp/exit
    .venv/bin/python examples/expert_iteration.py --games 4 --settings 2p --out-dir /tmp/x

Torch is imported by this script only (the ``train`` extra).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core per process
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import torch

from ono99.bots import ExpertBot, make_opponent
from ono99.bots.expert import candidates
from ono99.bots.neural import weights_path
from ono99.engine import Action, Rules, View, make_rules
from ono99.env.rewards import final_reward
from ono99.features import NUM_ACTIONS, OBS_SIZE, encode, legal_mask
from ono99.sim import play_game

sys.path.insert(0, str(Path(__file__).parent))
from train_neural import Net, load_weights

SETTINGS = {
    "2p": lambda: make_rules("2022", players=2),
    "4p": lambda: make_rules("2022", players=4),
    "1980": lambda: make_rules("1980", players=4, match="tokens"),
}


class Recorder:
    """Plays as the expert does and keeps every searched decision (see the module doc)."""

    def __init__(self, expert: ExpertBot) -> None:
        self.expert = expert
        self.name = expert.name
        self.rows: list[tuple[np.ndarray, np.ndarray, int]] = []

    def choose(self, view: View) -> Action:
        action = self.expert.choose(view)
        if len(candidates(view.legal)) > 1:
            self.rows.append((encode(view), legal_mask(view), action.index))
        return action


def play(job: tuple[str, int, dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
    """One game of the searching expert against greedy: its searched positions, their masks,
    the moves it chose and the reward it got, one per position."""
    setting, seed, options = job
    rules: Rules = SETTINGS[setting]()
    me = seed % rules.players
    recorder = Recorder(ExpertBot(seed, **options))
    n = rules.players
    bots = [recorder if s == me else make_opponent("greedy", seed + s) for s in range(n)]
    final = play_game(rules, bots, seed)
    reward = final_reward(final, me)
    n = len(recorder.rows)
    obs = np.stack([r[0] for r in recorder.rows]) if n else np.zeros((0, OBS_SIZE), np.float32)
    mask = np.stack([r[1] for r in recorder.rows]) if n else np.zeros((0, NUM_ACTIONS), np.int8)
    moves = np.array([r[2] for r in recorder.rows], dtype=np.int64)
    return obs, mask, moves, np.full(n, reward, dtype=np.float32)


def generate(settings: list[str], games: int, seed: int, options: dict[str, Any],
             workers: int) -> dict[str, np.ndarray]:  # fmt: skip
    """The positions of ``games`` games per setting, with the game each came from."""
    jobs = [(s, seed + 1000 * k + i, options) for k, s in enumerate(settings) for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(play, jobs, chunksize=2))
    else:
        parts = [play(job) for job in jobs]
    game = np.concatenate([np.full(len(p[2]), g, dtype=np.int64) for g, p in enumerate(parts)])
    return {
        "obs": np.concatenate([p[0] for p in parts]).astype(np.float32),
        "mask": np.concatenate([p[1] for p in parts]).astype(bool),
        "move": np.concatenate([p[2] for p in parts]),
        "reward": np.concatenate([p[3] for p in parts]),
        "game": game,
    }


def learn(net: Net, data: dict[str, np.ndarray], epochs: int, lr: float, value_weight: float,
          seed: int) -> dict[str, float]:  # fmt: skip
    """Fit the policy to the searched moves and the value to the rewards; the held-out
    tenth of the games' agreement with the search and value error, before and after."""
    gen = torch.Generator().manual_seed(seed)
    t = {k: torch.from_numpy(v) for k, v in data.items()}
    held = t["game"] % 10 == 9
    train, test = (~held).nonzero()[:, 0], held.nonzero()[:, 0]

    @torch.no_grad()
    def score(rows: torch.Tensor) -> tuple[float, float]:
        logp, value = net(t["obs"][rows], t["mask"][rows])
        agree = (logp.argmax(1) == t["move"][rows]).float().mean().item()
        return agree, ((value - t["reward"][rows]) ** 2).mean().item()

    before = score(test)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    for _ in range(epochs):
        for chunk in train[torch.randperm(len(train), generator=gen)].split(256):
            logp, value = net(t["obs"][chunk], t["mask"][chunk])
            policy_loss = -logp.gather(1, t["move"][chunk][:, None]).mean()
            value_loss = ((value - t["reward"][chunk]) ** 2).mean()
            loss = policy_loss + value_weight * value_loss
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
    after = score(test)
    return {"positions": len(train) + len(test), "held_out": len(test),
            "agree_before": before[0], "agree_after": after[0],
            "value_mse_before": before[1], "value_mse_after": after[1]}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generations", type=int, default=1)
    parser.add_argument("--games", type=int, default=300, help="games per setting, per generation")
    parser.add_argument("--settings", default="2p,4p", help=f"of {', '.join(SETTINGS)}")
    parser.add_argument("--options", type=json.loads, default={"prior": "neural"},
                        help="the searching expert's options, as a JSON object")  # fmt: skip
    parser.add_argument("--init", type=Path, default=None, help="generation 0's weights")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--value-weight", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out-dir", type=Path, default=Path("."))
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    settings = args.settings.split(",")
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        parser.error(f"unknown settings {', '.join(unknown)}; known: {', '.join(SETTINGS)}")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    weights = Path(args.init or weights_path())
    for g in range(1, args.generations + 1):
        start = time.time()
        options = {**args.options, "weights": str(weights)}
        data = generate(settings, args.games, 100_000 * g + args.seed, options, args.workers)
        played = time.time() - start
        with np.load(weights) as arrays:
            net = Net(arrays["w1"].shape[1])
        load_weights(net, weights)
        report = learn(net, data, args.epochs, args.lr, args.value_weight, args.seed + g)
        out = args.out_dir / f"gen{g}.npz"
        note = (f"expert iteration generation {g}: from {weights.name}, {args.games} games per "
                f"setting ({args.settings}) of the expert {json.dumps(args.options)} vs greedy, "
                f"{report['positions']} searched positions, {args.epochs} epochs, "
                f"seed {args.seed}")  # fmt: skip
        np.savez_compressed(out, note=np.array(note), **net.arrays())
        np.savez_compressed(args.out_dir / f"gen{g}-data.npz", **data)
        print(f"generation {g}: {report['positions']} positions from {len(settings)} x "
              f"{args.games} games in {played:.0f} s; held-out agreement with the search "
              f"{report['agree_before']:.3f} -> {report['agree_after']:.3f}, value error "
              f"{report['value_mse_before']:.3f} -> {report['value_mse_after']:.3f}; "
              f"saved {out}", flush=True)  # fmt: skip
        weights = out
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
