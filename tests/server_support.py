"""Helpers for the server tests: a server on a thread, HTTP calls, and a websocket client
that keeps every message it receives (the leak tests check them all afterwards)."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from ono99.server import BackgroundServer, ServerConfig

TIMEOUT = 20.0  # generous: a loaded CI machine must not make these flaky


@contextmanager
def running_server(db: Path, **options: Any) -> Iterator[BackgroundServer]:
    options.setdefault("bot_delay", 0.01)
    options.setdefault("turn_limits", (0.05, 600.0))
    options.setdefault("http_rate", 0)
    options.setdefault("round_pause", 0)  # a test that wants the pause between rounds says so
    options.setdefault("max_connections", 0)  # many clients, all on 127.0.0.1
    options.setdefault("max_open_tables", 0)
    options.setdefault("create_rate", 0)  # a test of the pace sets one
    server = BackgroundServer(ServerConfig(db=str(db), **options))
    with server:
        yield server


def create_table(
    base: str,
    seats: list[str],
    *,
    name: str | None = "Ana",
    turn_seconds: float = 0,
    hints: bool | None = None,
    **rules: Any,
) -> dict[str, Any]:
    """``seats``: "human" or a bot name per seat."""
    body: dict[str, Any] = {
        "rules": rules,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        "turn_seconds": turn_seconds,
    }
    if hints is not None:
        body["hints"] = hints
    if name is not None:
        body["name"] = name
    r = httpx.post(f"{base}/api/tables", json=body, timeout=TIMEOUT)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join(base: str, code: str, name: str) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/tables/{code}/join", json={"name": name}, timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


class Client:
    """One websocket connection. ``messages`` holds everything received, in order."""

    def __init__(self, ws: ClientConnection, label: str) -> None:
        self.ws = ws
        self.label = label
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self._unread = 0  # index of the first message ``expect`` has not looked at
        self.view: dict[str, Any] | None = None
        self.moves = 0
        self.game = 0
        self.table: dict[str, Any] | None = None
        self.closed: int | None = None

    @classmethod
    async def open(cls, ws_base: str, code: str, token: str | None, label: str = "") -> Client:
        ws = await connect(
            f"{ws_base}/ws/{code}", open_timeout=TIMEOUT, max_size=2**22, max_queue=None
        )
        client = cls(ws, label)
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        await client.send(hello)
        await client.expect("state")
        return client

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(text, str)
        message: dict[str, Any] = json.loads(text)
        self.raw.append(text)
        self.messages.append(message)
        if message.get("view") is not None:
            self.view = message["view"]
            self.moves = message["moves"]
            self.game = message["game"]
        elif message["type"] == "state":
            self.view, self.moves, self.game = None, 0, 0
        if message["type"] == "table":
            self.table = message
        return message

    async def expect(
        self,
        kind: str | tuple[str, ...],
        pred: Callable[[dict[str, Any]], bool] = lambda m: True,
        timeout: float = TIMEOUT,
    ) -> dict[str, Any]:
        """The next not yet expected message of type ``kind`` (or of one of several types)
        matching ``pred`` (reading on until it comes)."""
        kinds = (kind,) if isinstance(kind, str) else kind
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            while self._unread < len(self.messages):
                message = self.messages[self._unread]
                self._unread += 1
                if message["type"] in kinds and pred(message):
                    return message
            await self.receive(max(0.01, end - loop.time()))

    async def drain(self) -> None:
        """Read until a pong: everything sent to us before it has arrived."""
        await self.send({"type": "ping", "id": "drain"})
        await self.expect("pong", lambda m: m.get("id") == "drain")

    async def close(self) -> None:
        await self.ws.close()

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]


# ------------------------------------------------------------------ many processes

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


class ServerProcess:
    """A real server process: this interpreter with ``args`` (``-m ono99 serve …``), or, from
    ``ServerProcess.of(options)``, ``tests/serve_process.py`` with a config of more knobs
    than the command has flags."""

    def __init__(
        self,
        args: list[str],
        options: dict[str, Any] | None = None,
        cwd: Path | None = None,
        src: Path = ROOT / "src",  # the package it runs (a copy: e.g. one without the build)
    ) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(src), str(TESTS)]),
            "PYTHONUNBUFFERED": "1",
        }
        self.options = options or {}
        self.proc = subprocess.Popen(
            [sys.executable, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=cwd,
        )
        self.err: list[str] = []
        self.url = self._wait_for_address()
        self.ws_url = self.url.replace("http://", "ws://")

    def _wait_for_address(self) -> str:
        found: list[str] = []
        ready = threading.Event()

        def read() -> None:
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
                if match:
                    found.append(match.group(1))
                    ready.set()
            ready.set()

        def read_err() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.err.append(line)

        self.readers = [
            threading.Thread(target=read, daemon=True),
            threading.Thread(target=read_err, daemon=True),
        ]
        for reader in self.readers:
            reader.start()
        if not ready.wait(TIMEOUT * 2) or not found:
            self.proc.kill()
            self.proc.wait(TIMEOUT)
            self.close_streams()
            raise AssertionError(f"the server did not start: {''.join(self.err)}")
        return found[0]

    @classmethod
    def of(cls, options: dict[str, Any]) -> ServerProcess:
        return cls([str(TESTS / "serve_process.py"), json.dumps(options)], options)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(TIMEOUT)
        assert self.proc.returncode == -signal.SIGKILL

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(TIMEOUT)
        self.close_streams()

    def close_streams(self) -> None:
        for reader in self.readers:
            reader.join(TIMEOUT)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


class Cluster:
    """Server processes on one PostgreSQL schema and one Redis. ``url`` and ``ws_url`` name
    the processes in turn, so that a test written for one server spreads every request and
    every connection over all of them."""

    def __init__(self, options: dict[str, Any], n: int) -> None:
        self.options = options
        self.processes = [ServerProcess.of(options) for _ in range(n)]
        self._turn = itertools.count()

    @property
    def url(self) -> str:
        return self.live()[next(self._turn) % len(self.live())].url

    @property
    def ws_url(self) -> str:
        return self.live()[next(self._turn) % len(self.live())].ws_url

    def live(self) -> list[ServerProcess]:
        return [p for p in self.processes if p.proc.poll() is None]

    def add(self, options: dict[str, Any] | None = None) -> ServerProcess:
        process = ServerProcess.of({**self.options, **(options or {})})
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for p in self.processes:
            p.stop()
        logs = "".join(line for p in self.processes for line in p.err)
        assert "Traceback" not in logs, logs


@contextmanager
def running_cluster(n: int = 3, **options: Any) -> Iterator[Cluster]:
    """``n`` real server processes on PostgreSQL (a schema of their own, dropped afterwards)
    and Redis (``redis`` may name another address: a proxy in front of it)."""
    from services import REDIS, drop_schema, fresh_schema, need_postgres, need_redis, postgres_url

    need_postgres()
    need_redis()
    options.setdefault("bot_delay", 0.01)
    options.setdefault("turn_limits", (0.05, 600.0))
    options.setdefault("http_rate", 0)
    options.setdefault("round_pause", 0)  # a test that wants the pause between rounds says so
    options.setdefault("max_connections", 0)
    options.setdefault("max_open_tables", 0)
    options.setdefault("create_rate", 0)  # a test of the pace sets one
    options.setdefault("redis", REDIS)
    schema = fresh_schema()
    options["db"] = postgres_url(schema)
    from ono99.storage.postgres import PostgresStore

    PostgresStore(options["db"]).close()  # migrate once, before the processes race to
    cluster = None
    try:
        cluster = Cluster(options, n)
        yield cluster
    finally:
        if cluster is not None:
            cluster.stop()
        drop_schema(schema)


def server_fixture(folder: str, **options: Any) -> Any:
    """A module's ``server`` fixture: every test of the module runs twice, on one server with
    SQLite, and (in the full tier) on three server processes on PostgreSQL and Redis, each
    request and connection going to the next of them. ``options`` are ServerConfig's."""
    import pytest

    from tiers import slow

    @pytest.fixture(scope="module", params=["sqlite", pytest.param("cluster", marks=slow)])
    def server(
        request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
    ) -> Iterator[BackgroundServer | Cluster]:
        if request.param == "sqlite":
            with running_server(tmp_path_factory.mktemp(folder) / "ono99.db", **options) as srv:
                yield srv
        else:
            with running_cluster(3, **options) as cluster:
                yield cluster

    return server


def run(coro: Any, seconds: float = 60) -> Any:
    """Run a test's coroutine, failing it after ``seconds``; what it returns."""
    return asyncio.run(asyncio.wait_for(coro, seconds))
