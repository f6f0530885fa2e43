"""Public events (``ono99.engine.Event``) told as log lines, in the reader's language.

The terminal game and ``ono99 replay`` share one ``Narrator``. It reads only public
events plus two public facts about the state after them (who plays next and how many
cards they owe), so it can narrate a live game from a seat's view without leaking anything.
Its sentences are the browser log's (the ``log.*`` messages): one wording, two screens.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple, Protocol

from rich.console import Console, RenderableType

from ..engine import CW, Event, Rules
from ..engine.cards import PLAY2, REVERSE
from ..i18n import Translator, card_label, cards_text, translator


class Line(NamedTuple):
    """One log line and its tone, which the terminal turns into a colour."""

    text: str
    tone: str  # "round", "play", "bad", "info", "over"
    kind: str = ""  # the kind of event it tells
    seat: int | None = None  # whose event it is


class After(Protocol):
    """The public facts a narrator needs about the state after some events."""

    @property
    def to_play(self) -> int | None: ...

    @property
    def owed(self) -> int: ...


def print_block(console: Console, renderable: RenderableType) -> None:
    """Print a table or panel; through a pipe, without the padding rich leaves at line ends."""
    # soft_wrap=False: long lines inside the block wrap to the width instead of being cut.
    if console.is_terminal:
        console.print(renderable, soft_wrap=False)
        return
    with console.capture() as captured:
        console.print(renderable, soft_wrap=False)
    for line in captured.get().splitlines():
        console.out(line.rstrip(), highlight=False)


class Narrator:
    """Turns a game's public events into log lines for one reader (``me``: their seat, or
    None for an onlooker), keeping what it needs to say them well: the direction, who is out
    of the game and the running scores."""

    def __init__(
        self,
        names: Sequence[str],
        rules: Rules,
        tr: Translator | None = None,
        me: int | None = None,
    ) -> None:
        self.names = list(names)
        self.rules = rules
        self.tr = tr or translator()
        self.me = me
        self.round = 0
        self.direction = CW
        self.gone: set[int] = set()  # out of the game
        self.resting: set[int] = set()  # out of the current round (points)
        self.scores = [0] * rules.players

    # ---------------------------------------------------------------- words

    def name(self, seat: int | None) -> str:
        if seat is None:
            return self.tr("nobody")
        return self.names[seat] if seat < len(self.names) else self.tr("seat.numbered", n=seat + 1)

    def say(self, key: str, seat: int | None, **params: object) -> str:
        """``key`` for a seat's event, or ``key.you`` when it is the reader's own."""
        you = seat is not None and seat == self.me
        return self.tr(f"{key}.you" if you else key, name=self.name(seat), **params)

    def card(self, card: int) -> str:
        return card_label(card, self.rules.edition, self.tr)

    def list_names(self, seats: Sequence[int]) -> str:
        return self.tr.list(self.tr("you") if s == self.me else self.name(s) for s in seats)

    # ---------------------------------------------------------------- events

    def lines(
        self, events: Iterable[Event], after: After | None = None, drawn: Sequence[int] = ()
    ) -> list[Line]:
        """The lines for ``events``, the public events of one step; ``after`` (a View or a
        State) says who owes what next, for the "· the next player owes 2 cards". ``drawn``
        are the cards the reader drew in that step (``engine.cards_drawn`` of their views):
        their own draw then names them, as no public event does."""
        events = list(events)
        out = [
            self.line(event, after)._replace(kind=event.kind, seat=event.seat) for event in events
        ]
        if drawn and self.me is not None:
            self._tell_drawn(events, out, drawn)
        return out

    def _tell_drawn(self, events: list[Event], out: list[Line], drawn: Sequence[int]) -> None:
        """The reader's draw in a step follows their last card, discard or ``draw`` (T2, K7,
        X2): that ``draw`` line names the cards, or a line after the card does."""
        mine = [
            i
            for i, e in enumerate(events)
            if e.seat == self.me and e.kind in ("play", "discard", "draw")
        ]
        at = mine[-1] if mine else len(out) - 1
        text = self.tr("log.draw.you.cards", cards=cards_text(drawn, self.rules.edition, self.tr))
        if events and events[at].kind == "draw":
            out[at] = out[at]._replace(text=text)
        else:
            out.insert(at + 1, Line(text, "info", "drawn", self.me))

    def line(self, ev: Event, after: After | None = None) -> Line:
        kind, seat, tr = ev.kind, ev.seat, self.tr
        if kind == "deal":
            self.round = ev.data
            self.direction = CW
            self.resting.clear()
            return Line(self.say("log.deal", seat, round=ev.data), "round")
        if kind == "play":
            return self._play(ev, after)
        if kind == "discard":
            return Line(self.say("log.discard", seat, total=ev.total), "play")
        if kind == "draw":
            return Line(self.say("log.draw", seat), "info")
        if kind == "lost_draw":
            return Line(self.say("log.lost_draw", seat), "bad")
        if kind == "reshuffle":
            return Line(tr.plural("log.reshuffle", ev.data), "info")
        if kind == "eliminated":
            assert seat is not None
            self.gone.add(seat)
            cards = cards_text(ev.data, self.rules.edition, tr)
            return Line(self.say("log.eliminated", seat, total=ev.total, cards=cards), "bad")
        if kind == "out_of_round":
            assert seat is not None
            self.resting.add(seat)
            return Line(self.say("log.out_of_round", seat), "bad")
        if kind == "round_end":
            return self._round_end(ev)
        if kind == "lost_token":
            return Line(self.say("log.lost_token", seat, left=ev.data), "bad")
        if kind == "left":
            assert seat is not None
            self.gone.add(seat)
            if self.rules.match == "points":
                return Line(
                    self.say(
                        "log.left.points", seat, score=self.scores[seat], target=self.rules.target
                    ),
                    "bad",
                )
            return Line(self.say("log.left.tokens", seat), "bad")
        if kind == "over":
            return Line(self.result(ev.data), "over")
        return Line(tr("log.unknown", kind=kind), "info")

    def result(self, winners: Sequence[int]) -> str:
        if len(winners) == 1:
            return self.say("log.over.one", winners[0])
        return self.tr("log.over.many", names=self.list_names(winners))

    def _play(self, ev: Event, after: After | None) -> Line:
        seat, card, tr = ev.seat, ev.card, self.tr
        assert card is not None
        if ev.data == "bust":
            return Line(self.say("log.bust", seat, card=self.card(card), total=ev.total), "bad")
        text = self.say("log.play", seat, card=self.card(card), total=ev.total)
        if card == REVERSE:
            self.direction = -self.direction
            if self.rules.players - len(self.gone | self.resting) > 2:  # two: it passes back
                text += tr("log.now.cw" if self.direction == CW else "log.now.ccw")
        if ev.data == "deflect":
            text += tr("log.deflect", card=self.card(PLAY2))
        elif card == PLAY2:
            text += tr("log.play2", card=self.card(PLAY2))
        return Line(text, "play")

    def _round_end(self, ev: Event) -> Line:
        round_, gained = ev.data
        if gained is None:  # tokens: the round ends at the player who cannot play
            return Line(
                self.say("log.round_end.tokens", ev.seat, round=round_, total=ev.total), "bad"
            )
        parts = []
        for seat, points in enumerate(gained):
            self.scores[seat] += points
            if seat not in self.gone and (points or self.scores[seat]):
                parts.append(
                    self.tr(
                        "log.score", name=self.name(seat), points=points, score=self.scores[seat]
                    )
                )
        return Line(
            self.tr("log.round_end.points", round=round_, scores=self.tr.list(parts)), "round"
        )
