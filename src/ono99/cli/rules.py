"""``ono99 rules``: the rules page for players, in the terminal, in their language."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.markdown import Markdown

from ..i18n import rules_markdown
from .command import Command
from .options import lang_option, language_for


@click.command(
    "rules",
    cls=Command,
    epilog="\b\nExamples:\n  ono99 rules\n  ono99 rules --lang mr\n  ono99 rules --lang es --raw",
)
@lang_option
@click.option("--raw", is_flag=True, help="Print the Markdown source as it is.")
def rules_command(lang: str | None, raw: bool) -> None:
    """Show how to play ONO 99: both editions, the optional rules and the match formats.

    On a terminal the page is formatted (pipe it to a pager: ono99 rules | less -R).
    """
    code = language_for(lang).lang
    text = rules_markdown(code)
    if raw or not sys.stdout.isatty():
        click.echo(text, nl=False)
        return
    Console().print(Markdown(text))
