"""``ono99 analyze``: many bot games, written up as a Markdown report with plots.

The experiments live in ``ono99.sim.experiments`` and the write-up in ``ono99.sim.report``;
this command only reads the options, shows progress phase by phase (``analyze_progress``) and
says where the report went. Ctrl-C stops it with exit code 130 and one line saying what was
kept: the experiments finished by then, as a report marked partial. The report needs
matplotlib (the ``analysis`` extra), imported only when the command runs so that the rest of
the ``ono99`` command works without it.
"""

from __future__ import annotations

import secrets
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console

from ..invocation import pip_install
from ..sim.experiments import STRONG_SHARE
from .command import Command
from .options import BadOptions, CliError, bot_name, workers_option, workers_value

if TYPE_CHECKING:
    from ..sim.experiments import Run

DEFAULT_OUT = Path("ono99-report")
EXIT_INTERRUPTED = 130


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
    args = ["ono99", "analyze", "--games", str(games), "--strong-games", str(strong_games)]
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
    help="Games per rule set for the strong bot's edge; a game with the expert costs "
    f"hundreds of greedy games. [default: --games / {STRONG_SHARE}, rounded up]",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Seed of the run; game i of every cell has seeds hashed from SEED and i, as in a "
    "tournament. [default: random, printed in the report]",
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
@workers_option
def analyze_command(
    games: int,
    strong_games: int | None,
    seed: int | None,
    out: Path,
    strong: str | None,
    strong_option_texts: tuple[str, ...],
    workers: int | None,
) -> None:
    """Play many bot games and write a report with plots: how much the seat order matters,
    how long games last, which cards save or sink players, and what the house rules change
    (game length and the strong bot's edge over greedy).

    Every rate and mean comes with its 95% interval. The report states the games, the seeds
    and the exact command that repeats it. Progress is shown phase by phase, each with the
    time it has left. Ctrl-C stops the run and writes the experiments finished by then as a
    report marked partial (never over an earlier report).
    """
    try:
        from ..sim import experiments as analysis
        from ..sim import report
        from .analyze_progress import phase_progress
    except ImportError as exc:  # matplotlib is an optional extra
        raise CliError(
            f"ono99 analyze needs matplotlib ({exc}); install it with: {pip_install('analysis')}"
        ) from None
    if games < 1:
        raise BadOptions(f"--games must be at least 1, not {games}")
    strong, _, n_strong = analysis.strong_settings(games, strong_games, strong)
    if n_strong < 1:
        raise BadOptions(f"--strong-games must be at least 1, not {n_strong}")
    workers = workers_value(workers)
    bot_name(strong)  # one line for an unknown bot, or one without its extra
    strong_options = parse_strong_options(strong_option_texts)
    try:
        analysis.build_bot(strong, 0, strong_options)
    except ValueError as exc:
        raise BadOptions(f"--strong-option: {exc}") from None
    if seed is None:
        seed = secrets.randbelow(2**31)
    command = command_line(games, n_strong, seed, strong, strong_options, out, workers)

    err = Console(stderr=True, force_terminal=sys.stderr.isatty(), highlight=False)
    run = analysis.Run(
        games,
        seed,
        strong_games=n_strong,
        strong=strong,
        strong_options=strong_options,
        workers=workers,
    )
    started = time.perf_counter()
    try:
        with phase_progress(run.phases, workers, err) as tracker:
            result = run.run(on_game=tracker.on_game, on_phase=tracker.on_phase)
        runtime = time.perf_counter() - started
        paths = report.write_report(result, out, command, runtime=runtime, workers=workers)
    except KeyboardInterrupt:
        err.print(interrupted(run, out, command, time.perf_counter() - started), soft_wrap=True)
        sys.exit(EXIT_INTERRUPTED)
    click.echo(
        f"{sum(p.games for p in run.phases):,} games in {runtime:.0f} s; wrote {paths[0]} and "
        f"{len(paths) - 1} more files to {out}"
    )


def interrupted(run: Run, out: Path, command: str, runtime: float) -> str:
    """After Ctrl-C: write what finished as a partial report, unless that would replace a
    report already there, and say in one line what was kept."""
    from ..sim import report
    from .analyze_progress import clock_text

    if run.current is None:
        return f"interrupted while writing the report; {out} may hold only part of it"
    n = run.phases.index(run.current) + 1
    head = (
        f"interrupted during {run.current.name} (phase {n} of {len(run.phases)}) "
        f"after {clock_text(runtime)}"
    )
    partial = run.partial()
    if partial is None:
        return f"{head}; nothing was written (no phase had finished)"
    earlier = out / "report.md"
    if earlier.exists():
        return (
            f"{head}; nothing was written: {earlier} is from an earlier run and was left as it was"
        )
    kept = [p.name for p in run.phases if p.experiment in run.finished]
    try:
        paths = report.write_report(partial, out, command, runtime=runtime, workers=run.workers)
    except KeyboardInterrupt:
        return f"{head}; stopped again while writing a partial report: {out} may hold part of it"
    return f"{head}; kept {', '.join(kept)}: wrote a partial report to {paths[0]}"
