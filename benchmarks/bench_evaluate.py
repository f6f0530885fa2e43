"""The evaluation protocol of docs/evaluation.md, and its reference table for every bot.

The protocol (``ono99-eval/1``) is fixed: each evaluated policy plays, with ``ono99.evaluate``
and seed 0, every cell of

    editions     2022 (single game), 1980 (its default rules)
    players      2, 4
    opponents    greedy in every other seat; heuristic in every other seat

``GAMES`` games per cell, seats rotated (the policy sits in each seat equally often). Same seed,
same deals and opponents' seeds, whatever is evaluated: the rows of the table are paired.

    .venv/bin/python benchmarks/bench_evaluate.py                    # every bot: the reference
    .venv/bin/python benchmarks/bench_evaluate.py --bots greedy,mypkg.bots:MyBot --games 40
    .venv/bin/python benchmarks/bench_evaluate.py --json reference.json --workers 2

It prints the Markdown table of docs/evaluation.md (win rate and 95% interval per cell, the
cost per bot in CPU seconds) and the machine's load before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

PROTOCOL = "ono99-eval/1"
SEED = 0
GAMES = 80  # per cell: a multiple of 2 and of 4, so seats are balanced
EDITIONS = ("2022", "1980")
PLAYERS = (2, 4)
POOLS = ("greedy", "heuristic")
CELLS = [(e, n, pool) for e in EDITIONS for n in PLAYERS for pool in POOLS]


def run_cell(bot: str, edition: str, players: int, pool: str, games: int) -> dict[str, Any]:
    from ono99.sim.evaluate import evaluate

    cpu = time.process_time()
    result = evaluate(bot, opponents=pool, players=players, games=games, seed=SEED, edition=edition)
    out = result.to_dict()
    out["cell"] = [edition, players, pool]
    out["cpu_seconds"] = round(time.process_time() - cpu, 2)
    return out


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def table(results: list[dict[str, Any]], bots: list[str]) -> str:
    def cell_name(edition: str, players: int, pool: str) -> str:
        return f"{edition} {players}p vs {pool}"

    head = ["bot", *(cell_name(*c) for c in CELLS), "CPU s"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for bot in bots:
        row = [f"`{bot}`"]
        cpu = 0.0
        for cell in CELLS:
            found = [r for r in results if r["policy"] == bot and tuple(r["cell"]) == cell]
            if not found:
                row.append("–")
                continue
            r = found[0]
            low, high = r["ci95"]
            row.append(f"{r['win_rate']:.1%} ({low:.0%}–{high:.0%})")
            cpu += r["cpu_seconds"]
        row.append(f"{cpu:.0f}")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from ono99.bots import check_bot, offered_bots

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots or import paths [default: every bot offered here, "
        "and the oracle]",
    )
    parser.add_argument("--games", type=int, default=GAMES, help=f"per cell [{GAMES}]")
    parser.add_argument("--workers", type=int, default=1, help="processes [1]")
    parser.add_argument("--json", default=None, help="also write every result to this file")
    parser.add_argument(
        "--table", default=None, help="only print the table of a --json file written before"
    )
    args = parser.parse_args(argv)
    if args.table:
        with open(args.table, encoding="utf-8") as f:
            saved = json.load(f)["results"]
        print(table(saved, list(dict.fromkeys(r["policy"] for r in saved))))
        return 0
    bots = args.bots.split(",") if args.bots else [*offered_bots(), "oracle"]
    for bot in bots:
        try:
            check_bot(bot)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if args.games < 1:
        print(f"error: --games must be at least 1, not {args.games}", file=sys.stderr)
        return 2

    print(f"protocol {PROTOCOL} · seed {SEED} · {args.games} games per cell · load {load()}")
    jobs = [(bot, *cell) for bot in bots for cell in CELLS]
    # The slowest first, so that two workers finish together.
    jobs.sort(key=lambda job: (job[0] != "expert", job[0] != "oracle"))
    start = time.perf_counter()
    results: list[dict[str, Any]] = []

    def done(r: dict[str, Any]) -> None:
        results.append(r)
        low, high = r["ci95"]
        print(
            f"  {r['policy']} {r['cell']}: {r['wins']:g}/{r['games']} = {r['win_rate']:.1%} "
            f"({low:.1%}–{high:.1%}) · {r['cpu_seconds']:.0f} CPU s · load {load()}",
            flush=True,
        )
        if args.json:  # as the cells finish, so that a long run keeps what it has
            write(args.json, results, args.games, time.perf_counter() - start)

    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            futures = [pool.submit(run_cell, *job, args.games) for job in jobs]
            for future in as_completed(futures):
                done(future.result())
    else:
        for job in jobs:
            done(run_cell(*job, args.games))
    wall = time.perf_counter() - start
    print()
    print(table(results, bots))
    print()
    cpu = sum(r["cpu_seconds"] for r in results)
    print(f"{wall:.0f} s wall, {cpu:.0f} CPU s, {args.workers} worker(s), load {load()}")
    return 0


def write(path: str, results: list[dict[str, Any]], games: int, wall: float) -> None:
    meta = {"protocol": PROTOCOL, "seed": SEED, "games": games, "wall": round(wall, 1)}
    with open(path, "w", encoding="utf-8") as f:
        json.dump({**meta, "results": results}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
