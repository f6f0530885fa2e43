"""``ono99 rules``: the rules page for players, in the terminal, in their language."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.markdown import Markdown

from ..i18n import LANGUAGES, from_environment, parse_language, rules_markdown
from .options import BadOptions


@click.command(
    "rules",
    epilog="\b\nExamples:\n  ono99 rules\n  ono99 rules --lang mr\n  ono99 rules --lang es --raw",
)
@click.option(
    "--lang",
    default=None,
    metavar="CODE",
    envvar="ONO99_LANG",
    help=f"Language: {', '.join(LANGUAGES)}. [default: from $ONO99_LANG, then the locale]",
)
@click.option("--raw", is_flag=True, help="Print the Markdown source as it is.")
def rules_command(lang: str | None, raw: bool) -> None:
    """Show how to play ONO 99: both editions, the optional rules and the match formats.

    On a terminal the page is formatted (pipe it to a pager: ono99 rules | less -R).
    """
    try:
        code = parse_language(lang) if lang else from_environment()
    except ValueError as exc:
        raise BadOptions(f"--lang: {exc}") from None
    text = rules_markdown(code)
    if raw or not sys.stdout.isatty():
        click.echo(text, nl=False)
        return
    Console().print(Markdown(text))
