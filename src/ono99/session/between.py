"""A table between games and between rounds: who has said they are ready for the next game,
the host's countdown to it (``again``), and the pause before the next round of a match while
the people there read the last one's summary (``continue``, ``pause.py``).

None of it is stored (a restart asks again). The next game starts when nobody is waited for:
every person connected is ready, or the countdown ran out (``Table.expire``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .effects import Effects
from .errors import SessionError
from .pause import RoundPause
from .phases import OVER
from .seats import Identity

if TYPE_CHECKING:
    from .table import Table


class Between:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.ready: set[int] = set()  # the seats ready for the next game
        self.countdown: float | None = None  # when the host's countdown to it ends
        self.pause = RoundPause()  # between rounds

    def clear(self) -> None:
        """A new game: nobody is ready for the one after, and no round has ended yet."""
        self.ready, self.countdown = set(), None
        self.pause.end()

    # ---------------------------------------------------------------- the next game

    def again(self, who: Identity, now: float) -> Effects:
        """The host asks for the next game (``Table.again``)."""
        if self.table.phase != OVER:
            raise SessionError("not_over", "the game is not over yet")
        if who.seat is not None:
            self.ready.add(who.seat)
        if not self.waiting_for():
            return self.table.play.new_game(now)
        if self.countdown is None:
            self.countdown = now + self.table.settings.countdown
        return Effects(table=True)

    def mark_ready(self, who: Identity, now: float) -> Effects:
        """A person is ready for the next game; the last one to be starts it."""
        if who.seat is None:
            raise SessionError("not_seated", "spectators do not play the next game")
        if self.table.phase != OVER:
            raise SessionError("not_over", "the game is not over yet")
        self.ready.add(who.seat)
        if not self.waiting_for():
            return self.table.play.new_game(now)
        return Effects(table=True)

    def merge_next(self, ready: Sequence[int], ms_left: int | None, now: float) -> Effects:
        """What another server process knows of the next game (its ready marks, the host's
        countdown there): taken in here too; the game starts when nobody is waited for."""
        table = self.table
        if table.phase != OVER:
            return Effects()
        self.ready |= {s for s in ready if 0 <= s < len(table.seats)}
        if ms_left is not None and self.countdown is None:
            self.countdown = now + ms_left / 1000
        if not self.waiting_for():
            return table.play.new_game(now)
        return Effects(table=True)

    def waiting_for(self) -> list[int]:
        """The people the next game waits for: seated, connected, not yet ready (bots always
        are, and nobody waits for someone who is not there)."""
        return [s for s in self.table.seating.people() if s not in self.ready]

    def nobody_waited_for(self) -> bool:
        """Between games, someone is ready and so is every person still here (the one the
        next game waited for has gone): it may start."""
        return bool(
            self.table.phase == OVER
            and self.ready
            and self.table.seating.people()
            and not self.waiting_for()
        )

    def countdown_over(self, now: float) -> bool:
        return self.table.phase == OVER and self.countdown is not None and self.countdown <= now

    # ---------------------------------------------------------------- the next round

    def carry_on(self, who: Identity, now: float) -> Effects:
        """A person has read the round's summary; the last one to do so ends the pause. Sent
        when there is no pause (it ran out meanwhile), it does nothing."""
        if who.seat is None:
            raise SessionError("not_seated", "spectators do not hold up the next round")
        return self.merge_continued([who.seat], now)

    def merge_continued(self, seats: Sequence[int], now: float) -> Effects:
        """Seats that said "continue" (here, or on another server process)."""
        table = self.table
        if not self.pause.active(now):
            return Effects()
        self.pause.continued |= {s for s in seats if 0 <= s < len(table.seats)}
        if not self.pause.waiting(table.seating.people()):
            self.pause.end()
            table.clock.restart()
            table.schedule(now)
        return Effects(table=True)

    def pause_over(self, now: float) -> bool:
        """The pause ran out by now: it ends (True)."""
        if self.pause.until is not None and self.pause.until <= now:
            self.pause.end()
            return True
        return False

    def deadlines(self) -> list[float]:
        """When the countdown and the pause run out, of those that run."""
        times = []
        if self.table.phase == OVER and self.countdown is not None:
            times.append(self.countdown)
        if self.pause.until is not None:
            times.append(self.pause.until)
        return times
