"""Are the hint's chances right? The win chance the expert gives the move it would make,
against how often the seat then won, at tables of other players (never part of the tests).

    .venv/bin/python benchmarks/bench_calibration.py --table random,random,random
    .venv/bin/python benchmarks/bench_calibration.py --table heuristic,random,greedy --games 400

The hint (``bots.expert.advisor``) answers a person with a chance of winning for every move.
Its rollouts play the other seats by a model: ``greedy`` at every seat (``"opponents":
"greedy"``), or a model per seat read from its plays (``"mixture"``, ``bots/opponents.py``).
Here a seat is played by the expert itself (seats rotated game by game, ``--table`` at the
others), and at each of its decisions with a choice, each variant is asked for its chances
from the seat's view; the chance of the move played is scored against the game's result (1
for a win, a share for a shared win, else 0): the mean chance against the mean result
(calibration: the two agree when the chances are right), and the Brier score (lower is better),
over every decision and over the second half of each game's (when more plays have been read).
Every variant scores the same decisions of the same games: the first variant plays them.
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from ono99.bots import make_opponent
from ono99.bots.expert import ADVISOR, ExpertBot
from ono99.engine import Rules, State, make_rules, view
from ono99.sim import play_game


def one_game(
    rules: Rules, others: list[str], variants: list[dict[str, Any]], seed: int, g: int
) -> tuple[list[list[float]], float]:
    """Game ``g``, the expert (the first variant) at seat ``g mod players``: every
    variant's chance of the move it would make at each of the seat's decisions, and the
    seat's result."""
    n = rules.players
    me = g % n
    asked: list[list[float]] = [[] for _ in variants]
    player = ExpertBot(seed + g, **variants[0])
    askers = [ExpertBot(seed + g, **v) for v in variants]
    bots = [
        player if s == me else make_opponent(others[(s - me - 1) % n], seed * 10 + s)
        for s in range(n)
    ]

    def watch(state: State) -> None:
        if state.over or state.to_play != me or state.owes_draw:
            return
        v = view(state, me)
        if len(v.legal) < 2:
            return
        for i, bot in enumerate(askers):
            choice, scored = bot.advise(v)
            assert choice is not None
            asked[i].append(dict(scored)[choice])

    final = play_game(rules, bots, seed + g, on_state=watch)
    return asked, (1 / len(final.winners) if me in final.winners else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default="random,random,random", help="the other seats' bots")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=110000)
    parser.add_argument("--edition", default="2022", choices=["2022", "1980"])
    parser.add_argument(
        "--variants",
        type=json.loads,
        default=[{**ADVISOR, "opponents": "greedy"}, ADVISOR],
        help="expert options, a JSON list (the advisor's, with greedy and mixture opponents)",
    )
    args = parser.parse_args()
    others = args.table.split(",")
    n = len(others) + 1
    rules = (
        make_rules("2022", players=n)
        if args.edition == "2022"
        else make_rules("1980", players=n, match="tokens")
    )
    variants: list[dict[str, Any]] = args.variants
    chances: list[list[float]] = [[] for _ in variants]
    results: list[float] = []
    late: list[bool] = []  # the second half of the game's decisions: more plays read
    per_game: list[list[float]] = []  # each game's summed squared errors, per variant
    for g in range(args.games):
        asked, won = one_game(rules, others, variants, args.seed, g)
        for i in range(len(variants)):
            chances[i].extend(asked[i])
        k = len(asked[0])
        results.extend([won] * k)
        late.extend(j >= k / 2 for j in range(k))
        per_game.append([sum((c - won) ** 2 for c in cs) for cs in asked])
    games_won = statistics.fmean(results) if results else 0.0
    print(
        f"{rules.edition} {n} players, table {args.table}, {args.games} games, "
        f"{len(results)} decisions; the seat's result per decision: {games_won:.3f}"
    )
    for v, cs in zip(variants, chances, strict=True):
        errors = [(c - r) ** 2 for c, r in zip(cs, results, strict=True)]
        brier = statistics.fmean(errors)
        later = statistics.fmean(e for e, second in zip(errors, late, strict=True) if second)
        print(
            f"  {json.dumps(v)}: mean chance {statistics.fmean(cs):.3f}, Brier {brier:.4f} "
            f"(second half of each game's decisions {later:.4f})"
        )
    # The Brier difference from the first variant, with a 95% interval over games (the
    # decisions of a game share its result, so the game is the unit).
    for i in range(1, len(variants)):
        diffs = [e[i] - e[0] for e in per_game]
        mean = statistics.fmean(diffs) * len(per_game) / len(results)
        se = statistics.stdev(diffs) / len(per_game) ** 0.5 * len(per_game) / len(results)
        print(f"  Brier, variant {i + 1} − variant 1: {mean:+.4f} ± {1.96 * se:.4f}")


if __name__ == "__main__":
    main()
