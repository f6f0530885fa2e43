"""``ono99 tournament``: many games between bots, seats rotated, win rates with intervals,
ratings, and every game saved.

The games are those of ``ono99.sim.tournament``: game i's seeds are hashed from (SEED, i)
and it seats the lineup rotated by i mod n, so a run is reproducible from its seed whether
one process, several, or a Dask cluster played it. The output folder gets ``games.jsonl``
(one game record per line, in game order, written as the games arrive) and ``summary.json``.
"""

from __future__ import annotations

import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ..bots import bot_info
from ..invocation import HOME_HELP, pip_install
from ..sim.driver import BotError
from ..sim.tournament import Tournament, have_ratings
from ..sim.tournament_folder import FolderError, FolderRun, play_into_folder, prepare_folder
from .command import Command
from .options import (
    BadOptions,
    CliError,
    bot_list,
    bots_option,
    build_rules,
    edition_option,
    rule_options,
    rule_values,
    workers_option,
    workers_value,
)
from .render import print_block

EXIT_INTERRUPTED = 130


# --------------------------------------------------------------------------- progress


def _duration(seconds: float) -> str:
    if seconds < 10:
        return f"{seconds:.1f}s"
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def rate_text(games: float, seconds: float) -> str:
    """How fast games go, in words that read right at any speed: "1,234 games/s",
    "2.3 games/s", or below one a second "2.3 s/game" (0.44 games/s printed "0 games/s")."""
    if games <= 0 or seconds <= 0:
        return "no games timed"
    rate = games / seconds
    if rate >= 100:
        return f"{rate:,.0f} games/s"
    if rate >= 10:
        return f"{rate:.0f} games/s"
    if rate >= 1:
        return f"{rate:.1f} games/s"
    per = seconds / games
    return f"{per:.1f} s/game" if per < 10 else f"{per:,.0f} s/game"


@contextmanager
def progress(total: int, err: Console) -> Iterator[Callable[[int], None]]:
    """A callback counting finished games: a bar with the time left on a terminal, else a
    plain line on stderr at every tenth of the way or every 30 seconds."""
    if err.is_terminal:
        columns = (
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=err, transient=True) as bar:
            task = bar.add_task("games", total=total)
            yield lambda k: bar.advance(task, k)
        return
    start = time.monotonic()
    state = {"done": 0, "shown": 0, "when": start}

    def advance(k: int) -> None:
        state["done"] += k
        done, now = state["done"], time.monotonic()
        if done < total and done - state["shown"] < total / 10 and now - state["when"] < 30:
            return
        state["shown"], state["when"] = done, now
        rate = done / max(now - start, 1e-9)
        left = f"about {_duration((total - done) / rate)} left" if done < total else "done"
        speed = rate_text(done, now - start)
        err.print(f"games {done}/{total} · {done / total:.0%} · {speed} · {left}")

    yield advance


# --------------------------------------------------------------------------- output


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _wins(x: float) -> str:
    return str(round(x)) if abs(x - round(x)) < 1e-9 else f"{x:.2f}"


def bots_table(summary: dict[str, Any]) -> Table:
    ratings = {r["bot"]: r for r in (summary["ratings"] or {"bots": []})["bots"]}
    table = Table(box=None, padding=(0, 2), pad_edge=False)
    table.add_column("bot")
    table.add_column("copies", justify="right")
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% interval", justify="right")
    if ratings:
        table.add_column("rating μ ± σ", justify="right")
    for bot in summary["bots"]:
        low, high = bot["ci95"]
        name = bot["bot"] + (" *" if bot_info(bot["bot"]).sees_all else "")
        row = [name, str(bot["copies"]), str(bot["games"]), _wins(bot["wins"])]
        row += [_pct(bot["win_rate"]), f"{_pct(low)}–{_pct(high)}"]
        if ratings:
            r = ratings[bot["bot"]]
            row.append(f"{r['mu']:.2f} ± {r['sigma']:.2f}")
        table.add_row(*row)
    return table


def seats_table(summary: dict[str, Any]) -> Table:
    table = Table(box=None, padding=(0, 2), pad_edge=False)
    table.add_column("seat", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% interval", justify="right")
    for seat in summary["seats"]:
        low, high = seat["ci95"]
        table.add_row(
            str(seat["seat"]),
            _wins(seat["wins"]),
            _pct(seat["win_rate"]),
            f"{_pct(low)}–{_pct(high)}",
        )
    return table


class Stopper:
    """Ctrl-C and SIGTERM ask the games to stop (see ``play_games``): the workers are
    stopped, and games.jsonl and the summary keep the games finished before. A second
    Ctrl-C interrupts at once."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def asked(self) -> bool:
        return self.requested

    @contextmanager
    def installed(self) -> Iterator[Stopper]:
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        signals = (signal.SIGINT, signal.SIGTERM)
        previous = [signal.signal(sig, self) for sig in signals]
        try:
            yield self
        finally:
            for sig, handler in zip(signals, previous, strict=True):
                signal.signal(sig, handler)


# --------------------------------------------------------------------------- command


@click.command(
    "tournament",
    cls=Command,
    epilog="\b\nExamples:\n  ono99 tournament --bots greedy,random,random,random --games 2000"
    "\n  ono99 tournament --bots greedy,random --edition 1980 --match points --seed 1"
    "\n  ono99 tournament --bots greedy,greedy,random --address tcp://10.0.0.5:8786",
)
@bots_option(
    "greedy,random,random,random",
    "The lineup, one bot per player (a name may repeat); seats rotate every game.",
    outside=True,
)
@click.option("--games", "-n", type=int, default=2000, show_default=True, help="Games to play.")
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Tournament seed; game i's seeds are derived from (SEED, i). [default: random]",
)
@workers_option
@click.option(
    "--address",
    default=None,
    metavar="ADDRESS",
    help="Play on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786) "
    "instead of locally; its workers need ono99 installed.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="DIR",
    help="Where to write games.jsonl and summary.json. "
    f"[default: a new folder in $ONO99_HOME/tournaments, {HOME_HELP}]",
)
@edition_option
@rule_options(exclude=("players",))
def tournament_command(
    bots_text: str,
    games: int,
    seed: int | None,
    workers: int | None,
    address: str | None,
    out: Path | None,
    edition: str,
    **options: Any,
) -> None:
    """Play a tournament between bots: win rates with 95% intervals per bot and per seat,
    and Plackett–Luce ratings.

    Game i seats the lineup rotated by i mod n, so each bot sits in each seat equally often
    when GAMES is a multiple of the number of players. Tied winners share a win. The same
    seed gives the same games and the same summary, whoever plays them. Every game record
    goes to DIR/games.jsonl, in game order; the results to DIR/summary.json.
    """
    bots = bot_list(bots_text, outside=True)
    if not 2 <= len(bots) <= 6:
        raise BadOptions(f"--bots: a game needs 2 to 6 players, not {len(bots)}")
    if games < 1:
        raise BadOptions(f"--games must be at least 1, not {games}")
    workers = workers_value(workers)
    if address is not None and not have_dask():
        raise CliError(f"--address needs Dask: {pip_install('tournament')}")
    rules = build_rules(edition, {**rule_values(options), "players": len(bots)})
    seed = secrets.randbelow(2**31) if seed is None else seed
    tournament = Tournament(rules, tuple(bots), games, seed)
    try:
        folder = prepare_folder(out)
    except FolderError as exc:
        raise CliError(str(exc)) from None

    console = Console(force_terminal=sys.stdout.isatty(), highlight=False, emoji=False)
    err = Console(stderr=True, force_terminal=sys.stderr.isatty(), highlight=False, emoji=False)
    print_header(console, tournament, workers, address)
    try:
        with Stopper().installed() as stopper, progress(games, err) as on_done:
            run = play_into_folder(
                tournament,
                folder,
                workers=workers,
                address=address,
                on_done=on_done,
                stop=stopper.asked,
                made_folder=out is None,
            )
    except (ConnectionError, BotError) as exc:
        raise CliError(str(exc)) from None
    if not run.complete:
        err.print(
            f"interrupted after {run.summary['games']} of {games} games; kept their records in "
            f"{run.games_path} and their summary in {run.summary_path}",
            soft_wrap=True,
        )
        sys.exit(EXIT_INTERRUPTED)
    print_results(console, run)


def have_dask() -> bool:
    """Whether Dask's distributed scheduler (the ``tournament`` extra) is installed."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return False
    return True


def print_header(
    console: Console, tournament: Tournament, workers: int, address: str | None
) -> None:
    """What is about to be played, and what the results will lack."""
    rules, games, players = tournament.rules, tournament.games, len(tournament.bots)
    where = f"Dask at {address}" if address else f"{workers} worker{'s' * (workers > 1)}"
    console.print(
        f"{games} games · {rules.edition} edition · {players} players · "
        f"seed {tournament.seed} · {where}"
    )
    if games % players:
        console.print(
            f"note: {games} games is not a multiple of {players} players, "
            "so the seats are balanced to within one game"
        )
    if not have_ratings():
        console.print(f"note: no ratings without openskill: {pip_install('tournament')}")


def print_results(console: Console, run: FolderRun) -> None:
    """The tables, the averages, the speed and where the files are."""
    summary = run.summary
    print_block(console, bots_table(summary))
    if any(bot_info(bot["bot"]).sees_all for bot in summary["bots"]):
        console.print("* sees every card: a measure of the ceiling of skill, not an opponent")
    console.print()
    print_block(console, seats_table(summary))
    console.print()
    averages = summary["averages"]
    console.print(
        f"average per game: {averages['actions']:.1f} actions, {averages['rounds']:.2f} rounds"
        f" · {summary['shared_wins']} shared wins"
    )
    seconds = run.seconds
    console.print(f"{_duration(seconds)} · {rate_text(summary['games'], seconds)}", soft_wrap=True)
    console.print(f"games: {run.games_path}", soft_wrap=True)
    console.print(f"summary: {run.summary_path}", soft_wrap=True)
