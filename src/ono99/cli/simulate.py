"""``ono99 simulate``: many games between bots, and each seat's win rate.

One player per bot named in ``--bots``, each in its seat for every game. The games are a batch
of ``ono99.sim.batches``: game ``i``'s seeds follow the one seeding rule
(``sim.seeding.game_seeds``, hashed from SEED and ``i``, as a tournament's), so a run is
reproducible from its seed; the first dealer of each game is drawn from its deal seed, so no
seat is favoured by always playing first. A win shared by tied winners counts fractionally.
"""

from __future__ import annotations

import json
import math
import secrets
import sys
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..sim.driver import BotError
from ..sim.seated import run_seated
from ..sim.tally import Tally
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
)
from .render import print_block


def _wins_text(wins: float) -> str:
    return str(round(wins)) if math.isclose(wins, round(wins), abs_tol=1e-9) else f"{wins:.2f}"


def table_of(bots: list[str], tally: Tally) -> Table:
    table = Table(title=None, show_footer=True, box=None, padding=(0, 2), pad_edge=False)
    rates = tally.win_rates()
    table.add_column("seat", footer="all", justify="right")
    table.add_column("bot")
    table.add_column("wins", footer=_wins_text(sum(tally.wins)), justify="right")
    table.add_column("win rate", footer=f"{sum(rates):.1%}", justify="right")
    table.add_column("95% interval", justify="right")
    rows = zip(bots, tally.wins, rates, tally.intervals(), strict=True)
    for seat, (bot, wins, rate, (low, high)) in enumerate(rows):
        table.add_row(str(seat), bot, _wins_text(wins), f"{rate:.1%}", f"{low:.1%}–{high:.1%}")
    return table


@click.command(
    "simulate",
    cls=Command,
    epilog="\b\nExamples:\n  ono99 simulate --bots greedy,random,random,random --games 1000"
    "\n  ono99 simulate --bots greedy,greedy --edition 1980 --games 200 --seed 1 --json",
)
@bots_option(
    "greedy,random,random,random",
    "One bot per seat; the number of bots is the number of players.",
)
@click.option("--games", "-n", type=int, default=100, show_default=True, help="Games to play.")
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Seed of the run; game i's seeds are hashed from SEED and i. [default: random]",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@edition_option
@rule_options(exclude=("players",))
def simulate_command(
    bots_text: str, games: int, seed: int | None, as_json: bool, edition: str, **options: Any
) -> None:
    """Play many games between bots and show each seat's win rate.

    Tied winners share a win. Shows a progress bar on a terminal, then a table (or JSON).
    Rule options left out keep the edition's defaults.
    """
    bots = bot_list(bots_text)
    if not 2 <= len(bots) <= 6:
        raise BadOptions(f"--bots: a game needs 2 to 6 players, not {len(bots)}")
    if games < 1:
        raise BadOptions(f"--games must be at least 1, not {games}")
    rules = build_rules(edition, {**rule_values(options), "players": len(bots)})
    if seed is None:
        seed = secrets.randbelow(2**31)
    console = Console(force_terminal=sys.stdout.isatty(), highlight=False, emoji=False)
    try:
        if console.is_terminal and not as_json:
            columns = (
                TextColumn("games"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
            )
            with Progress(*columns, console=console, transient=True) as progress:
                task = progress.add_task("games", total=games)
                tally = run_seated(rules, bots, games, seed, lambda: progress.advance(task))
        else:
            tally = run_seated(rules, bots, games, seed)
    except BotError as exc:
        raise CliError(str(exc)) from None
    if as_json:
        result = {
            "games": tally.games,
            "seed": seed,
            "rules": rules.to_dict(),
            "bots": bots,
            "wins": tally.wins,
            "win_rates": tally.win_rates(),
            "avg_actions": tally.actions / tally.games,
            "avg_rounds": tally.rounds / tally.games,
        }
        click.echo(json.dumps(result, indent=1))
        return
    console.print(
        f"{tally.games} games · {rules.edition} edition · {len(bots)} players · seed {seed}"
    )
    print_block(console, table_of(bots, tally))
    console.print(
        f"average per game: {tally.actions / tally.games:.1f} actions, "
        f"{tally.rounds / tally.games:.2f} rounds"
    )
