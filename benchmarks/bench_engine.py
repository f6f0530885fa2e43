"""Random self-play speed of the ono99 engine on one core, beside RLCard's UNO environment.

Each configuration plays whole games with a uniformly random legal action (``random.Random``)
through the checked API, ``legal_actions`` + ``apply``, for ``--seconds`` per repetition after a
warm-up, and reports the median over ``--repeats`` repetitions of games per second, actions per
second and actions per game. RLCard's UNO is then timed the same way with its random agents and
``env.run(is_training=False)``, one call per game, and our actions per second are divided by its.

Run by hand, never from the test suite:

    python benchmarks/bench_engine.py                 # table
    python benchmarks/bench_engine.py --seconds 1 --json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# RLCard pulls in numpy; one BLAS thread keeps it on the pinned core (set before any import).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import ono99  # noqa: E402
from ono99.engine import Rules, apply, legal_actions, make_rules, new_game, view  # noqa: E402

# The repetition number of the warm-up: its seeds differ from every measured repetition's.
WARMUP_REP = 999

# One game: play it to the end and return how many actions were applied.
GameRunner = Callable[[int], int]


@dataclass
class Config:
    """One measured configuration."""

    key: str  # short machine name, used in JSON
    label: str  # what the table shows
    engine: str  # "ono99" or "rlcard-uno"
    players: int
    make_runner: Callable[[int], GameRunner]  # repetition number -> runner
    note: str = ""


@dataclass
class Result:
    config: Config
    runs: list[dict[str, float]] = field(default_factory=list)

    def median(self, metric: str) -> float:
        return statistics.median(run[metric] for run in self.runs)

    def spread(self, metric: str) -> tuple[float, float]:
        values = [run[metric] for run in self.runs]
        return min(values), max(values)

    def to_json(self) -> dict[str, Any]:
        c = self.config
        return {
            "key": c.key,
            "label": c.label,
            "engine": c.engine,
            "players": c.players,
            "note": c.note,
            "games_per_s": self.median("games_per_s"),
            "actions_per_s": self.median("actions_per_s"),
            "actions_per_game": self.median("actions_per_game"),
            "runs": self.runs,
        }


# --------------------------------------------------------------------------- ono99


def ono99_runner(rules: Rules, rep: int, *, with_views: bool) -> GameRunner:
    """Random self-play through the checked API. With ``with_views``, the acting seat's view
    is also built before every action, as a bot or an RL observation would need."""
    rng = random.Random(f"bench:{rules.edition}:{rules.players}:{rep}")
    choice = rng.choice

    def run(game: int) -> int:
        state = new_game(rules, rep * 1_000_000 + game)
        actions = 0
        while not state.over:
            # A seat owing a draw (X2) acts before the seat to play; off by default.
            seat = state.owes_draw[0] if state.owes_draw else state.to_play
            if with_views:
                view(state, seat)
            state = apply(state, seat, choice(legal_actions(state, seat)))
            actions += 1
        return actions

    return run


def ono99_configs(with_views: bool) -> list[Config]:
    configs = []
    for players in (4, 2):
        for edition in ("2022", "1980"):
            rules = make_rules(edition, players=players)
            match = "single game" if rules.match == "single" else f"{rules.match} match"
            configs.append(
                Config(
                    key=f"ono99-{edition}-{players}p",
                    label=f"ono99 {edition}, {match}, {players}p",
                    engine="ono99",
                    players=players,
                    make_runner=lambda rep, r=rules: ono99_runner(r, rep, with_views=False),
                )
            )
            if with_views:
                configs.append(
                    Config(
                        key=f"ono99-{edition}-{players}p-views",
                        label=f"ono99 {edition}, {match}, {players}p + view()",
                        engine="ono99",
                        players=players,
                        make_runner=lambda rep, r=rules: ono99_runner(r, rep, with_views=True),
                    )
                )
    return configs


# --------------------------------------------------------------------------- RLCard


def rlcard_configs() -> tuple[list[Config], dict[str, Any]]:
    """RLCard's UNO at 2 and 4 players, or no configs and the reason it was not measured."""
    try:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent
    except Exception as error:  # ImportError, or a broken numpy build underneath
        return [], {"measured": False, "reason": f"{type(error).__name__}: {error}"}

    def make_env(players: int, rep: int) -> Any:
        env = rlcard.make("uno", config={"seed": rep, "game_num_players": players})
        if env.num_players != players:
            # rlcard 1.2's Env.__init__ passes game_* options on to blackjack and hold'em only,
            # so UNO is always built for 2. Its round logic is n-player (turns go modulo
            # num_players), so set the count on the game and the env directly; only
            # get_payoffs assumes 2 players, and that does not change how a game is played.
            env.game.configure({"game_num_players": players})
            env.num_players = players
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(players)])
        return env

    def runner(players: int, rep: int) -> GameRunner:
        env = make_env(players, rep)
        np.random.seed(rep)  # RandomAgent draws from numpy's global generator

        def run(game: int) -> int:
            # env.step() is the only transition and adds 1 to env.timestep (never reset); one
            # step is one action of the player to move: a card played, or "draw" (which may
            # play the drawn card at once, still one step). run() also encodes the next
            # player's observation after every step, as an RL environment does.
            before = env.timestep
            env.run(is_training=False)
            return env.timestep - before

        return run

    configs = []
    for players in (4, 2):
        forced = players != 2
        configs.append(
            Config(
                key=f"rlcard-uno-{players}p",
                label=f"RLCard UNO, {players}p" + (" (forced*)" if forced else ""),
                engine="rlcard-uno",
                players=players,
                make_runner=lambda rep, p=players: runner(p, rep),
                note="player count set on env.game: rlcard.make ignores game_num_players for uno"
                if forced
                else "",
            )
        )
    info = {
        "measured": True,
        "version": getattr(rlcard, "__version__", "?"),
        "numpy": np.__version__,
    }
    return configs, info


# --------------------------------------------------------------------------- timing


def time_runner(run: GameRunner, seconds: float) -> dict[str, float]:
    """Play whole games until ``seconds`` have passed; the clock stops after the last game."""
    games = actions = 0
    clock = time.perf_counter
    start = clock()
    elapsed = 0.0
    while elapsed < seconds:
        actions += run(games)
        games += 1
        elapsed = clock() - start
    return {
        "seconds": elapsed,
        "games": games,
        "actions": actions,
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
        "actions_per_game": actions / games,
    }


def measure(config: Config, seconds: float, repeats: int, warmup: float, progress: bool) -> Result:
    if progress:
        print(f"  {config.label} ...", end="", flush=True, file=sys.stderr)
    if warmup > 0:
        time_runner(config.make_runner(WARMUP_REP), warmup)
    result = Result(config)
    for rep in range(repeats):
        result.runs.append(time_runner(config.make_runner(rep), seconds))
    if progress:
        print(f" {result.median('actions_per_s'):,.0f} actions/s", file=sys.stderr)
    return result


# --------------------------------------------------------------------------- machine


def pin_to_one_core(core: int | None = None) -> str:
    """Pin the process to ``core``; by default to the lowest core it may already run on, so
    that an affinity set from outside (``taskset -c 1 ...``) is kept, not overridden."""
    try:
        allowed = sorted(os.sched_getaffinity(0))
        if core is None:
            core = allowed[0]
        os.sched_setaffinity(0, {core})
    except (AttributeError, OSError) as error:
        return f"not pinned ({type(error).__name__}: {error})"
    inherited = "" if len(allowed) > 1 else " (as inherited)"
    if len(allowed) > 1 and len(allowed) < (os.cpu_count() or 0):
        inherited = f" (of inherited cores {','.join(map(str, allowed))})"
    return f"pinned to core {core}{inherited}"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith(("model name", "Model", "Hardware")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine_info(pinning: str) -> dict[str, Any]:
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except (AttributeError, OSError):
        load = "unknown"
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "pinning": pinning,
        "load_average_at_start": load,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "ono99": getattr(ono99, "__version__", "?"),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


# --------------------------------------------------------------------------- report


def ratios(ours: list[Result], theirs: list[Result]) -> list[dict[str, Any]]:
    """Our actions/s over RLCard's at the same player count."""
    by_players = {r.config.players: r for r in theirs}
    out = []
    for result in ours:
        other = by_players.get(result.config.players)
        if other is None:
            continue
        out.append(
            {
                "ours": result.config.key,
                "theirs": other.config.key,
                "ratio": result.median("actions_per_s") / other.median("actions_per_s"),
            }
        )
    return out


def print_table(
    machine: dict[str, Any],
    settings: dict[str, Any],
    results: list[Result],
    rlcard_info: dict[str, Any],
    ratio_rows: list[dict[str, Any]],
) -> None:
    print("ono99 engine benchmark: uniformly random self-play, checked API, one core")
    print()
    print(f"CPU       {machine['cpu']} ({machine['cores']} cores, {machine['pinning']})")
    print(f"Python    {machine['python']} on {machine['platform']}")
    print(f"Load      {machine['load_average_at_start']} (1/5/15 min, at start)")
    rl = (
        f"rlcard {rlcard_info['version']}, numpy {rlcard_info['numpy']}"
        if rlcard_info["measured"]
        else "not measured"
    )
    print(f"Versions  ono99 {machine['ono99']}; {rl}")
    print(
        f"Timing    {settings['seconds']:g} s x {settings['repeats']} repetitions per row after "
        f"a {settings['warmup']:g} s warm-up;\n          medians shown, range of actions/s in "
        "brackets"
    )
    print()
    width = max(len(r.config.label) for r in results)
    header = (
        f"{'configuration':<{width}}  {'games/s':>9}  {'actions/s':>10}  "
        f"{'actions/game':>12}  {'actions/s range':>19}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        low, high = r.spread("actions_per_s")
        print(
            f"{r.config.label:<{width}}  {r.median('games_per_s'):>9,.0f}  "
            f"{r.median('actions_per_s'):>10,.0f}  {r.median('actions_per_game'):>12,.1f}  "
            f"{f'[{low:,.0f} – {high:,.0f}]':>19}"
        )
    print()
    if not rlcard_info["measured"]:
        print(f"RLCard was NOT measured: {rlcard_info['reason']}")
        print("Install it with: .venv/bin/pip install -e '.[bench]'")
        return
    labels = {r.config.key: r.config.label for r in results}
    print("ono99 actions/s divided by RLCard UNO actions/s (same player count):")
    for row in ratio_rows:
        print(f"  {labels[row['ours']]:<{width}}  {row['ratio']:5.2f}x")
    print()
    print(
        "* rlcard.make('uno') ignores game_num_players (rlcard passes game_* options only to\n"
        "  blackjack and hold'em), so UNO is 2-player by API; the 4-player row sets the count\n"
        "  on env.game directly. Its turn logic is n-player; only its payoffs assume 2."
    )
    print(
        "  RLCard actions = env.step() calls (a card or a draw); each step also encodes the\n"
        "  next player's observation. ono99 rows are the bare engine unless marked view()."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per repetition")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions per row (median)")
    parser.add_argument("--warmup", type=float, default=0.5, help="warm-up seconds per row")
    parser.add_argument(
        "--core",
        type=int,
        default=None,
        help="CPU core to pin the process to (default: the lowest of those it may run on)",
    )
    parser.add_argument("--views", action="store_true", help="add rows building view() too")
    parser.add_argument("--no-rlcard", action="store_true", help="skip the RLCard comparison")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.warmup < 0:
        parser.error("--seconds must be > 0, --repeats >= 1, --warmup >= 0")

    machine = machine_info(pin_to_one_core(args.core))
    settings = {"seconds": args.seconds, "repeats": args.repeats, "warmup": args.warmup}
    progress = sys.stderr.isatty()

    ours = [
        measure(c, args.seconds, args.repeats, args.warmup, progress)
        for c in ono99_configs(args.views)
    ]
    if args.no_rlcard:
        theirs_configs: list[Config] = []
        rlcard_info: dict[str, Any] = {"measured": False, "reason": "--no-rlcard was given"}
    else:
        theirs_configs, rlcard_info = rlcard_configs()
    theirs = [measure(c, args.seconds, args.repeats, args.warmup, progress) for c in theirs_configs]
    ratio_rows = ratios([r for r in ours if not r.config.key.endswith("-views")], theirs)
    ratio_rows += ratios([r for r in ours if r.config.key.endswith("-views")], theirs)

    if args.json:
        report = {
            "machine": machine,
            "settings": settings,
            "rlcard": rlcard_info,
            "results": [r.to_json() for r in ours + theirs],
            "ratios": ratio_rows,
        }
        print(json.dumps(report, indent=1))
    else:
        print_table(machine, settings, ours + theirs, rlcard_info, ratio_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
