"""Command-line options shared by the commands, and how their errors are reported.

Every rule option of RULES.md §8 becomes a flag, generated from ``ono99.engine.OPTIONS``
so that a new option appears on the command line without touching this file. Values are
checked by ``make_rules`` itself, so a bad one is reported with the engine's own message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import click

from ..bots import BOT_INFO, BOTS, UnknownBotError, check_bot, offered_bots
from ..engine import EDITIONS, OPTIONS, Rules, RulesError, make_rules
from ..i18n import LANGUAGES, Translator, from_environment, parse_language, translator
from ..sim.batches import cores

F = TypeVar("F", bound=Callable[..., Any])

# Exit codes shared by every command.
EXIT_OK = 0
EXIT_FAILED = 1  # a bad record, an unreadable file, a game left unfinished by end of input
EXIT_USAGE = 2  # bad options: the same code click uses for its own usage errors


class CliError(click.ClickException):
    """A one-line "error: …" on stderr and exit status 1; never a traceback."""

    exit_code = EXIT_FAILED

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True, file=file)


class BadOptions(CliError):
    """Options that make no sense: one line, and exit status 2 like click's usage errors."""

    exit_code = EXIT_USAGE


def flag_name(option: str) -> str:
    return "--" + option.replace("_", "-")


def _option(spec: Any) -> Callable[[F], F]:
    """The flag for one ``OptionSpec`` of ``OPTIONS``."""
    name = flag_name(spec.name)
    text = spec.help[:1].upper() + spec.help[1:]
    if spec.type is bool:
        return click.option(f"{name}/--no-{name[2:]}", spec.name, default=None, help=f"{text}.")
    if spec.type is int:
        return click.option(
            name,
            spec.name,
            type=int,
            default=None,
            metavar="N",
            help=f"{text} ({spec.low}–{spec.high}).",
        )
    # Choices are checked by make_rules, so a bad one is a one-line error like any other.
    return click.option(
        name,
        spec.name,
        type=str,
        default=None,
        metavar="|".join(spec.choices),
        help=f"{text}.",
    )


def edition_option(f: F) -> F:
    return click.option(
        "--edition",
        default="2022",
        show_default=True,
        metavar="|".join(EDITIONS),
        help="Which game: the 2022 Mattel edition or the 1980 original.",
    )(f)


def rule_options(*, exclude: tuple[str, ...] = ()) -> Callable[[F], F]:
    """A decorator adding one flag per rule option (except ``exclude``). Options left out
    arrive as None and keep the edition's default."""

    def decorate(f: F) -> F:
        for spec in reversed(OPTIONS):
            if spec.name not in exclude:
                f = _option(spec)(f)
        return f

    return decorate


def rule_values(params: Mapping[str, Any]) -> dict[str, Any]:
    """The rule options the user actually gave, picked out of a command's parameters."""
    return {spec.name: params[spec.name] for spec in OPTIONS if params.get(spec.name) is not None}


def build_rules(edition: str, options: Mapping[str, Any]) -> Rules:
    """``make_rules``, with a bad option set reported as a one-line usage error."""
    try:
        return make_rules(edition, **options)
    except RulesError as exc:
        raise BadOptions(str(exc)) from None


def bots_here() -> str:
    """For ``--bots`` help: the bots that can be seated with this install, and the extra each
    missing one needs."""
    missing = [
        f"{name} needs the {info.extra} extra"
        for name, info in BOT_INFO.items()
        if info.missing() is not None
    ]
    return f"Bots: {', '.join(offered_bots())}" + "".join(f"; {m}" for m in missing) + "."


OUTSIDE_BOTS = " An outside bot is named by its import path, package.module:Factory."


def bots_option(default: str, help: str, outside: bool = False) -> Callable[[F], F]:
    """``--bots NAME,…`` (into ``bots_text``, for ``bot_list``): its help ends with the bots
    offered here, and ``outside`` bots when the command takes them."""
    more = bots_here() + (OUTSIDE_BOTS if outside else "")
    return click.option(
        "--bots",
        "bots_text",
        default=default,
        show_default=True,
        metavar="NAME,…",
        help=f"{help} {more}",
    )


def bot_name(name: str, outside: bool = False) -> str:
    """A bot that can be built here; an unknown one, or one whose extra is missing, is a
    one-line usage error. ``outside``: an outside bot's import path is welcome too."""
    if not outside and name not in BOTS:
        raise BadOptions(f"unknown bot {name!r}; the bots are {', '.join(offered_bots())}")
    try:
        check_bot(name)
    except UnknownBotError as exc:
        raise BadOptions(str(exc)) from None
    return name


def bot_list(text: str, outside: bool = False) -> list[str]:
    """Bot names from "greedy,random,…" (a name may repeat), each checked by ``bot_name``."""
    names = [part.strip() for part in text.split(",")]
    for name in dict.fromkeys(names):
        bot_name(name, outside)
    return names


def workers_option(f: F) -> F:
    """``--workers N`` (``-j N``): local processes playing games; by default one per core
    (``sim.batches.cores``). ``workers_value`` checks what was given."""
    return click.option(
        "--workers",
        "-j",
        type=int,
        default=None,
        help="Local processes playing games at once; the results do not depend on it. "
        "[default: the number of cores]",
    )(f)


def workers_value(workers: int | None) -> int:
    """The number of worker processes asked for, or the cores; fewer than 1 is refused."""
    if workers is None:
        return cores()
    if workers < 1:
        raise BadOptions(f"--workers must be at least 1, not {workers}")
    return workers


def lang_option(f: F) -> F:
    """``--lang CODE``, also read from $ONO99_LANG; without either, the locale decides."""
    return click.option(
        "--lang",
        default=None,
        metavar="CODE",
        envvar="ONO99_LANG",
        help=f"Language: {', '.join(LANGUAGES)}. "
        "[default: $ONO99_LANG, then the locale ($LANGUAGE, $LC_ALL, $LC_MESSAGES, $LANG)]",
    )(f)


def language_for(lang: str | None) -> Translator:
    """The translator for ``--lang`` (or the locale); an unknown code is a bad option."""
    try:
        return translator(parse_language(lang) if lang else from_environment())
    except ValueError as exc:
        raise BadOptions(f"--lang: {exc}") from None
