"""``ono99 serve --log-format json``: every line the server writes on stderr is one JSON object
(time, level, logger, message, and the traceback when there is one) — uvicorn's own lines,
and under ``--workers`` the supervisor's too."""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from ono99.server.logs import JsonFormatter
from server_support import TIMEOUT
from tiers import slow

ROOT = Path(__file__).resolve().parents[2]


def serve(*args: str) -> tuple[subprocess.Popen[str], str]:
    path = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "ono99", "serve", "--port", "0", "--log-format", "json", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": path, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    found = re.search(r"(http://127\.0\.0\.1:\d+)/", proc.stdout.readline())
    if found is None:
        proc.kill()
        raise AssertionError(proc.communicate(timeout=TIMEOUT)[1])
    return proc, found.group(1)


def stop(proc: subprocess.Popen[str]) -> list[dict[str, Any]]:
    """Stop the server; its stderr, each line parsed (failing on one that is not JSON)."""
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=TIMEOUT)
    lines = []
    for text in err.splitlines():
        try:
            line = json.loads(text)
        except ValueError:
            raise AssertionError(f"not JSON: {text!r} in\n{err}") from None
        assert {"time", "level", "logger", "message"} <= set(line), line
        lines.append(line)
    return lines


def test_every_line_is_json(tmp_path: Path) -> None:
    proc, url = serve("--db", str(tmp_path / "ono99.db"))
    try:
        assert httpx.get(f"{url}/healthz", timeout=TIMEOUT).status_code == 200
        # Garbage instead of HTTP: uvicorn says so in a warning of its own.
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=TIMEOUT) as raw:
            raw.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            raw.recv(1024)
    finally:
        lines = stop(proc)
    assert any(
        line["logger"] == "uvicorn.error" and "Invalid HTTP request" in line["message"]
        for line in lines
    ), lines


def test_a_traceback_is_one_field_of_one_line() -> None:
    try:
        raise ValueError("no such card")
    except ValueError:
        record = logging.LogRecord(
            "ono99.server",
            logging.ERROR,
            __file__,
            1,
            "table %s: %s",
            ("ABCD", "x"),
            sys.exc_info(),
        )
    line = JsonFormatter().format(record)
    assert "\n" not in line
    data = json.loads(line)
    assert data["level"] == "ERROR" and data["message"] == "table ABCD: x"
    assert data["logger"] == "ono99.server" and data["time"].endswith("+00:00")
    assert data["exc_info"].startswith("Traceback")
    assert "ValueError: no such card" in data["exc_info"]


@slow
def test_the_supervisor_of_workers_logs_json_too() -> None:
    from services import REDIS, drop_schema, fresh_schema, need_postgres, need_redis, postgres_url
    from test_server_workers import children

    need_postgres()
    need_redis()
    schema = fresh_schema()
    try:
        proc, _ = serve("--workers", "2", "--database", postgres_url(schema), "--redis", REDIS)
        try:
            first = children(proc.pid)[0]
            os.kill(first, signal.SIGKILL)
            end = time.monotonic() + TIMEOUT
            while first in children(proc.pid) or len(children(proc.pid)) < 2:
                assert time.monotonic() < end, "the supervisor did not start another"
                time.sleep(0.1)
        finally:
            lines = stop(proc)
        assert any(
            f"server process {first} exited" in line["message"] and line["level"] == "WARNING"
            for line in lines
        ), lines
    finally:
        drop_schema(schema)
