"""A table's clock: when each seat that plays by itself moves, and when the turn timer of the
person to play runs out. ``Table`` (session/table.py) asks it after every change
(``schedule``) and when woken (``due``); the caller's timer fires at ``next_deadline``.

Times are on the caller's monotonic clock, in seconds. Nothing here is stored: a restored
table schedules afresh from its state (bots wait ``bot_delay`` again, a timer restarts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..engine import DRAW, State, legal_actions


class Timed(Protocol):
    """What the clock needs of a seat."""

    index: int

    @property
    def auto(self) -> bool:
        """A bot, or a stand-in playing for a person: it moves by itself."""
        ...


class Clock:
    def __init__(self, bot_delay: float) -> None:
        self.bot_delay = bot_delay
        self.turn_deadline: float | None = None  # when the person to play runs out of time
        self._turn: tuple[int, int, int | None] | None = None  # (game, round, seat) timed
        self._due: dict[int, float] = {}  # seats that move by themselves: when they move
        self._thinking: set[int] = set()  # seats whose bot is choosing now

    def stop(self) -> None:
        """No game, or a new one: nothing is due."""
        self.turn_deadline = None
        self._turn = None
        self._due.clear()
        self._thinking.clear()

    def restart(self) -> None:
        """Everything due starts afresh at the next ``schedule`` (a pause between rounds
        began or ended): the bots wait their delay and the timer runs whole from then."""
        self._due.clear()
        self._turn = None

    def moved(self, seat: int) -> None:
        """``seat`` acted: its next action waits its own delay."""
        self._due.pop(seat, None)

    def schedule(
        self,
        game: int,
        state: State,
        seats: Sequence[Timed],
        turn_seconds: float,
        start: float,
        now: float,
    ) -> None:
        """Bring the deadlines in line with ``state``: nothing moves before ``start`` (the
        end of a pause, else ``now``); a person has ``turn_seconds`` a turn (0: no timer)."""
        for seat in seats:
            legal = legal_actions(state, seat.index) if seat.auto else []
            if not legal:
                self._due.pop(seat.index, None)
            elif seat.index not in self._due:
                delay = self.bot_delay
                self._due[seat.index] = start + (delay / 2 if legal == [DRAW] else delay)
        key = (game, state.round, state.to_play)
        to_play = state.to_play
        timed = to_play is not None and not seats[to_play].auto and turn_seconds > 0
        if key != self._turn:
            self._turn = key
            self.turn_deadline = start + turn_seconds if timed else None
        elif not timed:
            self.turn_deadline = None
        elif self.turn_deadline is None:
            self.turn_deadline = now + turn_seconds  # back from away mid-turn

    def due(self, to_play: int | None, now: float) -> tuple[int, bool] | None:
        """The seat whose move is due now, soonest first, and whether it is the turn timer
        that ran out (else the seat plays by itself); the seat then counts as thinking
        until ``done``."""
        best: tuple[float, int, bool] | None = None
        for seat, due in self._due.items():
            if due <= now and seat not in self._thinking and (best is None or due < best[0]):
                best = (due, seat, False)
        deadline = self.turn_deadline
        if (
            deadline is not None
            and deadline <= now
            and to_play is not None
            and to_play not in self._thinking
            and (best is None or deadline < best[0])
        ):
            best = (deadline, to_play, True)
        if best is None:
            return None
        _, seat, timer = best
        self._thinking.add(seat)
        return seat, timer

    def done(self, seat: int) -> None:
        """``seat``'s bot has chosen (or given up)."""
        self._thinking.discard(seat)

    def again_later(self, seat: int, now: float) -> None:
        """``seat``'s bot could not choose: ask it again after a delay."""
        self._thinking.discard(seat)
        self._due[seat] = now + max(self.bot_delay, 0.1)

    def finish_turn(self, now: float) -> None:
        """The stand-in played for a person whose time ran out and the turn is still theirs
        (an owed card to follow): it finishes the turn after a bot's delay."""
        self.turn_deadline = now + self.bot_delay

    def next_deadline(self, to_play: int | None) -> float | None:
        """When the next move is due (a bot's, or the turn timer's), if any."""
        times = [t for s, t in self._due.items() if s not in self._thinking]
        if self.turn_deadline is not None and to_play not in self._thinking:
            times.append(self.turn_deadline)
        return min(times, default=None)
