"""``ono99 serve``: one server process, or (``--workers N``) N of them behind one address
(``serve`` at the end).

This process (the supervisor) binds the listening socket once and starts N children,
``python -m ono99.server.workers FD`` (their settings on stdin), each of them the whole
server on that same socket: the kernel hands each new connection to whichever child accepts it
first (as uvicorn's own ``--workers`` does). The children share nothing in memory: PostgreSQL
holds the tables and Redis joins them, as it joins processes on different machines
(docs/deploy.md), so any child may take any connection and the seats of one table may be on
all of them.

The supervisor only watches: a child that dies is started again after a second (its tables
go on meanwhile on the others), and Ctrl-C or SIGTERM stops every child (SIGTERM, then SIGKILL
for one still there after ``grace`` seconds). A child whose supervisor dies, even by SIGKILL,
sees its stdin close and stops too, so no server is left behind.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from prometheus_client import multiprocess

from ..storage import open_store
from .config import ServerConfig
from .logs import configure
from .metrics import MULTIPROCESS
from .runner import address, bind, run, serve_on

log = logging.getLogger("ono99.server")


class WorkerFailed(Exception):
    """A child did not start; it has said why on stderr."""


class Child:
    """One server process on the shared socket, and whether it has said it is ready."""

    def __init__(
        self, config: ServerConfig, sock: socket.socket, env: dict[str, str] | None = None
    ) -> None:
        fd = sock.fileno()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ono99.server.workers", str(fd)],
            pass_fds=(fd,),
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        # The settings go on stdin, not argv, where anyone on the machine could read the
        # database's password; then stdin stays open, to close when the supervisor dies.
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(dataclasses.asdict(config)) + "\n")
        self.proc.stdin.flush()
        self.ready = threading.Event()
        self.started = time.monotonic()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.strip() == "ready":
                self.ready.set()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None


def serve_workers(
    config: ServerConfig,
    host: str,
    port: int,
    workers: int,
    on_ready: Callable[[str], None] | None = None,
    *,
    grace: float = 10.0,
    restart_after: float = 1.0,
) -> None:
    """Serve on ``workers`` processes until SIGINT or SIGTERM. ``on_ready`` gets the one
    address once every child listens. Raises ``WorkerFailed`` if a child dies starting."""
    configure(config.log_format)
    sock = bind(host, port)
    stop = threading.Event()
    # Metrics: each child writes its values in this folder, and a scrape of any child adds
    # them all up (server/metrics.py); a dead child's gauges are dropped, its counts kept.
    shared = tempfile.TemporaryDirectory(prefix="ono99-metrics-") if config.metrics else None
    env = {**os.environ, MULTIPROCESS: shared.name} if shared is not None else None

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    children: list[Child] = []
    try:
        children = [Child(config, sock, env) for _ in range(workers)]
        while not all(c.ready.is_set() for c in children):
            dead = next((c for c in children if not c.alive), None)
            if dead is not None:
                code = dead.proc.returncode
                raise WorkerFailed(f"a server process exited as it started (status {code})")
            if stop.wait(0.05):
                return
        if on_ready is not None:
            on_ready(address(sock))
        while not stop.wait(0.2):
            for i, child in enumerate(children):
                if not child.alive and time.monotonic() - child.started > restart_after:
                    log.warning(
                        "server process %d exited (%d); starting another",
                        child.proc.pid,
                        child.proc.returncode,
                    )
                    if shared is not None:
                        multiprocess.mark_process_dead(child.proc.pid, shared.name)
                    children[i] = Child(config, sock, env)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        _stop_all(children, grace)
        sock.close()
        if shared is not None:
            shared.cleanup()


def _stop_all(children: list[Child], grace: float) -> None:
    for child in children:
        if child.alive:
            child.proc.send_signal(signal.SIGTERM)
    end = time.monotonic() + grace
    for child in children:
        try:
            child.proc.wait(max(0.0, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.proc.kill()
            child.proc.wait()
        for stream in (child.proc.stdin, child.proc.stdout):
            if stream is not None:
                stream.close()


def _orphaned() -> None:
    """Stop this child when its supervisor is gone (its end of our stdin closed)."""
    while sys.stdin.read(4096):
        pass
    os.kill(os.getpid(), signal.SIGTERM)


def main() -> None:
    fd, options = int(sys.argv[1]), json.loads(sys.stdin.readline())
    options = {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}
    sock = socket.socket(fileno=fd)
    threading.Thread(target=_orphaned, daemon=True).start()
    serve_on(ServerConfig(**options), sock, on_ready=lambda url: print("ready", flush=True))


if __name__ == "__main__":
    main()


def serve(
    config: ServerConfig,
    host: str,
    port: int,
    workers: int = 1,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """What ``ono99 serve`` runs: ``workers`` server processes behind ``host:port`` (one:
    this process), until interrupted. Raises ``ValueError`` for settings that cannot serve
    (``ServerConfig.check``), ``OSError`` when the address cannot be listened on."""
    config.check(workers)
    if not config.postgres:
        Path(config.db).parent.mkdir(parents=True, exist_ok=True)
    if workers == 1:
        run(config, host, port, on_ready=on_ready)
        return
    open_store(config.db).close()  # reachable, and migrated before the children race
    serve_workers(config, host, port, workers, on_ready=on_ready)
