"""Tables, seats, games and every accepted action in PostgreSQL (psycopg 3), shared by any
number of server processes.

The same data as ``SqliteStore``, and the same promise: a batch of changes is committed
before anyone is told of it. What PostgreSQL adds is that several processes write to one
database: every batch starts with ``bump``, ``UPDATE tables SET seq = seq + 1 WHERE code = …
AND seq = …``. Under READ COMMITTED a second writer's UPDATE waits for the first one's row
lock and then finds ``seq`` changed, so it matches no row: it raises ``Conflict`` and writes
nothing. That compare-and-swap is the whole of "one writer per table" (docs/deploy.md).

Commits do not wait for PostgreSQL's disk (``synchronous_commit = off``) unless
``durable=True``: the same promise as SQLite's default, see ``__init__``.

``postgresql://host/db?schema=NAME`` keeps the tables in schema NAME (made if missing): the
tests give every run its own. Migrations are versioned like SQLite's (``MIGRATIONS``); a
process applies the missing ones under a transaction-scoped advisory lock, so that processes
started together do not race to migrate.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg

from .base import Conflict, StoredSeat, StoredTable, count_wins
from .players import SCHEMA as PLAYERS
from .players import PlayerRecords
from .watching import SCHEMA as WATCHING
from .watching import WatchRecords

_V1 = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    host_hash TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    seq BIGINT NOT NULL DEFAULT 0
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
    started DOUBLE PRECISION NOT NULL,
    finished DOUBLE PRECISION,
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
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (code, game, position),
    FOREIGN KEY (code, game) REFERENCES games(code, game)
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games(code) WHERE finished IS NULL
"""
# 2: when each table last changed, and when it was closed (idle: docs/deploy.md).
_V2 = """
ALTER TABLE tables ADD COLUMN IF NOT EXISTS touched DOUBLE PRECISION;
ALTER TABLE tables ADD COLUMN IF NOT EXISTS closed DOUBLE PRECISION;
UPDATE tables SET touched = created WHERE touched IS NULL;
CREATE INDEX IF NOT EXISTS tables_open ON tables(touched) WHERE closed IS NULL
"""
# 3: an open seat's last person, who left it once a game had begun (named on it, as left).
_V3 = "ALTER TABLE seats ADD COLUMN IF NOT EXISTS left_name TEXT"
# 4: the lobby: each public table waiting for players, as watchers see it (session/quick.py).
_V4 = """
CREATE TABLE IF NOT EXISTS listed (
    code TEXT PRIMARY KEY REFERENCES tables(code),
    setting TEXT NOT NULL,
    opened DOUBLE PRECISION NOT NULL,
    free INTEGER NOT NULL,
    entry TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS listed_setting ON listed(setting, opened)
"""
# 5: players who come back: profiles, their keys, results and ratings (storage/players.py).
# 6: the lobby's spectators, per table and process (storage/watching.py).
MIGRATIONS = ((1, _V1), (2, _V2), (3, _V3), (4, _V4), (5, PLAYERS), (6, WATCHING))
SCHEMA_VERSION = MIGRATIONS[-1][0]
_MIGRATION_LOCK = 0x0_99_99  # the advisory lock key held while migrating
_LOCKS = "ono99:"  # try_lock's keys, hashed to advisory lock numbers (with the schema's name)
_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def split_url(url: str) -> tuple[str, str | None]:
    """The connection string without our ``schema`` parameter, and that schema."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query)
    schema = next((v for k, v in query if k == "schema"), None)
    rest = urlencode([(k, v) for k, v in query if k != "schema"])
    if schema is not None and not _SCHEMA_NAME.fullmatch(schema):
        raise ValueError(f"schema must be a lower-case SQL name, not {schema!r}")
    return urlunsplit(parts._replace(query=rest)), schema


# A table not closed whose latest game is not over (or that has none yet: its lobby).
_UNFINISHED = (
    "t.closed IS NULL AND NOT EXISTS (SELECT 1 FROM games g WHERE g.code = t.code "
    "AND g.finished IS NOT NULL AND g.game = (SELECT MAX(game) FROM games WHERE code = t.code))"
)


class PostgresStore(PlayerRecords, WatchRecords):
    def __init__(self, url: str, *, durable: bool = False) -> None:
        conninfo, self.schema = split_url(url)
        # One connection, used from the server's event loop thread (and from a test's).
        self._db = psycopg.connect(conninfo, autocommit=True)
        self._lock = threading.RLock()
        self._held: set[str] = set()  # try_lock's keys this connection holds
        # As SQLite's synchronous=NORMAL: a commit is in PostgreSQL before it returns, so it
        # survives the death of any server process; only PostgreSQL's own crash could lose the
        # last fraction of a second. durable=True waits for the disk on every commit.
        if not durable:
            self._db.execute("SET synchronous_commit = off")
        if self.schema is not None:
            self._db.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            self._db.execute(f'SET search_path TO "{self.schema}"')
        self._migrate()

    def _migrate(self) -> None:
        with self.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            row = self._db.execute("SELECT max(version) FROM schema_version").fetchone()
            version = (row[0] if row else None) or 0
            for number, script in MIGRATIONS:
                if number > version:
                    for statement in filter(str.strip, script.split(";")):
                        self._db.execute(statement)
                    self._db.execute("INSERT INTO schema_version VALUES (%s)", (number,))

    def close(self) -> None:
        self._db.close()

    def drop_schema(self) -> None:
        """Remove this store's schema and everything in it (tests clean up with it)."""
        assert self.schema is not None
        self._db.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything inside is written together, or not at all."""
        with self._lock, self._db.transaction():
            yield

    # ---------------------------------------------------------------- writing

    def create_table(self, code: str, config: str, host_hash: str) -> None:
        now = time.time()
        self._db.execute(
            "INSERT INTO tables (code, config, host_hash, created, touched) "
            "VALUES (%s, %s, %s, %s, %s)",
            (code, config, host_hash, now, now),
        )

    def bump(self, code: str, seq: int) -> None:
        cur = self._db.execute(
            "UPDATE tables SET seq = seq + 1, touched = %s WHERE code = %s AND seq = %s",
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
            "INSERT INTO seats (code, seat, kind, bot, name, token_hash, left_name, player) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (code, seat) DO UPDATE SET "
            "kind = EXCLUDED.kind, bot = EXCLUDED.bot, name = EXCLUDED.name, "
            "token_hash = EXCLUDED.token_hash, left_name = EXCLUDED.left_name, "
            "player = EXCLUDED.player",
            (code, seat, kind, bot, name, token_hash, left_name, player),
        )

    def start_game(self, code: str, game: int, seed: int, dealer: int) -> None:
        self._db.execute(
            "INSERT INTO games (code, game, seed, dealer, started) VALUES (%s, %s, %s, %s, %s)",
            (code, game, str(seed), dealer, time.time()),
        )

    def add_action(
        self, code: str, game: int, position: int, seat: int, action: str, by: str
    ) -> None:
        self._db.execute(
            "INSERT INTO actions (code, game, position, seat, action, by, at) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (code, game, position, seat, action, by, time.time()),
        )

    def append_action(
        self, code: str, seq: int, game: int, position: int, seat: int, action: str, by: str
    ) -> None:
        now = time.time()
        with self._lock:
            cur = self._db.execute(
                "WITH cas AS (UPDATE tables SET seq = seq + 1, touched = %s "
                "WHERE code = %s AND seq = %s "
                "RETURNING code) INSERT INTO actions (code, game, position, seat, action, by, at) "
                "SELECT code, %s, %s, %s, %s, %s, %s FROM cas",
                (now, code, seq, game, position, seat, action, by, now),
            )
            if cur.rowcount != 1:
                raise Conflict(code)

    def close_table(self, code: str) -> None:
        self._db.execute("UPDATE tables SET closed = %s WHERE code = %s", (time.time(), code))
        self.unlist_table(code)

    def list_table(self, code: str, setting: str, free: int, entry: str) -> None:
        self._db.execute(
            "INSERT INTO listed (code, setting, opened, free, entry) VALUES (%s, %s, %s, %s, %s) "
            "ON CONFLICT (code) DO UPDATE SET setting = EXCLUDED.setting, free = EXCLUDED.free, "
            "entry = EXCLUDED.entry",
            (code, setting, time.time(), free, entry),
        )

    def unlist_table(self, code: str) -> None:
        self._db.execute("DELETE FROM listed WHERE code = %s", (code,))

    def try_lock(self, key: str) -> bool:
        """A lock for the whole server (every process on this database), held by this
        process's connection until ``unlock`` (or until the process dies: PostgreSQL lets go
        of a closed connection's locks). Never waits: the caller tries again."""
        if key in self._held:  # PostgreSQL's locks are re-entrant for their holder; ours not
            return False
        row = self._one("SELECT pg_try_advisory_lock(hashtext(%s))", (self._lock_name(key),))
        if row and row[0]:
            self._held.add(key)
            return True
        return False

    def unlock(self, key: str) -> None:
        if key in self._held:
            self._held.discard(key)
            self._one("SELECT pg_advisory_unlock(hashtext(%s))", (self._lock_name(key),))

    def _lock_name(self, key: str) -> str:
        return f"{_LOCKS}{self.schema or ''}:{key}"

    def set_config(self, code: str, config: str) -> None:
        self._db.execute("UPDATE tables SET config = %s WHERE code = %s", (config, code))

    def finish_game(self, code: str, game: int, record: str) -> None:
        self._db.execute(
            "UPDATE games SET finished = %s, record = %s WHERE code = %s AND game = %s",
            (time.time(), record, code, game),
        )

    # ---------------------------------------------------------------- reading

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        """``PlayerRecords``' SQL, written with ``?`` for SQLite: here ``%s``."""
        with self._lock:
            return self._db.execute(sql.replace("%", "%%").replace("?", "%s"), params)

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
        with self._lock:
            return self._db.execute(sql, params).fetchone()

    def active_codes(self) -> list[str]:
        """Tables whose latest game is still being played."""
        rows = self._all(
            "SELECT g.code FROM games g JOIN tables t ON t.code = g.code "
            "WHERE g.finished IS NULL AND t.closed IS NULL AND g.game = "
            "(SELECT MAX(game) FROM games WHERE code = g.code) ORDER BY g.started"
        )
        return [r[0] for r in rows]

    def load_table(self, code: str) -> StoredTable | None:
        # One snapshot for all four reads: a writer's batch is seen whole or not at all.
        with self._lock, self._db.transaction():
            self._db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return self._load(code)

    def _load(self, code: str) -> StoredTable | None:
        db = self._db
        row = db.execute(
            "SELECT config, host_hash, seq, closed FROM tables WHERE code = %s", (code,)
        ).fetchone()
        if row is None:
            return None
        seats = [
            StoredSeat(*r)
            for r in db.execute(
                "SELECT seat, kind, bot, name, token_hash, left_name, player FROM seats "
                "WHERE code = %s "
                "ORDER BY seat",
                (code,),
            )
        ]
        table = StoredTable(code, json.loads(row[0]), row[1], seats, seq=int(row[2]))
        table.closed = row[3] is not None
        game = db.execute(
            "SELECT game, seed, dealer, finished, record FROM games WHERE code = %s "
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
                    "SELECT seat, action, by FROM actions WHERE code = %s AND game = %s "
                    "ORDER BY position",
                    (code, table.game),
                )
            ]
        rows = db.execute(
            "SELECT game, record::json -> 'meta' ->> 'winners' FROM games "
            "WHERE code = %s AND finished IS NOT NULL",
            (code,),
        ).fetchall()
        table.wins = count_wins(rows, table.game)
        return table

    def seq(self, code: str) -> int | None:
        row = self._one("SELECT seq FROM tables WHERE code = %s", (code,))
        return None if row is None else int(row[0])

    def game_seed(self, code: str, game: int) -> tuple[int, int] | None:
        row = self._one(
            "SELECT seed, dealer FROM games WHERE code = %s AND game = %s", (code, game)
        )
        return None if row is None else (int(row[0]), int(row[1]))

    def seqs(self, codes: list[str]) -> dict[str, int]:
        rows = self._all("SELECT code, seq FROM tables WHERE code = ANY(%s)", (codes,))
        return {r[0]: int(r[1]) for r in rows}

    def unfinished(self, codes: list[str]) -> set[str]:
        rows = self._all(
            f"SELECT t.code FROM tables t WHERE t.code = ANY(%s) AND {_UNFINISHED}", (codes,)
        )
        return {r[0] for r in rows}

    def games(self, code: str) -> list[tuple[int, bool]]:
        """Every game of a table: (number, finished)."""
        return [
            (r[0], r[1] is not None)
            for r in self._all(
                "SELECT game, finished FROM games WHERE code = %s ORDER BY game", (code,)
            )
        ]

    def record(self, code: str, game: int) -> str | None:
        """The N3 record of a finished game; None for a game still being played."""
        row = self._one(
            "SELECT record FROM games WHERE code = %s AND game = %s AND finished IS NOT NULL",
            (code, game),
        )
        return None if row is None else str(row[0])

    def count_tables(self) -> int:
        row = self._one("SELECT COUNT(*) FROM tables")
        return 0 if row is None else int(row[0])

    def listings(self, limit: int) -> list[dict[str, Any]]:
        rows = self._all(
            "SELECT entry, opened FROM listed ORDER BY opened, code LIMIT %s", (limit,)
        )
        return [{**json.loads(r[0]), "opened": r[1]} for r in rows]

    def waiting(self, setting: str) -> list[str]:
        rows = self._all(
            "SELECT code FROM listed WHERE setting = %s AND free > 0 ORDER BY opened, code "
            "LIMIT 20",
            (setting,),
        )
        return [r[0] for r in rows]

    def idle_codes(self, before: float, limit: int) -> list[str]:
        rows = self._all(
            "SELECT code FROM tables WHERE closed IS NULL AND touched < %s ORDER BY touched "
            "LIMIT %s",
            (before, limit),
        )
        return [r[0] for r in rows]
