"""Where tables and games are kept: SQLite by default (``SqliteStore``), PostgreSQL for many
server processes (``PostgresStore``, the ``scale`` extra); both are a ``Store``."""

from .base import Conflict, Store, StoredSeat, StoredTable, open_store
from .sqlite import SCHEMA_VERSION, SqliteStore

__all__ = [
    "SCHEMA_VERSION",
    "Conflict",
    "SqliteStore",
    "Store",
    "StoredSeat",
    "StoredTable",
    "open_store",
]
