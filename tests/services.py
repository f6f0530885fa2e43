"""The machine's PostgreSQL and Redis, for the tests that need real ones.

PostgreSQL at ``ONO99_TEST_POSTGRES`` (default postgresql://127.0.0.1:5432/test, trust auth)
and Redis at ``ONO99_TEST_REDIS`` (default redis://127.0.0.1:6379). Each test run works in a
schema of its own (``fresh_schema``), dropped afterwards, so runs side by side never meet. A
missing service skips those tests on a developer's machine, and fails them under ``CI=true``.
"""

from __future__ import annotations

import os
import secrets
import socket
from urllib.parse import urlsplit

import pytest

POSTGRES = os.environ.get("ONO99_TEST_POSTGRES", "postgresql://127.0.0.1:5432/test")
REDIS = os.environ.get("ONO99_TEST_REDIS", "redis://127.0.0.1:6379")


def _reachable(url: str, port: int) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or port), 2):
            return True
    except OSError:
        return False


def missing(message: str) -> None:
    """Something a test needs from the machine is not there: skip on a developer's machine,
    fail under ``CI=true`` (.ci/run installs and starts all of it)."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def need(url: str, port: int, what: str) -> None:
    if not _reachable(url, port):
        missing(f"{what} is not running at {url}")


def need_postgres() -> None:
    need(POSTGRES, 5432, "PostgreSQL")


def need_redis() -> None:
    need(REDIS, 6379, "Redis")


def fresh_schema() -> str:
    """A schema name no other run uses (tests drop it when done)."""
    return f"t_{os.getpid()}_{secrets.token_hex(4)}"


def postgres_url(schema: str) -> str:
    sep = "&" if "?" in POSTGRES else "?"
    return f"{POSTGRES}{sep}schema={schema}"


def drop_schema(schema: str) -> None:
    import psycopg

    with psycopg.connect(POSTGRES, autocommit=True) as db:
        db.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')  # type: ignore[arg-type]
