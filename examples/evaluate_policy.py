"""Evaluate the ``learned`` bot against ``random`` and ``greedy`` through the engine.

Each game seats one learned bot among opponents of one kind; the learned bot's seat rotates
(game g: seat g mod players) and every game has its own seed. A win counts 1 (1/k for one of k
tied winners, points scoring only). The table gives win rates with 95% Wilson intervals and
the fair share (1 / players) for comparison.

    .venv/bin/python examples/evaluate_policy.py --games 1000
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ono99.bots import make_bot
from ono99.bots.learned import LearnedBot
from ono99.engine import make_rules
from ono99.sim import play_game
from ono99.sim.stats import wilson_interval


def evaluate(players: int, opponent: str, games: int, weights: Path | None, seed: int) -> str:
    rules = make_rules("2022", players=players)
    learned = LearnedBot(weights=weights)
    wins = 0.0
    for g in range(games):
        seat = g % players
        bots = [make_bot(opponent, seed + 10 * g + s) for s in range(players)]
        bots[seat] = learned
        final = play_game(rules, bots, seed + g)
        if seat in final.winners:
            wins += 1 / len(final.winners)
    low, high = wilson_interval(wins, games)
    return (
        f"| {players} | {opponent} | {games} | {100 * wins / games:.1f}% "
        f"| {100 * low:.1f}–{100 * high:.1f}% | {100 / players:.0f}% |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per match-up")
    parser.add_argument("--weights", type=Path, default=None, help="default: the shipped ones")
    parser.add_argument("--seed", type=int, default=2_000_000)
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--players", default="4,2")
    args = parser.parse_args(argv)
    print("| players | opponents | games | learned wins | 95% Wilson interval | fair share |")
    print("|---:|---|---:|---:|---|---:|")
    for players in map(int, args.players.split(",")):
        for opponent in args.opponents.split(","):
            start = time.time()
            line = evaluate(players, opponent, args.games, args.weights, args.seed)
            print(line, f"<!-- {time.time() - start:.0f} s -->", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
