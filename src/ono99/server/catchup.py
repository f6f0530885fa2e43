"""What each table this process holds reflects of storage (``Synced``: its sequence number
there, and the game and moves our copy has played), and bringing a copy up to date.

Storage is the truth: when another process has written a table since (its note on the bus, a
gap in the numbers, a refusal that may come from a stale copy), ``catch_up`` reads it again and
announces to our connections each action they have not seen, one by one — or, for anything but
actions in the same game, the whole table and state again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..session import Effects, Seat, Table, TableConfig
from ..storage import StoredTable
from .cluster import UNSYNCED, Synced

if TYPE_CHECKING:
    from .hub import Hub


class Stale(Exception):
    """Another process changed the table first; it has been brought up to date."""


class CatchUp:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.synced: dict[str, Synced] = {}  # what each held table reflects of storage

    def restore(
        self, stored: StoredTable, actions: Sequence[tuple[int, str, str]], finished: bool
    ) -> Table:
        """The table as ``stored``, with its latest game played up to ``actions``."""
        hub = self.hub
        seats = [
            Seat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.left_name, s.player)
            for s in stored.seats
        ]
        return Table.restore(
            stored.code,
            TableConfig.from_json(stored.config),
            stored.host_hash,
            seats,
            hub.settings,
            hub.now(),
            game=stored.game,
            seed=stored.seed,
            dealer=stored.dealer,
            actions=actions,
            finished=finished,
            wins=stored.wins,
            record=stored.record,
        )

    def mark(self, table: Table, seq: int) -> None:
        """Our copy of ``table`` is what storage holds as ``seq``."""
        moves = table.state.moves if table.state else 0
        self.synced[table.code] = Synced(seq, table.game, moves)

    def of(self, code: str) -> Synced:
        return self.synced.get(code, UNSYNCED)

    def forget(self, code: str) -> None:
        self.synced.pop(code, None)

    def behind(self, code: str) -> bool:
        return self.hub.cluster.behind(code, self.of(code))

    def fresh(self, code: str) -> Table | None:
        """The table as storage holds it now: a read (an HTTP look, a new connection) on
        one process sees what another process wrote the moment before, even when that
        process's note has not reached us yet (or died with it). One indexed read."""
        hub = self.hub
        table = hub.get(code)
        if table is not None and self.behind(code):
            self.catch_up(code)
            table = hub.tables[code]
        return table

    def catch_up(self, code: str, *, force: bool = False) -> None:
        """Bring the held table up to what storage holds, announcing to our connections
        each action they have not seen, one by one (or, for anything but actions in the same
        game, the whole table and state again)."""
        hub = self.hub
        old = hub.tables.get(code)
        if old is None:
            return
        if not force and hub.store.seq(code) == self.of(code).seq:
            return  # nothing new: one indexed read, not the whole table
        stored = hub.store.load_table(code)
        if stored is None:
            return
        if stored.closed:  # by another process
            hub.timers.closed(old)
            return
        seq, game, moves = self.of(code)
        if not force and stored.seq == seq:
            return  # nothing new
        same_seats = [(s.kind, s.bot, s.name, s.token_hash) for s in old.seats] == [
            (s.kind, s.bot, s.name, s.token_hash) for s in stored.seats
        ]
        now = hub.now()
        if same_seats and stored.game == game and game and len(stored.actions) >= moves:
            table = self.restore(stored, stored.actions[:moves], False)
            table.adopt(old, now)
            hub.tables[code] = table
            for seat, action, by in stored.actions[moves:]:
                hub.announce(table, self.replay(table, seat, action, by))
            if table.config != old.config:  # the host changed the rules between games
                hub.announce(table, Effects(table=True))
        else:
            table = self.restore(stored, stored.actions, stored.finished)
            table.adopt(old, now)
            hub.tables[code] = table
            hub.announce(table, Effects(table=True, snapshot=True))
        self.mark(table, stored.seq)
        hub.timers.touch(code, now)
        hub.timers.reschedule(table)

    def replay(self, table: Table, seat: int, action: str, by: str) -> Effects:
        """Play an action another process stored; when its stand-in played for a person,
        that person is away here too (said before the move, as where it was played)."""
        hub = self.hub
        now = hub.now()
        if by == "away":
            hub.announce(table, table.went_away(seat, now))
        return table.replay(seat, action, by, now)
