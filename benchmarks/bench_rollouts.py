"""The expert's rollouts per CPU-second: the Python ``Playout`` against the compiled ones
(``ExpertBot(compiled=True)``), on the same positions, by hand (never part of the tests).

    .venv/bin/python benchmarks/bench_rollouts.py                  # about 20 s
    .venv/bin/python benchmarks/bench_rollouts.py --positions 10 --json

Positions: decision points of the seat under test (more than one candidate action) in games of
greedy players, ``--positions`` per setting. For each, three figures, all on one core of this
process (``time.process_time``), the Python search the baseline of the same run:

- **search**: the expert's whole search at the default budget (sample the worlds, roll every
  candidate out in each, value the ends) — rollouts made per CPU-second;
- **kernel**: the compiled rollouts alone, from worlds already dealt (what the Numba code does);
- **move**: the expert's median decision time, ``choose(view)``, at the default budget.

The load average is printed in the header: the machine is shared, so figures move with it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from typing import Any

import numpy as np

from ono99.bots.compiled_search import compiled_search, planner_values
from ono99.bots.determinize import Determinizer, unseen_counts
from ono99.bots.expert import (
    DEFAULT_MAX_ROLLOUTS,
    DEFAULT_WORLDS,
    ExpertBot,
    candidates,
    search,
    worlds_for,
)
from ono99.bots.greedy import RANKED, GreedyBot
from ono99.bots.heuristic import Planner
from ono99.engine import Rules, View, apply, make_rules, new_game, view
from ono99.fast.playout import Playout
from ono99.fast.rollouts import CompiledRollouts, record_of
from ono99.fast.worlds import deal_worlds

SETTINGS = {
    "2p-2022": make_rules("2022", players=2),
    "4p-2022": make_rules("2022", players=4),
    "4p-1980-tokens": make_rules("1980", players=4, match="tokens"),
    "3p-2022-points": make_rules("2022", players=3, match="points"),
    "4p-2022-penalty": make_rules("2022", players=4, draw_penalty=True),
}


def positions(rules: Rules, count: int, seed: int) -> list[View]:
    """Views of seats with a choice to search, from games of greedy players."""
    greedy = GreedyBot()
    found: list[View] = []
    game = 0
    while len(found) < count:
        state = new_game(rules, seed + game)
        game += 1
        step = 0
        while not state.over and len(found) < count:
            seat = state.to_play
            assert seat is not None
            v = view(state, seat)
            if step % 4 == 0 and len(candidates(v.legal)) > 1:
                found.append(v)
            state = apply(state, seat, greedy.choose(v))
            step += 1
    return found


def measure(views: list[View]) -> dict[str, Any]:
    rollouts = 0
    py_s = co_s = kernel_s = 0.0
    kernel_n = 0
    for i, v in enumerate(views):
        seat = v.seat
        assert seat is not None
        actions = candidates(v.legal)
        planner = Planner(v.rules, unseen_counts(v))
        sampler = Determinizer(v)
        n = worlds_for(len(actions), DEFAULT_WORLDS, DEFAULT_MAX_ROLLOUTS) * len(actions)
        rollouts += n
        start = time.process_time()
        search(
            sampler.sample,
            seat,
            actions,
            random.Random(i),
            Playout(v.rules, RANKED, planner, seat),
            worlds=DEFAULT_WORLDS,
            max_rollouts=DEFAULT_MAX_ROLLOUTS,
        )
        py_s += time.process_time() - start
        start = time.process_time()
        compiled_search(
            sampler,
            seat,
            actions,
            random.Random(i),
            v.rules,
            planner,
            worlds=n // len(actions),
        )
        co_s += time.process_time() - start
        # The kernel alone: the same number of rollouts from worlds already dealt.
        compiled = CompiledRollouts(v.rules, RANKED, planner_values(planner), seat)
        dealt = deal_worlds(
            record_of(sampler.sample(random.Random(i))),
            n // len(actions),
            i,
            sampler.hidden,
            sampler.sizes,
            sampler.free,
            sampler.forced,
        )
        games = np.repeat(dealt, len(actions))
        firsts = [a.index for a in actions] * (n // len(actions))
        start = time.process_time()
        compiled.run(games, firsts)
        kernel_s += time.process_time() - start
        kernel_n += len(games)
    moves: dict[str, float] = {}
    for name, options in (("python", {}), ("compiled", {"compiled": True})):
        times = []
        for i, v in enumerate(views):
            bot = ExpertBot(i, **options)  # type: ignore[arg-type]
            start = time.process_time()
            bot.choose(v)
            times.append(time.process_time() - start)
        moves[name] = statistics.median(times) * 1000
    return {
        "positions": len(views),
        "rollouts": rollouts,
        "python_per_cpu_s": rollouts / py_s,
        "compiled_per_cpu_s": rollouts / co_s,
        "kernel_per_cpu_s": kernel_n / kernel_s,
        "python_move_ms": moves["python"],
        "compiled_move_ms": moves["compiled"],
    }


def warm_up() -> None:
    """Load (or compile) the Numba code before anything is timed."""
    v = positions(SETTINGS["2p-2022"], 1, 99)[0]
    ExpertBot(0, compiled=True, worlds=4).evaluate(v)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=20, help="per setting")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--only", choices=sorted(SETTINGS), action="append")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    header = (
        f"bench_rollouts: {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC, "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs; "
        f"default budget ({DEFAULT_WORLDS} worlds, {DEFAULT_MAX_ROLLOUTS} rollouts at most), "
        f"{args.positions} positions per setting, one core (process CPU time)"
    )
    warm_up()
    results = {}
    if not args.json:
        print(header)
        print(
            f"{'setting':16} {'rollouts':>8}  {'python/s':>9} {'compiled/s':>10} {'x':>5}  "
            f"{'kernel/s':>9} {'x':>5}  {'move py ms':>10} {'move co ms':>10}"
        )
    for name in args.only or SETTINGS:
        r = measure(positions(SETTINGS[name], args.positions, args.seed))
        results[name] = r
        if not args.json:
            print(
                f"{name:16} {r['rollouts']:8d}  {r['python_per_cpu_s']:9.0f} "
                f"{r['compiled_per_cpu_s']:10.0f} "
                f"{r['compiled_per_cpu_s'] / r['python_per_cpu_s']:5.1f}  "
                f"{r['kernel_per_cpu_s']:9.0f} "
                f"{r['kernel_per_cpu_s'] / r['python_per_cpu_s']:5.1f}  "
                f"{r['python_move_ms']:10.1f} {r['compiled_move_ms']:10.1f}",
                flush=True,
            )
    if args.json:
        json.dump({"header": header, "results": results}, sys.stdout, indent=1)
        print()
    else:
        after = os.getloadavg()
        print(f"load average after: {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
