"""What ``ono99 play`` prints: the table at the person's turn, the log, hints, the end.

A ``Screen`` shows views of the person's seat and nothing else — the transcript cannot leak a
card they could not see. Who plays after whom is the engine's ``next_seat`` (T4), whether a
card is the second of two owed is ``View.second_card`` (P1), and a forced bust is
``View.must_bust`` (M3): the screen says them, it does not work them out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from rich.cells import cell_len
from rich.console import Console, Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..engine import (
    CW,
    DISCARD,
    DRAW,
    IN,
    OUT,
    OUT_OF_ROUND,
    Action,
    Event,
    Rules,
    View,
    cards_drawn,
    next_seat,
)
from ..engine.cards import HOLD, MINUS_TEN, ONO99, PLAY2, REVERSE
from ..i18n import MINUS, Translator, card_label, cards_text, number_text, translator
from .play_input import command_word
from .render import Line, Narrator, print_block

_CARD_STYLE = {MINUS_TEN: "cyan", REVERSE: "magenta", PLAY2: "yellow", HOLD: "blue", ONO99: "red"}
_TONE_STYLE = {"round": "bold", "play": "", "bad": "red", "info": "dim", "over": "bold green"}
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
    MINUS: ("   ", "▀▀▀", "   "),
}


def match_text(rules: Rules, tr: Translator | None = None) -> str:
    tr = tr or translator()
    if rules.match == "tokens":
        return tr.plural("term.match.tokens", rules.tokens)
    if rules.match == "points":
        return tr(f"term.match.points.{rules.variant}", target=rules.target)
    return tr("term.match.single")


def bot_label(name: str, tr: Translator) -> str:
    """A bot's name for players: "Easy (greedy)"; a name the catalog lacks as it is."""
    return tr(f"bot.{name}") if tr.has(f"bot.{name}") else name


class Screen:
    """The person's console: ``bots`` names the bot at each seat (None at the person's)."""

    def __init__(
        self,
        console: Console,
        rules: Rules,
        human: int,
        names: Sequence[str],
        bots: Sequence[str | None],
        tr: Translator,
    ) -> None:
        self.console = console
        self.rules = rules
        self.human = human
        self.names = list(names)
        self.bots = list(bots)
        self.tr = tr
        self.big = console.is_terminal
        self.narrator = Narrator(names, rules, tr, me=human)
        self.shown: View | None = None  # the person's view when last narrated

    # ------------------------------------------------------------ the log

    def narrate(
        self, v: View, between_rounds: Callable[[View, list[Event], Event], None] | None = None
    ) -> None:
        """Print the public events that happened since the last call, and which cards the
        person drew in them (only they see those: worked out from their own views). A round
        that ended among them is summed up (``between_rounds``, given the view before these
        events, the events up to the round's end and that event) before the next deal."""
        last, self.shown = self.shown, v
        fresh = v.events[len(last.events) :] if last else v.events
        drawn = cards_drawn(last, v) if last else ()
        ends = [i for i, e in enumerate(fresh) if e.kind == "round_end"]
        for line in self.narrator.lines(fresh, v, drawn):
            if line.kind == "deal" and ends and last is not None and between_rounds is not None:
                end = ends.pop(0)
                between_rounds(last, fresh[:end], fresh[end])
            if line.kind != "over":  # the end screen says it (outro)
                self.print_line(line)

    def round_summary(self, before: View, events: list[Event], end: Event) -> None:
        """Who lost what at a round's end, and why, from what the person may see (V1): each
        player's points and where they came from (cards left in hand, 15 for each card short
        of four, 25 for being out of the round: M3), or the tokens left (M2); the person's own
        hand when the round ended, if this step did not change it."""
        tr, r = self.tr, self.rules
        round_, gained = end.data
        self.console.print()
        self.console.rule(Text(tr("term.round.over", round=round_), "bold"))
        sizes = list(before.hand_sizes)
        out_of_round = set(before.out_of_round)
        for e in events:
            if e.kind in ("play", "draw") and e.seat is not None:
                sizes[e.seat] += 1 if e.kind == "draw" or not r.draw_penalty else 0
                sizes[e.seat] -= 1 if e.kind == "play" else 0
            elif e.kind == "out_of_round" and e.seat is not None:
                out_of_round.add(e.seat)
        acted = any(e.seat == self.human and e.kind in ("play", "discard") for e in events)
        if before.hand is not None and not acted and (gained is not None or end.seat == self.human):
            cards = cards_text(before.hand, r.edition, tr)
            self.console.print(Text("  " + tr("term.round.your_hand", cards=cards)))
        if gained is None:  # tokens: who has how many left
            tokens = self.shown.tokens if self.shown is not None else None
            if tokens is not None:
                pairs = [
                    f"{self.names[s]} {tokens[s]}"
                    for s in range(r.players)
                    if s not in self.shown_out()
                ]
                label = tr("term.col.tokens_left")
                self.console.print(Text(f"  {label[:1].upper()}{label[1:]}: " + " · ".join(pairs)))
            return
        scores = self.shown.scores if self.shown is not None else None
        for s, points in enumerate(gained):
            if s in before.out:
                continue
            short = max(0, 4 - sizes[s])
            out = 25 if s in out_of_round else 0
            parts = [tr("term.round.part.cards", points=points - 15 * short - out)]
            if short:
                parts.append(tr("term.round.part.short", count=short))
            if out:
                parts.append(tr("term.round.part.out"))
            score = scores[s] if scores is not None else points
            line = tr(
                "term.round.points",
                name=self.names[s],
                points=points,
                parts=", ".join(parts),
                score=score,
                target=r.target,
            )
            self.console.print(Text("  " + line))

    def shown_out(self) -> tuple[int, ...]:
        return self.shown.out if self.shown is not None else ()

    def next_round_prompt(self, round_: int) -> Text:
        return Text.assemble((self.tr("term.round.next", round=round_), "bold"), " › ")

    def print_line(self, line: Line) -> None:
        if line.tone == "round":
            self.console.print()
        style = _TONE_STYLE[line.tone]
        if line.tone == "play" and line.seat == self.human:
            style = "green"
        self.console.print(Text("  " + line.text, style))

    def say(self, key: str, style: str = "") -> None:
        """One indented line of the catalog's ``key``."""
        self.console.print(Text("  " + self.tr(key), style))

    def error(self, message: str) -> None:
        self.console.print(Text(f"  ✗ {message[:1].upper()}{message[1:]}", "red"))

    # ------------------------------------------------------------ prompts

    def move_prompt(self) -> Text:
        tr = self.tr
        return Text.assemble((tr("term.prompt"), "bold"), " " + tr("term.prompt.hint") + " › ")

    def draw_prompt(self) -> Text:
        tr = self.tr
        return Text.assemble(
            (tr("term.draw.title"), "bold yellow"), " " + tr("term.draw.prompt") + " › "
        )

    def skip_prompt(self) -> Text:
        tr = self.tr
        return Text.assemble((tr("term.skip.title"), "bold"), " " + tr("term.skip.prompt") + " › ")

    # ------------------------------------------------------------ the start and the end

    def intro(self) -> None:
        r, tr = self.rules, self.tr
        others = tr.list(
            tr("term.player_bot", name=self.names[s], bot=bot_label(b, tr))
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

    def outro(self, v: View) -> None:
        r, tr = self.rules, self.tr
        self.console.print()
        self.console.rule(Text(tr("turn.over"), "bold"))
        text = self.narrator.result(v.winners)
        if v.round > 1:
            text += " · " + tr.plural("term.rounds", v.round)
        self.console.print(Text(text, "bold green"))
        if v.tokens is None and v.scores is None:
            order = [self.names[w] for w in v.winners] + [self.names[o] for o in reversed(v.out)]
            self.console.print(Text(tr("term.finishing", names=", ".join(order))))
            return
        table = Table(box=None, padding=(0, 2), show_edge=False)
        table.add_column(tr("term.col.player"))
        table.add_column(
            tr("term.col.tokens_left")
            if v.tokens is not None
            else tr("term.col.score", target=r.target),
            justify="right",
        )
        table.add_column("")
        for seat, name in enumerate(self.names):
            value = (v.tokens or v.scores or ())[seat]
            table.add_row(name, str(value), tr("end.winner") if seat in v.winners else "")
        print_block(self.console, table)

    # ------------------------------------------------------------ help, moves, hints

    def how_to(self, v: View) -> str:
        """The ``help`` text: how to name a card, then the commands this game's rules allow
        (``draw`` only with the draw penalty, ``discard`` only when four ONO 99s must go)."""
        r, tr = self.rules, self.tr
        cards = [card_label(c, r.edition, tr) for c in (MINUS_TEN, REVERSE, PLAY2, HOLD, ONO99)]
        if HOLD not in r.deck:
            cards.remove(card_label(HOLD, r.edition, tr))
        size = max(1, len(v.hand or ()))
        commands: list[tuple[str, str]] = []
        if r.draw_penalty:
            draw = command_word("draw", tr)
            commands.append((draw if draw == "d" else f"{draw}, d", "draw"))
        if r.four_ono99_discard:
            commands.append((command_word("discard", tr), "discard"))
        commands.append(("?", "moves"))
        commands += [(command_word(c, tr), c) for c in ("status", "hint", "help", "quit")]
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

    @contextmanager
    def working(self, slow_after: float = 3.0) -> Iterator[None]:
        """While a hint is worked out: a spinner on a person's terminal (nothing in a script or
        a log), which says after ``slow_after`` seconds why it takes long. A hint takes a few
        milliseconds, but the first after installing compiles the expert's search (Numba): half
        a minute or more of a prompt that seemed to hang."""
        if not self.console.is_interactive:
            yield
            return
        tr = self.tr
        with self.console.status(Text(tr("term.hint.working"), "cyan")) as status:
            slow = Text(tr("term.hint.slow"), "cyan")
            later = threading.Timer(slow_after, lambda: status.update(slow))
            later.daemon = True
            later.start()
            try:
                yield
            finally:
                later.cancel()

    def hint(self, v: View, choice: Action, scored: list[tuple[Action, float]]) -> None:
        """The expert's suggestion ``choice``, and its estimated chance of winning after each
        legal move (``scored``), computed from the person's view alone."""
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

    # ------------------------------------------------------------ the table

    def table(self, v: View) -> None:
        """The table at the person's turn: total, direction, players, warnings, hand."""
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
        after = next_seat(v, v.to_play) if v.to_play is not None else None
        info = Text.assemble(
            (tr("game.total") + " ", "bold"),
            (number_text(v.total), f"bold {colour}"),
            "   " + tr("term.max", max_total=r.max_total) + "\n",
            tr("direction.cw" if v.direction == CW else "direction.ccw"),
            " · " + tr("term.next", name=self.names[after]) if after is not None else "",
            "\n",
            tr("term.piles", draw=v.draw_pile, discard=len(v.discard_pile)),
        )
        if not self.big:
            return info
        digits = [_DIGITS[ch] for ch in number_text(v.total)]
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
                who = Text(tr("term.player_bot", name=name, bot=bot_label(bot, tr)))
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
        elif v.must_bust:
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
        elif v.second_card:
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
