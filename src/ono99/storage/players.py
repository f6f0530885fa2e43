"""Players who come back: profiles, the keys that hold them, one-time links to another device,
every finished game's results and the ratings they make (``server/players.py`` and
``server/results.py`` decide; this stores). The same SQL serves both stores: each gives
``_run`` (one statement, ``?`` for its parameters) and ``transaction``.

A profile's key is kept only as its SHA-256, like a seat's token. Its id is random and never
shown: a result names the profile's id, so that a new display name or "forget me" (which
deletes the profile, its keys and ratings, and leaves its games' results unnamed) touches one
row, not every game.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

# The tables, in SQL both databases read (DOUBLE PRECISION is a REAL to SQLite).
SCHEMA = """
ALTER TABLE seats ADD COLUMN player TEXT;
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    created DOUBLE PRECISION NOT NULL,
    hidden INTEGER NOT NULL DEFAULT 0,
    banned INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS player_keys (
    key_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    created DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS player_keys_player ON player_keys(player);
CREATE TABLE IF NOT EXISTS links (
    code_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    expires DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    who TEXT,
    edition TEXT NOT NULL,
    players INTEGER NOT NULL,
    place INTEGER NOT NULL,
    won INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    rating DOUBLE PRECISION,
    finished DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (code, game, seat)
);
CREATE INDEX IF NOT EXISTS results_who ON results(who, finished);
CREATE TABLE IF NOT EXISTS ratings (
    who TEXT NOT NULL,
    edition TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (who, edition)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(edition, mu)
"""


@dataclass
class StoredPlayer:
    id: str
    name: str
    created: float
    hidden: bool = False
    banned: bool = False


@dataclass
class Result:
    """One seat of one finished game, as a profile lists it."""

    code: str
    game: int
    seat: int
    who: str | None  # a profile's id, "bot:<name>", or None (nobody's, or forgotten)
    edition: str
    players: int
    place: int  # 0: among the winners
    won: bool
    rated: bool
    rating: float | None  # the ordinal after the game, when it was rated
    finished: float


Standing = tuple[str, str | None, float, float, int]  # who, name, mu, sigma, games

_PLAYER = "SELECT id, name, created, hidden, banned FROM players"
_RESULT = (
    "SELECT code, game, seat, who, edition, players, place, won, rated, rating, finished "
    "FROM results"
)


def _player(row: Any) -> StoredPlayer | None:
    if row is None:
        return None
    return StoredPlayer(row[0], row[1], row[2], bool(row[3]), bool(row[4]))


class PlayerRecords(Protocol):
    """The profiles half of a store: a protocol whose methods are written once here, which
    ``SqliteStore`` and ``PostgresStore`` inherit (and ``Store`` extends)."""

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> Any: ...

    def transaction(self) -> AbstractContextManager[None]: ...

    # ---------------------------------------------------------------- profiles

    def add_player(self, player: str, name: str, name_key: str, key_hash: str, now: float) -> bool:
        """A new profile and its first key; False (nothing written) when a profile has a name
        that reads as this one (``name_key``)."""
        with self.transaction():
            cur = self._run(
                "INSERT INTO players (id, name, name_key, created) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (name_key) DO NOTHING",
                (player, name, name_key, now),
            )
            if cur.rowcount != 1:
                return False
            self.add_key(player, key_hash, now)
        return True

    def add_key(self, player: str, key_hash: str, now: float) -> None:
        self._run(
            "INSERT INTO player_keys (key_hash, player, created) VALUES (?, ?, ?)",
            (key_hash, player, now),
        )

    def player_of_key(self, key_hash: str) -> StoredPlayer | None:
        return _player(
            self._run(
                f"{_PLAYER} WHERE id = (SELECT player FROM player_keys WHERE key_hash = ?)",
                (key_hash,),
            ).fetchone()
        )

    def player_named(self, name_key: str) -> StoredPlayer | None:
        return _player(self._run(f"{_PLAYER} WHERE name_key = ?", (name_key,)).fetchone())

    def player(self, player: str) -> StoredPlayer | None:
        return _player(self._run(f"{_PLAYER} WHERE id = ?", (player,)).fetchone())

    def players(self, limit: int) -> list[StoredPlayer]:
        """The newest ``limit`` profiles (``ono99 admin list``)."""
        rows = self._run(f"{_PLAYER} ORDER BY created DESC LIMIT ?", (limit,)).fetchall()
        return [p for p in map(_player, rows) if p is not None]

    def set_flag(self, player: str, flag: str, on: bool) -> None:
        """``hidden`` (the profile is not shown) or ``banned`` (its keys are refused)."""
        assert flag in ("hidden", "banned")
        self._run(f"UPDATE players SET {flag} = ? WHERE id = ?", (int(on), player))

    def forget_player(self, player: str) -> None:
        """Delete the profile, its keys, links and ratings; its results stay, nobody's, and
        its name leaves the records of its games (each seat it held becomes "Player N")."""
        with self.transaction():
            held = self._run(
                "SELECT code, game, seat FROM results WHERE who = ?", (player,)
            ).fetchall()
            for code, game, seat in held:
                row = self._run(
                    "SELECT record FROM games WHERE code = ? AND game = ?", (code, game)
                ).fetchone()
                if row is None or row[0] is None:
                    continue
                record = json.loads(row[0])
                names = record.get("meta", {}).get("names")
                if isinstance(names, list) and 0 <= seat < len(names):
                    names[seat] = f"Player {seat + 1}"
                    self._run(
                        "UPDATE games SET record = ? WHERE code = ? AND game = ?",
                        (json.dumps(record, separators=(",", ":")), code, game),
                    )
            self._run("UPDATE results SET who = NULL WHERE who = ?", (player,))
            self._run("UPDATE seats SET player = NULL WHERE player = ?", (player,))
            self._run("DELETE FROM ratings WHERE who = ?", (player,))
            self._run("DELETE FROM player_keys WHERE player = ?", (player,))
            self._run("DELETE FROM links WHERE player = ?", (player,))
            self._run("DELETE FROM players WHERE id = ?", (player,))

    # ---------------------------------------------------------------- links to another device

    def add_link(self, code_hash: str, player: str, expires: float) -> None:
        self._run("DELETE FROM links WHERE player = ?", (player,))  # one at a time
        self._run(
            "INSERT INTO links (code_hash, player, expires) VALUES (?, ?, ?)",
            (code_hash, player, expires),
        )

    def take_link(self, code_hash: str, now: float) -> str | None:
        """The profile a one-time link holds, the link used up (None: no such link, or it has
        expired)."""
        with self.transaction():
            row = self._run(
                "SELECT player, expires FROM links WHERE code_hash = ?", (code_hash,)
            ).fetchone()
            self._run("DELETE FROM links WHERE code_hash = ? OR expires < ?", (code_hash, now))
        if row is None or row[1] < now:
            return None
        return str(row[0])

    # ---------------------------------------------------------------- results and ratings

    def add_results(self, results: list[Result]) -> None:
        for r in results:
            self._run(
                "INSERT INTO results (code, game, seat, who, edition, players, place, won, "
                "rated, rating, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (code, game, seat) DO NOTHING",
                (
                    r.code,
                    r.game,
                    r.seat,
                    r.who,
                    r.edition,
                    r.players,
                    r.place,
                    int(r.won),
                    int(r.rated),
                    r.rating,
                    r.finished,
                ),
            )

    def ratings(self, who: list[str], edition: str) -> dict[str, tuple[float, float, int]]:
        """(mu, sigma, games) of each of ``who`` that has a rating in ``edition``."""
        if not who:
            return {}
        marks = ", ".join("?" * len(who))
        rows = self._run(
            f"SELECT who, mu, sigma, games FROM ratings WHERE edition = ? AND who IN ({marks})",
            (edition, *who),
        ).fetchall()
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    def put_rating(self, who: str, edition: str, mu: float, sigma: float, games: int) -> None:
        self._run(
            "INSERT INTO ratings (who, edition, mu, sigma, games) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (who, edition) DO UPDATE SET mu = EXCLUDED.mu, "
            "sigma = EXCLUDED.sigma, games = EXCLUDED.games",
            (who, edition, mu, sigma, games),
        )

    def results_of(self, who: str, limit: int) -> list[Result]:
        """The latest ``limit`` results of ``who``, the newest first."""
        rows = self._run(
            f"{_RESULT} WHERE who = ? ORDER BY finished DESC, code, game LIMIT ?", (who, limit)
        ).fetchall()
        return [
            Result(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), bool(r[8]), r[9], r[10])
            for r in rows
        ]

    def tally(self, who: str) -> list[tuple[str, int, int, int]]:
        """(edition, players, games, wins) of ``who``, per edition and number of players."""
        rows = self._run(
            "SELECT edition, players, COUNT(*), SUM(won) FROM results WHERE who = ? "
            "GROUP BY edition, players ORDER BY edition, players",
            (who,),
        ).fetchall()
        return [(r[0], int(r[1]), int(r[2]), int(r[3])) for r in rows]

    def rated(self, who: str) -> dict[str, tuple[float, float, int]]:
        """(mu, sigma, games) of ``who`` per edition."""
        rows = self._run("SELECT edition, mu, sigma, games FROM ratings WHERE who = ?", (who,))
        return {r[0]: (r[1], r[2], r[3]) for r in rows.fetchall()}

    def leaderboard(
        self, edition: str, limit: int
    ) -> list[tuple[str, str | None, float, float, int]]:
        """(who, the profile's name or None for a bot, mu, sigma, games), the highest
        ordinal first; hidden and banned profiles left out."""
        rows = self._run(
            "SELECT r.who, p.name, r.mu, r.sigma, r.games FROM ratings r "
            "LEFT JOIN players p ON p.id = r.who WHERE r.edition = ? AND "
            "(p.id IS NULL AND r.who LIKE 'bot:%' OR p.hidden = 0 AND p.banned = 0) "
            "ORDER BY r.mu - 3 * r.sigma DESC, r.who LIMIT ?",
            (edition, limit),
        ).fetchall()
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]
