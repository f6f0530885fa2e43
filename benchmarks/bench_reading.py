"""How much the opponents' plays tell about their hands: the hand reading of ``ExpertBot``'s
``infer`` and ``weigh`` against the truth, by hand (never part of the tests).

    .venv/bin/python benchmarks/bench_reading.py                    # 2 players, about 1 minute
    .venv/bin/python benchmarks/bench_reading.py --players 4 --depth 3 --error 0.1

Games of ``greedy`` players (the model the reading assumes, so the reading is at its best);
at every decision of seat 0 with a choice, ``--worlds`` worlds are dealt from its view
(``fast.worlds``, as the compiled search deals them) and weighted by how well the
opponents' hands fit their plays (``compiled_search.hand_weights``: ``Inference`` with
``--depth`` plays per opponent and floor ``--error``). The question asked of the worlds: does
the next player hold a safe card (−10, Reverse, Play 2 or Hold)? The dealt worlds'
answer, unweighted (uniform: card counting alone) and weighted, is scored against the true
hand: Brier score and log loss (lower is better; knowing the hand scores 0), and the median
effective number of worlds, (Σw)² / Σw².
"""

from __future__ import annotations

import argparse
import random
import statistics

import numpy as np

from ono99.bots.compiled_search import hand_weights
from ono99.bots.determinize import Determinizer
from ono99.bots.greedy import GreedyBot
from ono99.bots.inference import DEFAULT_DEPTH, DEFAULT_ERROR, Inference
from ono99.engine import apply, make_rules, new_game, view
from ono99.engine.cards import HOLD, MINUS_TEN, PLAY2, REVERSE
from ono99.fast.rollouts import record_of
from ono99.fast.worlds import deal_worlds

SAFE = [MINUS_TEN, REVERSE, PLAY2, HOLD]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--worlds", type=int, default=2000)
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="plays per opponent")
    parser.add_argument("--error", type=float, default=DEFAULT_ERROR)
    args = parser.parse_args()
    rules = make_rules("2022", players=args.players)
    brier = {"uniform": 0.0, "weighted": 0.0}
    loss = {"uniform": 0.0, "weighted": 0.0}
    effective = []
    n = 0
    for g in range(args.games):
        state = new_game(rules, g)
        greedy = GreedyBot()
        while not state.over:
            seat = state.to_play
            assert seat is not None
            v = view(state, seat)
            if seat == 0 and len(v.legal) > 1:
                inference = Inference(v, depth=args.depth, error=args.error)
                d = Determinizer(v)
                template = record_of(d.sample(random.Random(g)))
                worlds = deal_worlds(template, args.worlds, g, d.hidden, d.sizes, d.free, d.forced)
                weights = hand_weights(inference, worlds)
                ahead = (seat + v.direction) % args.players
                feature = np.isin(worlds["hands"][:, ahead], SAFE).any(axis=1)
                truth = any(c in SAFE for c in state.hands[ahead])
                for name, w in (("uniform", np.ones(len(worlds))), ("weighted", weights)):
                    p = float((feature * w).sum() / w.sum())
                    brier[name] += (p - truth) ** 2
                    p = min(max(p, 1e-3), 1 - 1e-3)
                    loss[name] -= float(np.log(p if truth else 1 - p))
                effective.append(float(weights.sum() ** 2 / (weights**2).sum()))
                n += 1
            state = apply(state, seat, greedy.choose(v))
    print(
        f"{args.players} players, depth {args.depth}, error {args.error}: {n} decisions; "
        f"the next player holds a safe card — Brier uniform {brier['uniform'] / n:.4f}, "
        f"weighted {brier['weighted'] / n:.4f}; log loss uniform {loss['uniform'] / n:.4f}, "
        f"weighted {loss['weighted'] / n:.4f}; effective worlds (median) "
        f"{statistics.median(effective):.0f} of {args.worlds}"
    )


if __name__ == "__main__":
    main()
