"""Public events (``ono99.engine.Event``) told as log lines: "Ben plays 7 → 57".

The terminal game and ``ono99 replay`` share one ``Narrator``. It reads only public
events plus two public facts about the state after them (who plays next and how many
cards they owe), so it can narrate a live game from a seat's view without leaking anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple, Protocol

from rich.console import Console, RenderableType

from ..engine import CW, Event, Rules, display_name
from ..engine.cards import PLAY2, REVERSE

# Second-person forms of the verbs the log uses, for a player called "You".
_YOU_FORMS = {
    "is": "are",
    "has": "have",
    "plays": "play",
    "busts": "bust",
    "lays": "lay",
    "draws": "draw",
    "deals": "deal",
    "loses": "lose",
    "leaves": "leave",
    "reaches": "reach",
    "owes": "owe",
    "wins": "win",
}
YOU = "You"


class Line(NamedTuple):
    """One log line and its tone, which the terminal turns into a colour."""

    text: str
    tone: str  # "round", "play", "bad", "info", "over"
    kind: str = ""  # the kind of event it tells


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


def cards_text(cards: Iterable[int], edition: str) -> str:
    """Cards as a player reads them: "10, Reverse, ONO 99"."""
    names = [display_name(c, edition) for c in cards]
    return ", ".join(names) if names else "no cards"


class Narrator:
    """Turns a game's public events into log lines, keeping what it needs to say them well:
    the round, the direction, who is out of the game and the running scores."""

    def __init__(self, names: Sequence[str], rules: Rules) -> None:
        self.names = list(names)
        self.rules = rules
        self.round = 0
        self.direction = CW
        self.gone: set[int] = set()  # out of the game
        self.resting: set[int] = set()  # out of the current round (points)
        self.scores = [0] * rules.players

    # ---------------------------------------------------------------- words

    def name(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.names[seat]

    def verb(self, seat: int | None, third: str) -> str:
        """``third`` ("plays") agreeing with the seat's name ("You play", "Ana plays")."""
        if seat is not None and self.names[seat] == YOU:
            return _YOU_FORMS.get(third, third)
        return third

    def subject(self, seat: int | None, third: str) -> str:
        return f"{self.name(seat)} {self.verb(seat, third)}"

    def whose(self, seat: int) -> str:
        return "your" if self.names[seat] == YOU else f"{self.names[seat]}'s"

    def card(self, card: int) -> str:
        return display_name(card, self.rules.edition)

    def list_names(self, seats: Sequence[int]) -> str:
        names = [self.name(s) for s in seats]
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + " and " + names[-1]

    # ---------------------------------------------------------------- events

    def lines(self, events: Iterable[Event], after: After | None = None) -> list[Line]:
        """The lines for ``events``, the public events of one step; ``after`` (a View or a
        State) says who owes what next, for the "· You owe 2 cards" after a Play 2."""
        out: list[Line] = []
        for event in events:
            out.append(self.line(event, after)._replace(kind=event.kind))
        return out

    def line(self, ev: Event, after: After | None = None) -> Line:
        kind, seat = ev.kind, ev.seat
        if kind == "deal":
            self.round = ev.data
            self.direction = CW
            self.resting.clear()
            return Line(f"round {ev.data} · {self.subject(seat, 'deals')}", "round")
        if kind == "play":
            return self._play(ev, after)
        if kind == "discard":
            return Line(
                f"{self.subject(seat, 'lays')} down four ONO 99s and "
                f"{self.verb(seat, 'draws')} four new cards · total {ev.total}",
                "play",
            )
        if kind == "draw":
            return Line(f"{self.subject(seat, 'draws')} a card", "info")
        if kind == "lost_draw":
            assert seat is not None
            return Line(
                f"{self.name(seat)} didn't draw in time: the draw is lost "
                f"({self.whose(seat)} hand stays a card short)",
                "bad",
            )
        if kind == "reshuffle":
            return Line(
                f"the discard pile is shuffled into a new draw pile ({ev.data} cards)", "info"
            )
        if kind == "eliminated":
            assert seat is not None
            self.gone.add(seat)
            return Line(
                f"{self.subject(seat, 'is')} out: nothing can be played at {ev.total}; "
                f"laid down: {cards_text(ev.data, self.rules.edition)}",
                "bad",
            )
        if kind == "out_of_round":
            assert seat is not None
            self.resting.add(seat)
            return Line(f"{self.subject(seat, 'is')} out of the round", "bad")
        if kind == "round_end":
            return self._round_end(ev)
        if kind == "lost_token":
            left = "none left" if ev.data == 0 else f"{ev.data} left"
            return Line(
                f"round {self.round}: {self.subject(seat, 'loses')} a token ({left})", "bad"
            )
        if kind == "left":
            assert seat is not None
            self.gone.add(seat)
            if self.rules.match == "points":
                return Line(
                    f"{self.subject(seat, 'reaches')} {self.scores[seat]} points "
                    f"(target {self.rules.target}) and {self.verb(seat, 'leaves')} the game",
                    "bad",
                )
            return Line(
                f"round {self.round}: {self.subject(seat, 'has')} no token left and "
                f"{self.verb(seat, 'is')} out of the game",
                "bad",
            )
        if kind == "over":
            return Line(f"game over: {self.result(ev.data)}", "over")
        return Line(f"{kind} {seat if seat is not None else ''}".strip(), "info")

    def result(self, winners: Sequence[int]) -> str:
        if len(winners) == 1:
            return self.subject(winners[0], "wins")
        return f"{self.list_names(winners)} share the win"

    def _play(self, ev: Event, after: After | None) -> Line:
        seat, card = ev.seat, ev.card
        assert card is not None
        if ev.data == "bust":
            return Line(f"{self.subject(seat, 'busts')} with {self.card(card)} → {ev.total}", "bad")
        text = f"{self.subject(seat, 'plays')} {self.card(card)} → {ev.total}"
        if card == REVERSE:
            self.direction = -self.direction
            if self.rules.players - len(self.gone | self.resting) > 2:  # two: it passes back
                way = "clockwise" if self.direction == CW else "counter-clockwise"
                text += f" · now {way}"
        if ev.data == "deflect":
            text += f" · {self.card(PLAY2)} passed on"
        owes_two = card == PLAY2 or ev.data == "deflect"
        if owes_two and after is not None and after.owed == 2 and after.to_play is not None:
            text += f" · {self.subject(after.to_play, 'owes')} 2 cards"
        return Line(text, "play")

    def _round_end(self, ev: Event) -> Line:
        round_, gained = ev.data
        if gained is None:  # tokens: the round ends at the player who cannot play
            return Line(
                f"round {round_} ends: {self.name(ev.seat)} can't play at {ev.total}", "bad"
            )
        parts = []
        for seat, points in enumerate(gained):
            if seat in self.gone:
                continue
            self.scores[seat] += points
            parts.append(f"{self.name(seat)} +{points} = {self.scores[seat]}")
        return Line(f"round {round_} scores: " + ", ".join(parts), "round")
