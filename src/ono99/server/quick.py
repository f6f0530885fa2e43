"""Play now: a person is seated at the oldest public table Play now opened for their setting
that has a seat free, or at a new one (``session/quick.py`` says what that means).

Finding that table and taking its seat, or opening one, is one step for the whole server: it
runs under the setting's lock in storage (``Store.try_lock``: PostgreSQL's advisory lock,
shared by every process on the database; SQLite has one process, whose event loop runs the
step without a pause anyway). Inside, the seat is taken through the hub like any join (the
table's compare-and-swap), and the table's line in the lobby, which the next request reads, is
stored in the same transaction as the seat. So fifty people pressing Play now at once on four
processes are seated one after another: no seat twice, and never two half-full tables for one
setting. A request waits for the lock at most ``most_wait`` seconds, then is refused as busy.
"""

from __future__ import annotations

import asyncio
import time
from typing import NamedTuple

from ..session import QuickRequest, SessionError, Table, quick_config
from ..session.effects import Effects
from ..session.setup import MAX_NAME
from .hub import Hub
from .metrics import Metrics

REFUSED_BY_TABLE = {
    "full",
    "started",
    "not_found",
    "closed",
    "removed",
    "already_seated",
}  # a listed table that moved on


class Seated(NamedTuple):
    code: str
    seat: int
    token: str
    host: bool  # True: this request opened the table


class Matcher:
    def __init__(self, hub: Hub, metrics: Metrics, *, wait: float, most_wait: float = 5.0):
        self.hub = hub
        self.metrics = metrics
        self.wait = wait  # seconds a new table waits for people before its bots come
        self.most_wait = most_wait

    async def seat(self, ask: QuickRequest, player: str | None = None) -> Seated:
        loop = asyncio.get_running_loop()
        began = loop.time()
        store, key = self.hub.store, f"quick:{ask.setting}"
        self.metrics.quick_waiting.inc()
        try:
            while not store.try_lock(key):
                if loop.time() - began > self.most_wait:
                    raise SessionError("busy", "many people are pressing Play now; try again")
                await asyncio.sleep(0.005)
        finally:
            self.metrics.quick_waiting.dec()
        try:
            seated = self._seat_now(ask, player)  # no await inside: one step
        finally:
            store.unlock(key)
        outcome = "opened" if seated.host else "joined"
        self.metrics.quick_seconds.labels(outcome).observe(loop.time() - began)
        return seated

    def _seat_now(self, ask: QuickRequest, player: str | None) -> Seated:
        hub = self.hub
        for code in hub.store.waiting(ask.setting):
            try:
                seat, token = hub.mutate(code, lambda t: _join(t, ask.name, hub.now(), player))
            except SessionError as exc:
                if exc.code in REFUSED_BY_TABLE:
                    continue
                raise
            return Seated(code, seat, token, False)
        config = quick_config(ask, time.time() + self.wait)
        table, token, who = hub.create(config, ask.name, player)
        assert who.seat is not None
        return Seated(table.code, who.seat, token, True)


def _join(
    table: Table, name: str, now: float, player: str | None
) -> tuple[tuple[int, str], Effects]:
    """Take a seat under ``name``, or "Ana 2", "Ana 3"... when someone there has it: people
    who pressed Play now do not choose their table, so they are not refused for a name."""
    for n in range(1, len(table.seats) + 2):
        suffix = "" if n == 1 else f" {n}"
        try:
            seat, token, effects = table.join(name[: MAX_NAME - len(suffix)] + suffix, now, player)
        except SessionError as exc:
            if exc.code != "name_taken":
                raise
            continue
        return (seat, token), effects
    raise SessionError("name_taken", "that name is taken at every table")
