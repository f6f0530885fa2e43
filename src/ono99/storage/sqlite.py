"""Tables, seats, games and every accepted action, in one SQLite file.

The server appends each accepted action in its own transaction *before* announcing it, so a
server killed at any moment loses nothing that anyone has seen. WAL mode with
``synchronous=NORMAL`` makes a committed transaction survive the death of the process (not
of the machine's power, which would need ``FULL``; ``durable=True`` asks for that).

What is stored is plain data; rebuilding a table from it is the session core's job
(``Table.restore``). A game's seed is stored with it, since the game must be replayable
after a restart: the database is the referee's own and is never served. Seat tokens are
stored only as hashes.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .base import Conflict, StoredSeat, StoredTable, count_wins
from .players import SCHEMA as PLAYERS
from .players import PlayerRecords
from .watching import SCHEMA as WATCHING
from .watching import WatchRecords

_log = logging.getLogger(__name__)

# The versioned migrations: the file's ``user_version`` is the last one applied.
_V1 = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    host_hash TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES tables(code),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    name TEXT,
    token_hash TEXT,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS games (
    code TEXT NOT NULL REFERENCES tables(code),
    game INTEGER NOT NULL,
    seed TEXT NOT NULL,
    dealer INTEGER NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    record TEXT,
    PRIMARY KEY (code, game)
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    position INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    by TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (code, game, position),
    FOREIGN KEY (code, game) REFERENCES games(code, game)
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games(finished) WHERE finished IS NULL;
"""
# 2: the per-table sequence number that every batch of changes checks and bumps.
_V2 = "ALTER TABLE tables ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;"
# 3: when each table last changed, and when it was closed (idle: docs/deploy.md).
_V3 = """
ALTER TABLE tables ADD COLUMN touched REAL;
ALTER TABLE tables ADD COLUMN closed REAL;
UPDATE tables SET touched = created;
CREATE INDEX IF NOT EXISTS tables_open ON tables(touched) WHERE closed IS NULL
"""
# 4: an open seat's last person, who left it once a game had begun (named on it, as left).
_V4 = "ALTER TABLE seats ADD COLUMN left_name TEXT;"
# 5: the lobby: each public table waiting for players, as watchers see it (session/quick.py).
_V5 = """
CREATE TABLE IF NOT EXISTS listed (
    code TEXT PRIMARY KEY REFERENCES tables(code),
    setting TEXT NOT NULL,
    opened REAL NOT NULL,
    free INTEGER NOT NULL,
    entry TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS listed_setting ON listed(setting, opened)
"""
# 6: players who come back: profiles, their keys, results and ratings (storage/players.py).
# 7: the lobby's spectators, per table and process (storage/watching.py).
MIGRATIONS = ((1, _V1), (2, _V2), (3, _V3), (4, _V4), (5, _V5), (6, PLAYERS), (7, WATCHING))
SCHEMA_VERSION = MIGRATIONS[-1][0]


# A table not closed whose latest game is not over (or that has none yet: its lobby).
_UNFINISHED = (
    "t.closed IS NULL AND NOT EXISTS (SELECT 1 FROM games g WHERE g.code = t.code "
    "AND g.finished IS NOT NULL AND g.game = (SELECT MAX(game) FROM games WHERE code = t.code))"
)


class SqliteStore(PlayerRecords, WatchRecords):
    def __init__(self, path: str | Path, *, durable: bool = False) -> None:
        self.path = str(path)
        # One connection, used from the server's event loop thread (and from a test's).
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._migrate()
        self._checkpointer: _Checkpointer | None = None
        self._locks: set[str] = set()  # try_lock's

    def _migrate(self) -> None:
        with self.transaction():
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            for number, script in MIGRATIONS:
                if number > version:
                    for statement in filter(str.strip, script.split(";")):
                        self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version={number}")

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return self._db.execute(sql, params)

    def checkpoint_in_background(self, every: float = 1.0) -> None:
        """Copy the write-ahead log into the database every ``every`` seconds on a thread
        and a connection of its own, instead of in whichever commit fills the log (SQLite's
        automatic checkpoint, every 1,000 pages). A checkpoint syncs both files to disk
        (2-5 ms on the development machine's disk, more on a slow one), and a server commits
        on its event loop, where every table on the process would stand still for it. The
        thread holds no lock a commit needs: a passive checkpoint copies what it can and
        lets writers go on."""
        if self._checkpointer is not None:
            return
        # A burst of writes can outrun a pass, and the log's file then keeps the size of the
        # largest burst (it is reused from its start, not shrunk): a journal_size_limit would
        # shrink it in the commit that starts the log again, and freeing tens of megabytes
        # there stopped every table for 8-11 ms in bench_abuse.py's many-address flood.
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._checkpointer = _Checkpointer(self.path, every)
        self._checkpointer.start()

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None
        self._db.close()  # the last connection: it checkpoints what is left and removes the log

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything inside is written together, or not at all."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # ---------------------------------------------------------------- writing

    def create_table(self, code: str, config: str, host_hash: str) -> None:
        now = time.time()
        self._db.execute(
            "INSERT INTO tables (code, config, host_hash, created, touched) VALUES (?, ?, ?, ?, ?)",
            (code, config, host_hash, now, now),
        )

    def bump(self, code: str, seq: int) -> None:
        cur = self._db.execute(
            "UPDATE tables SET seq = seq + 1, touched = ? WHERE code = ? AND seq = ?",
            (time.time(), code, seq),
        )
        if cur.rowcount != 1:
            raise Conflict(code)

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
    ) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO seats "
            "(code, seat, kind, bot, name, token_hash, left_name, player) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (code, seat, kind, bot, name, token_hash, left_name, player),
        )

    def start_game(self, code: str, game: int, seed: int, dealer: int) -> None:
        self._db.execute(
            "INSERT INTO games (code, game, seed, dealer, started) VALUES (?, ?, ?, ?, ?)",
            (code, game, str(seed), dealer, time.time()),
        )

    def add_action(
        self, code: str, game: int, position: int, seat: int, action: str, by: str
    ) -> None:
        self._db.execute(
            "INSERT INTO actions (code, game, position, seat, action, by, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (code, game, position, seat, action, by, time.time()),
        )

    def append_action(
        self, code: str, seq: int, game: int, position: int, seat: int, action: str, by: str
    ) -> None:
        with self.transaction():
            self.bump(code, seq)
            self.add_action(code, game, position, seat, action, by)

    def close_table(self, code: str) -> None:
        self._db.execute("UPDATE tables SET closed = ? WHERE code = ?", (time.time(), code))
        self.unlist_table(code)

    def list_table(self, code: str, setting: str, free: int, entry: str) -> None:
        self._db.execute(
            "INSERT INTO listed (code, setting, opened, free, entry) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (code) DO UPDATE SET setting = excluded.setting, free = excluded.free, "
            "entry = excluded.entry",
            (code, setting, time.time(), free, entry),
        )

    def unlist_table(self, code: str) -> None:
        self._db.execute("DELETE FROM listed WHERE code = ?", (code,))

    def try_lock(self, key: str) -> bool:
        # One process has the file: a lock among this process's own requests is the lock.
        if key in self._locks:
            return False
        self._locks.add(key)
        return True

    def unlock(self, key: str) -> None:
        self._locks.discard(key)

    def set_config(self, code: str, config: str) -> None:
        self._db.execute("UPDATE tables SET config = ? WHERE code = ?", (config, code))

    def finish_game(self, code: str, game: int, record: str) -> None:
        self._db.execute(
            "UPDATE games SET finished = ?, record = ? WHERE code = ? AND game = ?",
            (time.time(), record, code, game),
        )

    # ---------------------------------------------------------------- reading

    def active_codes(self) -> list[str]:
        """Tables whose latest game is still being played."""
        rows = self._db.execute(
            "SELECT g.code FROM games g JOIN tables t ON t.code = g.code "
            "WHERE g.finished IS NULL AND t.closed IS NULL AND g.game = "
            "(SELECT MAX(game) FROM games WHERE code = g.code) ORDER BY g.started"
        ).fetchall()
        return [r[0] for r in rows]

    def load_table(self, code: str) -> StoredTable | None:
        db = self._db
        row = db.execute(
            "SELECT config, host_hash, seq, closed FROM tables WHERE code = ?", (code,)
        ).fetchone()
        if row is None:
            return None
        seats = [
            StoredSeat(*r)
            for r in db.execute(
                "SELECT seat, kind, bot, name, token_hash, left_name, player FROM seats "
                "WHERE code = ? "
                "ORDER BY seat",
                (code,),
            )
        ]
        table = StoredTable(code, json.loads(row[0]), row[1], seats, seq=row[2])
        table.closed = row[3] is not None
        game = db.execute(
            "SELECT game, seed, dealer, finished, record FROM games WHERE code = ? "
            "ORDER BY game DESC LIMIT 1",
            (code,),
        ).fetchone()
        if game is not None:
            table.game, seed, table.dealer, finished, record = game
            table.seed = int(seed)
            table.finished = finished is not None
            table.record = record if table.finished else None
            table.actions = [
                (r[0], r[1], r[2])
                for r in db.execute(
                    "SELECT seat, action, by FROM actions WHERE code = ? AND game = ? "
                    "ORDER BY position",
                    (code, table.game),
                )
            ]
        rows = db.execute(
            "SELECT game, json_extract(record, '$.meta.winners') FROM games "
            "WHERE code = ? AND finished IS NOT NULL",
            (code,),
        ).fetchall()
        table.wins = count_wins(rows, table.game)
        return table

    def seq(self, code: str) -> int | None:
        row = self._db.execute("SELECT seq FROM tables WHERE code = ?", (code,)).fetchone()
        return None if row is None else int(row[0])

    def game_seed(self, code: str, game: int) -> tuple[int, int] | None:
        row = self._db.execute(
            "SELECT seed, dealer FROM games WHERE code = ? AND game = ?", (code, game)
        ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def seqs(self, codes: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for i in range(0, len(codes), 500):
            chunk = codes[i : i + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT code, seq FROM tables WHERE code IN ({marks})", chunk
            ).fetchall()
            out.update((r[0], int(r[1])) for r in rows)
        return out

    def unfinished(self, codes: list[str]) -> set[str]:
        out: set[str] = set()
        for i in range(0, len(codes), 500):
            chunk = codes[i : i + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT t.code FROM tables t WHERE t.code IN ({marks}) AND {_UNFINISHED}", chunk
            ).fetchall()
            out.update(r[0] for r in rows)
        return out

    def games(self, code: str) -> list[tuple[int, bool]]:
        """Every game of a table: (number, finished)."""
        return [
            (r[0], r[1] is not None)
            for r in self._db.execute(
                "SELECT game, finished FROM games WHERE code = ? ORDER BY game", (code,)
            )
        ]

    def record(self, code: str, game: int) -> str | None:
        """The N3 record of a finished game; None for a game still being played."""
        row = self._db.execute(
            "SELECT record FROM games WHERE code = ? AND game = ? AND finished IS NOT NULL",
            (code, game),
        ).fetchone()
        return None if row is None else row[0]

    def count_tables(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM tables").fetchone()[0])

    def listings(self, limit: int) -> list[dict[str, Any]]:
        rows = self._db.execute(
            "SELECT entry, opened FROM listed ORDER BY opened, code LIMIT ?", (limit,)
        ).fetchall()
        return [{**json.loads(r[0]), "opened": r[1]} for r in rows]

    def waiting(self, setting: str) -> list[str]:
        rows = self._db.execute(
            "SELECT code FROM listed WHERE setting = ? AND free > 0 ORDER BY opened, code LIMIT 20",
            (setting,),
        ).fetchall()
        return [r[0] for r in rows]

    def idle_codes(self, before: float, limit: int) -> list[str]:
        rows = self._db.execute(
            "SELECT code FROM tables WHERE closed IS NULL AND touched < ? ORDER BY touched LIMIT ?",
            (before, limit),
        ).fetchall()
        return [r[0] for r in rows]


class _Checkpointer(threading.Thread):
    """``SqliteStore.checkpoint_in_background``'s thread."""

    def __init__(self, path: str, every: float) -> None:
        super().__init__(name="ono99-sqlite-checkpoints", daemon=True)
        self.path, self.every = path, every
        self._halt = threading.Event()
        self.passes = 0

    def run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self._halt.wait(self.every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:  # e.g. a full disk: the log waits for the next pass
                    _log.warning("sqlite checkpoint of %s failed: %s", self.path, exc)
                self.passes += 1
        finally:
            db.close()

    def stop(self) -> None:
        self._halt.set()
        self.join()
