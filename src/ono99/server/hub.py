"""The tables this server process holds, and the one path every change takes:
session core → SQLite (one transaction) → announcements on the pub/sub → timers.

Everything here runs on the event loop thread, and nothing awaits between changing a table
and announcing it, so every connection sees the changes of a table in the order they were
made. Only a bot's choice runs on a worker thread; its result comes back through
``Table.complete``, which ignores it if the game moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from ..session import (
    PLAYING,
    ActionTaken,
    Command,
    Effects,
    GameFinished,
    GameStarted,
    Identity,
    Move,
    Seat,
    SeatChanged,
    SessionError,
    Settings,
    Table,
    TableConfig,
    TableCreated,
    new_code,
)
from ..session.table import Change
from ..storage import SqliteStore
from .pubsub import PubSub, Subscriber

log = logging.getLogger("ono99.server")


def channel(code: str, seat: int | None) -> str:
    return f"{code}:{'watch' if seat is None else seat}"


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class Hub:
    def __init__(self, store: SqliteStore, settings: Settings, *, max_tables: int = 50_000):
        self.store = store
        self.settings = settings
        self.max_tables = max_tables
        self.pubsub = PubSub()
        self.tables: dict[str, Table] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    # ---------------------------------------------------------------- life

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        assert self._loop is not None, "the hub has not started"
        return self._loop

    def now(self) -> float:
        return self.loop.time()

    async def start(self) -> None:
        """Take up every table whose game was still being played: bots and timers resume."""
        self._loop = asyncio.get_running_loop()
        for code in self.store.active_codes():
            try:
                self.get(code)
            except Exception:
                log.exception("table %s could not be restored", code)

    async def stop(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()

    # ---------------------------------------------------------------- tables

    def get(self, code: str) -> Table | None:
        table = self.tables.get(code)
        if table is not None:
            return table
        stored = self.store.load_table(code)
        if stored is None:
            return None
        seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in stored.seats]
        table = Table.restore(
            stored.code,
            TableConfig.from_json(stored.config),
            stored.host_hash,
            seats,
            self.settings,
            self.now(),
            game=stored.game,
            seed=stored.seed,
            dealer=stored.dealer,
            actions=stored.actions,
            finished=stored.finished,
        )
        self.tables[code] = table
        self._reschedule(table)
        return table

    def create(self, config: TableConfig, name: str | None) -> tuple[Table, str, Identity]:
        if len(self.tables) >= self.max_tables:
            raise SessionError("busy", "this server holds as many tables as it can")
        code = new_code()
        while code in self.tables or self.store.load_table(code) is not None:
            code = new_code()  # about 2**-59 per try: for form's sake
        table, token, who, effects = Table.create(code, config, name, self.settings)
        self._store(table, effects.changes)
        self.tables[code] = table
        return table, token, who

    # ---------------------------------------------------------------- connections

    def attach(self, table: Table, who: Identity, sub: Subscriber) -> None:
        """A connection said hello: it gets the welcome, the table and the game, then
        everything announced after them, in order."""
        now = self.now()
        sub.send(
            dumps(
                {
                    "type": "welcome",
                    "protocol": 1,
                    "code": table.code,
                    "seat": who.seat,
                    "host": who.host,
                }
            )
        )
        effects = table.connect(who, now)
        sub.send(dumps(table.table_message(now)))
        sub.send(dumps(table.state_message(who.seat, now)))
        self.pubsub.subscribe(channel(table.code, who.seat), sub)
        self.commit(table, effects)

    def detach(self, table: Table, who: Identity, sub: Subscriber) -> None:
        self.pubsub.unsubscribe(channel(table.code, who.seat), sub)
        self.commit(table, table.disconnect(who, self.now()))
        if table.phase != PLAYING and not self.audiences(table):
            self._forget(table)  # nothing will happen there: it reloads from storage on demand

    def _forget(self, table: Table) -> None:
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        handle = self._timers.pop(table.code, None)
        if handle is not None:
            handle.cancel()

    def handle(self, table: Table, who: Identity, cmd: Command, sub: Subscriber) -> None:
        """One well-formed command from a connection. A refusal raises ``SessionError`` and
        changes nothing."""
        now = self.now()
        if cmd.type == "ping":
            sub.send(dumps({"type": "pong", "id": cmd.id}))
            return
        if cmd.type == "act":
            assert cmd.action is not None
            effects = table.act(who, cmd.action, cmd.moves, now)
        elif cmd.type == "start":
            effects = table.start(who, now)
        elif cmd.type == "again":
            effects = table.again(who, now)
        elif cmd.type == "seat":
            assert cmd.seat is not None and cmd.kind is not None
            effects = table.set_seat(who, cmd.seat, cmd.kind, cmd.bot, now)
        else:
            raise SessionError("bad_request", f"{cmd.type!r} is only the first message")
        self.commit(table, effects)

    # ---------------------------------------------------------------- the one path

    def commit(self, table: Table, effects: Effects) -> None:
        """Store what changed, then announce it, then set the table's next wake-up."""
        if effects.changes:
            try:
                self._store(table, effects.changes)
            except Exception:
                log.exception("table %s: could not store a change; reloading it", table.code)
                self._reload(table)
                raise SessionError("server_error", "the server could not save that") from None
        self._announce(table, effects)
        self._reschedule(table)

    def _store(self, table: Table, changes: list[Change]) -> None:
        store, code = self.store, table.code
        with store.transaction():
            for ch in changes:
                if isinstance(ch, ActionTaken):
                    store.add_action(code, ch.game, ch.position, ch.seat, ch.action, ch.by)
                elif isinstance(ch, GameFinished):
                    store.finish_game(code, ch.game, ch.record)
                elif isinstance(ch, SeatChanged):
                    store.put_seat(code, ch.seat, ch.kind, ch.bot, ch.name, ch.token_hash)
                elif isinstance(ch, GameStarted):
                    store.start_game(code, ch.game, ch.seed, ch.dealer)
                elif isinstance(ch, TableCreated):
                    store.create_table(ch.code, ch.config, ch.host_hash)

    def _reload(self, table: Table) -> None:
        self.tables.pop(table.code, None)
        fresh = self.get(table.code)
        if fresh is not None:
            self._announce(fresh, Effects(table=True, snapshot=True))

    def audiences(self, table: Table) -> list[int | None]:
        """The seats (and None for spectators) that have a connection listening."""
        code = table.code
        out: list[int | None] = [
            s for s in range(len(table.seats)) if self.pubsub.listening(channel(code, s))
        ]
        if self.pubsub.listening(channel(code, None)):
            out.append(None)
        return out

    def _announce(self, table: Table, effects: Effects) -> None:
        audiences = self.audiences(table)
        if not audiences:
            return
        now = self.now()
        code = table.code
        if effects.snapshot:
            for a in audiences:
                self.pubsub.publish(channel(code, a), dumps(table.state_message(a, now)))
        elif effects.step is not None:
            for a, message in table.update_messages(effects.step, audiences, now).items():
                self.pubsub.publish(channel(code, a), dumps(message))
        if effects.table:
            text = dumps(table.table_message(now))
            for a in audiences:
                self.pubsub.publish(channel(code, a), text)

    # ---------------------------------------------------------------- time

    def _reschedule(self, table: Table) -> None:
        old = self._timers.pop(table.code, None)
        if old is not None:
            old.cancel()
        when = table.next_deadline()
        if when is not None:
            self._timers[table.code] = self.loop.call_at(when, self._wake, table.code)

    def _wake(self, code: str) -> None:
        self._timers.pop(code, None)
        table = self.tables.get(code)
        if table is None:
            return
        now = self.now()
        try:
            self.commit(table, table.expire(now))
            move = table.pending_move(now)
            while move is not None:
                self._spawn(self._play_bot(table, move))
                move = table.pending_move(now)
        except SessionError:
            pass  # already logged; the table was reloaded
        self._reschedule(table)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _play_bot(self, table: Table, move: Move) -> None:
        try:
            action = await asyncio.to_thread(move.choose)
        except Exception:
            log.exception("table %s: the %s bot failed; it will try again", table.code, move.by)
            table.abandon(move, self.now())
            self._reschedule(table)
            return
        if self.tables.get(table.code) is not table:
            return  # reloaded meanwhile
        with contextlib.suppress(SessionError):
            self.commit(table, table.complete(move, action, self.now()))
