"""The tables this server process holds, and the one path every change takes.

As in a websocket tutorial: a command comes in (``handle``), the table changes (``Table``,
``mutate``), the effects go out (``commit``): stored first (one transaction, which bumps the
table's sequence number), then announced on the pub/sub to this process's connections, then
the table's next wake-up set (a turn timer, a bot's move).

The other processes serving the same tables are the ``cluster``'s business
(``server/cluster.py``): the hub tells it what it wrote and asks it whether storage is newer
than its copy; a process alone has an ``Alone`` that does nothing.

Everything here runs on the event loop thread, and nothing awaits between changing a table
and announcing it, so every connection sees the changes of a table in the order they were
made. Only a bot's choice and a hint's search run on a worker thread; a bot's result comes back
through ``Table.complete``, which ignores it if the game moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..session import (
    PLAYING,
    Command,
    Effects,
    Identity,
    Move,
    Seat,
    SessionError,
    Settings,
    Table,
    TableClosed,
    TableConfig,
    new_code,
    wire,
)
from ..session.encode import dumps
from ..session.table import OVER
from ..storage import Conflict, Store, StoredTable
from .bus import Bus
from .cluster import UNSYNCED, Alone, Cluster, Synced, notice
from .hints import Hints
from .pubsub import PubSub, Subscriber
from .saving import save

log = logging.getLogger("ono99.server")
# Told to everyone at a table as it closes (then the connection closes with 4410).
CLOSED_NOTICE = {"type": "notice", "code": "closed", "message": "this table has closed"}


def channel(code: str, seat: int | None) -> str:
    return f"{code}:{'watch' if seat is None else seat}"


class Stale(Exception):
    """Another process changed the table first; it has been brought up to date."""


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
        # Seconds a table may go unchanged before it closes, when it is not being played by
        # someone here (0: never): docs/deploy.md, "Tables end".
        self.idle = idle
        self.touched: dict[str, float] = {}  # when each held table last changed (loop time)
        # The other processes serving these tables (none: ``Alone``).
        self.cluster: Cluster | Alone = (
            Alone() if bus is None else Cluster(bus, takeover=takeover, heartbeat=heartbeat)
        )
        self.pubsub = PubSub()
        self.tables: dict[str, Table] = {}
        self.synced: dict[str, Synced] = {}  # what each held table reflects of storage
        self.local: dict[str, dict[int, int]] = {}  # our connections, per table and seat
        # The link each seat's connections here came with (its hash), per table and seat: a
        # seat given up or opened since closes them (``_drop_lost_seats``).
        self.links: dict[str, dict[int, str | None]] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self.hints = Hints()  # the expert's searches for people who ask
        # The bots think on one thread of their own (from ``start``), one move at a time:
        # their Python holds the GIL anyway, so more threads would add no speed, only threads
        # for the event loop to win the GIL back from (and their memory).
        self._bots: ThreadPoolExecutor | None = None
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
        """Start hearing the other processes, and closing idle tables. Tables load when
        someone asks for them: a game nobody is at waits (``_reschedule``)."""
        self._loop = asyncio.get_running_loop()
        self._bots = ThreadPoolExecutor(1, thread_name_prefix="ono99-bots")
        self.hints.warm()  # the first hint must not wait for the search to load
        await self.cluster.start(self)
        if self.idle > 0:
            self.spawn(self._close_idle())

    async def stop(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
        await self.cluster.stop()
        if self._bots is not None:
            self._bots.shutdown(wait=False, cancel_futures=True)

    # ---------------------------------------------------------------- tables

    def get(self, code: str) -> Table | None:
        table = self.tables.get(code)
        if table is not None:
            return table
        stored = self.store.load_table(code)
        if stored is None or stored.closed:
            return None
        table = self._restore(stored, stored.actions, stored.finished)
        self._hold(table, stored.seq)
        self._reschedule(table)
        return table

    def _restore(
        self, stored: StoredTable, actions: list[tuple[int, str, str]], finished: bool
    ) -> Table:
        seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in stored.seats]
        return Table.restore(
            stored.code,
            TableConfig.from_json(stored.config),
            stored.host_hash,
            seats,
            self.settings,
            self.now(),
            game=stored.game,
            seed=stored.seed,
            dealer=stored.dealer,
            actions=actions,
            finished=finished,
            wins=stored.wins,
            record=stored.record,
        )

    def _hold(self, table: Table, seq: int) -> None:
        code = table.code
        self.tables[code] = table
        self.touched[code] = self.now()
        self._synced(table, seq)
        self.cluster.hold(code)

    def _synced(self, table: Table, seq: int) -> None:
        moves = table.state.moves if table.state else 0
        self.synced[table.code] = Synced(seq, table.game, moves)

    def synced_of(self, code: str) -> Synced:
        return self.synced.get(code, UNSYNCED)

    def create(self, config: TableConfig, name: str | None) -> tuple[Table, str, Identity]:
        if len(self.tables) >= self.max_tables:
            raise SessionError("busy", "this server holds as many tables as it can")
        code = new_code()
        while code in self.tables or self.store.load_table(code) is not None:
            code = new_code()  # about 2**-59 per try: for form's sake
        table, token, who, effects = Table.create(code, config, name, self.settings)
        save(self.store, table.code, self.synced_of(table.code).seq, effects.changes)
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
                if not self._behind(code):
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
        """The table as storage holds it now: a read (an HTTP look, a new connection) on
        one process sees what another process wrote the moment before, even when that
        process's note has not reached us yet (or died with it). One indexed read."""
        table = self.get(code)
        if table is not None and self._behind(code):
            self.catch_up(code)
            table = self.tables[code]
        return table

    def _behind(self, code: str) -> bool:
        return self.cluster.behind(code, self.synced_of(code))

    # ---------------------------------------------------------------- connections

    def attach(self, code: str, who: Identity, sub: Subscriber) -> bool:
        """A connection said hello: it gets the welcome, the table and the game, then
        everything announced after them, in order. False: there is no such table."""
        table = self.fresh(code)  # e.g. its writer died before its note went out
        if table is None:
            return False
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
        if not self.cluster.up:
            sub.send(dumps(notice(False)))
        effects = self._count(table, who, +1)
        if who.seat is not None:
            self.links.setdefault(code, {})[who.seat] = table.seats[who.seat].token_hash
        sub.send(dumps(wire.table_message(table, now)))
        sub.send(dumps(wire.state_message(table, who.seat, now)))
        self.pubsub.subscribe(channel(table.code, who.seat), sub)
        with contextlib.suppress(Stale):
            self.commit(table, effects)
        return True

    def detach(self, code: str, who: Identity, sub: Subscriber) -> None:
        self.pubsub.unsubscribe(channel(code, who.seat), sub)
        table = self.tables.get(code)
        if table is None:
            return
        with contextlib.suppress(Stale):
            self.commit(table, self._count(table, who, -1))
        self._let_go(table)

    def look(self, code: str) -> Table | None:
        """The table as storage holds it, for a look from outside (the join page): not kept
        in memory afterwards unless someone here is at it."""
        table = self.fresh(code)
        if table is not None:
            self._let_go(table)
        return table

    def missing(self, code: str) -> SessionError:
        """Why ``get(code)`` found no table: it never was, or it has closed."""
        if self.store.seq(code) is not None:
            return SessionError("closed", "this table has closed")
        return SessionError("not_found", "there is no such table")

    def _let_go(self, table: Table) -> None:
        """Forget a table nobody here is at and nothing will happen at (it is not being
        played, or nobody is at it anywhere: it waits): it reloads from storage on demand."""
        if not self.audiences(table) and (table.phase != PLAYING or not self._attended(table)):
            self._forget(table)

    def _attended(self, table: Table) -> bool:
        """Whether a person is at the table (on any process) or someone watches it here."""
        return any(s.connections for s in table.seats) or self.pubsub.listening(
            channel(table.code, None)
        )

    def _count(self, table: Table, who: Identity, delta: int) -> Effects:
        """One connection more or fewer here; what it changes at the table (to commit)."""
        if who.seat is None:
            return Effects()
        mine = self.local.setdefault(table.code, {})
        mine[who.seat] = max(0, mine.get(who.seat, 0) + delta)
        self.cluster.connections_changed(table.code)
        return table.set_connections(who.seat, self._total(table.code, who.seat), self.now())

    def _total(self, code: str, seat: int) -> int:
        return self.local.get(code, {}).get(seat, 0) + self.cluster.elsewhere(code, seat)

    def recount(self, table: Table) -> None:
        """Give each seat the sum of its connections on every live process."""
        now = self.now()
        for seat in range(len(table.seats)):
            total = self._total(table.code, seat)
            if total != table.seats[seat].connections:
                with contextlib.suppress(Stale, SessionError):
                    self.commit(table, table.set_connections(seat, total, now))

    def _forget(self, table: Table) -> None:
        code = table.code
        if self.tables.get(code) is table:
            del self.tables[code]
            self.synced.pop(code, None)
            self.touched.pop(code, None)
            self.local.pop(code, None)
            self.links.pop(code, None)
            self.cluster.release(code)
        handle = self._timers.pop(code, None)
        if handle is not None:
            handle.cancel()

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
            try:
                save(self.store, table.code, self.synced_of(table.code).seq, effects.changes)
            except Conflict:
                self.cluster.overtaken(code)
                self.catch_up(code, force=True)
                raise Stale(code) from None
            except Exception:
                log.exception("table %s: could not store a change; reloading it", code)
                try:
                    self.catch_up(code, force=True)
                except Exception:  # storage is away: drop our copy, it reloads on demand
                    log.exception("table %s could not be reloaded", code)
                    self._forget(table)
                raise SessionError("server_error", "the server could not save that") from None
            seq = self.synced_of(code).seq + 1
            self._synced(table, seq)
            self.touched[code] = self.now()
            self.cluster.written(table, seq, effects)
        self._announce(table, effects)
        self._reschedule(table)

    def follow(self, table: Table, seq: int, effects: Effects) -> None:
        """Another process stored ``seq`` and we made its change on our copy: announce it."""
        self._synced(table, seq)
        self.touched[table.code] = self.now()
        self._announce(table, effects)
        self._reschedule(table)

    def catch_up(self, code: str, *, force: bool = False) -> None:
        """Bring the held table up to what storage holds, announcing to our connections
        each action they have not seen, one by one (or, for anything but actions in the same
        game, the whole table and state again)."""
        old = self.tables.get(code)
        if old is None:
            return
        if not force and self.store.seq(code) == self.synced_of(code).seq:
            return  # nothing new: one indexed read, not the whole table
        stored = self.store.load_table(code)
        if stored is None:
            return
        if stored.closed:  # by another process
            self._closed(old)
            return
        seq, game, moves = self.synced_of(code)
        if not force and stored.seq == seq:
            return  # nothing new
        same_seats = [(s.kind, s.bot, s.name, s.token_hash) for s in old.seats] == [
            (s.kind, s.bot, s.name, s.token_hash) for s in stored.seats
        ]
        now = self.now()
        if same_seats and stored.game == game and game and len(stored.actions) >= moves:
            table = self._restore(stored, stored.actions[:moves], False)
            table.adopt(old, now)
            self.tables[code] = table
            for seat, action, by in stored.actions[moves:]:
                self._announce(table, self.replay(table, seat, action, by))
            if table.config != old.config:  # the host changed the rules between games
                self._announce(table, Effects(table=True))
        else:
            table = self._restore(stored, stored.actions, stored.finished)
            table.adopt(old, now)
            self.tables[code] = table
            self._announce(table, Effects(table=True, snapshot=True))
        self._synced(table, stored.seq)
        self.touched[code] = now
        self._reschedule(table)

    def replay(self, table: Table, seat: int, action: str, by: str) -> Effects:
        """Play an action another process stored; when its stand-in played for a person,
        that person is away here too (said before the move, as where it was played)."""
        now = self.now()
        if by == "away":
            self._announce(table, table.went_away(seat, now))
        return table.replay(seat, action, by, now)

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
        self._drop_lost_seats(table)
        audiences = self.audiences(table)
        if not audiences:
            return
        now = self.now()
        code = table.code
        if effects.snapshot:
            for a in audiences:
                self.pubsub.publish(channel(code, a), dumps(wire.state_message(table, a, now)))
        else:
            for step in effects.steps:
                for a, message in wire.update_messages(table, step, audiences, now).items():
                    self.pubsub.publish(channel(code, a), dumps(message))
        if effects.table:
            text = dumps(wire.table_message(table, now))
            for a in audiences:
                self.pubsub.publish(channel(code, a), text)

    def shout(self, code: str, message: dict[str, Any]) -> None:
        """A message the same for everyone at the table (a reaction): built once, sent to
        every audience here."""
        table = self.tables.get(code)
        if table is None:
            return
        text = dumps(message)
        for a in self.audiences(table):
            self.pubsub.publish(channel(code, a), text)

    def broadcast(self, message: dict[str, Any]) -> None:
        """A message for every connection here, at every table (a notice)."""
        text = dumps(message)
        for code, table in list(self.tables.items()):
            for a in self.audiences(table):
                self.pubsub.publish(channel(code, a), text)

    def _drop_lost_seats(self, table: Table) -> None:
        """Close every connection here of a seat whose link has changed since it connected
        (given up, opened by the host), before anything more is announced to that seat: the
        next person to take it must be the only one who hears it. Whichever process made the
        change, every process comes here as it announces it."""
        links = self.links.get(table.code)
        if not links:
            return
        for seat, link in list(links.items()):
            if table.seats[seat].token_hash != link:
                del links[seat]
                self.pubsub.drop(channel(table.code, seat))

    # ---------------------------------------------------------------- time

    def _reschedule(self, table: Table) -> None:
        """Set the table's next wake-up: its turn timer or bot move while someone is at it
        (a game nobody is at waits for them), or its closing when it has been idle."""
        code = table.code
        old = self._timers.pop(code, None)
        if old is not None:
            old.cancel()
        when = table.next_deadline() if self._attended(table) else None
        if when is not None:
            when += self.cluster.delay(code)
        closes = self._closes_at(table)
        if closes is not None and (when is None or closes < when):
            when = closes
        if when is not None:
            self._timers[code] = self.loop.call_at(when, self._wake, code)

    def _closes_at(self, table: Table) -> float | None:
        """When the table closes if nothing happens: ``idle`` seconds after its last change,
        unless it is being played with a person at it."""
        if self.idle <= 0:
            return None
        if table.phase == PLAYING and any(s.connections for s in table.seats):
            return None
        return self.touched.get(table.code, self.now()) + self.idle

    def _wake(self, code: str) -> None:
        self._timers.pop(code, None)
        table = self.tables.get(code)
        if table is None:
            return
        now = self.now()
        closes = self._closes_at(table)
        if closes is not None and closes <= now:
            self.close(table)
            return
        try:
            if self._attended(table):
                self.commit(table, table.expire(now))
                move = table.pending_move(now)
                while move is not None:
                    self.spawn(self._play_bot(table, move))
                    move = table.pending_move(now)
        except (SessionError, Stale):
            pass  # already logged; the table was reloaded
        current = self.tables.get(code)
        if current is not None:
            self._reschedule(current)

    # ---------------------------------------------------------------- the end

    def close(self, table: Table) -> None:
        """Close an idle table: stored as closed (its games and records stay), everyone at
        it here told and disconnected, its memory freed; the other processes do the same
        when they hear of it."""
        try:
            self.commit(table, Effects(changes=[TableClosed(table.code)]))
        except (Stale, SessionError):
            return  # it changed meanwhile, or storage is away: its next wake-up decides
        self._closed(table)

    def _closed(self, table: Table) -> None:
        text = dumps(CLOSED_NOTICE)
        for a in self.audiences(table):
            self.pubsub.publish(channel(table.code, a), text)
            self.pubsub.end(channel(table.code, a))
        self._forget(table)

    async def _close_idle(self) -> None:
        """Close the tables storage holds idle that no process holds (forgotten lobbies,
        games everyone left, tables from before a restart): a few at a time, every so often.
        The tables held here close on their own timers."""
        pause = min(60.0, max(0.5, self.idle / 10))
        while True:
            await asyncio.sleep(pause)
            try:
                codes = self.store.idle_codes(time.time() - self.idle, 100)
            except Exception:
                log.exception("could not look for idle tables")
                continue
            for code in codes:
                if code in self.tables:
                    continue
                with contextlib.suppress(Exception):
                    table = self.get(code)
                    if table is not None:
                        self.close(table)

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _play_bot(self, table: Table, move: Move) -> None:
        try:
            action = await self.loop.run_in_executor(self._bots, move.choose)
        except Exception:
            log.exception("table %s: the %s bot failed; it will try again", table.code, move.by)
            table.abandon(move, self.now())
            self._reschedule(table)
            return
        if self.tables.get(table.code) is not table:
            return  # reloaded meanwhile
        with contextlib.suppress(SessionError, Stale):
            self.commit(table, table.complete(move, action, self.now()))
