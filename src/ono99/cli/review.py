"""``ono99 review RECORD``: a game explained decision by decision for one seat (``sim/review.py``):
each decision's moves with their chances of winning, the move played and what it cost, the
largest mistakes with the better move, and the win-chance line; ``--lens known`` sees every
hand, ``--json`` prints the review as the browser reads it.
"""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..engine import DISCARD, DRAW, Action, Record
from ..i18n import Translator, card_label
from ..sim.review import LENSES, Decision, Review, review_game
from .command import Command
from .options import BadOptions, lang_option, language_for
from .replay import all_states, read_record, seat_names

SPARKS = "▁▂▃▄▅▆▇█"
_JUDGEMENT_STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}


def move_text(action: Action, edition: str, tr: Translator) -> str:
    """A move as the review words it: a card's name, "draw", "lay down four ONO 99s"."""
    if action is DRAW:
        return tr("review.move.draw")
    if action is DISCARD:
        return tr("review.move.discard")
    assert action.card is not None
    return card_label(action.card, edition, tr)


def percent(chance: float, tr: Translator) -> str:
    return tr("term.percent", n=tr.number(round(chance * 100)))


def sparkline(review: Review) -> Text:
    """The win-chance line as one row of blocks, a mistake's block in its colour."""
    text = Text()
    for d in review.searched:
        level = min(len(SPARKS) - 1, int(d.played_chance * len(SPARKS)))
        text.append(SPARKS[level], _JUDGEMENT_STYLE.get(d.judgement or "", "cyan"))
    return text


def default_seat(record: Record) -> int:
    """The person's seat when the record says who played: ``meta.human`` (the terminal game's
    records), else the first "human" of ``meta.players`` (the server's); else seat 0."""
    human = record.meta.get("human")
    if isinstance(human, int) and 0 <= human < record.rules.players:
        return human
    players = record.meta.get("players")
    if isinstance(players, list) and "human" in players:
        return players.index("human")
    return 0


def show(review: Review, record: Record, console: Console, tr: Translator) -> None:
    names, _ = seat_names(record, tr)
    edition = record.rules.edition
    name = names[review.seat]
    console.print(
        Text(tr("review.title", name=name) + " · " + tr(f"review.lens.{review.lens}"), "bold"),
        soft_wrap=True,
    )
    console.print(Text(tr(f"review.lens.{review.lens}.about"), "dim"), soft_wrap=True)
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column(tr("review.col.round"), justify="right")
    table.add_column(tr("review.col.total"), justify="right")
    table.add_column(tr("review.col.played"))
    table.add_column(tr("review.col.chance"), justify="right")
    table.add_column(tr("review.col.best"))
    table.add_column(tr("review.col.cost"), justify="right")
    table.add_column("")
    for d in review.decisions:
        played = move_text(d.played, edition, tr)
        if d.forced:
            table.add_row(
                str(d.move), tr.number(d.round), tr.number(d.total), played, "", "", "",
                Text(tr("review.forced"), "dim"), style="dim",
            )  # fmt: skip
            continue
        better = "" if d.best is d.played else move_text(d.best, edition, tr)
        best_chance = d.best_chance if d.best is not d.played else None
        judgement = d.judgement
        table.add_row(
            str(d.move),
            tr.number(d.round),
            tr.number(d.total),
            played,
            percent(d.played_chance, tr),
            better + (f" ({percent(best_chance, tr)})" if best_chance is not None else ""),
            percent(d.cost, tr) if d.cost >= 0.005 else "",
            Text(tr(f"review.judgement.{judgement}"), _JUDGEMENT_STYLE[judgement])
            if judgement
            else "",
        )
    console.print()
    console.print(table)
    console.print()
    console.print(Text(tr("review.mistakes"), "bold"))
    if not review.mistakes:
        console.print(Text("  " + tr("review.mistakes.none"), "green"), soft_wrap=True)
    for d in review.mistakes:
        console.print(Text("  " + mistake_text(d, edition, tr)), soft_wrap=True)
    if review.searched:
        console.print()
        console.print(Text(tr("review.line"), "bold"))
        first, last = review.searched[0], review.searched[-1]
        console.print(
            Text.assemble(
                f"  {percent(first.played_chance, tr)} ",
                sparkline(review),
                f" {percent(last.played_chance, tr)}",
            ),
            soft_wrap=True,
        )


def mistake_text(d: Decision, edition: str, tr: Translator) -> str:
    """ "[41] Blunder: played 10 (35%); better Reverse (67%), 32% lost"."""
    assert d.judgement is not None and d.best_chance is not None
    return tr(
        "review.mistake",
        move=str(d.move),
        judgement=tr(f"review.judgement.{d.judgement}"),
        played=move_text(d.played, edition, tr),
        chance=percent(d.played_chance, tr),
        best=move_text(d.best, edition, tr),
        best_chance=percent(d.best_chance, tr),
        cost=percent(d.cost, tr),
        total=tr.number(d.total),
    )


@click.command(
    "review",
    cls=Command,
    epilog="\b\nExamples:\n  ono99 review game.json"
    "\n  ono99 review game.json --seat 2 --lens known\n  ono99 review game.json --json",
)
@click.argument("record", metavar="RECORD")
@click.option(
    "--seat",
    type=int,
    default=None,
    help="The seat to review. [default: the person's seat in the record, else 0]",
)
@click.option(
    "--lens",
    type=click.Choice(LENSES),
    default="fair",
    show_default=True,
    help="fair: from what the seat could see at the time; known: with every hand known.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The search's seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON instead.")
@lang_option
def review_command(
    record: str, seat: int | None, lens: str, seed: int, as_json: bool, lang: str | None
) -> None:
    """Review a game: each decision of one seat, every move's chance of winning.

    RECORD is a record file (RULES.md N3), or - for standard input. The chances come from
    the expert's search; the largest mistakes are named with the better move, as an
    inaccuracy, a mistake or a blunder (5, 10, 15 points of win chance lost).
    """
    tr = language_for(lang)
    rec = read_record(record)
    all_states(rec)  # a bad record is one line of error, before any search
    players = rec.rules.players
    chosen = default_seat(rec) if seat is None else seat
    if not 0 <= chosen < players:
        raise BadOptions(f"--seat: the game has seats 0 to {players - 1}, not {chosen}")
    review = review_game(rec, chosen, lens=lens, seed=seed)
    if as_json:
        click.echo(json.dumps(review.to_dict(), indent=1))
        return
    console = Console(
        force_terminal=sys.stdout.isatty(), highlight=False, emoji=False, soft_wrap=True
    )
    show(review, rec, console, tr)
