"""Who watches the lobby's tables: each server process's count of spectators per listed table,
so that the lobby shows every process's watchers, not only its own (``server/lobby.py``).

A process writes its counts again every few seconds with the time it did (``seen``), and the
lobby adds up only rows seen lately: a process that dies leaves no count behind for longer than
that. The same SQL serves both stores (``?`` for parameters, as in ``players.py``)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol

SCHEMA = """
CREATE TABLE IF NOT EXISTS watching (
    code TEXT NOT NULL,
    process TEXT NOT NULL,
    count INTEGER NOT NULL,
    seen DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (code, process)
)
"""


class WatchRecords(Protocol):
    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> Any: ...

    def transaction(self) -> AbstractContextManager[None]: ...

    def set_watching(self, process: str, counts: dict[str, int], now: float) -> None:
        """``process``'s spectators per table, in place of what it wrote before."""
        with self.transaction():
            self._run("DELETE FROM watching WHERE process = ?", (process,))
            for code, count in counts.items():
                self._run(
                    "INSERT INTO watching (code, process, count, seen) VALUES (?, ?, ?, ?)",
                    (code, process, count, now),
                )

    def watching(self, codes: list[str], since: float) -> dict[str, int]:
        """Spectators of each of ``codes``, over the processes that wrote since ``since``."""
        if not codes:
            return {}
        marks = ", ".join("?" * len(codes))
        rows = self._run(
            f"SELECT code, SUM(count) FROM watching WHERE seen >= ? AND code IN ({marks}) "
            "GROUP BY code",
            (since, *codes),
        ).fetchall()
        return {r[0]: int(r[1]) for r in rows}
