"""``ono99 play``: one person against bots in the terminal.

The game is a plain transcript: each bot move is a log line, and at each of the person's
turns the table is shown (total, direction, owed cards, players, hand) and one line of input
is read. Nothing needs a TTY, so it can be scripted through pipes; on a TTY it gets colour,
a big total and bots that move at a human pace.

Three modules by concept: ``play_input`` reads what the person types, ``play_screen`` prints
what they see, and this one runs the game — the bots' moves through the one game loop
(``ono99.sim.driver.advance``), the person's between them — and holds the command.

Exit status: 0 when the game is played to its end or the person types ``quit``; 1 when the
input ends (EOF) before the game is over or the record cannot be saved; 2 for bad options;
130 on Ctrl-C. The record of the game so far is saved in every case but bad options, and
``--resume`` goes on with an unfinished one: its actions replayed through the engine, its
seats, bots and rules as they were (``Resumed``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import secrets
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource
from rich.console import Console
from rich.text import Text

from ..bots import Agent, Bot, UnknownBotError, make_opponent
from ..bots.expert import ExpertBot, advisor
from ..engine import (
    DRAW,
    Action,
    Event,
    Rules,
    State,
    View,
    apply,
    new_game,
    to_act,
    view,
)
from ..i18n import Translator, translator
from ..invocation import HOME_HELP, ono99_home, program
from ..sim.driver import advance, decide
from .command import Command
from .options import (
    EXIT_FAILED,
    EXIT_OK,
    BadOptions,
    CliError,
    bot_list,
    bots_option,
    build_rules,
    edition_option,
    lang_option,
    language_for,
    rule_options,
    rule_values,
)
from .play_input import MoveError, command_words, norm, parse_move, position_hint, why_not
from .play_records import LAST, PROGRAM, Resumed, default_record_path, last_unfinished, save_record
from .play_screen import Screen

BOT_NAMES = ("Ana", "Ben", "Chloé", "Dev", "Eun", "Femi", "Gus")
DEFAULT_DELAY = 0.8
ROUND_PAUSE = 2.0  # seconds between rounds with --no-wait, on a terminal
EXIT_INTERRUPTED = 130


class _Quit(Exception):
    pass


# --------------------------------------------------------------------------- the game


class TerminalGame:
    """One person (``human``) against bots, through a rich console and a line reader."""

    def __init__(
        self,
        rules: Rules,
        seed: int,
        human: int,
        names: Sequence[str],
        bots: Sequence[Bot | None],
        console: Console,
        read_line: Callable[[], str],
        *,
        delay: float = 0.0,
        echo_input: bool = False,
        hints: bool = False,
        tr: Translator | None = None,
        start: State | None = None,
        offer_skip: bool = False,
        between_rounds: str = "none",
    ) -> None:
        self.tr = tr = tr or translator()
        self.rules = rules
        self.human = human
        self.bots = list(bots)
        self.console = console
        labels = [None if b is None else b.name for b in self.bots]
        self.screen = Screen(console, rules, human, names, labels, tr)
        self.read_line = read_line
        self.delay = delay
        self.echo_input = echo_input
        # A resumed game starts where its record stopped (``resume_record``).
        self.state: State = new_game(rules, seed) if start is None else start
        self.watching = False  # the person is out of the game and the bots play on
        self.skipping = False  # ... at full speed and unnarrated, to the result
        # Asked of a person at a terminal; a script reads the whole log, at full speed already.
        self.offer_skip_when_out = offer_skip
        # At a round's end, after its summary: "enter" waits for Enter, "pause" for a moment
        # (--no-wait), "none" goes on (a script: nobody to wait for).
        self.between_rounds = between_rounds
        self.hints = hints  # show the expert's hint at every turn
        # The advisor searches from the person's view only, like any bot; made at the first
        # hint (with Numba it loads the compiled search: nothing to pay for without hints).
        self.advisor_seed = seed
        self.advisor: ExpertBot | None = None

    # ------------------------------------------------------------ running

    def run(self) -> State:
        """Play to the end. Raises ``EOFError`` when input ends and ``_Quit`` on ``quit``;
        ``self.state`` is then the game so far."""
        self.screen.intro()
        self.narrate()
        while not self.state.over:
            self.play_bots()
            if not self.state.over:
                self.human_turn()
        self.screen.outro(view(self.state, self.human))
        return self.state

    def play_bots(self) -> None:
        """Let the bots move, through the one game loop, until the person is to act or the
        game is over."""
        self.state = advance(
            self.state,
            self.bots,
            actor=self.actor,
            choose=self.bot_choice,
            before=self.before_bot,
            on_state=self.after_bot,
        )

    def actor(self, state: State) -> int | None:
        """Who acts: the engine's ``to_act``, except that the table does not wait for a
        person who owes a draw but not the next card (X2). They were offered it right after
        their card (``offer_draw``) and let it go; the seat to play goes on."""
        seat = to_act(state)
        if seat == self.human and seat != state.to_play:
            return state.to_play
        return seat

    def bot_choice(self, bot: Agent, state: State, seat: int) -> Action:
        # X2: bots take their owed draw at once, whatever the bot would choose.
        return DRAW if seat in state.owes_draw else decide(bot, state, seat)

    def before_bot(self, state: State, seat: int, action: Action) -> None:
        if not self.watching and self.human in state.out:
            self.watching = True
            if self.offer_skip_when_out:
                self.offer_skip()
            else:
                self.screen.say("term.watching")
        if action is not DRAW and self.delay > 0:
            time.sleep(self.delay)

    def offer_skip(self) -> None:
        """Out of the game: skip to the result (the bots finish at full speed, unnarrated),
        the default, or watch them play it out."""
        words = norm(self.ask(self.screen.skip_prompt()))
        if words in command_words("quit", self.tr):
            raise _Quit
        if words in command_words("watch", self.tr):
            self.delay = min(self.delay, 0.25)
            self.screen.say("term.watching")
        else:
            self.skipping, self.delay = True, 0.0
            self.screen.say("term.skip.skipping")

    def after_bot(self, state: State) -> None:
        self.state = state
        if not self.skipping:
            self.narrate()

    def human_turn(self) -> None:
        self.show_table()
        if self.hints:
            self.show_hint()
        action = self.ask_move()
        after = self.state
        if action is DRAW:
            return
        if self.rules.draw_penalty and self.human in after.owes_draw and not after.over:
            self.offer_draw()

    def ask_move(self) -> Action:
        """Read lines until one is a legal move, apply it, and return it."""
        tr = self.tr
        prompt = self.screen.move_prompt()
        while True:
            words = norm(self.ask(prompt))
            if not words:
                continue
            if words in command_words("quit", tr):
                raise _Quit
            v = view(self.state, self.human)
            if words in command_words("help", tr):
                self.console.print(Text(self.screen.how_to(v)))
                continue
            if words in command_words("status", tr):
                self.show_table()
                continue
            hand, legal = v.hand or (), v.legal
            if words in command_words("moves", tr):
                self.console.print(self.screen.legal_text(hand, legal))
                continue
            if words in command_words("hint", tr):
                self.show_hint()
                continue
            try:
                action = parse_move(words, hand, legal, self.rules.edition, tr)
            except MoveError as exc:
                self.screen.error(str(exc))
                continue
            if action not in legal:
                edition = self.rules.edition
                self.screen.error(why_not(v, action, tr) + position_hint(words, hand, edition, tr))
                continue
            self.state = apply(self.state, self.human, action)
            self.narrate()
            return action

    def offer_draw(self) -> None:
        tr = self.tr
        words = norm(self.ask(self.screen.draw_prompt()))
        if words in command_words("quit", tr):
            raise _Quit
        if words in command_words("draw", tr):
            self.state = apply(self.state, self.human, DRAW)
            self.narrate()
        else:
            self.screen.say("term.draw.none", "yellow")

    def ask(self, prompt: Text) -> str:
        self.console.print(prompt, end="")
        line = self.read_line()
        if self.echo_input:
            self.console.print(Text(line))
        return line

    # ------------------------------------------------------------ showing

    def narrate(self) -> None:
        self.screen.narrate(view(self.state, self.human), self.round_ended)

    def round_ended(self, before: View, events: list[Event], end: Event) -> None:
        """A tokens or points round is over and another follows: who lost what and why, then
        a wait, so that rounds do not run into each other."""
        if self.skipping:
            return
        self.screen.round_summary(before, events, end)
        if self.between_rounds == "enter":
            words = norm(self.ask(self.screen.next_round_prompt(end.data[0] + 1)))
            if words in command_words("quit", self.tr):
                raise _Quit
        elif self.between_rounds == "pause":
            time.sleep(ROUND_PAUSE)

    def show_table(self) -> None:
        self.screen.table(view(self.state, self.human))

    def show_hint(self) -> None:
        """The expert's suggestion, and its estimated chance of winning (the match, under
        tokens or points) after each legal move, computed from the person's view alone. The
        suggestion is the move the expert would make: the heuristic's choice unless the search
        finds a clearly better one, so a move within the noise may show a point or two more."""
        v = view(self.state, self.human)
        if self.advisor is None:
            self.advisor = advisor(self.advisor_seed)
        with self.screen.working():
            choice, scored = self.advisor.advise(v)
        if choice is not None:
            self.screen.hint(v, choice, scored)


# --------------------------------------------------------------------------- command


def seat_names(players: int, human: int, name: str) -> list[str]:
    """The person's name at their seat, friendly names (not theirs) for the bots."""
    pool = iter(n for n in BOT_NAMES if n.lower() != name.lower())
    return [name if seat == human else next(pool) for seat in range(players)]


def _bots_for(kinds: list[str], players: int, human: int, seed: int) -> list[Bot | None]:
    if len(kinds) == 1:
        kinds = kinds * (players - 1)
    if len(kinds) != players - 1:
        raise BadOptions(
            f"--bots: give one bot for every seat, or one per other seat ({players - 1}), "
            f"not {len(kinds)}"
        )
    it = iter(kinds)
    return [None if s == human else make_opponent(next(it), seed * 10 + s) for s in range(players)]


@click.command(
    "play",
    cls=Command,
    epilog="\b\nExamples:\n  ono99 play\n"
    "  ono99 play --edition 1980 --players 3 --bots greedy,random\n"
    "  ono99 play --match points --target 150 --draw-penalty --seed 7\n"
    "  ono99 play --hints --bots expert\n"
    "  ono99 play --resume",
)
@edition_option
@click.option(
    "--players",
    type=int,
    default=None,
    metavar="N",
    help="Number of players, you included (2–6). [default: 4, or one per bot + you]",
)
@bots_option("greedy", "Bots for the other seats: one name for all, or one per seat.")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 = first).")
@click.option("--name", default=None, help="Your name in the log. [default: You, in your language]")
@click.option("--seed", type=int, default=None, help="Seed of the shuffles. [default: random]")
@click.option(
    "--delay",
    type=float,
    default=None,
    metavar="SECONDS",
    help=f"Pause before each bot move, on a terminal only. [default: {DEFAULT_DELAY}]",
)
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to save the game record. "
    f"[default: a new file in $ONO99_HOME/records, {HOME_HELP}]",
)
@click.option(
    "--resume",
    is_flag=False,
    flag_value=LAST,
    default=None,
    metavar="[RECORD]",
    help="Go on with a saved game, exactly where it stopped, with its own rules, seats and "
    "bots: the last unfinished one saved in $ONO99_HOME/records, or RECORD. It is saved "
    "back to the same record.",
)
@click.option(
    "--wait/--no-wait",
    "wait_rounds",
    default=True,
    show_default=True,
    help="At the end of each round of a tokens or points match, after who lost what and why, "
    f"wait for Enter; --no-wait pauses {ROUND_PAUSE:g} s instead. On a terminal only.",
)
@click.option(
    "--hints/--no-hints",
    default=False,
    show_default=True,
    help="Show the expert's suggestion and win chances at every turn (type hint for one).",
)
@lang_option
@rule_options(exclude=("players",))
def play_command(
    edition: str,
    players: int | None,
    bots_text: str,
    seat: int,
    name: str | None,
    seed: int | None,
    delay: float | None,
    save_path: Path | None,
    resume: str | None,
    wait_rounds: bool,
    hints: bool,
    lang: str | None,
    **options: Any,
) -> None:
    """Play ONO 99 in the terminal against bots.

    Keep the running total at or below 98: type a card (7, -10, reverse, play2…; a bare
    number is always a card's value) or #1-#4 for the card at that position in your hand;
    ? lists your legal moves, help explains the rest. With
    --draw-penalty you must type d after each card to draw it, or lose the draw.

    Rule options left out keep the edition's defaults.

    Exit status: 0 when the game ends or you quit, 1 when input ends first, 2 for bad
    options. The game record is saved either way (quit, end of input, Ctrl-C), and
    --resume goes on with it.
    """
    ctx = click.get_current_context()
    if resume is not None:
        _resume_alone(ctx, options)
        seating = resumed_seating(resume, lang, save_path)
    else:
        seating = new_seating(
            edition, players, bots_text, seat, name, seed, lang, save_path, options
        )
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    console = Console(
        force_terminal=sys.stdout.isatty(), highlight=False, emoji=False, soft_wrap=True
    )
    game = TerminalGame(
        seating.rules,
        seating.seed,
        seating.seat,
        seating.names,
        seating.bots,
        console,
        _line_reader(interactive),
        delay=(DEFAULT_DELAY if delay is None else max(0.0, delay)) if interactive else 0.0,
        echo_input=not sys.stdin.isatty(),
        hints=hints,
        tr=seating.tr,
        start=seating.start,
        offer_skip=interactive,
        between_rounds=("enter" if wait_rounds else "pause") if interactive else "none",
    )
    code = play_to_the_end(game, console, seating.tr)
    save_and_tell(game, seating, console)
    ctx.exit(code)


@dataclass
class Seating:
    """Who plays what: the rules and seed, the person's seat, every seat's name and bot (None
    at the person's seat), their language, the state to go on from (None: a new game) and
    where to save the record (None: a new file)."""

    rules: Rules
    seed: int
    seat: int
    names: list[str]
    bots: list[Bot | None]
    tr: Translator
    start: State | None = None
    save_path: Path | None = None


def _resume_alone(ctx: click.Context, options: dict[str, Any]) -> None:
    """``--resume`` takes the saved game's rules, seats and bots: none may be given too."""
    given = [
        f"--{p.replace('_', '-')}"
        for p in ("edition", "players", "bots_text", "seat", "name", "seed", *options)
        if ctx.get_parameter_source(p) not in (None, ParameterSource.DEFAULT)
    ]
    if given:
        raise BadOptions(
            f"--resume goes on with the saved game's own rules, seats and bots: "
            f"leave out {', '.join(g.replace('--bots-text', '--bots') for g in given)}"
        )


def resumed_seating(resume: str, lang: str | None, save_path: Path | None) -> Seating:
    """The seating of a saved game (``--resume PATH``, or ``last``: the last unfinished one)."""
    folder = ono99_home() / "records"
    saved = Resumed(last_unfinished(folder) if resume == LAST else Path(resume))
    seed = saved.record.seed
    try:  # each bot as it was first made (``_bots_for``)
        bots = [
            None if b is None else make_opponent(b, seed * 10 + s) for s, b in enumerate(saved.bots)
        ]
    except UnknownBotError as exc:
        raise BadOptions(str(exc)) from None
    tr = language_for(lang or saved.lang)
    return Seating(
        saved.record.rules, seed, saved.human, saved.names, bots, tr, saved.state,
        save_path or saved.path,
    )  # fmt: skip


def new_seating(
    edition: str,
    players: int | None,
    bots_text: str,
    seat: int,
    name: str | None,
    seed: int | None,
    lang: str | None,
    save_path: Path | None,
    options: dict[str, Any],
) -> Seating:
    """The seating of a new game from the command's options, checked."""
    tr = language_for(lang)
    kinds = bot_list(bots_text)
    if players is None and len(kinds) > 1:
        players = len(kinds) + 1
    rules = build_rules(edition, {**rule_values(options), "players": players})
    if not 0 <= seat < rules.players:
        raise BadOptions(f"--seat must be a seat from 0 to {rules.players - 1}, not {seat}")
    name = (name or "").strip() or tr("term.you")
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        bots = _bots_for(kinds, rules.players, seat, seed)
    except UnknownBotError as exc:
        raise BadOptions(str(exc)) from None
    names = seat_names(rules.players, seat, name)
    return Seating(rules, seed, seat, names, bots, tr, save_path=save_path)


def play_to_the_end(game: TerminalGame, console: Console, tr: Translator) -> int:
    """Run the game until it ends, the person quits, input ends or Ctrl-C; the exit code."""
    try:
        game.run()
    except _Quit:
        console.print(Text(tr("term.quit"), "bold"))
    except EOFError:
        console.print()
        console.print(Text(tr("term.eof"), "bold"))
        return EXIT_FAILED
    except KeyboardInterrupt:
        console.print()
        console.print(Text(tr("term.interrupted"), "bold"))
        return EXIT_INTERRUPTED
    return EXIT_OK


def save_and_tell(game: TerminalGame, seating: Seating, console: Console) -> None:
    """Save the game's record and say where, and how to replay it or go on with it."""
    tr = seating.tr
    path = seating.save_path or default_record_path(seating.seed)
    meta = {
        "program": PROGRAM,
        "names": seating.names,
        "bots": [None if b is None else b.name for b in seating.bots],
        "human": seating.seat,
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "lang": tr.lang,
    }
    try:
        save_record(game.state, path, meta)
    except OSError as exc:
        raise CliError(f"could not save the record to {path}: {exc.strerror or exc}") from None
    console.print(Text(tr("term.saved", path=str(path), seed=seating.seed), "bold"))
    where = shlex.quote(str(path.resolve()))  # works from any folder
    again = f"{program()} replay {where}"
    console.print(Text(tr("term.replay_with", command=again), "dim"))
    if game.state.over:
        review = f"{program()} review {where}"
        console.print(Text(tr("term.review_with", command=review), "dim"))
    else:
        resume_again = f"{program()} play --resume {where}"
        console.print(Text(tr("term.resume_with", command=resume_again), "dim"))


def _line_reader(interactive: bool) -> Callable[[], str]:
    if interactive:
        with contextlib.suppress(ImportError):  # not on every platform
            import readline  # noqa: F401  (line editing for input())
        return input

    def read() -> str:
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

    return read
