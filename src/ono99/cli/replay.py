"""``ono99 replay RECORD``: a game record (RULES.md N3) told play by play, or with ``--json``
the N4 summary of the state it reaches.

A bad record exits with status 1 and one line naming its first bad entry, e.g.
``error: actions[12]: seat 2 tried 'play 10' at total 95, …``; the record is checked to the
end before anything is printed, so a bad one never produces half a replay.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from ..engine import (
    OUT,
    Ono99Error,
    Record,
    State,
    cards_drawn,
    load_record,
    replay_states,
    summarize,
    view,
)
from ..i18n import Translator, cards_text, option_label, translator
from .command import Command
from .options import CliError, lang_option, language_for
from .play_screen import match_text
from .render import Narrator

_TONE_STYLE = {"round": "bold", "play": "", "bad": "red", "info": "dim", "over": "bold green"}


def read_record(source: str) -> Record:
    """The validated record in file ``source`` ("-" for standard input)."""
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        raise CliError(f"{source}: cannot read the record ({exc.strerror or exc})") from None
    try:
        return load_record(data)
    except Ono99Error as exc:
        raise CliError(str(exc)) from None


def all_states(record: Record) -> list[State]:
    """Every state of the game, from the deal to the last action; a bad entry is an error."""
    try:
        return list(replay_states(record))
    except Ono99Error as exc:
        raise CliError(str(exc)) from None


def seat_names(record: Record, tr: Translator | None = None) -> tuple[list[str], list[str | None]]:
    """Player names and bot kinds from the record's meta, when it has usable ones."""
    tr = tr or translator()
    n = record.rules.players
    names = record.meta.get("names")
    if not (isinstance(names, list) and len(names) == n and all(isinstance(x, str) for x in names)):
        names = [tr("replay.seat", seat=s) for s in range(n)]
    bots = record.meta.get("bots")
    if not (isinstance(bots, list) and len(bots) == n):
        bots = [None] * n
    return names, [b if isinstance(b, str) else None for b in bots]


def describe(
    record: Record, states: list[State], console: Console, tr: Translator | None = None
) -> None:
    """The readable play-by-play."""
    tr = tr or translator()
    rules = record.rules
    names, bots = seat_names(record, tr)
    edition = rules.edition
    extras = [
        option_text(k, v, rules.edition, tr)
        for k, v in rules.to_dict().items()
        if k not in ("edition", "players")
    ]
    head = " · ".join(
        [
            "ONO 99",
            tr(f"term.edition.{edition}"),
            tr.plural("create.players.count", rules.players),
            match_text(rules, tr),
        ]
    )
    console.print(Text(head, "bold"), soft_wrap=True)
    facts = [tr("replay.seed", seed=record.seed), tr.plural("replay.actions", len(record.actions))]
    if extras:
        facts.append(tr("replay.options", options=", ".join(extras)))
    console.print(Text(" · ".join(facts), "dim"), soft_wrap=True)
    if any(bots) or names != [tr("replay.seat", seat=s) for s in range(rules.players)]:
        players = [
            f"{s} {name}" + (f" ({bot})" if bot else "")
            for s, (name, bot) in enumerate(zip(names, bots, strict=True))
        ]
        console.print(Text(tr("replay.players", players=" · ".join(players))), soft_wrap=True)
    human = record.meta.get("human")
    me = human if isinstance(human, int) and 0 <= human < rules.players else None
    narrator = Narrator(names, rules, tr, me=me)
    seen = 0
    for i, state in enumerate(states):
        events = state.events()
        fresh, seen = events[seen:], len(events)
        number = "" if i == 0 else f"[{i - 1}]"
        # The player's own draws read as they did in their game ("You draw 7"); the others'
        # as they saw them, though every hand is public here.
        drawn = (
            cards_drawn(view(states[i - 1], me), view(state, me)) if i and me is not None else ()
        )
        for line in narrator.lines(fresh, state, drawn):
            if line.kind == "deal":
                console.print()
                console.print(Text(line.text, "bold"), soft_wrap=True)
                continue
            console.print(Text(f"{number:>6} {line.text}", _TONE_STYLE[line.tone]), soft_wrap=True)
            number = ""
        if any(e.kind == "deal" for e in fresh):
            dealt = [
                f"{names[s]}: {cards_text(hand, edition, tr)}"
                for s, hand in enumerate(state.hands)
                if state.status[s] != OUT
            ]
            console.print(
                Text("       " + tr("replay.hands", hands=" | ".join(dealt)), "dim"), soft_wrap=True
            )
    final = states[-1]
    console.print()
    if final.over:
        text = narrator.result(final.winners)
        if final.round > 1:
            text += " · " + tr.plural("term.rounds", final.round)
        console.print(Text(tr("replay.result", result=text), "bold green"))
    else:
        assert final.to_play is not None
        key = "replay.unfinished.owes2" if final.owed == 2 else "replay.unfinished"
        console.print(
            Text(tr(key, total=final.total, name=names[final.to_play]), "bold"), soft_wrap=True
        )
    standing = final.tokens if final.tokens is not None else final.scores
    if standing is not None:
        label = tr("term.col.tokens_left" if final.tokens is not None else "replay.scores")
        pairs = [f"{n}: {v}" for n, v in zip(names, standing, strict=True)]
        console.print(Text(f"{label} · " + " · ".join(pairs)), soft_wrap=True)


def option_text(name: str, value: object, edition: str, tr: Translator) -> str:
    """A rule option as players read it: "Draw penalty: yes", "Match: Tokens (…)"."""
    if isinstance(value, bool):
        shown = tr("yes" if value else "no")
    elif tr.has(f"option.{name}.{value}"):
        shown = tr(f"option.{name}.{value}")
    else:
        shown = str(value)
    return f"{option_label(name, edition, tr)}: {shown}"


def summary_json(state: State) -> str:
    """The N4 summary exactly as the example ``*.summary.json`` files are written."""
    summary: dict[str, Any] = summarize(state)
    return json.dumps(summary, indent=1)


@click.command(
    "replay",
    cls=Command,
    epilog="\b\nExamples:\n  ono99 replay ~/.local/share/ono99/records/20250101-120000-seed7.json"
    "\n  ono99 replay game.json --json",
)
@click.argument("record", metavar="RECORD")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the N4 summary of the final state as JSON instead.",
)
@lang_option
def replay_command(record: str, as_json: bool, lang: str | None) -> None:
    """Replay a saved game record, play by play.

    RECORD is a record file (RULES.md N3), or - for standard input. A bad record exits
    with status 1 and one line naming its first bad entry.
    """
    tr = language_for(lang)
    rec = read_record(record)
    states = all_states(rec)
    if as_json:
        click.echo(summary_json(states[-1]))
        return
    console = Console(
        force_terminal=sys.stdout.isatty(), highlight=False, emoji=False, soft_wrap=True
    )
    describe(rec, states, console, tr)
