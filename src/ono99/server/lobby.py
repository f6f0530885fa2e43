"""The public lobby: the open public tables, as every process's watchers see them, live.

A public table waiting for players is *listed* in storage (``Store.list_table``), in the same
transaction as the change that made it so (``server/saving.py``), and unlisted by the one
that fills it, starts it or closes it: so storage is the list, whichever process changed the
table. Each process reads the list when something here changed it (``poke``) and every
``poll`` seconds while anyone here watches (so a table opened on another process shows within
a poll), and sends it to its watchers when it differs from what they have: one JSON text for
all of them, each written by its connection's own writer (``websocket.Connection``), so a
slow watcher holds up nobody. Changes closer together than ``GATHER`` go out as one list, and
the watchers are handed it a few at a time, so that the tables being played on the process do
not wait behind hundreds of writes (``benchmarks/bench_lobby.py``).

What a watcher is sent is the list's public facts only: the edition, match, seats and free
seats, the host's language and the seated people's names — what anyone with the table's link
sees on its join page. No game is listed (a table leaves the list when its game starts), so
no hand, pile or seed can be.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, Protocol

from ..session.encode import dumps

if TYPE_CHECKING:
    from ..storage import Store
    from .metrics import Metrics

log = logging.getLogger("ono99.server")

MOST_LISTED = 200  # the lobby shows the oldest this many open public tables
GATHER = 0.2  # seconds: changes closer together than this go out as one list
FAN_OUT_TURN = 25  # watchers handed the list at a time (server/lobby.py, _fan_out)


class Watcher(Protocol):
    def send(self, text: str) -> None: ...


class Lobby:
    def __init__(self, store: Store, metrics: Metrics, *, poll: float = 0.5) -> None:
        self.store = store
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
            if not self.watchers:
                self.text = None  # nobody watches: read afresh for the next one
                continue
            text = self.refresh()
            if text is not None:
                sent = loop.time()
                await self._fan_out(text)

    async def _fan_out(self, text: str) -> None:
        """Hand ``text`` to every watcher, a few at a time: their writers wake in turns, and a
        move at a table between two turns waits for one turn, not for five hundred writes."""
        for i, watcher in enumerate(list(self.watchers)):
            watcher.send(text)
            if i % FAN_OUT_TURN == FAN_OUT_TURN - 1:
                await asyncio.sleep(0)
