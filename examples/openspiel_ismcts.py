"""OpenSpiel's IS-MCTS against the ono99 bots, on the OpenSpiel game ``ono99``.

IS-MCTS (``open_spiel.python.algorithms.ismcts``, Cowling et al. 2012) searches a tree of
information states: every simulation starts from a world resampled from its information state
(``resample_from_infostate``: the cards it cannot see dealt anew) and plays on with random
rollouts (OpenSpiel's ``RandomRolloutEvaluator``). It knows nothing of ONO 99 but the game's
API. The opponents are ono99 bots, choosing from their seat's ``View`` as always. Game ``i``
seats IS-MCTS at seat ``i mod players``; chance (deal and draws) is sampled from ``--seed``.

    .venv/bin/python examples/openspiel_ismcts.py --games 20 --simulations 100 --opponent greedy

Prints the win rate of IS-MCTS with its 95% Wilson interval, per seat, and the time taken.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import ono99.openspiel  # noqa: F401  (registers the game "ono99")
from ono99.bots import UnknownBotError, check_bot, make_bot
from ono99.engine import view
from ono99.sim.stats import wilson_interval


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100, help="per move [100]")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="greedy", help="an ono99 bot [greedy]")
    parser.add_argument("--edition", type=int, choices=(2022, 1980), default=2022)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        check_bot(args.opponent)
    except UnknownBotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.games < 1 or args.simulations < 1:
        print("error: --games and --simulations must be at least 1", file=sys.stderr)
        return 2
    game = pyspiel.load_game("ono99", {"players": args.players, "edition": args.edition})
    n = game.num_players()
    rng = random.Random(args.seed)
    random_state = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    searcher = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=random_state
    )
    load = os.getloadavg()[0]
    print(
        f"IS-MCTS ({args.simulations} simulations a move, random rollouts) against "
        f"{n - 1} × {args.opponent} · {args.edition} edition, {n} players · "
        f"{args.games} games · seed {args.seed} · load {load:.2f}"
    )
    wins = [0.0] * n
    played = [0] * n
    moves = 0
    start = time.perf_counter()
    for i in range(args.games):
        seat = i % n
        bots = {s: make_bot(args.opponent, seed=rng.getrandbits(32)) for s in range(n) if s != seat}
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.current_player() == seat:
                state.apply_action(int(searcher.step(state)))
                moves += 1
            else:
                player = state.current_player()
                state.apply_action(bots[player].choose(view(state.engine, player)).index)
        winners = state.engine.winners
        played[seat] += 1
        if seat in winners:
            wins[seat] += 1 / len(winners)
        print(f"  game {i + 1}: IS-MCTS at seat {seat} {'won' if seat in winners else 'lost'}")
    seconds = time.perf_counter() - start
    total = sum(wins)
    low, high = wilson_interval(total, args.games)
    print(
        f"IS-MCTS won {total:g} of {args.games}: {total / args.games:.1%} "
        f"(95% interval {low:.1%}–{high:.1%}; an equal player wins {1 / n:.0%})"
    )
    for s in range(n):
        if played[s]:
            lo, hi = wilson_interval(wins[s], played[s])
            print(f"  seat {s}: {wins[s]:g}/{played[s]} ({lo:.0%}–{hi:.0%})")
    print(
        f"{seconds:.0f} s, {seconds / max(moves, 1):.2f} s per IS-MCTS move "
        f"({moves} moves) · load {os.getloadavg()[0]:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
