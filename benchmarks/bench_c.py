"""The batch simulator against a plain C loop of the same random playout, in one run, on one
core.

``benchmarks/c/playout.c`` plays 4-player 2022 single games (default options) with uniformly
random legal actions, a new game wherever one ends — what ``FastBatch.random_playout`` does, with
the same per-game generator, seeding, shuffles and choices. This script compiles it with the
machine's ``gcc -O2`` (and, for information, ``-O2 -march=native``, which lets gcc use the
instructions Numba uses for the host CPU, such as popcnt), then:

1. checks agreement: for the same seed, batch size and steps, the C loop and FastBatch must
   count exactly the same actions, finished games and actions of those games (hence the same
   mean actions per game) — the C loop plays the very same games;
2. times them in turns: each repetition runs FastBatch.random_playout, then each C binary, on
   the same batch size and steps. The process pins itself to one core (the lowest it may run
   on, so ``taskset -c N`` is respected, or ``--core``); the C processes inherit the pinning.

Both wall-clock and CPU-time rates are reported (best and median of ``--repeats``); CPU time
(the process's own) is the fairer figure on a busy machine, where waiting for the core
inflates wall time at random. Run by hand, never from the tests:

    python benchmarks/bench_c.py                    # about a minute
    taskset -c 1 python benchmarks/bench_c.py --repeats 15 --json

It needs the fast extra and gcc.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from bench_engine import machine_info, pin_to_one_core  # noqa: E402

from ono99.engine import make_rules  # noqa: E402
from ono99.sim.fast import FastBatch  # noqa: E402

SOURCE = Path(__file__).resolve().parent / "c" / "playout.c"
FLAGS = {"gcc -O2": ["-O2"], "gcc -O2 -march=native": ["-O2", "-march=native"]}
RULES = make_rules("2022", players=4)


def compile_c(gcc: str, flags: list[str], out: Path) -> None:
    subprocess.run([gcc, *flags, "-o", str(out), str(SOURCE)], check=True)


def run_c(binary: Path, batch: int, steps: int, seed: int, repeats: int) -> list[list[float]]:
    """One C process: ``repeats`` playouts in a row; per repetition actions, games, game
    actions, wall s, CPU s."""
    out = subprocess.run(
        [str(binary), str(batch), str(steps), str(seed), str(repeats)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [[float(x) for x in line.split()] for line in out.splitlines()]


def run_fast(batch: FastBatch, steps: int) -> list[float]:
    start, cpu = time.perf_counter(), time.process_time()
    stats = batch.random_playout(steps)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return [stats.actions, stats.games, stats.game_actions, wall, cpu]


def agreement(binaries: dict[str, Path], batch: int, steps: int, seed: int) -> dict[str, Any]:
    """The C loop and FastBatch from the same seed: the same counts, or an AssertionError."""
    fast = FastBatch(RULES, batch, seed=seed)
    first = run_fast(fast, steps)[:3]
    second = run_fast(fast, steps)[:3]  # carrying on from the state the first left
    for name, binary in binaries.items():
        c = [row[:3] for row in run_c(binary, batch, steps, seed, 2)]
        if c != [first, second]:
            raise AssertionError(f"{name}: the C loop counted {c}, FastBatch {[first, second]}")
    actions, games, game_actions = (a + b for a, b in zip(first, second, strict=True))
    return {
        "batch": batch,
        "steps": 2 * steps,
        "seed": seed,
        "actions": int(actions),
        "games": int(games),
        "actions_per_game": game_actions / games,
        "identical": True,
    }


def rates(rows: list[list[float]]) -> dict[str, float]:
    wall = [r[0] / r[3] for r in rows]
    cpu = [r[0] / r[4] for r in rows]
    return {
        "wall_best": max(wall),
        "wall_median": statistics.median(wall),
        "cpu_best": max(cpu),
        "cpu_median": statistics.median(cpu),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024, help="games stepped together")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per repetition")
    parser.add_argument("--repeats", type=int, default=9, help="repetitions (in turns)")
    parser.add_argument("--core", type=int, default=None, help="CPU core to pin to")
    parser.add_argument("--gcc", default=shutil.which("gcc") or "gcc", help="the C compiler")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.batch < 1:
        parser.error("--seconds must be > 0, --repeats and --batch >= 1")
    machine = machine_info(pin_to_one_core(args.core))
    gcc_version = subprocess.run(
        [args.gcc, "--version"], check=True, capture_output=True, text=True
    ).stdout.splitlines()[0]

    with tempfile.TemporaryDirectory(prefix="ono99-bench-c-") as tmp:
        binaries = {name: Path(tmp) / f"playout{i}" for i, name in enumerate(FLAGS)}
        for name, binary in binaries.items():
            compile_c(args.gcc, FLAGS[name], binary)
        FastBatch(RULES, 2).random_playout(10)  # compile (or load the cache) first
        check = agreement(binaries, args.batch, 400, seed=2026)

        fast = FastBatch(RULES, args.batch, seed=1)
        probe = run_fast(fast, 200)
        steps = max(1, round(200 * args.seconds / probe[3]))
        fast_rows: list[list[float]] = []
        c_rows: dict[str, list[list[float]]] = {name: [] for name in binaries}
        for rep in range(args.repeats):
            fast_rows.append(run_fast(fast, steps))
            for name, binary in binaries.items():
                # two repetitions per process: the second, from a warm process, is timed
                c_rows[name].append(run_c(binary, args.batch, steps, 1000 + rep, 2)[1])
    machine["load_average_at_end"] = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    fast_rate = rates(fast_rows)
    report: dict[str, Any] = {
        "machine": machine,
        "gcc": gcc_version,
        "settings": {"batch": args.batch, "steps": steps, "repeats": args.repeats},
        "agreement": check,
        "fastbatch": fast_rate,
        "c": {},
    }
    for name, rows in c_rows.items():
        c_rate = rates(rows)
        report["c"][name] = {
            **c_rate,
            "ratio_cpu_best": fast_rate["cpu_best"] / c_rate["cpu_best"],
            "ratio_cpu_median": fast_rate["cpu_median"] / c_rate["cpu_median"],
            "ratio_wall_best": fast_rate["wall_best"] / c_rate["wall_best"],
            "ratio_wall_median": fast_rate["wall_median"] / c_rate["wall_median"],
        }
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    m = report["machine"]
    print("FastBatch.random_playout against a plain C loop of the same playout, one core")
    print("(2022 edition, 4 players, single game, default options, uniformly random play)")
    print()
    print(f"CPU       {m['cpu']} ({m['cores']} cores, {m['pinning']})")
    print(f"Python    {m['python']}; {report['gcc']}; {m['date']}")
    print(f"Load      {m['load_average_at_start']} at start, {m['load_average_at_end']} at end")
    print(
        f"Timing    batch {args.batch}, {steps:,} actions per game per repetition "
        f"({args.batch * steps:,} actions), {args.repeats} repetitions in turns"
    )
    print(
        f"Agreement same seed, batch {check['batch']}, {check['steps']} steps: identical counts "
        f"({check['actions']:,} actions, {check['games']:,} games, "
        f"{check['actions_per_game']:.3f} actions per game)"
    )
    print()
    header = f"{'':<24}{'M actions/CPU-s':>22}{'M actions/s (wall)':>22}"
    print(header)
    print(f"{'':<24}{'best':>11}{'median':>11}{'best':>11}{'median':>11}")

    def line(name: str, r: dict[str, float]) -> None:
        print(
            f"{name:<24}{r['cpu_best'] / 1e6:>11.2f}{r['cpu_median'] / 1e6:>11.2f}"
            f"{r['wall_best'] / 1e6:>11.2f}{r['wall_median'] / 1e6:>11.2f}"
        )

    line("FastBatch", fast_rate)
    for name, r in report["c"].items():
        line(f"C, {name}", r)
    print()
    for name, r in report["c"].items():
        print(
            f"FastBatch / C ({name}): {r['ratio_cpu_best']:.2f}x best, "
            f"{r['ratio_cpu_median']:.2f}x median per CPU-second; "
            f"{r['ratio_wall_best']:.2f}x, {r['ratio_wall_median']:.2f}x wall clock"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
