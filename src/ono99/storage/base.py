"""What every store offers the server: the ``Store`` protocol, and the plain data it returns.

Two stores implement it: ``SqliteStore`` (one file, one process: the default) and
``PostgresStore`` (any number of server processes on one database). Both keep a per-table
*sequence number* (``seq``): every batch of changes the server writes for a table first
checks and bumps it (``bump``, a compare-and-swap), so two processes that both believe they
hold the latest state of a table cannot both write to it — the second one's batch is rolled
back and it reloads the table instead (docs/deploy.md, "One writer per table").

Schema migrations are a small versioned list per backend (``MIGRATIONS`` in each module):
the database records the last version applied and a store applies the rest, in order, in one
transaction, when it opens. It is a dozen lines against Alembic plus SQLAlchemy, for a schema of
four tables that both backends must keep in step by hand anyway.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from .players import PlayerRecords
from .watching import WatchRecords


@dataclass
class StoredSeat:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None
    left_name: str | None = None  # an open seat's last person, who left it (session.Seat)
    player: str | None = None  # the profile of the person on it (session.Seat.player)


@dataclass
class StoredTable:
    code: str
    config: dict[str, Any]
    host_hash: str
    seats: list[StoredSeat]
    game: int = 0  # the latest game's number; 0 before the first
    seed: int | None = None
    dealer: int | None = None
    finished: bool = False
    actions: list[tuple[int, str, str]] = field(default_factory=list)  # (seat, action, by)
    seq: int = 0  # batches of changes written since the table was created
    closed: bool = False  # closed (idle): kept for its records, no longer played
    # Games won per seat in the table's finished games before the latest one (that one's
    # winners come from replaying it): the running tally. From each record's meta.winners.
    wins: dict[int, int] = field(default_factory=dict)
    record: str | None = None  # the latest game's record, when it is finished (its rules)


def count_wins(rows: list[tuple[int, str | None]], latest: int) -> dict[int, int]:
    """The tally from (game, winners as JSON text) rows, leaving out game ``latest``."""
    wins: dict[int, int] = {}
    for game, text in rows:
        if game == latest or not text:
            continue
        for seat in json.loads(text):
            wins[int(seat)] = wins.get(int(seat), 0) + 1
    return wins


class Conflict(Exception):
    """Another writer changed the table first: this batch was not written."""


class Store(PlayerRecords, WatchRecords, Protocol):
    """Tables, seats, games and every accepted action. The writing methods are called inside
    ``transaction()``; ``bump`` first, so that a stale writer writes nothing."""

    def close(self) -> None: ...

    def transaction(self) -> AbstractContextManager[None]: ...

    def create_table(self, code: str, config: str, host_hash: str) -> None: ...

    def bump(self, code: str, seq: int) -> None:
        """Compare-and-swap the table's sequence number from ``seq`` to ``seq + 1``; raise
        ``Conflict`` (rolling the transaction back) when it is not ``seq`` any more."""
        ...

    def put_seat(
        self,
        code: str,
        seat: int,
        kind: str,
        bot: str | None,
        name: str | None,
        token_hash: str | None,
        left_name: str | None = None,
        player: str | None = None,
    ) -> None: ...

    def start_game(self, code: str, game: int, seed: int, dealer: int) -> None: ...

    def add_action(
        self, code: str, game: int, position: int, seat: int, action: str, by: str
    ) -> None: ...

    def finish_game(self, code: str, game: int, record: str) -> None: ...

    def close_table(self, code: str) -> None:
        """Close the table: its games and records stay, nobody plays or joins it again."""
        ...

    def set_config(self, code: str, config: str) -> None:
        """The host's new rules for the games to come (TableConfig as JSON)."""
        ...

    def append_action(
        self, code: str, seq: int, game: int, position: int, seat: int, action: str, by: str
    ) -> None:
        """``bump`` and ``add_action`` as one transaction of their own: most batches are one
        move, and PostgreSQL does this in one statement (one round trip)."""
        ...

    def active_codes(self) -> list[str]: ...

    def load_table(self, code: str) -> StoredTable | None: ...

    def seq(self, code: str) -> int | None:
        """The table's sequence number (None: no such table)."""
        ...

    def game_seed(self, code: str, game: int) -> tuple[int, int] | None:
        """The seed and dealer of one game (None: no such game): what another process
        needs to begin a game it was told of, which the bus does not carry (the seed is
        every hand)."""
        ...

    def seqs(self, codes: list[str]) -> dict[str, int]:
        """The sequence numbers of many tables at once (those that exist)."""
        ...

    def unfinished(self, codes: list[str]) -> set[str]:
        """Those of ``codes`` whose tables are open and not over: in their lobby, or with a
        game being played (one query, whatever their number)."""
        ...

    def games(self, code: str) -> list[tuple[int, bool]]: ...

    def record(self, code: str, game: int) -> str | None: ...

    def count_tables(self) -> int: ...

    def list_table(self, code: str, setting: str, free: int, entry: str) -> None:
        """The table's line in the lobby (``entry``, JSON), listed since the first time."""
        ...

    def unlist_table(self, code: str) -> None: ...

    def listings(self, limit: int) -> list[dict[str, Any]]:
        """The lobby: the oldest ``limit`` listed tables, each its entry and ``opened``."""
        ...

    def waiting(self, setting: str) -> list[str]:
        """Play now's listed tables for ``setting`` with a seat free, the oldest first."""
        ...

    def try_lock(self, key: str) -> bool:
        """Take the server-wide lock ``key`` if nobody holds it (never waits)."""
        ...

    def unlock(self, key: str) -> None: ...

    def idle_codes(self, before: float, limit: int) -> list[str]:
        """Up to ``limit`` open tables unchanged since ``before`` (``time.time()``), the
        longest idle first."""
        ...
