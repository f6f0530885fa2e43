"""What limits the expert: the same search when it knows every hand but not the draw order.

Run by hand (never part of the tests):

    .venv/bin/python benchmarks/bench_bound.py --games 1000 --workers 2
    .venv/bin/python benchmarks/bench_bound.py --games 1000 --workers 2 --prior neural
    .venv/bin/python benchmarks/bench_bound.py --games 600 --only 2p-2022 --prior neural \
        --rollout neural
    .venv/bin/python benchmarks/bench_bound.py --games 5000 --workers 2 --compiled tuned

``hands`` is the expert's search (same worlds and rollouts) run on worlds that hold the true
hands of every player and a freshly shuffled draw pile: perfect inference of what opponents
hold, no knowledge of future draws. It is the best any card-counting, hand-reading player
using this search can hope for; the ``oracle`` (which also knows the draw order) is the
ceiling of skill. Game ``i`` uses seed ``SEED + i`` and seats the bot at ``i mod players``
against ``greedy``, like benchmarks/bench_bots.py.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ono99.bots import OracleBot, make_bot
from ono99.bots.determinize import unseen_counts
from ono99.bots.expert import DEFAULT_MAX_ROLLOUTS, DEFAULT_WORLDS, PRIORS, worlds_for
from ono99.bots.heuristic import DEFAULT, Planner
from ono99.bots.network_rollouts import ROLLOUTS
from ono99.bots.tuned import constants_for
from ono99.bots.values import SearchResult
from ono99.engine import Action, Rules, Setup, State, View, make_rules
from ono99.sim import play_game
from ono99.sim.stats import wilson_interval

SETTINGS = {
    "4p-2022": lambda: make_rules("2022", players=4),
    "2p-2022": lambda: make_rules("2022", players=2),
}


class HandsKnownBot(OracleBot):
    """The oracle's search (the expert's, on full states) on worlds with the true hands and a
    reshuffled draw pile."""

    name = "hands"

    def worlds_from(self, state: State) -> Callable[[random.Random], State]:
        rest = list(state.pile[state.pile_pos :])

        def world(rng: random.Random) -> State:
            pile = rest[:]
            rng.shuffle(pile)
            return state._replace(
                pile=tuple(pile), pile_pos=0, setup=Setup(rng.getrandbits(62), state.setup.dealer)
            )

        return world


class CompiledHandsKnownBot(HandsKnownBot):
    """The same, its search compiled (``ExpertBot(compiled=True)``'s), its planner's constants
    the heuristic's or, ``tuned``, the setting's (``bots/tuned.py``)."""

    def __init__(self, seed: int, *, tuned: bool, **options: Any) -> None:
        super().__init__(seed, **options)
        self.tuned = tuned

    def _search(self, state: State, seat: int, own: View, actions: list[Action]) -> SearchResult:
        from ono99.bots.compiled_search import compiled_search

        constants = constants_for(state.rules) if self.tuned else DEFAULT
        worlds = self.worlds_from(state)

        class Worlds:
            def sample(self, rng: random.Random) -> State:
                return worlds(rng)

        return compiled_search(
            Worlds(),
            seat,
            actions,
            self._rng,
            state.rules,
            Planner(state.rules, unseen_counts(own), constants),
            worlds=worlds_for(len(actions), self.worlds, self.max_rollouts),
        )


def one(args: tuple[str, int, int, int, int, str, str, str]) -> float:
    setting, seed, i, worlds, rollouts, prior, rollout, compiled = args
    rules: Rules = SETTINGS[setting]()
    n = rules.players
    me = i % n
    options: dict[str, Any] = {"worlds": worlds, "max_rollouts": rollouts, "prior": prior}
    bot = (
        HandsKnownBot(seed + i, rollout=rollout, **options)
        if compiled == "no"
        else CompiledHandsKnownBot(seed + i, tuned=compiled == "tuned", **options)
    )
    bots = [bot if s == me else make_bot("greedy") for s in range(n)]
    final = play_game(rules, bots, seed + i)
    return 1 / len(final.winners) if me in final.winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", choices=sorted(SETTINGS))
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, help="worlds per decision")
    parser.add_argument(
        "--rollouts", type=int, default=DEFAULT_MAX_ROLLOUTS, help="cap on worlds × actions"
    )
    parser.add_argument("--prior", default="heuristic", choices=PRIORS, help="the search's prior")
    parser.add_argument(
        "--rollout", default="heuristic", choices=ROLLOUTS, help="who plays the rollouts"
    )
    parser.add_argument(
        "--compiled",
        default="no",
        choices=("no", "yes", "tuned"),
        help="the compiled search (ExpertBot(compiled=True)'s), with the tuned constants or not",
    )
    args = parser.parse_args()
    if args.compiled != "no" and args.rollout != "heuristic":
        parser.error("the compiled search's rollouts are the heuristic's planner")
    print(
        f"search budget: {args.worlds} worlds, at most {args.rollouts} rollouts, "
        f"{args.prior} prior, {args.rollout} rollouts, compiled: {args.compiled}",
        flush=True,
    )
    for setting in [args.only] if args.only else SETTINGS:
        jobs = [
            (setting, args.seed, i, args.worlds, args.rollouts, args.prior, args.rollout,
             args.compiled)
            for i in range(args.games)
        ]  # fmt: skip
        with ProcessPoolExecutor(args.workers) as pool:
            wins = sum(pool.map(one, jobs, chunksize=8))
        low, high = wilson_interval(wins, args.games)
        print(
            f"{setting:8} hands-known expert vs greedy: {wins / args.games:.1%} "
            f"[{low:.1%}, {high:.1%}] of {args.games} games",
            flush=True,
        )


if __name__ == "__main__":
    main()
