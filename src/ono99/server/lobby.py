"""The public lobby: the open public tables, as every process's watchers see them, live.

A public table waiting for players is *listed* in storage (``Store.list_table``), in the same
transaction as the change that made it so (``server/saving.py``), and unlisted by the one
that fills it, starts it or closes it: so storage is the list, whichever process changed the
table. Each process reads the list when something here changed it (``poke``) and every
``poll`` seconds while anyone here watches (so a table opened on another process shows within
a poll), and sends it to its watchers when it differs from what they have: one JSON text for
all of them, framed once and written straight to each socket that can take it now, else
queued for its connection's own writer (``websocket.Connection``), so a slow watcher holds up
nobody. Changes closer together than ``GATHER`` go out as one list, and the watchers are
handed it a few at a time, so that the tables being played on the process do not wait behind
hundreds of writes (``benchmarks/bench_lobby.py``).

Each entry also says how many watch that table (``spectators``), on every process: each
process writes its own counts of the listed tables' spectators to storage when they change and
every ``REPORT`` seconds (``storage/watching.py``), and the list adds up the counts written in
the last ``STALE`` seconds, so a process that died stops counting within that.

What a watcher is sent is the list's public facts only: the edition, match, seats and free
seats, the host's language, the seated people's names and how many watch — what anyone with
the table's link sees on its join page. No game is listed (a table leaves the list when its
game starts), so no hand, pile or seed can be.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from typing import TYPE_CHECKING, Any, Protocol

from ..session.encode import dumps
from .limits import Counts
from .protocols import text_frame

if TYPE_CHECKING:
    from ..storage import Store
    from .metrics import Metrics

log = logging.getLogger("ono99.server")

MOST_LISTED = 200  # the lobby shows the oldest this many open public tables
GATHER = 0.2  # seconds: changes closer together than this go out as one list
FAN_OUT_TURN = 25  # watchers handed the list at a time (server/lobby.py, _fan_out)
REPORT = 2.0  # seconds between two writes of this process's spectator counts, unchanged
STALE = 6.0  # counts not written again within this are a dead process's: not counted
PROCESS = f"{socket.gethostname()}:{os.getpid()}"  # whose counts a row holds


class Watcher(Protocol):
    def send(self, text: str, frame: bytes | None = None) -> None: ...


class Lobby:
    def __init__(
        self,
        store: Store,
        metrics: Metrics,
        *,
        poll: float = 0.5,
        spectators: Counts | None = None,
    ) -> None:
        self.store = store
        self.spectators = spectators or Counts()  # this process's, per table
        self._reported: dict[str, int] = {}
        self._reported_at = 0.0
        self.metrics = metrics
        self.poll = poll
        self.watchers: set[Watcher] = set()
        self.text: str | None = None  # the list as last sent (a "lobby" message)
        self.tables: list[dict[str, Any]] = []
        self._poked = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def watch(self, watcher: Watcher) -> None:
        """A new watcher: it gets the list at once, then every change."""
        if self.text is None:
            self.refresh()
        self.watchers.add(watcher)
        self.metrics.lobby_watchers.set(len(self.watchers))
        if self.text is not None:
            watcher.send(self.text)

    def unwatch(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)
        self.metrics.lobby_watchers.set(len(self.watchers))

    def poke(self) -> None:
        """A public table changed here: read the list again now."""
        self._poked.set()

    def listing(self) -> list[dict[str, Any]]:
        """The list as storage holds it now (``GET /api/lobby``)."""
        self.refresh()
        return self.tables

    def refresh(self) -> str | None:
        """Read the list; the new text when it changed (None: the same, or unreadable)."""
        try:
            tables = self.store.listings(MOST_LISTED)
            seen = self.store.watching([t["code"] for t in tables], time.time() - STALE)
            for t in tables:
                t["spectators"] = seen.get(t["code"], 0)
        except Exception:
            log.exception("could not read the lobby")
            return None
        self.tables = tables
        self.metrics.public_tables.set(len(tables))
        text = dumps({"type": "lobby", "tables": tables})
        if text == self.text:
            return None
        self.text = text
        return text

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        sent = 0.0
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.poll)
            # A burst of changes (fifty people pressing Play now) is one list, not fifty.
            await asyncio.sleep(max(0.0, sent + GATHER - loop.time()))
            self._poked.clear()
            if self.spectators.counts and not self.watchers:
                self.refresh()  # which tables are listed: the counts to write are theirs
            self._report()
            if not self.watchers:
                self.text = None  # nobody watches: read afresh for the next one
                continue
            text = self.refresh()
            if text is not None:
                sent = loop.time()
                await self._fan_out(text)

    def _report(self) -> None:
        """Write this process's spectators of the listed tables when they changed, and again
        every ``REPORT`` seconds (the lobby counts only rows written lately)."""
        listed = {t["code"] for t in self.tables}
        counts = {c: n for c, n in self.spectators.counts.items() if c in listed}
        now = time.time()
        if counts == self._reported and (not counts or now - self._reported_at < REPORT):
            return
        try:
            self.store.set_watching(PROCESS, counts, now)
        except Exception:
            log.exception("could not write the lobby's spectators")
            return
        self._reported, self._reported_at = counts, now

    async def _fan_out(self, text: str) -> None:
        """Hand ``text`` to every watcher, framed once and written straight to each socket
        that can take it (``protocols.FRAMES``), a few at a time: a move at a table between
        two turns waits for one turn, not for five hundred writes."""
        frame = text_frame(text)
        for i, watcher in enumerate(list(self.watchers)):
            watcher.send(text, frame)
            if i % FAN_OUT_TURN == FAN_OUT_TURN - 1:
                await asyncio.sleep(0)
