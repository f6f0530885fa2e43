"""Tune the planner's constants for one setting by paired self-play against ``greedy``.

    .venv/bin/python scripts/tune_planner.py 2p --games 200000 --seed 1

The planner (``bots.heuristic.Planner``, compiled: ``fast.rollout_policy``) plays one seat of
whole games from fresh deals, ``greedy`` every other seat, seats rotated; its chances come from
the deck as a whole (what it knows before its first card), as a rollout's come from one
decision. A change of one constant is kept when, on the same games (same deals, same
shuffles), it wins more than ``--z`` standard errors of the paired per-game differences more
than the constants it would replace; every comparison plays a new block of seeds, so a change
that only suits one block does not survive the next. Coordinate steps, each constant up and
down, for ``--rounds`` rounds, then the steps halve.

It prints each kept change and, at the end, the constants as a ``Constants(...)`` for
``bots/tuned.py``, and their gain over the heuristic's on a last, fresh block.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from ono99.bots.greedy import RANKED
from ono99.bots.heuristic import DEFAULT, Constants
from ono99.engine import Rules, make_rules
from ono99.fast.batch import FastBatch
from ono99.fast.rollouts import NO_MODELS, NO_TRACE, ranks_array, run_rollouts

SETTINGS = {
    "2p": lambda: make_rules("2022", players=2),
    "4p": lambda: make_rules("2022", players=4),
    "1980": lambda: make_rules("1980", players=4, match="tokens"),
}

# Each constant's first step: multiplied by (1 ± step) where ``relative``, else ± step.
STEPS: dict[str, tuple[float, bool]] = {
    "keep_zero": (0.2, True),
    "keep_reverse": (0.2, True),
    "keep_play2": (0.2, True),
    "keep_hold": (0.2, True),
    "keep_minus_ten": (0.2, True),
    "keep_repeat": (0.1, False),
    "keep_fits": (0.25, False),
    "keep_small": (0.25, True),
    "pressure": (0.2, True),
    "play2_bait": (0.3, False),
    "second_step": (1, False),
    "bust": (0.5, True),
    "hoard": (0.2, False),
    "come_back": (2.0, False),
}


def chances(rules: Rules) -> list[float]:
    """The planner's chances from the whole deck (``Planner`` of unseen = the deck)."""
    from ono99.bots.heuristic import Planner

    counts = np.bincount(np.array(rules.deck), minlength=16).tolist()
    planner = Planner(rules, counts)
    return [planner.p_always, planner.p_deflect, planner.p_minus, *planner.p_number]


def shares(rules: Rules, constants: Constants, games: int, seed: int) -> np.ndarray:
    """The planner seat's win share in each of ``games`` whole games (seats rotated)."""
    n = rules.players
    ranks = ranks_array(RANKED)
    planner = np.array([*chances(rules), *(float(x) for x in constants)], dtype=np.float64)
    out = []
    for me in range(n):
        batch = FastBatch(rules, games // n, seed * n + me, auto_reset=False)
        first = np.full(batch.batch_size, -1, dtype=np.int64)
        run_rollouts(
            batch.games, batch.params, batch.scripts, first, me, ranks, RANKED.margin,
            planner, NO_TRACE, NO_MODELS, planner[:0], 0,
            np.zeros(len(first), dtype=np.int8), np.zeros(len(first), dtype=np.int64),
        )  # fmt: skip
        won = batch.games["winners"][:, :n].astype(np.float64) * batch.games["over"][:, None]
        out.append(won[:, me] / np.maximum(won.sum(axis=1), 1.0))
    return np.concatenate(out)


def paired(rules: Rules, a: Constants, b: Constants, games: int, seed: int) -> tuple[float, float]:
    """b's win share minus a's on the same games, and its standard error."""
    d = shares(rules, b, games, seed) - shares(rules, a, games, seed)
    return float(d.mean()), float(d.std(ddof=1) / len(d) ** 0.5)


def moved(c: Constants, name: str, step: float, relative: bool, sign: int) -> Constants:
    value = getattr(c, name)
    new = value * (1 + sign * step) if relative else value + sign * step
    if name == "second_step":
        new = max(0, round(new))
    elif name in ("keep_repeat", "come_back"):
        new = min(1.0, max(0.0, new)) if name == "keep_repeat" else max(0.0, new)
    changed: dict[str, Any] = {name: round(new, 4) if isinstance(new, float) else new}
    return c._replace(**changed)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("setting", choices=sorted(SETTINGS))
    parser.add_argument("--games", type=int, default=200_000, help="games per comparison")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--z", type=float, default=2.5)
    args = parser.parse_args(argv)
    rules = SETTINGS[args.setting]()
    best = DEFAULT
    seed = args.seed * 1_000_000
    steps = dict(STEPS)
    started = time.perf_counter()
    for round_ in range(args.rounds):
        kept = 0
        for name, (step, relative) in steps.items():
            for sign in (1, -1):
                candidate = moved(best, name, step, relative, sign)
                if candidate == best:
                    continue
                seed += 1
                gain, se = paired(rules, best, candidate, args.games, seed)
                if gain > args.z * se:
                    print(
                        f"round {round_} {name} {getattr(best, name)} -> "
                        f"{getattr(candidate, name)}: {gain * 100:+.2f} ± {1.96 * se * 100:.2f}"
                        f" points ({time.perf_counter() - started:.0f} s)",
                        flush=True,
                    )
                    best = candidate
                    kept += 1
                    break
        print(f"round {round_}: {kept} kept", flush=True)
        steps = {k: (s / 2 if k != "second_step" else s, r) for k, (s, r) in steps.items()}
    seed += 1
    gain, se = paired(rules, DEFAULT, best, args.games * 2, seed)
    base = shares(rules, DEFAULT, args.games * 2, seed).mean()
    print(
        f"{args.setting}: the heuristic's constants win {base * 100:.2f}%; tuned "
        f"{gain * 100:+.2f} ± {1.96 * se * 100:.2f} points on {args.games * 2} fresh games"
    )
    print(best)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
