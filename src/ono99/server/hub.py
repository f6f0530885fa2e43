"""The tables this server process holds, and the one path every change takes:
session core → storage (one transaction, which first bumps the table's sequence number) →
announcements on the pub/sub → a note on the bus to the other processes → timers.

With other processes serving the same tables (``bus`` given: docs/deploy.md), a table may be
held by several of them at once, each for its own connections. Each writes through the
compare-and-swap on the table's sequence number (``Store.bump``), so of two processes that
change a table at once one wins and the other reloads it and tries the command again (or
refuses it as stale). After a commit the winner puts a note on the bus; the others apply the
action from it (or, on a gap in the numbers, read the table again) and announce it to their
own connections, so every seat sees every move once, in order, whichever process took it.
Timers and bot turns are computed by every process that holds the table from the same stored
state; the last writer fires them on time, the others ``takeover`` seconds late, so that a
dead writer's tables go on; a double fire is only a lost compare-and-swap.

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
import secrets
from collections import OrderedDict
from collections.abc import Callable
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
from ..session.table import OVER, Change, ConfigChanged, Hint
from ..storage import Conflict, Store, StoredTable
from .bus import Bus
from .pubsub import PubSub, Subscriber

log = logging.getLogger("ono99.server")
HINTS_KEPT = 256  # hints kept for a repeated ask (a reload, a second tab)


def channel(code: str, seat: int | None) -> str:
    return f"{code}:{'watch' if seat is None else seat}"


ALIVE = "ono99:alive"  # every process says it is alive here, every ``heartbeat`` seconds


def bus_channel(code: str) -> str:
    return f"ono99:t:{code}"


class Stale(Exception):
    """Another process changed the table first; it has been brought up to date."""


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


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
    ):
        self.store = store
        self.settings = settings
        self.max_tables = max_tables
        self.bus = bus
        self.takeover = takeover  # how late a table's timers fire here when another wrote last
        self.heartbeat = heartbeat
        self.name = secrets.token_hex(4)  # this process, on the bus
        self.pubsub = PubSub()
        self.tables: dict[str, Table] = {}
        # What each held table reflects of storage: (sequence number, game, moves).
        self.synced: dict[str, tuple[int, int, int]] = {}
        self.mine: set[str] = set()  # tables whose last change was written here
        self.local: dict[str, dict[int, int]] = {}  # our connections, per table and seat
        # The link each seat's connections here came with (its hash), per table and seat: a
        # seat given up or opened since closes them (``_drop_lost_seats``).
        self.links: dict[str, dict[int, str | None]] = {}
        self.remote: dict[str, dict[str, dict[int, int]]] = {}  # others': table, process, seat
        self.alive: dict[str, float] = {}  # other processes: when last heard
        self._suspects: dict[str, int] = {}  # tables storage held newer at their last sweep
        self.sweep_beats = 3  # few tables: sweep them all every this many beats
        self.sweep_chunk = 250  # many: this many per beat, in turn
        self.bus_up = bus is None
        self.bus_was_down = False
        self._timers: dict[str, asyncio.TimerHandle] = {}
        # Hints searched, or being searched, per (table, game, moves, seat): one search a
        # decision, however often it is asked for (a search costs a CPU-quarter-second).
        self._hints: OrderedDict[tuple[str, int, int, int], asyncio.Future[dict[str, Any]]] = (
            OrderedDict()
        )
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
        if self.bus is not None:
            await self.bus.start(self._on_bus, self._on_health)
            self.bus.subscribe(ALIVE)
            self._spawn(self._beat())
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
        if self.bus is not None:
            await self.bus.stop()

    # ---------------------------------------------------------------- tables

    def get(self, code: str) -> Table | None:
        table = self.tables.get(code)
        if table is not None:
            return table
        stored = self.store.load_table(code)
        if stored is None:
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
        self._synced(table, seq)
        if self.bus is not None:
            self.bus.subscribe(bus_channel(code))

    def _synced(self, table: Table, seq: int) -> None:
        self.synced[table.code] = (seq, table.game, table.state.moves if table.state else 0)

    def create(self, config: TableConfig, name: str | None) -> tuple[Table, str, Identity]:
        if len(self.tables) >= self.max_tables:
            raise SessionError("busy", "this server holds as many tables as it can")
        code = new_code()
        while code in self.tables or self.store.load_table(code) is not None:
            code = new_code()  # about 2**-59 per try: for form's sake
        table, token, who, effects = Table.create(code, config, name, self.settings)
        self._store(table, effects.changes)
        self.mine.add(code)
        self._hold(table, 0)
        return table, token, who

    def mutate(self, code: str, change: Any) -> Any:
        """``change(table)`` → (result, effects) on the table as it is now; when another
        process changed it first, again on the table brought up to date (a command that was
        valid only before then is refused by the table itself, e.g. as stale)."""
        for _ in range(5):
            table = self.get(code)
            if table is None:
                raise SessionError("not_found", "there is no such table")
            try:
                result, effects = change(table)
            except SessionError:
                if not self._behind(code):
                    raise
                self._catch_up(code)  # refused by what we held: ask the table as stored
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
            self._catch_up(code)
            table = self.tables[code]
        return table

    def _behind(self, code: str) -> bool:
        """Whether another process has written the table since we last heard (only asked
        before refusing a command: a refusal must not come from a stale copy)."""
        if self.bus is None:
            return False
        return self.store.seq(code) != self.synced.get(code, (0, 0, 0))[0]

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
        if not self.bus_up:
            sub.send(dumps(_notice(False)))
        effects = self._count(table, who, +1)
        if who.seat is not None:
            self.links.setdefault(code, {})[who.seat] = table.seats[who.seat].token_hash
        sub.send(dumps(table.table_message(now)))
        sub.send(dumps(table.state_message(who.seat, now)))
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
        if table.phase != PLAYING and not self.audiences(table):
            self._forget(table)  # nothing will happen there: it reloads from storage on demand

    def _count(self, table: Table, who: Identity, delta: int) -> Effects:
        """One connection more or fewer here; what it changes at the table (to commit)."""
        if who.seat is None:
            return Effects()
        mine = self.local.setdefault(table.code, {})
        mine[who.seat] = max(0, mine.get(who.seat, 0) + delta)
        if self.bus is not None:
            self._say_presence(table.code)
        return table.set_connections(who.seat, self._total(table.code, who.seat), self.now())

    def _total(self, code: str, seat: int) -> int:
        mine = self.local.get(code, {}).get(seat, 0)
        return mine + sum(p.get(seat, 0) for p in self.remote.get(code, {}).values())

    def _recount(self, table: Table) -> None:
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
            self.mine.discard(code)
            self.local.pop(code, None)
            self.links.pop(code, None)
            self.remote.pop(code, None)
            if self.bus is not None:
                self.bus.unsubscribe(bus_channel(code))
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
            self._shout(code, message)
            if self.bus is not None:  # the other processes show it to their connections
                note = {"k": "r", "from": self.name, "m": message}
                self.bus.publish(bus_channel(code), dumps(note))
            return
        if cmd.type == "hint":
            # As storage has it: on many processes our copy may not have heard the last move
            # yet, and a hint for a stale position (or a stale "not your turn") helps nobody.
            table = self.fresh(code)
            if table is None:
                raise SessionError("not_found", "there is no such table")
            self._spawn(self._hint(code, table.hint(who), sub, cmd.id))
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
        if cmd.type in ("ready", "again"):
            self._say_next(code)
        if cmd.type == "continue" and self.bus is not None and who.seat is not None:
            # The other processes' copies of the table hold their pause until this too.
            said: dict[str, Any] = {"k": "k", "from": self.name, "seats": [who.seat]}
            self.bus.publish(bus_channel(code), dumps(said))

    # ---------------------------------------------------------------- the one path

    def commit(self, table: Table, effects: Effects) -> None:
        """Store what changed, then announce it, then set the table's next wake-up. Raises
        ``Stale`` when another process wrote first (the table has been brought up to date)."""
        if effects.changes:
            code = table.code
            try:
                self._store(table, effects.changes)
            except Conflict:
                self.mine.discard(code)
                self._catch_up(code, force=True)
                raise Stale(code) from None
            except Exception:
                log.exception("table %s: could not store a change; reloading it", code)
                try:
                    self._catch_up(code, force=True)
                except Exception:  # storage is away: drop our copy, it reloads on demand
                    log.exception("table %s could not be reloaded", code)
                    self._forget(table)
                raise SessionError("server_error", "the server could not save that") from None
            seq = self.synced.get(code, (0, 0, 0))[0] + 1
            self._synced(table, seq)
            self.mine.add(code)
            self._note(table, seq, effects)
        self._announce(table, effects)
        self._reschedule(table)

    def _store(self, table: Table, changes: list[Change]) -> None:
        store, code = self.store, table.code
        if len(changes) == 1 and isinstance(changes[0], ActionTaken):  # most of them
            a = changes[0]
            seq = self.synced.get(code, (0, 0, 0))[0]
            store.append_action(code, seq, a.game, a.position, a.seat, a.action, a.by)
            return
        with store.transaction():
            if not isinstance(changes[0], TableCreated):
                store.bump(code, self.synced.get(code, (0, 0, 0))[0])
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
                elif isinstance(ch, ConfigChanged):
                    store.set_config(code, ch.config)

    def _catch_up(self, code: str, *, force: bool = False) -> None:
        """Bring the held table up to what storage holds, announcing to our connections
        each action they have not seen, one by one (or, for anything but actions in the same
        game, the whole table and state again)."""
        old = self.tables.get(code)
        if old is None:
            return
        if not force and self.store.seq(code) == self.synced.get(code, (0, 0, 0))[0]:
            return  # nothing new: one indexed read, not the whole table
        stored = self.store.load_table(code)
        if stored is None:
            return
        seq, game, moves = self.synced.get(code, (0, 0, 0))
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
                self._announce(table, self._replay(table, seat, action, by))
            if table.config != old.config:  # the host changed the rules between games
                self._announce(table, Effects(table=True))
        else:
            table = self._restore(stored, stored.actions, stored.finished)
            table.adopt(old, now)
            self.tables[code] = table
            self._announce(table, Effects(table=True, snapshot=True))
        self._synced(table, stored.seq)
        self._reschedule(table)

    def _replay(self, table: Table, seat: int, action: str, by: str) -> Effects:
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
                self.pubsub.publish(channel(code, a), dumps(table.state_message(a, now)))
        else:
            for step in effects.steps:
                for a, message in table.update_messages(step, audiences, now).items():
                    self.pubsub.publish(channel(code, a), dumps(message))
        if effects.table:
            text = dumps(table.table_message(now))
            for a in audiences:
                self.pubsub.publish(channel(code, a), text)

    def _say_next(self, code: str) -> None:
        """Tell the other processes who is ready for the next game and the countdown to it
        (kept in memory, not stored: each process holds its own copy of the table)."""
        table = self.tables.get(code)
        if self.bus is None or table is None or table.phase != OVER:
            return
        note = {"k": "n", "from": self.name, "next": table.next_info(self.now())}
        self.bus.publish(bus_channel(code), dumps(note))

    def _shout(self, code: str, message: dict[str, Any]) -> None:
        """A message the same for everyone at the table (a reaction): built once, sent to
        every audience here."""
        table = self.tables.get(code)
        if table is None:
            return
        text = dumps(message)
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

    # ---------------------------------------------------------------- the bus

    def _note(self, table: Table, seq: int, effects: Effects) -> None:
        """Tell the other processes: the table is at ``seq``, and (for an action) which."""
        if self.bus is None:
            return
        note: dict[str, Any] = {"k": "c", "from": self.name, "seq": seq}
        actions = [ch for ch in effects.changes if isinstance(ch, ActionTaken)]
        starts = [ch for ch in effects.changes if isinstance(ch, GameStarted)]
        others = [
            ch
            for ch in effects.changes
            if not isinstance(ch, ActionTaken | GameStarted | GameFinished)
        ]
        if len(actions) == 1 and not starts and not others:
            a = actions[0]
            note["act"] = [a.game, a.position, a.seat, a.action, a.by]
        elif len(starts) == 1 and not actions and not others:
            note["new"] = starts[0].game  # its seed stays in storage: it is every hand
        self.bus.publish(bus_channel(table.code), dumps(note))

    def _say_presence(self, code: str) -> None:
        assert self.bus is not None
        seats = {str(s): n for s, n in self.local.get(code, {}).items() if n}
        self.bus.publish(bus_channel(code), dumps({"k": "p", "from": self.name, "seats": seats}))

    def _on_bus(self, name: str, text: str | None) -> None:
        if name == ALIVE:
            if text is not None and text != self.name:
                self.alive[text] = self.now()
            return
        code = name.removeprefix("ono99:t:")
        table = self.tables.get(code)
        if table is None:
            return
        if text is None:  # just subscribed: what happened before then is in storage
            self._catch_up(code)
            if self.bus is not None:
                self.bus.publish(name, dumps({"k": "q", "from": self.name}))
            return
        note = json.loads(text)
        sender = note.get("from")
        if sender == self.name:
            return
        self.alive[sender] = self.now()
        kind = note.get("k")
        if kind == "c":
            self._on_change(table, note)
        elif kind == "p":
            seats = {int(s): int(n) for s, n in note.get("seats", {}).items()}
            self.remote.setdefault(code, {})[sender] = seats
            self._recount(table)
        elif kind == "q" and self.local.get(code):
            self._say_presence(code)
        elif kind == "r" and isinstance(note.get("m"), dict):
            self._shout(code, note["m"])
        elif kind == "k" and isinstance(note.get("seats"), list):
            with contextlib.suppress(Stale, SessionError):
                self.commit(table, table.merge_continued(note["seats"], self.now()))
        elif kind == "n" and isinstance(note.get("next"), dict):
            nxt = note["next"]
            with contextlib.suppress(Stale, SessionError):
                self.commit(table, table.merge_next(nxt["ready"], nxt["ms_left"], self.now()))

    def _on_change(self, table: Table, note: dict[str, Any]) -> None:
        code = table.code
        # Its notes are coming (late, perhaps: a busy process): no reason for the sweep to read
        # the table; a gap in them is seen below.
        self._suspects.pop(code, None)
        seq, game, moves = self.synced.get(code, (0, 0, 0))
        if note["seq"] <= seq:
            return  # seen already (we caught up from storage first)
        self.mine.discard(code)
        act = note.get("act")
        state = table.state
        if (
            note["seq"] == seq + 1
            and act is not None
            and state is not None
            and (table.game, state.moves) == (game, moves) == (act[0], act[1])
        ):
            self._follow(table, note["seq"], lambda: self._replay(table, *act[2:5]))
            return
        new = note.get("new")
        if note["seq"] == seq + 1 and new is not None and table.game == game:
            # A new game: one read of its seed, not the whole table again (when 2,000 tables
            # start at once, every other process holding them would read each one whole).
            stored = self.store.game_seed(code, new)
            if stored is not None:
                now = self.now()
                self._follow(table, note["seq"], lambda: table.replay_new_game(new, *stored, now))
                return
        self._catch_up(code)  # a gap, or a change other than one action or a new game

    def _follow(self, table: Table, seq: int, change: Callable[[], Effects]) -> None:
        """Make on our copy the change another process noted as ``seq``, and announce it;
        should it not fit our copy, read the table from storage instead."""
        try:
            effects = change()
        except SessionError:
            log.exception("table %s: a note did not fit; reading it again", table.code)
            self._catch_up(table.code)
            return
        self._synced(table, seq)
        self._announce(table, effects)
        self._reschedule(table)

    def _on_health(self, up: bool) -> None:
        self.bus_up = up
        for code, table in list(self.tables.items()):
            for a in self.audiences(table):
                self.pubsub.publish(channel(code, a), dumps(_notice(up)))
        if not up:
            self.bus_was_down = True
            return
        if self.bus_was_down:  # what the others did meanwhile is in storage
            for code in list(self.tables):
                with contextlib.suppress(Exception):
                    self._catch_up(code)
                if self.local.get(code):
                    self._say_presence(code)

    def sweep(self, codes: list[str] | None = None) -> None:
        """Catch up every held table (of ``codes``, or all) that storage holds newer (a writer
        that died between its commit and its note, a note lost on the bus): one query."""
        codes = list(self.tables) if codes is None else [c for c in codes if c in self.tables]
        stored = self.store.seqs(codes)
        # A note still on its way is no reason to read a table: only one that storage held
        # newer at this table's last sweep, and that no note has come for since, is (else,
        # under load, sweeps that read every table whose note is late make every note later
        # still).
        suspects = {c: self._suspects.pop(c) for c in codes if c in self._suspects}
        for code, seq in stored.items():
            have = self.synced.get(code, (0, 0, 0))[0]
            if code not in self.tables or seq == have:
                continue
            if suspects.get(code, have + 1) <= have:  # it came meanwhile; this is newer
                self._suspects[code] = seq
            elif code in suspects:
                try:
                    self._catch_up(code)
                except Exception:
                    log.exception("table %s could not be caught up", code)
            else:
                self._suspects[code] = seq

    def _sweep_share(self, beat: int) -> list[str] | None:
        """The tables to sweep at this beat (None: all of them). While they are few, all
        of them every ``sweep_beats`` beats; else ``sweep_chunk`` at every beat, in turn: a
        query for 2,000 tables holds the event loop for tens of milliseconds on a busy
        machine, and every move in flight waits for it."""
        if len(self.tables) <= self.sweep_chunk:
            return None if beat % self.sweep_beats == 0 else []
        codes = sorted(self.tables)
        start = (beat * self.sweep_chunk) % len(codes)
        return (codes + codes)[start : start + self.sweep_chunk]

    async def _beat(self) -> None:
        """Say we are alive; forget the connections of processes not heard from for three
        beats; and sweep a share of the tables (every one at once when a process died)."""
        assert self.bus is not None
        beats = 0
        while True:
            self.bus.publish(ALIVE, self.name)
            now = self.now()
            dead = {p for p, t in self.alive.items() if now - t > 3 * self.heartbeat}
            for p in dead:
                del self.alive[p]
            beats += 1
            if dead:
                self._suspects = {code: 1 << 62 for code in self.tables}  # read now what lags
            share = None if dead else self._sweep_share(beats)
            if share is None or share:
                try:
                    self.sweep(share)
                except Exception:
                    log.exception("the sweep failed")
            if dead:
                for code, procs in list(self.remote.items()):
                    if dead & set(procs):
                        for p in dead:
                            procs.pop(p, None)
                        table = self.tables.get(code)
                        if table is not None:
                            self._recount(table)
            await asyncio.sleep(self.heartbeat)

    # ---------------------------------------------------------------- time

    def _reschedule(self, table: Table) -> None:
        old = self._timers.pop(table.code, None)
        if old is not None:
            old.cancel()
        when = table.next_deadline()
        if when is not None:
            if self.bus is not None and table.code not in self.mine:
                when += self.takeover
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
        except (SessionError, Stale):
            pass  # already logged; the table was reloaded
        current = self.tables.get(code)
        if current is not None:
            self._reschedule(current)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _hint(self, code: str, hint: Hint, sub: Subscriber, ref: Any) -> None:
        """Search ``hint`` on a worker thread (once per decision) and send it to ``sub``."""
        key = (code, hint.game, hint.moves, hint.seat)
        search = self._hints.get(key)
        if search is None:
            search = self._hints[key] = asyncio.ensure_future(asyncio.to_thread(hint.compute))
            while len(self._hints) > HINTS_KEPT:
                self._hints.popitem(last=False)
        try:
            message = await asyncio.shield(search)
        except Exception:
            log.exception("table %s: a hint failed", code)
            self._hints.pop(key, None)
            error = SessionError("server_error", "the hint could not be worked out")
            sub.send(dumps({"type": "error", **error.to_json(), "id": ref}))
            return
        sub.send(dumps({**message, "id": ref} if ref is not None else message))

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
        with contextlib.suppress(SessionError, Stale):
            self.commit(table, table.complete(move, action, self.now()))


def _notice(up: bool) -> dict[str, Any]:
    """Told to every connection when the bus between server processes goes down or comes
    back: moves made on other processes reach this one late (from storage) meanwhile."""
    if up:
        return {"type": "notice", "code": "bus_up", "message": "back in touch"}
    return {
        "type": "notice",
        "code": "bus_down",
        "message": "lost touch with the other servers; moves made there will arrive late",
    }
