"""Where tables and games are kept: SQLite by default (``SqliteStore``), PostgreSQL for many
server processes (``PostgresStore``, the ``scale`` extra); both are a ``Store``, and
``open_store`` picks one for a URL."""

from .base import Conflict, Store, StoredSeat, StoredTable
from .players import Result, StoredPlayer
from .sqlite import SCHEMA_VERSION, SqliteStore


def open_store(url: str, *, durable: bool = False) -> Store:
    """A store for ``url``: ``postgresql://…`` (or ``postgres://…``) for PostgreSQL, anything
    else is a SQLite file path."""
    if url.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore  # psycopg: the scale extra, needed only here

        return PostgresStore(url, durable=durable)
    return SqliteStore(url, durable=durable)


__all__ = [
    "SCHEMA_VERSION",
    "Conflict",
    "Result",
    "SqliteStore",
    "Store",
    "StoredPlayer",
    "StoredSeat",
    "StoredTable",
    "open_store",
]
