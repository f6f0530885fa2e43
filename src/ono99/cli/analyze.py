"""``ono99 analyze``: many bot games, written up as a Markdown report with plots.

The experiments live in ``ono99.sim.analysis`` and the write-up in ``ono99.sim.report``;
this command only reads the options, shows progress and says where the report went. The
report needs matplotlib (the ``analysis`` extra), imported only when the command runs so that
the rest of the ``ono99`` command works without it.
"""

from __future__ import annotations

import secrets
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..bots import BOTS
from ..invocation import pip_install
from .command import Command
from .options import BadOptions, CliError

DEFAULT_OUT = Path("ono99-report")


def option_value(text: str) -> Any:
    """``8`` → 8, ``0.5`` → 0.5, ``true``/``false`` → bool, anything else stays text."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_strong_options(texts: tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip().isidentifier():
            raise BadOptions(f"--strong-option wants KEY=VALUE, like worlds=8, not {text!r}")
        options[key.strip()] = option_value(value.strip())
    return options


def command_line(
    games: int,
    strong_games: int,
    seed: int,
    strong: str,
    strong_options: dict[str, Any],
    out: Path,
    workers: int,
) -> str:
    """The command that repeats a run, every choice spelled out."""
    args = ["ono99", "analyze", "--games", str(games)]
    if strong_games != games:
        args += ["--strong-games", str(strong_games)]
    args += ["--seed", str(seed), "--strong", strong]
    for key, value in strong_options.items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        args += ["--strong-option", f"{key}={text}"]
    args += ["--out", str(out)]
    if workers != 1:
        args += ["--workers", str(workers)]
    return shlex.join(args)


@click.command(
    "analyze",
    cls=Command,
    epilog="\b\nExamples:\n  ono99 analyze --games 200 --seed 1\n"
    "  ono99 analyze --games 2000 --strong-games 300 --strong-option worlds=8 "
    "--out docs/analysis",
)
@click.option(
    "--games",
    "-n",
    type=int,
    default=1000,
    show_default=True,
    help="Games per cell: per edition and player count, match format or rule set.",
)
@click.option(
    "--strong-games",
    type=int,
    default=None,
    metavar="N",
    help="Games per rule set for the strong bot's edge. [default: --games]",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Game i of every cell uses seed SEED + i. [default: random, printed in the report]",
)
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="Directory for report.md, results.json and the PNG plots.",
)
@click.option(
    "--strong",
    default=None,
    metavar="NAME",
    help="The strong bot measured against greedy opponents. "
    "[default: expert if registered, else heuristic, else greedy]",
)
@click.option(
    "--strong-option",
    "strong_option_texts",
    multiple=True,
    metavar="KEY=VALUE",
    help="An option of the strong bot, such as its search budget (repeatable), "
    "e.g. --strong-option worlds=8.",
)
@click.option(
    "--workers",
    type=int,
    default=1,
    show_default=True,
    help="Processes playing games at once. The results do not depend on it.",
)
def analyze_command(
    games: int,
    strong_games: int | None,
    seed: int | None,
    out: Path,
    strong: str | None,
    strong_option_texts: tuple[str, ...],
    workers: int,
) -> None:
    """Play many bot games and write a report with plots: how much the seat order matters,
    how long games last, which cards save or sink players, and what the house rules change
    (game length and the strong bot's edge over greedy).

    Every rate and mean comes with its 95% interval. The report states the games, the seeds
    and the exact command that repeats it.
    """
    try:
        from ..sim import analysis, report
    except ImportError as exc:  # matplotlib is an optional extra
        raise CliError(
            f"ono99 analyze needs matplotlib ({exc}); install it with: {pip_install('analysis')}"
        ) from None
    if games < 1:
        raise BadOptions(f"--games must be at least 1, not {games}")
    n_strong = games if strong_games is None else strong_games
    if n_strong < 1:
        raise BadOptions(f"--strong-games must be at least 1, not {n_strong}")
    if workers < 1:
        raise BadOptions(f"--workers must be at least 1, not {workers}")
    strong = strong or analysis.strong_default()
    if strong not in BOTS:
        raise BadOptions(f"unknown bot {strong!r}; the bots are {', '.join(BOTS)}")
    strong_options = parse_strong_options(strong_option_texts)
    try:
        analysis.build_bot(strong, 0, strong_options)
    except ValueError as exc:
        raise BadOptions(f"--strong-option: {exc}") from None
    if seed is None:
        seed = secrets.randbelow(2**31)
    command = command_line(games, n_strong, seed, strong, strong_options, out, workers)

    console = Console(stderr=True, force_terminal=sys.stderr.isatty(), highlight=False)
    total = analysis.game_counts(games, n_strong)
    started = time.perf_counter()
    kwargs: dict[str, Any] = {
        "strong_games": n_strong,
        "strong": strong,
        "strong_options": strong_options,
        "workers": workers,
    }
    if console.is_terminal:
        columns = (
            TextColumn("{task.description:<12}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task("games", total=total)
            result = analysis.run_all(
                games,
                seed,
                on_game=lambda: progress.advance(task),
                on_stage=lambda stage: progress.update(task, description=stage),
                **kwargs,
            )
    else:
        result = analysis.run_all(
            games, seed, on_stage=lambda stage: console.print(f"analyze: {stage}…"), **kwargs
        )
    runtime = time.perf_counter() - started
    paths = report.write_report(result, out, command, runtime=runtime, workers=workers)
    click.echo(
        f"{total:,} games in {runtime:.0f} s; wrote {paths[0]} and {len(paths) - 1} more "
        f"files to {out}"
    )
