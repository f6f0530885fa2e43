"""Strength and speed of the strong bots, run by hand (never part of the tests).

    .venv/bin/python benchmarks/bench_bots.py                       # every setting, 200 games
    .venv/bin/python benchmarks/bench_bots.py --games 1000 --only 4p-2022 --bot heuristic
    .venv/bin/python benchmarks/bench_bots.py --bot expert --worlds 64 --json
    .venv/bin/python benchmarks/bench_bots.py --bot expert --options '{"prior": "neural"}'

Each setting seats one bot under test against copies of an opponent (``greedy`` by default);
game ``i`` uses seed ``SEED + i`` and puts the bot under test at seat ``i mod players``, so no
seat is favoured. A shared win counts as its share. The bot's win share is printed with its
95% Wilson interval next to the fair share, and, for bots that search, the median and 90th
percentile of the time each of its decisions took (one core, this process).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from ono99.bots import Bot, make_bot
from ono99.bots.expert import ExpertBot
from ono99.engine import Action, Rules, View, make_rules
from ono99.sim import play_game
from ono99.sim.stats import wilson_interval

SETTINGS: dict[str, Callable[[], Rules]] = {
    "4p-2022": lambda: make_rules("2022", players=4),
    "2p-2022": lambda: make_rules("2022", players=2),
    "4p-1980-tokens": lambda: make_rules("1980", players=4, match="tokens"),
}


class Timed:
    """Wraps a bot and records how long each of its decisions takes."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []
        if getattr(bot, "omniscient", False):
            self.omniscient = True

    def choose(self, view: View) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view)
        self.times.append(time.perf_counter() - start)
        return action

    def choose_state(self, state: Any, seat: int) -> Action:
        start = time.perf_counter()
        action = self.bot.choose_state(state, seat)  # type: ignore[attr-defined]
        self.times.append(time.perf_counter() - start)
        return action


def make(name: str, seed: int, options: dict[str, Any]) -> Bot:
    if name == "expert" and options:
        return ExpertBot(seed, **options)
    return make_bot(name, seed)


def run(
    rules: Rules, bot: str, opponent: str, games: int, seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    n = rules.players
    wins = 0.0
    times: list[float] = []
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        me = i % n
        test = Timed(make(bot, game_seed * 10 + me, options))
        bots: list[Bot] = [
            test if s == me else make_bot(opponent, game_seed * 10 + s) for s in range(n)
        ]
        final = play_game(rules, bots, game_seed)
        if me in final.winners:
            wins += 1 / len(final.winners)
        times += test.times
    low, high = wilson_interval(wins, games)
    # Decisions that took real thought: forced moves return at once and would hide the cost.
    thought = sorted(t for t in times if t > 2e-4) or [0.0]
    return {
        "games": games,
        "wins": wins,
        "share": wins / games,
        "interval": [low, high],
        "fair": 1 / n,
        "decisions": len(times),
        "median_ms": statistics.median(times) * 1000 if times else 0.0,
        "median_searched_ms": statistics.median(thought) * 1000,
        "p90_searched_ms": thought[int(0.9 * (len(thought) - 1))] * 1000,
        "seconds": time.perf_counter() - start,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(SETTINGS), action="append")
    parser.add_argument("--worlds", type=int, default=None)
    parser.add_argument("--max-rollouts", type=int, default=None)
    parser.add_argument("--options", type=json.loads, default={},
                        help="more ExpertBot keyword arguments, as a JSON object")  # fmt: skip
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    options: dict[str, Any] = dict(args.options)
    if args.worlds is not None:
        options["worlds"] = args.worlds
    if args.max_rollouts is not None:
        options["max_rollouts"] = args.max_rollouts
    results = {}
    for name in args.only or SETTINGS:
        r = run(SETTINGS[name](), args.bot, args.opponent, args.games, args.seed, options)
        results[name] = r
        if not args.json:
            low, high = r["interval"]
            print(
                f"{name:15} {args.bot} vs {args.opponent}: {r['share']:6.1%} "
                f"[{low:.1%}, {high:.1%}] of {r['games']} games (fair {r['fair']:.0%}); "
                f"move median {r['median_ms']:.1f} ms, searched median "
                f"{r['median_searched_ms']:.1f} ms, p90 {r['p90_searched_ms']:.1f} ms "
                f"({r['seconds']:.0f} s)",
                flush=True,
            )
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
