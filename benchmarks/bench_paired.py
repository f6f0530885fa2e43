"""Paired comparison of expert settings: the same games, each setting in turn, against greedy.

Run by hand (never part of the tests):

    .venv/bin/python benchmarks/bench_paired.py 2p 2000 78000 '[{"infer": false}, {"infer": true}]'

Arguments: the setting (``4p``, ``2p`` or ``1980``), the number of games, the base seed, and
a JSON list of ``ExpertBot`` keyword arguments, one dict per variant. Game ``i`` uses seed
``SEED + i``, seats the expert at ``i mod players`` and gives it the bot seed ``SEED * 10 + i``
whatever the variant, so each variant plays the same deals and draws and differs only where
its choices differ. Every 500 games it prints each variant's win share and, for each variant
after the first, the paired difference from the first with a 95% interval (1.96 standard
errors of the per-game differences). That interval is far narrower than comparing two
independent win rates.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ono99.bots import Bot, ExpertBot, make_bot
from ono99.engine import Rules, make_rules
from ono99.sim import play_game

SETTINGS: dict[str, Callable[[], Rules]] = {
    "4p": lambda: make_rules("2022", players=4),
    "2p": lambda: make_rules("2022", players=2),
    "1980": lambda: make_rules("1980", players=4, match="tokens"),
}


def one(job: tuple[str, int, int, list[dict[str, Any]]]) -> list[float]:
    setting, i, seed, variants = job
    rules = SETTINGS[setting]()
    n = rules.players
    me = i % n
    shares = []
    for options in variants:
        bots: list[Bot] = [
            ExpertBot(seed * 10 + i, **options) if s == me else make_bot("greedy") for s in range(n)
        ]
        final = play_game(rules, bots, seed + i)
        shares.append(1 / len(final.winners) if me in final.winners else 0.0)
    return shares


def report(setting: str, variants: list[dict[str, Any]], results: list[list[float]]) -> str:
    n = len(results)
    means = [sum(r[j] for r in results) / n for j in range(len(variants))]
    line = f"{setting} n={n} " + " ".join(
        f"{json.dumps(v)}={m:.3f}" for v, m in zip(variants, means, strict=True)
    )
    for j in range(1, len(variants)):
        diffs = [r[j] - r[0] for r in results]
        mean = sum(diffs) / n
        se = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n) ** 0.5
        line += f" | diff{j}={mean * 100:+.2f} ± {1.96 * se * 100:.2f} points"
    return line


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[0] not in SETTINGS:
        print(__doc__)
        return 2
    setting, games, seed = argv[0], int(argv[1]), int(argv[2])
    variants: list[dict[str, Any]] = json.loads(argv[3])
    jobs = [(setting, i, seed, variants) for i in range(games)]
    results: list[list[float]] = []
    with ProcessPoolExecutor(2) as pool:
        for k, shares in enumerate(pool.map(one, jobs, chunksize=4), start=1):
            results.append(shares)
            if k % 500 == 0 or k == games:
                print(report(setting, variants, results), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
