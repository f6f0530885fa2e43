"""The tables this server process holds, and the one path every change takes.

As in a websocket tutorial: a command comes in (``handle``), the table changes (``Table``,
``mutate``), the effects go out (``commit``): stored first (one transaction, which bumps the
table's sequence number), then announced on the pub/sub to this process's connections, then
the table's next wake-up set (a turn timer, a bot's move).

The hub's collaborators each hold one concern: ``connections.py`` who is connected here and
to which audience, ``timers.py`` each table's next wake-up (the bots' moves, closing idle
tables), ``catchup.py`` what our copies reflect of storage and bringing them up to date, and
``cluster.py`` the other processes serving the same tables (the hub tells it what it wrote
and asks it whether storage is newer than its copy; a process alone has an ``Alone`` that
does nothing).

Everything here runs on the event loop thread, and nothing awaits between changing a table
and announcing it, so every connection sees the changes of a table in the order they were
made. Only a bot's choice and a hint's search run on a worker thread; a bot's result comes back
through ``Table.complete``, which ignores it if the game moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from ..session import (
    OVER,
    Command,
    Effects,
    Identity,
    ListingChanged,
    SessionError,
    Settings,
    Table,
    TableConfig,
    listing,
    new_code,
    wire,
)
from ..session.encode import dumps
from ..storage import Conflict, Store
from .bus import Bus
from .catchup import CatchUp, Stale
from .cluster import Alone, Cluster, Synced
from .connections import Connections
from .hints import Hints
from .pubsub import Subscriber
from .saving import save
from .timers import Timers

log = logging.getLogger("ono99.server")


class Hub:
    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        max_tables: int = 50_000,
        bus: Bus | None = None,
        takeover: float = 1.0,
        heartbeat: float = 1.0,
        idle: float = 1800.0,
    ):
        self.store = store
        self.settings = settings
        self.max_tables = max_tables
        # The other processes serving these tables (none: ``Alone``).
        self.cluster: Cluster | Alone = (
            Alone() if bus is None else Cluster(bus, takeover=takeover, heartbeat=heartbeat)
        )
        self.tables: dict[str, Table] = {}
        self.connections = Connections(self)  # who is at each table here
        self.timers = Timers(self, idle)  # each table's next wake-up, and idle closing
        self.catchup = CatchUp(self)  # what each held table reflects of storage
        self.hints = Hints()  # the expert's searches for people who ask
        self._tasks: set[asyncio.Task[None]] = set()
        # Told when a public table's line in the lobby changed here (``server/lobby.py``).
        self.listing_changed: Callable[[], None] = lambda: None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def local(self) -> dict[str, dict[int, int]]:
        """Our connections, per table and seat."""
        return self.connections.local

    @property
    def synced(self) -> dict[str, Synced]:
        return self.catchup.synced

    # ---------------------------------------------------------------- life

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        assert self._loop is not None, "the hub has not started"
        return self._loop

    def now(self) -> float:
        return self.loop.time()

    async def start(self) -> None:
        """Start hearing the other processes, and closing idle tables. Tables load when
        someone asks for them: a game nobody is at waits (``Timers.reschedule``)."""
        self._loop = asyncio.get_running_loop()
        self.timers.start()
        self.hints.warm()  # the first hint must not wait for the search to load
        await self.cluster.start(self)
        if self.timers.idle > 0:
            self.spawn(self.timers.close_idle())

    async def stop(self) -> None:
        self.timers.cancel_all()
        for task in list(self._tasks):
            task.cancel()
        await self.cluster.stop()
        self.timers.shutdown()

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---------------------------------------------------------------- tables

    def get(self, code: str) -> Table | None:
        table = self.tables.get(code)
        if table is not None:
            return table
        stored = self.store.load_table(code)
        if stored is None or stored.closed:
            return None
        table = self.catchup.restore(stored, stored.actions, stored.finished)
        self._hold(table, stored.seq)
        self.timers.reschedule(table)
        return table

    def _hold(self, table: Table, seq: int) -> None:
        code = table.code
        self.tables[code] = table
        self.timers.touch(code, self.now())
        self.catchup.mark(table, seq)
        self.cluster.hold(code)

    def forget(self, table: Table) -> None:
        """Let go of a table: it reloads from storage on demand."""
        code = table.code
        if self.tables.get(code) is table:
            del self.tables[code]
            self.catchup.forget(code)
            self.timers.forget(code)
            self.connections.forget(code)
            self.cluster.release(code)
        self.timers.cancel(code)

    def synced_of(self, code: str) -> Synced:
        return self.catchup.of(code)

    def create(
        self, config: TableConfig, name: str | None, player: str | None = None
    ) -> tuple[Table, str, Identity]:
        if len(self.tables) >= self.max_tables:
            raise SessionError("busy", "this server holds as many tables as it can")
        code = new_code()
        while code in self.tables or self.store.load_table(code) is not None:
            code = new_code()  # about 2**-59 per try: for form's sake
        table, token, who, effects = Table.create(code, config, name, self.settings, player)
        table.schedule(self.now())  # Play now's wait starts
        listed = self._relist(table, effects)
        save(self.store, table.code, self.synced_of(table.code).seq, effects.changes)
        if listed:
            self.listing_changed()
        self.cluster.created(code)
        self._hold(table, 0)
        return table, token, who

    def mutate(self, code: str, change: Any) -> Any:
        """``change(table)`` → (result, effects) on the table as it is now; when another
        process changed it first, again on the table brought up to date (a command that was
        valid only before then is refused by the table itself, e.g. as stale)."""
        for _ in range(5):
            table = self.get(code)
            if table is None:
                raise self.missing(code)
            try:
                result, effects = change(table)
            except SessionError:
                if not self.catchup.behind(code):
                    raise
                self.catch_up(code)  # refused by what we held: ask the table as stored
                continue
            try:
                self.commit(table, effects)
            except Stale:
                continue
            return result
        raise SessionError("busy", "the table is busy; try again")

    def fresh(self, code: str) -> Table | None:
        """The table as storage holds it now (``CatchUp.fresh``)."""
        return self.catchup.fresh(code)

    def catch_up(self, code: str, *, force: bool = False) -> None:
        self.catchup.catch_up(code, force=force)

    def replay(self, table: Table, seat: int, action: str, by: str) -> Effects:
        return self.catchup.replay(table, seat, action, by)

    def look(self, code: str) -> Table | None:
        """The table as storage holds it, for a look from outside (the join page): not kept
        in memory afterwards unless someone here is at it."""
        table = self.fresh(code)
        if table is not None:
            self.connections.let_go(table)
        return table

    def missing(self, code: str) -> SessionError:
        """Why ``get(code)`` found no table: it never was, or it has closed."""
        if self.store.seq(code) is not None:
            return SessionError("closed", "this table has closed")
        return SessionError("not_found", "there is no such table")

    # ---------------------------------------------------------------- connections

    def attach(self, code: str, who: Identity, sub: Subscriber) -> bool:
        return self.connections.attach(code, who, sub)

    def detach(self, code: str, who: Identity, sub: Subscriber) -> None:
        self.connections.detach(code, who, sub)

    def recount(self, table: Table) -> None:
        self.connections.recount(table)

    def audiences(self, table: Table) -> list[int | None]:
        return self.connections.audiences(table)

    def shout(self, code: str, message: dict[str, Any]) -> None:
        self.connections.shout(code, message)

    def broadcast(self, message: dict[str, Any]) -> None:
        self.connections.broadcast(message)

    # ---------------------------------------------------------------- commands

    def handle(self, code: str, who: Identity, cmd: Command, sub: Subscriber) -> None:
        """One well-formed command from a connection. A refusal raises ``SessionError`` and
        changes nothing."""
        if cmd.type == "ping":
            sub.send(dumps({"type": "pong", "id": cmd.id}))
            return
        if cmd.type == "react":
            table = self.get(code)
            if table is None:
                raise SessionError("not_found", "there is no such table")
            assert cmd.reaction is not None
            message = table.react(who, cmd.reaction, self.now())
            self.shout(code, message)
            self.cluster.reacted(code, message)  # the other processes show it too
            return
        if cmd.type == "relink":
            assert cmd.seat is not None
            index = cmd.seat
            token = self.mutate(code, lambda table: table.relink(who, index))
            reply = {"type": "link", "seat": index, "token": token}
            sub.send(dumps(reply if cmd.id is None else {**reply, "id": cmd.id}))
            return
        if cmd.type == "hint":
            # As storage has it: on many processes our copy may not have heard the last move
            # yet, and a hint for a stale position (or a stale "not your turn") helps nobody.
            table = self.fresh(code)
            if table is None:
                raise SessionError("not_found", "there is no such table")
            self.spawn(self.hints.answer(code, table.hint(who), sub, cmd.id))
            return

        def change(table: Table) -> tuple[None, Effects]:
            now = self.now()
            if cmd.type == "act":
                assert cmd.action is not None
                return None, table.act(who, cmd.action, cmd.moves, now)
            if cmd.type == "start":
                return None, table.start(who, now)
            if cmd.type == "again":
                return None, table.again(who, now)
            if cmd.type == "ready":
                return None, table.mark_ready(who, now)
            if cmd.type == "continue":
                return None, table.carry_on(who, now)
            if cmd.type == "configure":
                return None, table.configure(who, cmd.config, now)
            if cmd.type == "seat":
                assert cmd.seat is not None and cmd.kind is not None
                return None, table.set_seat(who, cmd.seat, cmd.kind, cmd.bot, now)
            if cmd.type == "leave":
                return None, table.leave(who, now)
            raise SessionError("bad_request", f"{cmd.type!r} is only the first message")

        self.mutate(code, change)
        table = self.tables.get(code)
        if cmd.type in ("ready", "again") and table is not None and table.phase == OVER:
            info = wire.next_info(table, self.now())
            if info is not None:
                self.cluster.next_changed(code, info)
        if cmd.type == "continue" and who.seat is not None:
            # The other processes' copies of the table hold their pause until this too.
            self.cluster.continued(code, [who.seat])

    def merge_next(self, table: Table, info: dict[str, Any]) -> None:
        """Another process said who is ready for the next game there, and the countdown."""
        with contextlib.suppress(Stale, SessionError):
            self.commit(table, table.merge_next(info["ready"], info["ms_left"], self.now()))

    def merge_continued(self, table: Table, seats: list[int]) -> None:
        """Another process said these seats have read the round's summary."""
        with contextlib.suppress(Stale, SessionError):
            self.commit(table, table.merge_continued(seats, self.now()))

    # ---------------------------------------------------------------- the one path

    def commit(self, table: Table, effects: Effects) -> None:
        """Store what changed, then announce it, then set the table's next wake-up. Raises
        ``Stale`` when another process wrote first (the table has been brought up to date)."""
        if effects.changes:
            code = table.code
            before = table.listed
            listed = self._relist(table, effects)
            try:
                save(self.store, table.code, self.synced_of(table.code).seq, effects.changes)
            except Conflict:
                table.listed = before
                self.cluster.overtaken(code)
                self.catch_up(code, force=True)
                raise Stale(code) from None
            except Exception:
                log.exception("table %s: could not store a change; reloading it", code)
                try:
                    self.catch_up(code, force=True)
                except Exception:  # storage is away: drop our copy, it reloads on demand
                    log.exception("table %s could not be reloaded", code)
                    self.forget(table)
                raise SessionError("server_error", "the server could not save that") from None
            seq = self.synced_of(code).seq + 1
            if listed:
                self.listing_changed()
            self.catchup.mark(table, seq)
            self.timers.touch(code, self.now())
            self.cluster.written(table, seq, effects)
        self.announce(table, effects)
        self.timers.reschedule(table)

    def follow(self, table: Table, seq: int, effects: Effects) -> None:
        """Another process stored ``seq`` and we made its change on our copy: announce it."""
        table.listed = listing(table)  # as that process wrote it
        self.catchup.mark(table, seq)
        self.timers.touch(table.code, self.now())
        self.announce(table, effects)
        self.timers.reschedule(table)

    def _relist(self, table: Table, effects: Effects) -> bool:
        """A public table's line in the lobby, stored with the change that altered it
        (``session/quick.py``): whether it did."""
        if not table.config.public:
            return False
        now = listing(table)
        if now == table.listed:
            return False
        table.listed = now
        if now is None:
            effects.changes.append(ListingChanged("", 0, None))
        else:
            effects.changes.append(ListingChanged(now.setting, now.free, dumps(now.entry)))
        return True

    def announce(self, table: Table, effects: Effects) -> None:
        """Send ``effects`` to each audience here, as that audience may see them (after
        closing the connections of seats that changed hands)."""
        self.connections.drop_lost_seats(table)
        audiences = self.audiences(table)
        if not audiences:
            return
        now = self.now()
        code, send = table.code, self.connections.publish
        if effects.snapshot:
            for a in audiences:
                send(code, a, dumps(wire.state_message(table, a, now)))
        else:
            for step in effects.steps:
                for a, message in wire.update_messages(table, step, audiences, now).items():
                    send(code, a, dumps(message))
        if effects.table:
            text = dumps(wire.table_message(table, now))
            for a in audiences:
                send(code, a, text)
