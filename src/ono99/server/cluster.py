"""The other server processes serving the same tables, as the hub sees them: ``Cluster``,
and ``Alone`` for a process that has none (it does nothing and knows nobody).

With other processes (``ono99 serve --database … --redis …``: docs/deploy.md), a table may be
held by several of them at once, each for its own connections. Each writes through the
compare-and-swap on the table's sequence number (``Store.bump``), so of two processes that
change a table at once one wins and the other reloads it and tries the command again (or
refuses it as stale). After a commit the winner puts a note on the bus; the others apply the
action from it (or, on a gap in the numbers, read the table again) and announce it to their
own connections, so every seat sees every move once, in order, whichever process took it.
Timers and bot turns are computed by every process that holds the table from the same stored
state; the last writer fires them on time, the others ``takeover`` seconds late, so that a
dead writer's tables go on; a double fire is only a lost compare-and-swap.

What travels on the bus (``server/bus.py``) is small and public, one JSON note per line:

- ``c``: "table ABC is at sequence number 17" and, for one action, which (``act``), or for a
  new game its number (``new``);
- ``p``: "process p has these connections per seat here"; ``q``: "say your connections";
- ``r``: a reaction, to show; ``n``: who is ready for the next game, and the countdown;
  ``k``: who has read a round's summary (the pause before the next round);
- on ``ono99:alive``, every ``heartbeat`` seconds: "process p is alive".

Every note is only a hint: storage is the truth. A process that misses one (a gap in the
sequence numbers, a note lost with a dying writer, the bus down) reads the table again; a
sweep every few beats asks storage which held tables are newer than we know.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..session import (
    ActionTaken,
    Effects,
    GameFinished,
    GameStarted,
    ListingChanged,
    SessionError,
    Table,
)
from ..session.encode import dumps
from .bus import Bus

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("ono99.server")

ALIVE = "ono99:alive"  # every process says it is alive here, every ``heartbeat`` seconds


class Synced(NamedTuple):
    """What a held table reflects of storage: its sequence number there, and the game and
    the number of moves in it that our copy has played."""

    seq: int
    game: int
    moves: int


UNSYNCED = Synced(0, 0, 0)


def bus_channel(code: str) -> str:
    return f"ono99:t:{code}"


class Alone:
    """One process serving its tables alone: nothing to tell, nobody to hear, its timers
    on time and its copy of every table the truth."""

    up = True  # the bus: there is none to lose

    async def start(self, hub: Hub) -> None:
        pass

    async def stop(self) -> None:
        pass

    def hold(self, code: str) -> None:
        pass

    def release(self, code: str) -> None:
        pass

    def created(self, code: str) -> None:
        pass

    def behind(self, code: str, synced: Synced) -> bool:
        return False

    def written(self, table: Table, seq: int, effects: Effects) -> None:
        pass

    def overtaken(self, code: str) -> None:
        pass

    def delay(self, code: str) -> float:
        return 0.0

    def elsewhere(self, code: str, seat: int) -> int:
        return 0

    def connections_changed(self, code: str) -> None:
        pass

    def reacted(self, code: str, message: dict[str, Any]) -> None:
        pass

    def next_changed(self, code: str, info: dict[str, Any]) -> None:
        pass

    def continued(self, code: str, seats: list[int]) -> None:
        pass


class Cluster:
    """This process among others, through ``bus`` and storage (see the module's text)."""

    def __init__(self, bus: Bus, *, takeover: float = 1.0, heartbeat: float = 1.0):
        self.bus = bus
        self.takeover = takeover  # how late a table's timers fire here when another wrote last
        self.heartbeat = heartbeat
        self.name = secrets.token_hex(4)  # this process, on the bus
        self.mine: set[str] = set()  # tables whose last change was written here
        self.remote: dict[str, dict[str, dict[int, int]]] = {}  # others': table, process, seat
        self.alive: dict[str, float] = {}  # other processes: when last heard
        self._suspects: dict[str, int] = {}  # tables storage held newer at their last sweep
        self.sweep_beats = 3  # few tables: sweep them all every this many beats
        self.sweep_chunk = 250  # many: this many per beat, in turn
        self.poll = 0.25  # seconds between reads of storage while the bus is down
        self._polling = False
        self.up = False
        self.was_down = False
        self._hub: Hub | None = None

    @property
    def hub(self) -> Hub:
        assert self._hub is not None, "the cluster has not started"
        return self._hub

    # ---------------------------------------------------------------- life

    async def start(self, hub: Hub) -> None:
        self._hub = hub
        await self.bus.start(self._on_bus, self._on_health)
        self.bus.subscribe(ALIVE)
        hub.spawn(self._beat())

    async def stop(self) -> None:
        await self.bus.stop()

    def hold(self, code: str) -> None:
        self.bus.subscribe(bus_channel(code))

    def release(self, code: str) -> None:
        self.mine.discard(code)
        self.remote.pop(code, None)
        self.bus.unsubscribe(bus_channel(code))

    # ---------------------------------------------------------------- writing

    def created(self, code: str) -> None:
        self.mine.add(code)

    def behind(self, code: str, synced: Synced) -> bool:
        """Whether another process has written the table since we last heard (asked before
        refusing a command: a refusal must not come from a stale copy)."""
        return self.hub.store.seq(code) != synced.seq

    def written(self, table: Table, seq: int, effects: Effects) -> None:
        """We stored ``effects`` as ``seq``: tell the other processes, and which action it
        was when it was one (or which game, when one began)."""
        self.mine.add(table.code)
        note: dict[str, Any] = {"k": "c", "from": self.name, "seq": seq}
        actions = [ch for ch in effects.changes if isinstance(ch, ActionTaken)]
        starts = [ch for ch in effects.changes if isinstance(ch, GameStarted)]
        others = [
            ch
            for ch in effects.changes
            # The lobby's line is storage's alone: nothing for the others to replay.
            if not isinstance(ch, ActionTaken | GameStarted | GameFinished | ListingChanged)
        ]
        if len(actions) == 1 and not starts and not others:
            a = actions[0]
            note["act"] = [a.game, a.position, a.seat, a.action, a.by]
        elif len(starts) == 1 and not actions and not others:
            note["new"] = starts[0].game  # its seed stays in storage: it is every hand
        self.bus.publish(bus_channel(table.code), dumps(note))

    def overtaken(self, code: str) -> None:
        """Another process wrote the table first."""
        self.mine.discard(code)

    def delay(self, code: str) -> float:
        """How late this process fires the table's timers: on time when it wrote last."""
        return 0.0 if code in self.mine else self.takeover

    # ---------------------------------------------------------------- presence

    def elsewhere(self, code: str, seat: int) -> int:
        """The seat's connections on the other live processes."""
        return sum(p.get(seat, 0) for p in self.remote.get(code, {}).values())

    def connections_changed(self, code: str) -> None:
        seats = {str(s): n for s, n in self.hub.local.get(code, {}).items() if n}
        self.bus.publish(bus_channel(code), dumps({"k": "p", "from": self.name, "seats": seats}))

    def reacted(self, code: str, message: dict[str, Any]) -> None:
        self.bus.publish(bus_channel(code), dumps({"k": "r", "from": self.name, "m": message}))

    def next_changed(self, code: str, info: dict[str, Any]) -> None:
        """Who is ready for the next game and the countdown to it (kept in memory, not
        stored: each process holds its own copy of the table)."""
        self.bus.publish(bus_channel(code), dumps({"k": "n", "from": self.name, "next": info}))

    def continued(self, code: str, seats: list[int]) -> None:
        """These seats have read the round's summary (the pause before the next round is
        kept in memory, as the ready marks)."""
        self.bus.publish(bus_channel(code), dumps({"k": "k", "from": self.name, "seats": seats}))

    # ---------------------------------------------------------------- hearing

    def _on_bus(self, name: str, text: str | None) -> None:
        hub = self.hub
        if name == ALIVE:
            if text is not None and text != self.name:
                self.alive[text] = hub.now()
            return
        code = name.removeprefix("ono99:t:")
        table = hub.tables.get(code)
        if table is None:
            return
        if text is None:  # just subscribed: what happened before then is in storage
            hub.catch_up(code)
            self.bus.publish(name, dumps({"k": "q", "from": self.name}))
            return
        note = json.loads(text)
        sender = note.get("from")
        if sender == self.name:
            return
        self.alive[sender] = hub.now()
        kind = note.get("k")
        if kind == "c":
            self._on_change(table, note)
        elif kind == "p":
            seats = {int(s): int(n) for s, n in note.get("seats", {}).items()}
            self.remote.setdefault(code, {})[sender] = seats
            hub.recount(table)
        elif kind == "q" and hub.local.get(code):
            self.connections_changed(code)
        elif kind == "r" and isinstance(note.get("m"), dict):
            hub.shout(code, note["m"])
        elif kind == "n" and isinstance(note.get("next"), dict):
            hub.merge_next(table, note["next"])
        elif kind == "k" and isinstance(note.get("seats"), list):
            hub.merge_continued(table, note["seats"])

    def _on_change(self, table: Table, note: dict[str, Any]) -> None:
        hub, code = self.hub, table.code
        # Its notes are coming (late, perhaps: a busy process): no reason for the sweep to read
        # the table; a gap in them is seen below.
        self._suspects.pop(code, None)
        seq, game, moves = hub.synced_of(code)
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
            self._follow(table, note["seq"], lambda: hub.replay(table, *act[2:5]))
            return
        new = note.get("new")
        if note["seq"] == seq + 1 and new is not None and table.game == game:
            # A new game: one read of its seed, not the whole table again (when 2,000 tables
            # start at once, every other process holding them would read each one whole).
            stored = hub.store.game_seed(code, new)
            if stored is not None:
                now = hub.now()
                self._follow(table, note["seq"], lambda: table.replay_new_game(new, *stored, now))
                return
        hub.catch_up(code)  # a gap, or a change other than one action or a new game

    def _follow(self, table: Table, seq: int, change: Callable[[], Effects]) -> None:
        """Make on our copy the change another process noted as ``seq``, and announce it;
        should it not fit our copy, read the table from storage instead."""
        hub = self.hub
        try:
            effects = change()
        except SessionError:
            log.exception("table %s: a note did not fit; reading it again", table.code)
            hub.catch_up(table.code)
            return
        hub.follow(table, seq, effects)

    def _on_health(self, up: bool) -> None:
        hub = self.hub
        self.up = up
        hub.broadcast(notice(up))
        if not up:
            self.was_down = True
            if not self._polling:
                self._polling = True
                hub.spawn(self._poll())
            return
        if self.was_down:  # what the others did meanwhile is in storage
            for code in list(hub.tables):
                with contextlib.suppress(Exception):
                    hub.catch_up(code)
                if hub.local.get(code):
                    self.connections_changed(code)

    async def _poll(self) -> None:
        """While the bus is down, read storage every ``poll`` seconds for the tables someone
        here is at: a move made on another process reaches them within about that (one
        indexed query for all of them), not at the next sweep."""
        hub = self.hub
        try:
            while not self.up:
                await asyncio.sleep(self.poll)
                codes = [code for code, table in hub.tables.items() if hub.audiences(table)]
                try:
                    stored = hub.store.seqs(codes)
                except Exception:
                    log.exception("could not read the tables while the bus is down")
                    continue
                for code, seq in stored.items():
                    if code in hub.tables and seq != hub.synced_of(code).seq:
                        try:
                            hub.catch_up(code)
                        except Exception:
                            log.exception("table %s could not be caught up", code)
        finally:
            self._polling = False

    # ---------------------------------------------------------------- the beat

    def sweep(self, codes: list[str] | None = None) -> None:
        """Catch up every held table (of ``codes``, or all) that storage holds newer (a writer
        that died between its commit and its note, a note lost on the bus): one query."""
        hub = self.hub
        codes = list(hub.tables) if codes is None else [c for c in codes if c in hub.tables]
        stored = hub.store.seqs(codes)
        # A note still on its way is no reason to read a table: only one that storage held
        # newer at this table's last sweep, and that no note has come for since, is (else,
        # under load, sweeps that read every table whose note is late make every note later
        # still).
        suspects = {c: self._suspects.pop(c) for c in codes if c in self._suspects}
        for code, seq in stored.items():
            have = hub.synced_of(code).seq
            if code not in hub.tables or seq == have:
                continue
            if suspects.get(code, have + 1) <= have:  # it came meanwhile; this is newer
                self._suspects[code] = seq
            elif code in suspects:
                try:
                    hub.catch_up(code)
                except Exception:
                    log.exception("table %s could not be caught up", code)
            else:
                self._suspects[code] = seq

    def _sweep_share(self, beat: int) -> list[str] | None:
        """The tables to sweep at this beat (None: all of them). While they are few, all
        of them every ``sweep_beats`` beats; else ``sweep_chunk`` at every beat, in turn: a
        query for 2,000 tables holds the event loop for tens of milliseconds on a busy
        machine, and every move in flight waits for it."""
        tables = self.hub.tables
        if len(tables) <= self.sweep_chunk:
            return None if beat % self.sweep_beats == 0 else []
        codes = sorted(tables)
        start = (beat * self.sweep_chunk) % len(codes)
        return (codes + codes)[start : start + self.sweep_chunk]

    async def _beat(self) -> None:
        """Say we are alive; forget the connections of processes not heard from for three
        beats; and sweep a share of the tables (every one at once when a process died)."""
        hub = self.hub
        beats = 0
        while True:
            self.bus.publish(ALIVE, self.name)
            now = hub.now()
            dead = {p for p, t in self.alive.items() if now - t > 3 * self.heartbeat}
            for p in dead:
                del self.alive[p]
            beats += 1
            if dead:
                self._suspects = {code: 1 << 62 for code in hub.tables}  # read now what lags
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
                        table = hub.tables.get(code)
                        if table is not None:
                            hub.recount(table)
            await asyncio.sleep(self.heartbeat)


def notice(up: bool) -> dict[str, Any]:
    """Told to every connection when the bus between server processes goes down or comes
    back: moves made on other processes reach this one late (from storage) meanwhile."""
    if up:
        return {"type": "notice", "code": "bus_up", "message": "back in touch"}
    return {
        "type": "notice",
        "code": "bus_down",
        "message": "lost touch with the other servers; moves made there will arrive late",
    }
