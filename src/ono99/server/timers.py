"""When each table this process holds next wakes up — a bot's move, a turn timer, a grace
period, a countdown (``Table.next_deadline``), or its closing once idle — and what happens then:
the bots think on a thread of their own, and an idle table closes.

A table closes when it has gone ``idle`` seconds unchanged and nobody here plays it
(docs/deploy.md, "Tables end"): stored as closed (its games and records stay), everyone at it
here told and disconnected, its memory freed. Tables storage holds idle that no process holds
(forgotten lobbies, tables from before a restart) are closed by a sweep every so often.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from ..session import PLAYING, Effects, Move, SessionError, Table, TableClosed
from .catchup import Stale

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("ono99.server")
# Told to everyone at a table as it closes (then the connection closes with 4410).
CLOSED_NOTICE = {"type": "notice", "code": "closed", "message": "this table has closed"}


class Timers:
    def __init__(self, hub: Hub, idle: float) -> None:
        self.hub = hub
        # Seconds a table may go unchanged before it closes, when it is not being played by
        # someone here (0: never): docs/deploy.md, "Tables end".
        self.idle = idle
        self.touched: dict[str, float] = {}  # when each held table last changed (loop time)
        self._timers: dict[str, asyncio.TimerHandle] = {}
        # The bots think on one thread of their own (from ``start``), one move at a time:
        # their Python holds the GIL anyway, so more threads would add no speed, only threads
        # for the event loop to win the GIL back from (and their memory).
        self._bots: ThreadPoolExecutor | None = None

    def start(self) -> None:
        self._bots = ThreadPoolExecutor(1, thread_name_prefix="ono99-bots")

    def cancel_all(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    def shutdown(self) -> None:
        if self._bots is not None:
            self._bots.shutdown(wait=False, cancel_futures=True)

    def touch(self, code: str, now: float) -> None:
        """The table changed at ``now``: its idle time starts again."""
        self.touched[code] = now

    def forget(self, code: str) -> None:
        self.touched.pop(code, None)

    def cancel(self, code: str) -> None:
        handle = self._timers.pop(code, None)
        if handle is not None:
            handle.cancel()

    # ---------------------------------------------------------------- waking up

    def reschedule(self, table: Table) -> None:
        """Set the table's next wake-up: its turn timer or bot move while someone is at it
        (a game nobody is at waits for them), or its closing when it has been idle."""
        hub, code = self.hub, table.code
        self.cancel(code)
        when = table.next_deadline() if hub.connections.attended(table) else None
        if when is not None:
            when += hub.cluster.delay(code)
        closes = self.closes_at(table)
        if closes is not None and (when is None or closes < when):
            when = closes
        if when is not None:
            self._timers[code] = hub.loop.call_at(when, self._wake, code)

    def closes_at(self, table: Table) -> float | None:
        """When the table closes if nothing happens: ``idle`` seconds after its last change,
        unless it is being played with a person at it."""
        if self.idle <= 0:
            return None
        if table.phase == PLAYING and any(s.connections for s in table.seats):
            return None
        return self.touched.get(table.code, self.hub.now()) + self.idle

    def _wake(self, code: str) -> None:
        hub = self.hub
        self._timers.pop(code, None)
        table = hub.tables.get(code)
        if table is None:
            return
        now = hub.now()
        closes = self.closes_at(table)
        if closes is not None and closes <= now:
            self.close(table)
            return
        try:
            if hub.connections.attended(table):
                hub.commit(table, table.expire(now))
                move = table.pending_move(now)
                while move is not None:
                    hub.spawn(self._play_bot(table, move))
                    move = table.pending_move(now)
        except (SessionError, Stale):
            pass  # already logged; the table was reloaded
        current = hub.tables.get(code)
        if current is not None:
            self.reschedule(current)

    async def _play_bot(self, table: Table, move: Move) -> None:
        hub = self.hub
        try:
            action = await hub.loop.run_in_executor(self._bots, move.choose)
        except Exception:
            log.exception("table %s: the %s bot failed; it will try again", table.code, move.by)
            table.abandon(move, hub.now())
            self.reschedule(table)
            return
        if hub.tables.get(table.code) is not table:
            return  # reloaded meanwhile
        with contextlib.suppress(SessionError, Stale):
            hub.commit(table, table.complete(move, action, hub.now()))

    # ---------------------------------------------------------------- the end

    def close(self, table: Table) -> None:
        """Close an idle table: stored as closed (its games and records stay), everyone at
        it here told and disconnected, its memory freed; the other processes do the same
        when they hear of it."""
        try:
            self.hub.commit(table, Effects(changes=[TableClosed(table.code)]))
        except (Stale, SessionError):
            return  # it changed meanwhile, or storage is away: its next wake-up decides
        self.closed(table)

    def closed(self, table: Table) -> None:
        """The table has closed (here, or on another process): everyone here is told."""
        self.hub.connections.end(table, CLOSED_NOTICE)
        self.hub.forget(table)

    async def close_idle(self) -> None:
        """Close the tables storage holds idle that no process holds (forgotten lobbies,
        games everyone left, tables from before a restart): a few at a time, every so often.
        The tables held here close on their own timers."""
        hub = self.hub
        pause = min(60.0, max(0.5, self.idle / 10))
        while True:
            await asyncio.sleep(pause)
            try:
                codes = hub.store.idle_codes(time.time() - self.idle, 100)
            except Exception:
                log.exception("could not look for idle tables")
                continue
            for code in codes:
                if code in hub.tables:
                    continue
                with contextlib.suppress(Exception):
                    table = hub.get(code)
                    if table is not None:
                        self.close(table)
