"""``ono99 play``: one person against bots in the terminal.

The game is a plain transcript: each bot move is a log line, and at each of the person's
turns the table is shown (total, direction, owed cards, players, hand) and one line of input
is read. Nothing needs a TTY, so it can be scripted through pipes; on a TTY it gets colour,
a big total and bots that move at a human pace.

Exit status: 0 when the game is played to its end or the person types ``quit``; 1 when the
input ends (EOF) before the game is over or the record cannot be saved; 2 for bad options;
130 on Ctrl-C. The record of the game so far is saved in every case but bad options.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import secrets
import shlex
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from rich.cells import cell_len
from rich.console import Console, Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..bots import Bot, UnknownBotError, make_opponent
from ..bots.expert import ExpertBot
from ..engine import (
    CW,
    DISCARD,
    DRAW,
    IN,
    OUT,
    OUT_OF_ROUND,
    PLAY,
    Action,
    NotationError,
    Rules,
    State,
    View,
    apply,
    cards_drawn,
    is_bust,
    new_game,
    parse_card,
    record_of,
    to_act,
    view,
    why_illegal,
)
from ..engine.cards import HOLD, MINUS_TEN, ONO99, PLAY2, REVERSE
from ..i18n import Translator, card_label, cards_text, refusal_text, translator
from ..invocation import program
from .command import Command
from .options import (
    EXIT_FAILED,
    EXIT_OK,
    BadOptions,
    CliError,
    bot_list,
    bots_here,
    build_rules,
    edition_option,
    lang_option,
    language_for,
    rule_options,
    rule_values,
)
from .render import Line, Narrator, print_block

BOT_NAMES = ("Ana", "Ben", "Chloé", "Dev", "Eun", "Femi", "Gus")
DEFAULT_DELAY = 0.8
EXIT_INTERRUPTED = 130

_CARD_STYLE = {MINUS_TEN: "cyan", REVERSE: "magenta", PLAY2: "yellow", HOLD: "blue", ONO99: "red"}
_TONE_STYLE = {"round": "bold", "play": "", "bad": "red", "info": "dim", "over": "bold green"}
# Short words for cards, understood in every language (besides each language's card names).
_EXTRA_CARD_WORDS = {
    "r": REVERSE,
    "rev": REVERSE,
    "p2": PLAY2,
    "dp": PLAY2,
    "ono": ONO99,
    "m10": MINUS_TEN,
}
_DIGITS = {
    "0": ("█▀█", "█ █", "▀▀▀"),
    "1": (" ▀█", "  █", "  ▀"),
    "2": ("▀▀█", "█▀▀", "▀▀▀"),
    "3": ("▀▀█", " ▀█", "▀▀▀"),
    "4": ("█ █", "▀▀█", "  ▀"),
    "5": ("█▀▀", "▀▀█", "▀▀▀"),
    "6": ("█▀▀", "█▀█", "▀▀▀"),
    "7": ("▀▀█", "  █", "  ▀"),
    "8": ("█▀█", "█▀█", "▀▀▀"),
    "9": ("█▀█", "▀▀█", "▀▀▀"),
    "-": ("   ", "▀▀▀", "   "),
}


class MoveError(ValueError):
    """Input that names no move the person can make; the message is for them."""


class _Quit(Exception):
    pass


# --------------------------------------------------------------------------- input


# What each command is called: the English words always work; each language adds its own
# (the ``term.words.*`` messages, comma-separated).
_COMMANDS = {
    "draw": ("d", "draw"),
    "discard": ("discard", "discard ono99", "discard ono 99", "discard 99"),
    "quit": ("quit", "q", "exit"),
    "help": ("help", "h"),
    "status": ("status", "s", "table"),
    "moves": ("?", "moves", "legal"),
    "hint": ("hint", "hints"),
}


def _norm(text: str) -> str:
    """Input as compared: lowercase, single spaces, composed (NFC) and without accents, so
    "dao nguoc" and "đảo ngược", or "Αντιστροφη" and "αντιστροφή", name the same card."""
    text = unicodedata.normalize("NFD", " ".join(text.strip().lower().split()))
    # Marks that sit on Latin, Greek and Armenian letters; Devanagari's vowel signs stay.
    text = "".join(ch for ch in text if not ("\u0300" <= ch <= "\u036f"))
    return unicodedata.normalize("NFC", text).replace("đ", "d")


def command_words(command: str, tr: Translator) -> set[str]:
    words = set(_COMMANDS[command])
    words.update(_norm(w) for w in tr(f"term.words.{command}").split(",") if w.strip())
    return words


def parse_move(
    text: str,
    hand: Sequence[int],
    legal: Sequence[Action],
    edition: str,
    tr: Translator | None = None,
) -> Action:
    """The action a line of input names: a card (``7``, ``-10``, ``reverse``, or the card's
    name in the player's language), a position in ``hand`` (``2`` or ``#2``), ``play CARD``,
    ``draw``/``d`` or ``discard``."""
    tr = tr or translator()
    words = _norm(text)
    if words in command_words("draw", tr):
        return DRAW
    if words in command_words("discard", tr):
        return DISCARD
    if words.startswith("#"):
        return _card_action(_position(words[1:].strip(), hand, text, tr), hand, legal)
    if words == "play 2" and edition == "2022":
        # The card is called "Play 2", and "play 2" is also how the notation plays a 2.
        if PLAY2 in hand and 2 in hand:
            raise MoveError(tr("term.err.play2_ambiguous"))
        return _card_action(2 if 2 in hand else PLAY2, hand, legal, edition, tr)
    if words.startswith("play "):
        return _card_action(_card(words[5:], text, edition, tr), hand, legal, edition, tr)
    if words.isdigit():
        # A number is a card you hold, else a position in your hand (#N is always a position).
        n = int(words)
        if n <= 10 and n in hand:
            return _card_action(n, hand, legal)
        if 1 <= n <= len(hand):
            return _card_action(hand[n - 1], hand, legal)
        if n > 10:
            raise MoveError(tr("term.err.no_card_or_position", n=n))
    return _card_action(_card(words, text, edition, tr), hand, legal, edition, tr)


def position_hint(text: str, hand: Sequence[int], edition: str, tr: Translator) -> str:
    """For a number read as a card, how to reach the different card at that position."""
    words = text.strip()
    if not words.isdigit():
        return ""
    n = int(words)
    if n in hand and 1 <= n <= len(hand) and hand[n - 1] != n:
        return tr("term.err.position_hint", card=card_label(hand[n - 1], edition, tr), n=n)
    return ""


def _card(words: str, text: str, edition: str, tr: Translator) -> int:
    card = _EXTRA_CARD_WORDS.get(words)
    if card is not None:
        return card
    for c in (MINUS_TEN, REVERSE, PLAY2, HOLD, ONO99):  # the card names of the language
        name = _norm(card_label(c, edition, tr))
        if words in (name, name.replace(" ", "")):
            return c
    try:
        return parse_card(words)
    except NotationError:
        raise MoveError(tr("term.err.unknown", text=text.strip())) from None


def _position(words: str, hand: Sequence[int], text: str, tr: Translator) -> int:
    if not words.isdigit() or not 1 <= int(words) <= len(hand):
        raise MoveError(tr("term.err.position", text=text.strip(), size=len(hand)))
    return hand[int(words) - 1]


def _card_action(
    card: int,
    hand: Sequence[int],
    legal: Sequence[Action],
    edition: str | None = None,
    tr: Translator | None = None,
) -> Action:
    if edition is not None and card not in hand:
        tr = tr or translator()
        raise MoveError(
            tr(
                "term.err.not_held",
                card=card_label(card, edition, tr),
                hand=cards_text(hand, edition, tr),
            )
        )
    # Four ONO 99s: naming one of them means laying all four down (K7).
    if card == ONO99 and DISCARD in legal and PLAY[ONO99] not in legal:
        return DISCARD
    return PLAY[card]


def why_not(v: View, action: Action, tr: Translator) -> str:
    """Why the seat of view ``v`` may not take ``action`` now, in its words: the engine's
    reason, asked of the view (so it says nothing the person could not see)."""
    assert v.seat is not None
    refusal = why_illegal(v, v.seat, action)
    assert refusal is not None, f"{action} is legal"
    return refusal_text(refusal, v.rules.edition, tr)


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
    ) -> None:
        self.tr = tr = tr or translator()
        self.rules = rules
        self.human = human
        self.names = list(names)
        self.bots = list(bots)
        self.console = console
        self.read_line = read_line
        self.delay = delay
        self.echo_input = echo_input
        self.big = console.is_terminal
        self.narrator = Narrator(names, rules, tr, me=human)
        self.state: State = new_game(rules, seed)
        self.shown: View | None = None  # the person's view when last narrated
        self.second_card = False  # the person's next card is the second of two owed
        self.hints = hints  # show the expert's hint at every turn
        # The advisor searches from the person's view only, like any bot.
        self.advisor = ExpertBot(seed)

    # ------------------------------------------------------------ running

    def run(self) -> State:
        """Play to the end. Raises ``EOFError`` when input ends and ``_Quit`` on ``quit``;
        ``self.state`` is then the game so far."""
        self.intro()
        self.narrate()
        watching = False
        while not self.state.over:
            seat = to_act(self.state)
            if seat == self.human and self.human != self.state.to_play:
                # X2: the person owes a draw but not the next card. They were offered it right
                # after their card (offer_draw) and let it go: the table does not wait for it.
                seat = self.state.to_play
            assert seat is not None
            if seat == self.human:
                self.human_turn()
                continue
            if not watching and self.human in self.state.out:
                watching = True
                self.delay = min(self.delay, 0.25)
                self.console.print(Text("  " + self.tr("term.watching")))
            self.bot_turn(seat)
        self.outro()
        return self.state

    def bot_turn(self, seat: int) -> None:
        bot = self.bots[seat]
        assert bot is not None
        # X2: bots take their owed draw at once, whatever the bot would choose.
        action = DRAW if seat in self.state.owes_draw else bot.choose(view(self.state, seat))
        if action is not DRAW and self.delay > 0:
            time.sleep(self.delay)
        self.state = apply(self.state, seat, action)
        self.second_card = False
        self.narrate()

    def human_turn(self) -> None:
        before = self.state
        self.show_table()
        if self.hints:
            self.show_hint()
        action = self.ask_move()
        after = self.state
        if action is DRAW:
            return
        self.second_card = (
            before.owed == 2
            and not after.over
            and after.to_play == self.human
            and after.round == before.round
            and after.owed == 1
        )
        if self.rules.draw_penalty and self.human in after.owes_draw and not after.over:
            self.offer_draw()

    def ask_move(self) -> Action:
        """Read lines until one is a legal move, apply it, and return it."""
        tr = self.tr
        prompt = Text.assemble((tr("term.prompt"), "bold"), " " + tr("term.prompt.hint") + " › ")
        while True:
            words = _norm(self.ask(prompt))
            if not words:
                continue
            if words in command_words("quit", tr):
                raise _Quit
            if words in command_words("help", tr):
                self.console.print(Text(self.how_to()))
                continue
            if words in command_words("status", tr):
                self.show_table()
                continue
            v = view(self.state, self.human)
            hand, legal = v.hand or (), v.legal
            if words in command_words("moves", tr):
                self.console.print(self.legal_text(hand, legal))
                continue
            if words in command_words("hint", tr):
                self.show_hint()
                continue
            try:
                action = parse_move(words, hand, legal, self.rules.edition, tr)
            except MoveError as exc:
                self.error(str(exc))
                continue
            if action not in legal:
                edition = self.rules.edition
                self.error(why_not(v, action, tr) + position_hint(words, hand, edition, tr))
                continue
            self.state = apply(self.state, self.human, action)
            self.narrate()
            return action

    def offer_draw(self) -> None:
        tr = self.tr
        prompt = Text.assemble(
            (tr("term.draw.title"), "bold yellow"), " " + tr("term.draw.prompt") + " › "
        )
        words = _norm(self.ask(prompt))
        if words in command_words("quit", tr):
            raise _Quit
        if words in command_words("draw", tr):
            self.state = apply(self.state, self.human, DRAW)
            self.narrate()
        else:
            self.console.print(Text("  " + tr("term.draw.none"), "yellow"))

    def ask(self, prompt: Text) -> str:
        self.console.print(prompt, end="")
        line = self.read_line()
        if self.echo_input:
            self.console.print(Text(line))
        return line

    def error(self, message: str) -> None:
        self.console.print(Text(f"  ✗ {message[:1].upper()}{message[1:]}", "red"))

    # ------------------------------------------------------------ showing

    def narrate(self) -> None:
        """Print the public events that happened since the last call, and which cards the
        person drew in them (only they see those: worked out from their own views)."""
        v = view(self.state, self.human)
        last, self.shown = self.shown, v
        fresh = v.events[len(last.events) :] if last else v.events
        drawn = cards_drawn(last, v) if last else ()
        for line in self.narrator.lines(fresh, v, drawn):
            if line.kind != "over":  # the end screen says it (outro)
                self.print_line(line)

    def print_line(self, line: Line) -> None:
        if line.tone == "round":
            self.console.print()
        style = _TONE_STYLE[line.tone]
        if line.tone == "play" and line.seat == self.human:
            style = "green"
        self.console.print(Text("  " + line.text, style))

    def intro(self) -> None:
        r, tr = self.rules, self.tr
        others = tr.list(
            tr("term.player_bot", name=self.names[s], bot=bot_label(b.name, tr))
            for s, b in enumerate(self.bots)
            if b is not None
        )
        parts = [tr(f"term.edition.{r.edition}")]
        if r.draw_penalty:
            parts.append(tr("option.draw_penalty"))
        parts += [tr.plural("create.players.count", r.players), match_text(r, tr)]
        self.console.print(Text.assemble(("ONO 99", "bold"), " · " + " · ".join(parts)))
        self.console.print(
            Text(
                tr("term.intro.seats", name=self.names[self.human], seat=self.human, others=others)
            )
        )
        self.console.print(Text(tr("term.intro.goal", max_total=r.max_total), "dim"))

    def how_to(self) -> str:
        """The ``help`` text: how to name a card, then the commands this game's rules allow
        (``draw`` only with the draw penalty, ``discard`` only when four ONO 99s may go)."""
        r, tr = self.rules, self.tr
        cards = [card_label(c, r.edition, tr) for c in (MINUS_TEN, REVERSE, PLAY2, HOLD, ONO99)]
        if HOLD not in r.deck:
            cards.remove(card_label(HOLD, r.edition, tr))
        size = max(1, len(self.state.hands[self.human]))

        def word(command: str) -> str:
            return tr(f"term.words.{command}").split(",")[0].strip() or _COMMANDS[command][0]

        commands: list[tuple[str, str]] = []
        if r.draw_penalty:
            draw = word("draw")
            commands.append((draw if draw == "d" else f"{draw}, d", "draw"))
        if r.four_ono99_discard:
            commands.append((word("discard"), "discard"))
        commands.append(("?", "moves"))
        commands += [(word(c), c) for c in ("status", "hint", "help", "quit")]
        width = max(cell_len(typed) for typed, _ in commands)
        lines = [tr("term.help.intro", max_total=r.max_total, cards=", ".join(cards), size=size)]
        for typed, command in commands:
            pad = " " * (width - cell_len(typed))
            lines.append(f"  {typed}{pad}  {tr(f'term.help.{command}')}")
        if r.draw_penalty:
            lines.append(tr("term.help.draw_penalty"))
        return "\n".join(lines)

    def card_text(self, card: int, *, dim: bool = False) -> Text:
        style = "dim" if dim else _CARD_STYLE.get(card, "bold")
        return Text(card_label(card, self.rules.edition, self.tr), style)

    def legal_text(self, hand: Sequence[int], legal: Sequence[Action]) -> Text:
        parts: list[Text | str] = []
        for action in legal:
            if parts:
                parts.append(" · ")
            if action.kind == "play":
                assert action.card is not None
                parts.append(self.card_text(action.card))
                parts.append(f" (#{hand.index(action.card) + 1})")
            elif action is DISCARD:
                parts.append(self.tr("term.move.discard"))
            else:
                parts.append(self.tr("term.move.draw"))
        return Text.assemble("  " + self.tr("term.moves") + " ", *parts)

    def show_hint(self) -> None:
        """The expert's suggestion, and its estimated chance of winning (the match, under
        tokens or points) after each legal move, computed from the person's view alone. The
        suggestion is the move the expert would make: the heuristic's choice unless the search
        finds a clearly better one, so a move within the noise may show a point or two more."""
        v = view(self.state, self.human)
        choice, scored = self.advisor.advise(v)
        if choice is None:
            return
        # The suggestion first, then the other moves from the likeliest win down.
        scored.sort(key=lambda pair: (pair[0] is not choice, -pair[1]))
        hand = v.hand or ()
        tr = self.tr
        head = tr("term.hint.game" if self.rules.match == "single" else "term.hint.match")
        lines: list[Text | str] = [Text.assemble(("  " + tr("term.hint"), "bold cyan"), " " + head)]
        names = []
        for action, _ in scored:
            if action.kind == "play":
                assert action.card is not None
                card = self.card_text(action.card)
                names.append(Text.assemble(card, f" (#{hand.index(action.card) + 1})"))
            else:
                names.append(
                    Text(tr("term.move.discard" if action is DISCARD else "term.move.draw"))
                )
        width = max(len(name.plain) for name in names)
        for i, (name, (_, chance)) in enumerate(zip(names, scored, strict=True)):
            mark = ("  ◀ " + tr("term.hint.suggested"), "bold cyan") if i == 0 else ""
            pad = " " * (width - len(name.plain))
            percent = tr("term.percent", n=tr.number(round(chance * 100)))
            lines.append(Text.assemble("    ", name, pad, f"  {percent:>4}", mark))
        shown = [round(chance * 100) for _, chance in scored]
        if max(shown[1:], default=0) > shown[0]:
            lines.append(Text("    " + tr("term.hint.close"), "dim"))
        for line in lines:
            self.console.print(line)

    def show_table(self) -> None:
        v = view(self.state, self.human)
        self.console.print()
        tr = self.tr
        if v.to_play == self.human:
            turn = tr("term.turn.you")
        else:
            turn = tr("term.turn.other", name=self.names[v.to_play or 0])
        self.console.rule(Text(tr("term.round", round=v.round) + " · " + turn, "bold"), style="dim")
        block = Group(
            self.total_block(v), "", self.players_table(v), "", *self.warnings(v), self.hand_text(v)
        )
        print_block(self.console, Padding(block, (0, 0, 0, 2), expand=False))

    def total_block(self, v: View) -> Table | Text:
        r, tr = self.rules, self.tr
        room = r.max_total - v.total
        colour = "green" if room >= 30 else "yellow" if room > 10 else "red"
        after = _next_seat(v, v.to_play) if v.to_play is not None else None
        info = Text.assemble(
            (tr("game.total") + " ", "bold"),
            (str(v.total), f"bold {colour}"),
            "   " + tr("term.max", max_total=r.max_total) + "\n",
            tr("direction.cw" if v.direction == CW else "direction.ccw"),
            " · " + tr("term.next", name=self.names[after]) if after is not None else "",
            "\n",
            tr("term.piles", draw=v.draw_pile, discard=len(v.discard_pile)),
        )
        if not self.big:
            return info
        digits = [_DIGITS[ch] for ch in str(v.total)]
        big = Text("\n".join(" ".join(d[row] for d in digits) for row in range(3)), colour)
        grid = Table.grid(padding=(0, 4))
        grid.add_row(big, info)
        return grid

    def players_table(self, v: View) -> Table:
        r, tr = self.rules, self.tr
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("")
        table.add_column(tr("term.col.player"))
        table.add_column(tr("term.col.cards"), justify="right")
        if v.tokens is not None:
            table.add_column(tr("term.col.tokens"))
        if v.scores is not None:
            table.add_column(tr("term.col.score", target=r.target), justify="right")
        table.add_column("")
        for seat, name in enumerate(self.names):
            bot = self.bots[seat]
            who = Text(name, "bold green" if seat == self.human else "")
            if bot is not None:
                who = Text(tr("term.player_bot", name=name, bot=bot_label(bot.name, tr)))
            status = v.status[seat]
            note: list[str] = []
            if status == OUT:
                note.append(tr("term.status.out"))
                if v.laid_down[seat]:
                    note.append(
                        tr("seat.laid_down") + " " + cards_text(v.laid_down[seat], r.edition, tr)
                    )
            elif status == OUT_OF_ROUND:
                note.append(tr("status.out_of_round"))
            if seat in v.owes_draw:
                note.append(tr("seat.owes_draw"))
            if v.to_play == seat and v.owed == 2:
                note.append(tr("term.status.owes2", card=card_label(PLAY2, r.edition, tr)))
            row: list[Text | str] = [
                Text("▶", "bold") if v.to_play == seat else "",
                who,
                "–" if status == OUT else str(v.hand_sizes[seat]),
            ]
            if v.tokens is not None:
                tokens = v.tokens[seat]
                row.append("–" if status == OUT else "●" * tokens if tokens else tr("term.none"))
            if v.scores is not None:
                row.append(str(v.scores[seat]))
            row.append(Text(" · ".join(note), "red" if status != IN else "yellow"))
            table.add_row(*row)
        return table

    def warnings(self, v: View) -> list[Text]:
        """What the person must know before choosing: owed cards, draws, busts, K7."""
        r, tr = self.rules, self.tr
        if v.to_play != self.human:
            return []
        play2 = card_label(PLAY2, r.edition, tr)
        out: list[Text] = []
        if self.human in v.owes_draw:
            text = tr("term.warn.owe_draw")
            if v.legal == (DRAW,):
                text = tr("term.warn.draw_first")
            out.append(Text(text, "yellow"))
        if DISCARD in v.legal:
            out.append(Text(tr("term.warn.four_ono99"), "yellow"))
        elif v.legal and v.legal[0].kind == "play" and is_bust(self.state, v.legal[0]):
            effect = tr(f"term.bust.{r.bust_total}", total=v.total)
            text = tr("term.warn.bust", max_total=r.max_total, effect=effect)
            if v.owed == 2:
                text += " " + tr("term.warn.bust_lapses", card=play2)
            out.append(Text("⚠ " + text, "bold red"))
            return out
        if v.owed == 2:
            deflectors = [card_label(c, r.edition, tr) for c in sorted(r.deflectors) if c in r.deck]
            text = tr("term.warn.owe2", card=play2, cards=tr.list(deflectors, style="or"))
            if not r.play2_deflects_play2:
                text += " " + tr("term.warn.owe2_not_first", card=play2)
            out.append(Text("⚠ " + text, "bold yellow"))
        elif self.second_card:
            out.append(Text(tr("term.warn.second", card=play2), "bold yellow"))
        return out

    def hand_text(self, v: View) -> Text:
        hand = v.hand or ()
        playable = {a.card for a in v.legal if a.kind == "play"}
        if DISCARD in v.legal:
            playable.add(ONO99)
        parts: list[Text | str] = [Text(self.tr("hand.title") + " ", "bold")]
        for i, card in enumerate(hand, 1):
            parts += ["   ", Text(f"#{i} ", "dim"), self.card_text(card, dim=card not in playable)]
        if not hand:
            parts.append(" " + self.tr("hand.empty"))
        return Text.assemble(*parts)

    def outro(self) -> None:
        s, r, tr = self.state, self.rules, self.tr
        self.console.print()
        self.console.rule(Text(tr("turn.over"), "bold"))
        text = self.narrator.result(s.winners)
        if s.round > 1:
            text += " · " + tr.plural("term.rounds", s.round)
        self.console.print(Text(text, "bold green"))
        if s.tokens is None and s.scores is None:
            order = [self.names[w] for w in s.winners] + [self.names[o] for o in reversed(s.out)]
            self.console.print(Text(tr("term.finishing", names=", ".join(order))))
            return
        table = Table(box=None, padding=(0, 2), show_edge=False)
        table.add_column(tr("term.col.player"))
        table.add_column(
            tr("term.col.tokens_left")
            if s.tokens is not None
            else tr("term.col.score", target=r.target),
            justify="right",
        )
        table.add_column("")
        for seat, name in enumerate(self.names):
            value = (s.tokens or s.scores or ())[seat]
            table.add_row(name, str(value), tr("end.winner") if seat in s.winners else "")
        print_block(self.console, table)


def _next_seat(v: View, seat: int) -> int | None:
    """The seat after ``seat`` in the current direction that is still in (T4)."""
    n = v.players
    for step in range(1, n):
        s = (seat + step * v.direction) % n
        if v.status[s] == IN:
            return s
    return None


def match_text(rules: Rules, tr: Translator | None = None) -> str:
    tr = tr or translator()
    if rules.match == "tokens":
        return tr.plural("term.match.tokens", rules.tokens)
    if rules.match == "points":
        return tr(f"term.match.points.{rules.variant}", target=rules.target)
    return tr("term.match.single")


def bot_label(name: str, tr: Translator) -> str:
    """A bot's name for players: "Greedy (standard)"; a name the catalog lacks as it is."""
    return tr(f"bot.{name}") if tr.has(f"bot.{name}") else name


# --------------------------------------------------------------------------- records


def ono99_home() -> Path:
    return Path(os.environ.get("ONO99_HOME") or Path.home() / ".local" / "share" / "ono99")


def default_record_path(seed: int) -> Path:
    folder = ono99_home() / "records"
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stamp}-seed{seed}.json"
    n = 2
    while path.exists():
        path = folder / f"{stamp}-seed{seed}-{n}.json"
        n += 1
    return path


def save_record(state: State, path: Path, meta: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record_of(state, meta=meta).to_json() + "\n", encoding="utf-8")


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
    "  ono99 play --hints --bots expert",
)
@edition_option
@click.option(
    "--players",
    type=int,
    default=None,
    metavar="N",
    help="Number of players, you included (2–6). [default: 4, or one per bot + you]",
)
@click.option(
    "--bots",
    "bots_text",
    default="greedy",
    show_default=True,
    metavar="NAME,…",
    help="Bots for the other seats: one name for all, or one per seat. " + bots_here(),
)
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
    "[default: a new file in $ONO99_HOME/records, ONO99_HOME=~/.local/share/ono99]",
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
    hints: bool,
    lang: str | None,
    **options: Any,
) -> None:
    """Play ONO 99 in the terminal against bots.

    Keep the running total at or below 98: type a card (7, -10, reverse, play2…) or its
    position in your hand; ? lists your legal moves, help explains the rest. With
    --draw-penalty you must type d after each card to draw it, or lose the draw.

    Rule options left out keep the edition's defaults.

    Exit status: 0 when the game ends or you quit, 1 when input ends first, 2 for bad
    options. The game record is saved either way.
    """
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
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    wait = (DEFAULT_DELAY if delay is None else max(0.0, delay)) if interactive else 0.0
    console = Console(
        force_terminal=sys.stdout.isatty(), highlight=False, emoji=False, soft_wrap=True
    )
    game = TerminalGame(
        rules,
        seed,
        seat,
        names,
        bots,
        console,
        _line_reader(interactive),
        delay=wait,
        echo_input=not sys.stdin.isatty(),
        hints=hints,
        tr=tr,
    )
    code = EXIT_OK
    try:
        game.run()
    except _Quit:
        console.print(Text(tr("term.quit"), "bold"))
    except EOFError:
        console.print()
        console.print(Text(tr("term.eof"), "bold"))
        code = EXIT_FAILED
    except KeyboardInterrupt:
        console.print()
        console.print(Text(tr("term.interrupted"), "bold"))
        code = EXIT_INTERRUPTED
    path = save_path or default_record_path(seed)
    meta = {
        "program": "ono99 play",
        "names": names,
        "bots": [None if b is None else b.name for b in bots],
        "human": seat,
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "lang": tr.lang,
    }
    try:
        save_record(game.state, path, meta)
    except OSError as exc:
        raise CliError(f"could not save the record to {path}: {exc.strerror or exc}") from None
    console.print(Text(tr("term.saved", path=str(path), seed=seed), "bold"))
    again = f"{program()} replay {shlex.quote(str(path.resolve()))}"  # works from any folder
    console.print(Text(tr("term.replay_with", command=again), "dim"))
    click.get_current_context().exit(code)


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
