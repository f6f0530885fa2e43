"""What the games of ``ono99 analyze`` cost: the priors in ``ono99/sim/costs.py``, run by hand.

    .venv/bin/python benchmarks/bench_analysis.py                 # turns per game, s per turn
    .venv/bin/python benchmarks/bench_analysis.py --check --games 40 --strong-games 2

The first mode measures ``TURNS_AT_FOUR`` (greedy self-play at four players, every edition
and match format) and ``TURN_SECONDS`` (each registered bot in one seat of a 2022 single game
against three greedy bots: its turn costs four times the table's turn less three greedy
turns), and prints them in the form of ``costs.py``. It counts this process's CPU time, so
other work on the machine does not inflate the figures. ``--check`` plays a whole small run and
prints each phase's measured seconds next to its prior: the priors are right when the ratios
agree with each other (their common factor is this machine's speed at the moment).
"""

from __future__ import annotations

import argparse
import time

from ono99.bots import BOTS
from ono99.engine import make_rules
from ono99.sim import play_game
from ono99.sim.costs import TURNS_AT_FOUR
from ono99.sim.experiments import Phase, Run, build_bot, count_turns
from ono99.sim.seeding import game_seeds


def seconds_per_turn(lineup: list[str], games: int, seed: int) -> tuple[float, float]:
    """(seconds per turn, turns per game) of 2022 single games of ``lineup``, the first bot
    taking every seat in turn."""
    rules = make_rules("2022", players=len(lineup))
    turns, started = 0, time.process_time()
    for i in range(games):
        shift = i % len(lineup)
        seats = lineup[-shift:] + lineup[:-shift] if shift else lineup
        seeds = game_seeds(seed, i, len(seats))
        bots = [build_bot(name, s) for name, s in zip(seats, seeds.bots, strict=True)]
        turns += count_turns(play_game(rules, bots, seeds.deal).events())
    return (time.process_time() - started) / turns, turns / games


def measure(games: int, strong_games: int, seed: int) -> None:
    print("TURNS_AT_FOUR: dict[tuple[str, str], float] = {")
    for edition, match in TURNS_AT_FOUR:
        rules = make_rules(edition, players=4, match=match)
        turns = 0
        for i in range(games):
            seeds = game_seeds(seed, i, 4)
            bots = [build_bot("greedy", s) for s in seeds.bots]
            turns += count_turns(play_game(rules, bots, seeds.deal).events())
        print(f'    ("{edition}", "{match}"): {turns / games:.0f},', flush=True)
    print("}")
    greedy, _ = seconds_per_turn(["greedy"] * 4, games, seed)
    print("TURN_SECONDS: dict[str, float] = {")
    for name in BOTS:
        n = strong_games if name == "expert" else games
        table, _ = seconds_per_turn([name, "greedy", "greedy", "greedy"], n, seed)
        print(f'    "{name}": {4 * table - 3 * greedy:.2g},', flush=True)
    print("}")


def check(games: int, strong_games: int, seed: int) -> None:
    times: dict[str, float] = {}
    order: list[Phase] = []

    def begin(phase: Phase) -> None:
        times[phase.name] = time.perf_counter()
        order.append(phase)

    Run(games, seed, strong_games=strong_games).run(on_phase=begin)
    ends = [times[p.name] for p in order[1:]] + [time.perf_counter()]
    print(f"{'phase':<20}{'games':>8}{'prior s':>10}{'measured s':>12}{'ratio':>8}")
    for phase, end in zip(order, ends, strict=True):
        took = end - times[phase.name]
        prior = phase.prior_seconds()
        ratio = f"{took / prior:.2f}" if phase.known and prior else "-"
        print(f"{phase.name:<20}{phase.games:>8}{prior:>10.1f}{took:>12.1f}{ratio:>8}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    parser.add_argument("--strong-games", type=int, default=24, help="games of the expert")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="a whole run, phase by phase")
    args = parser.parse_args()
    if args.check:
        check(args.games, args.strong_games, args.seed)
    else:
        measure(args.games, args.strong_games, args.seed)


if __name__ == "__main__":
    main()
