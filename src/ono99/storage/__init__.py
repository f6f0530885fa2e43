"""Where tables and games are kept: SQLite by default (``SqliteStore``)."""

from .sqlite import SCHEMA_VERSION, SqliteStore, StoredSeat, StoredTable

__all__ = ["SCHEMA_VERSION", "SqliteStore", "StoredSeat", "StoredTable"]
