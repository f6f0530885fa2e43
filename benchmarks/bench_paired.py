"""Paired comparison of bots or bot settings: the same games, each variant in turn.

Run by hand (never part of the tests):

    .venv/bin/python benchmarks/bench_paired.py 2p 2000 78000 '[{"infer": false}, {"infer": true}]'
    .venv/bin/python benchmarks/bench_paired.py 4p 5000 90000 \
        '[{"bot": "learned"}, {"bot": "neural"}]' --workers 1
    .venv/bin/python benchmarks/bench_paired.py 2p 1000 91000 '[{"bot": "neural"}]' \
        --opponent expert

Arguments: the setting (``4p``, ``2p`` or ``1980``), the number of games, the base seed, and a
JSON list of variants, one dict per variant: ``"bot"`` names a registered bot (``expert`` when
absent) and every other key is a keyword argument of its factory (``ExpertBot(infer=True)``…).
``--opponent`` names the bot at every other seat (``greedy`` by default; or a variant as JSON,
``'{"compiled": true}'``; or one bot per other seat, ``heuristic,random,greedy``), ``--workers`` the
processes (2 by default; 1 on a shared machine), ``--every`` the games between reports (500).
``--out FILE`` appends each game's result as a JSON line (``{"game": i, "shares": [...]}``), and
``--start K`` begins at game ``K``, so a long run can be stopped and resumed; ``--merge`` reads
such files instead of playing and reports on the games they have in common, so variants run on
different days (or machines) with the same setting and seed pair game by game.

Game ``i`` uses seed ``SEED + i``, seats the bot under test at ``i mod players`` and gives it the
bot seed ``SEED * 10 + i`` whatever the variant (opponent ``s`` gets ``SEED * 10 + i + s + 1``),
so each variant plays the same deals and draws and differs only where its choices differ. Every
``--every`` games it prints each variant's win share and, for each variant after the first, the
paired difference from the first with a 95% interval (1.96 standard errors of the per-game
differences). That interval is far narrower than comparing two independent win rates. A single
variant gets its win share's 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

# One BLAS thread per process, set before NumPy loads: the games run a process per core, and
# a network's forward passes (``neural`` bots, network rollouts) spread over every core's
# threads from each process ran ten times slower on the loaded 2-core machine (236 games of
# 4-player network-rollout experts in 8 minutes, against 600 in 90 s with one thread).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from ono99.bots import BOT_INFO, Bot, make_opponent
from ono99.engine import Rules, make_rules
from ono99.sim import play_game
from ono99.sim.stats import wilson_interval

SETTINGS: dict[str, Callable[[], Rules]] = {
    "4p": lambda: make_rules("2022", players=4),
    "2p": lambda: make_rules("2022", players=2),
    "1980": lambda: make_rules("1980", players=4, match="tokens"),
}


def build(variant: dict[str, Any], seed: int) -> Bot:
    """The bot of one variant: a registered bot, with its factory's keyword arguments."""
    options = dict(variant)
    name = options.pop("bot", "expert")
    if not options:
        return make_opponent(name, seed)
    return BOT_INFO[name].factory(seed, **options)


def opponent_variant(opponent: str, seat: int, me: int, players: int) -> dict[str, Any]:
    """``--opponent`` at ``seat`` when the bot under test sits at ``me``: a registered bot's
    name, a variant as JSON (``'{"compiled": true}'``: an expert with those options), or a
    mixed table, names separated by commas, one per other seat in play order from ``me``'s
    left (``heuristic,random,greedy``)."""
    if opponent.lstrip().startswith("{"):
        variant: dict[str, Any] = json.loads(opponent)
        return variant
    names = opponent.split(",")
    if len(names) > 1:
        if len(names) != players - 1:
            raise ValueError(f"a mixed table names {players - 1} opponents, not {len(names)}")
        return {"bot": names[(seat - me - 1) % players]}
    return {"bot": opponent}


def one(job: tuple[str, int, int, list[dict[str, Any]], str]) -> list[float]:
    setting, i, seed, variants, opponent = job
    rules = SETTINGS[setting]()
    n = rules.players
    me = i % n
    shares = []
    for variant in variants:
        bots: list[Bot] = [
            build(variant, seed * 10 + i)
            if s == me
            else build(opponent_variant(opponent, s, me, n), seed * 10 + i + s + 1)
            for s in range(n)
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
    if len(variants) == 1:
        low, high = wilson_interval(means[0] * n, n)
        line += f" [{low:.3f}, {high:.3f}]"
    for j in range(1, len(variants)):
        diffs = [r[j] - r[0] for r in results]
        mean = sum(diffs) / n
        se = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n) ** 0.5
        line += f" | diff{j}={mean * 100:+.2f} ± {1.96 * se * 100:.2f} points"
    return line


def merged(paths: list[str]) -> tuple[list[dict[str, Any]], list[list[float]]]:
    """The variants of several ``--out`` files side by side, on the games all of them hold."""
    runs = []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            lines = [json.loads(line) for line in file if line.strip()]
        runs.append({line["game"]: line for line in lines})
    common = sorted(set.intersection(*(set(run) for run in runs)))
    variants = [v for run in runs for v in run[common[0]]["variants"]] if common else []
    results = [[x for run in runs for x in run[g]["shares"]] for g in common]
    return variants, results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("setting", choices=sorted(SETTINGS))
    parser.add_argument("games", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("variants", type=json.loads, nargs="?")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--every", type=int, default=500, help="games between reports")
    parser.add_argument("--out", help="append each game's result to this JSON-lines file")
    parser.add_argument("--start", type=int, default=0, help="the first game to play")
    parser.add_argument("--merge", nargs="+", metavar="FILE", help="report on --out files")
    args = parser.parse_args(argv)
    if args.merge:
        variants, results = merged(args.merge)
        print(report(args.setting, variants, results[: args.games]))
        return 0
    variants = args.variants
    if not variants:
        parser.error("give the variants (a JSON list), or --merge files")
    games = range(args.start, args.games)
    jobs = [(args.setting, i, args.seed, variants, args.opponent) for i in games]
    results: list[list[float]] = []
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    with ProcessPoolExecutor(args.workers) as pool:
        for k, (i, shares) in enumerate(
            zip(games, pool.map(one, jobs, chunksize=4), strict=True), start=1
        ):
            results.append(shares)
            if out:
                out.write(json.dumps({"game": i, "variants": variants, "shares": shares}) + "\n")
                out.flush()
            if k % args.every == 0 or k == len(jobs):
                print(report(args.setting, variants, results), flush=True)
    if out:
        out.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
