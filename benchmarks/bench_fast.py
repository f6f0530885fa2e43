"""Random self-play speed of the batch simulator (``ono99.sim.fast``) on one core, beside the
engine's checked API measured in the same run.

For the 2022 edition (a single game) and the 1980 edition (a tokens match), 4 players, default
options, it reports at batch sizes 1, 16, 256, 1024, 4096 and 16384:

- ``random_playout``: uniformly random legal actions chosen inside the compiled loop (each
  game's own generator), finished matches restarted in place. This is the throughput figure.
- ``step(random_actions())``: the same play driven from Python one batch step at a time, as a
  vectorized RL environment would (one ``random_actions`` and one checked ``step`` call per
  step; no ``legal_mask`` or observation is built).

and for the engine: ``legal_actions`` + ``random.Random.choice`` + ``apply`` per action, whole
games. Rows show actions/s, the median of ``--repeats`` repetitions of about ``--seconds`` each
after a warm-up (compilation is excluded), and matches/s. The mean actions per match comes from
a separate long playout (40 matches in each of 256 slots: a short run at a large batch size
finishes mostly the short matches), and the simulator's matches/s is actions/s divided by it;
the engine's are counted over whole games. Then the ratio of the best simulator figure to the
engine's, and the memory per game. Run by hand, never from the test suite:

    python benchmarks/bench_fast.py                  # table, about two minutes
    python benchmarks/bench_fast.py --seconds 0.5 --repeats 3 --json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numba  # noqa: E402
import numpy as np  # noqa: E402
from bench_engine import machine_info, pin_to_one_core  # noqa: E402

from ono99.engine import Rules, apply, legal_actions, make_rules, new_game  # noqa: E402
from ono99.sim.fast import GAME, FastBatch  # noqa: E402

BATCHES = (1, 16, 256, 1024, 4096, 16384)
EDITIONS = ("2022", "1980")
PLAYERS = 4

# One timed run: (actions, matches finished, actions of those matches, wall s, CPU s).
Run = Callable[[], tuple[int, int, int, float, float]]


def summarize_runs(runs: list[tuple[int, int, int, float, float]]) -> dict[str, Any]:
    per_s = [a / s for a, _, _, s, _ in runs]
    per_cpu_s = [a / c for a, _, _, _, c in runs]
    games_s = [g / s for _, g, _, s, _ in runs]
    games = sum(g for _, g, _, _, _ in runs)
    game_actions = sum(ga for _, _, ga, _, _ in runs)
    return {
        "actions_per_s": statistics.median(per_s),
        "actions_per_s_range": [min(per_s), max(per_s)],
        "actions_per_cpu_s": statistics.median(per_cpu_s),
        "games_per_s": statistics.median(games_s),
        "actions_per_game": game_actions / games if games else float("nan"),
        "games": games,
    }


def repeat(run: Run, repeats: int) -> dict[str, Any]:
    return summarize_runs([run() for _ in range(repeats)])


# --------------------------------------------------------------------------- the simulator


def playout_run(batch: FastBatch, steps: int) -> Run:
    def run() -> tuple[int, int, int, float, float]:
        start, cpu = time.perf_counter(), time.process_time()
        stats = batch.random_playout(steps)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        return stats.actions, stats.games, stats.game_actions, elapsed, cpu

    return run


def step_run(batch: FastBatch, steps: int) -> Run:
    """``steps`` calls of ``step(random_actions())`` (matches are counted, not measured: the
    mean match length comes from ``match_length``)."""

    def run() -> tuple[int, int, int, float, float]:
        finished = int(batch.games["finished"].sum())
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(steps):
            batch.step(batch.random_actions())
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        games = int(batch.games["finished"].sum()) - finished
        return steps * batch.batch_size, games, 0, elapsed, cpu

    return run


def calibrate(make: Callable[[int], Run], seconds: float, start_steps: int) -> int:
    """The number of steps that makes one run last about ``seconds``."""
    steps = start_steps
    while True:
        _, _, _, elapsed, _ = make(steps)()
        if elapsed >= 0.05 or steps >= 1 << 30:
            return max(1, round(steps * seconds / elapsed))
        steps *= 4


def match_length(rules: Rules, matches_per_slot: int = 40, slots: int = 256) -> dict[str, Any]:
    """Mean actions per finished match over a long playout (``matches_per_slot`` matches in each
    of ``slots`` games), so that the match in progress at either end of the run hardly counts
    (a short run at a large batch size finishes mostly the short matches)."""
    batch = FastBatch(rules, slots, seed=12345)
    probe = batch.random_playout(2000)
    steps = round(matches_per_slot * probe.actions_per_game)
    stats = batch.random_playout(steps)
    return {"actions_per_game": stats.actions_per_game, "games": stats.games}


def measure_fast(rules: Rules, batch_size: int, seconds: float, repeats: int) -> dict[str, Any]:
    batch = FastBatch(rules, batch_size, seed=batch_size)
    playout = calibrate(lambda s: playout_run(batch, s), seconds, 1 + 1000 // batch_size)
    out = {"batch": batch_size, "playout": repeat(playout_run(batch, playout), repeats)}
    stepper = FastBatch(rules, batch_size, seed=batch_size + 1)
    steps = calibrate(lambda s: step_run(stepper, s), seconds, 4)
    out["step"] = repeat(step_run(stepper, steps), repeats)
    return out


# --------------------------------------------------------------------------- the engine


def engine_run(rules: Rules, seconds: float, rep: int) -> Run:
    rng = random.Random(f"bench-fast:{rules.edition}:{rep}")
    choice = rng.choice

    def run() -> tuple[int, int, int, float, float]:
        actions = games = 0
        start, cpu = time.perf_counter(), time.process_time()
        elapsed = 0.0
        while elapsed < seconds:
            state = new_game(rules, rep * 1_000_000 + games)
            while not state.over:
                seat = state.to_play
                state = apply(state, seat, choice(legal_actions(state, seat)))
                actions += 1
            games += 1
            elapsed = time.perf_counter() - start
        return actions, games, actions, elapsed, time.process_time() - cpu

    return run


def measure_engine(rules: Rules, seconds: float, repeats: int) -> dict[str, Any]:
    engine_run(rules, min(seconds, 0.3), 999)()  # warm-up
    return summarize_runs([engine_run(rules, seconds, rep)() for rep in range(repeats)])


# --------------------------------------------------------------------------- report


def print_report(report: dict[str, Any]) -> None:
    m = report["machine"]
    print("ono99 batch simulator benchmark: uniformly random legal play, 4 players, one core")
    print()
    print(f"CPU       {m['cpu']} ({m['cores']} cores, {m['pinning']})")
    print(f"Python    {m['python']}; numpy {report['numpy']}, numba {report['numba']}")
    print(f"Load      {m['load_average_at_start']} (1/5/15 min, at start)")
    s = report["settings"]
    print(
        f"Timing    ~{s['seconds']:g} s x {s['repeats']} repetitions per row after warm-up and "
        "compilation; medians.\n          actions/s is wall clock (range in brackets); "
        "actions/CPU-s divides by the process's\n          CPU time instead, which other "
        "work on a busy machine does not inflate"
    )
    print(f"Memory    {report['bytes_per_game']} bytes per game (one record, at any batch size)")
    for edition in EDITIONS:
        e = report["editions"][edition]
        eng, length = e["engine"], e["match_length"]
        print()
        print(f"{edition} edition, {e['format']}")
        print(
            f"  actions per match: {length['actions_per_game']:.2f} (simulator, "
            f"{length['games']:,} matches), {eng['actions_per_game']:.2f} (engine, "
            f"{eng['games']:,} matches)"
        )
        header = (
            f"{'batch':>7}  {'actions/s':>11}  {'range':>15}  {'actions/CPU-s':>13}  "
            f"{'matches/s':>9}  {'step() actions/s':>16}"
        )
        print(header)
        print("-" * len(header))
        for row in e["rows"]:
            p, st = row["playout"], row["step"]
            low, high = p["actions_per_s_range"]
            print(
                f"{row['batch']:>7}  {p['actions_per_s']:>11,.0f}  "
                f"{f'{low / 1e6:.2f}–{high / 1e6:.2f} M':>15}  {p['actions_per_cpu_s']:>13,.0f}  "
                f"{p['games_per_s']:>9,.0f}  {st['actions_per_s']:>16,.0f}"
            )
        print(
            f"{'engine':>7}  {eng['actions_per_s']:>11,.0f}  {'':>15}  "
            f"{eng['actions_per_cpu_s']:>13,.0f}  {eng['games_per_s']:>9,.0f}  (checked API)"
        )
        best = e["best"]
        print(
            f"  best: {best['actions_per_s']:,.0f} actions/s at batch {best['batch']}, "
            f"{best['ratio']:.0f}x the engine ({best['cpu_ratio']:.0f}x per CPU-second)"
        )
    print()
    print(
        "actions/s, range, actions/CPU-s and matches/s: random_playout (choices inside the\n"
        "compiled loop); step() actions/s: step(random_actions()) called from Python once per\n"
        "batch step. Matches/s = actions/s / actions per match."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per repetition")
    parser.add_argument("--repeats", type=int, default=3, help="repetitions per row (median)")
    parser.add_argument(
        "--core",
        type=int,
        default=None,
        help="CPU core to pin the process to (default: the lowest of those it may run on, so "
        "that taskset is respected)",
    )
    parser.add_argument(
        "--batches", type=str, default=",".join(map(str, BATCHES)), help="batch sizes"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1:
        parser.error("--seconds must be > 0 and --repeats >= 1")
    batches = [int(b) for b in args.batches.split(",")]
    machine = machine_info(pin_to_one_core(args.core))
    progress = sys.stderr.isatty()
    FastBatch(make_rules(), 2).random_playout(10)  # compile (or load the cache) first

    editions: dict[str, Any] = {}
    for edition in EDITIONS:
        rules = make_rules(edition, players=PLAYERS)
        rows = []
        for b in batches:
            row = measure_fast(rules, b, args.seconds, args.repeats)
            rows.append(row)
            if progress:
                print(
                    f"  {edition} batch {b}: {row['playout']['actions_per_s']:,.0f} actions/s",
                    file=sys.stderr,
                )
        engine = measure_engine(rules, args.seconds, args.repeats)
        length = match_length(rules)
        for row in rows:  # steady-state matches/s from the long run's mean match length
            for kind in ("playout", "step"):
                row[kind]["games_per_s"] = row[kind]["actions_per_s"] / length["actions_per_game"]
        best_row = max(rows, key=lambda r: r["playout"]["actions_per_s"])
        best = {
            "batch": best_row["batch"],
            "actions_per_s": best_row["playout"]["actions_per_s"],
            "ratio": best_row["playout"]["actions_per_s"] / engine["actions_per_s"],
            "cpu_ratio": best_row["playout"]["actions_per_cpu_s"] / engine["actions_per_cpu_s"],
        }
        fmt = "single game" if rules.match == "single" else f"{rules.match} match"
        editions[edition] = {
            "format": f"{fmt}, {PLAYERS} players",
            "rows": rows,
            "match_length": length,
            "engine": engine,
            "best": best,
        }
    report = {
        "machine": machine,
        "numpy": np.__version__,
        "numba": numba.__version__,
        "settings": {"seconds": args.seconds, "repeats": args.repeats},
        "bytes_per_game": GAME.itemsize,
        "editions": editions,
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
