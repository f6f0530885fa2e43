"""Running the app on uvicorn: in the foreground (``ono99 serve``), on a listening socket
handed down by a supervisor (``ono99 serve --workers N``: ``server/workers.py``), or on a
thread of the calling process (tests, embedding)."""

from __future__ import annotations

import asyncio
import gc
import socket
import threading
import time
from collections.abc import Callable

import uvicorn
from starlette.applications import Starlette

from .accepting import PacedServer
from .app import create_app
from .config import ServerConfig
from .logs import log_config
from .protocols import PromptClose, with_header_timeout


def bind(host: str, port: int) -> socket.socket:
    """A listening socket; port 0 picks a free one (read it back with ``getsockname``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


def make_server(config: ServerConfig, app: Starlette | None = None) -> uvicorn.Server:
    return PacedServer(
        uvicorn.Config(
            create_app(config) if app is None else app,
            log_level="warning",
            log_config=log_config(config.log_format),
            access_log=False,  # addresses hold table codes; keep them out of logs
            ws_max_size=config.ws_max_size,
            ws_per_message_deflate=False,
            lifespan="on",
            timeout_graceful_shutdown=2,
            # X-Forwarded-For only from the proxies named, never from whoever sends it.
            proxy_headers=bool(config.forwarded_allow_ips),
            forwarded_allow_ips=config.forwarded_allow_ips or "",
            limit_concurrency=config.max_concurrency or None,
            http=with_header_timeout(config.header_timeout),
            ws=PromptClose,
        ),
        rate=config.accept_rate,
        burst=config.accept_burst,
    )


def address(sock: socket.socket) -> str:
    """The http://host:port/ address a listening socket serves."""
    bound = sock.getsockname()
    shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
    return f"http://{shown}:{bound[1]}/"


def run(
    config: ServerConfig,
    host: str,
    port: int,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until interrupted. ``on_ready`` gets the address once it listens."""
    serve_on(config, bind(host, port), on_ready)


def serve_on(
    config: ServerConfig, sock: socket.socket, on_ready: Callable[[str], None] | None = None
) -> None:
    """Serve on a socket that already listens (perhaps shared with other processes)."""
    url = address(sock)
    app = create_app(config)
    server = make_server(config, app)
    original = server.startup
    tasks: set[asyncio.Task[None]] = set()

    async def startup(sockets: list[socket.socket] | None = None) -> None:
        await original(sockets=sockets)
        # What is loaded by now (modules, the app, the stores: about 50,000 objects) lives as
        # long as the process: out of the collector's sight, a full collection walks only the
        # tables and connections, and takes a few milliseconds instead of 30-60 (a stall of
        # every table, the largest latencies benchmarks/bench_abuse.py saw). gc.freeze's own
        # advice for a long-lived server; only in a process of its own (not a test's thread).
        gc.collect()
        gc.freeze()
        if server.started:
            hints = app.state.hub.hints
            tasks.add(asyncio.get_running_loop().create_task(_freeze_when(hints.prepared)))
            if on_ready is not None:
                on_ready(url)

    server.startup = startup  # type: ignore[method-assign]
    server.run(sockets=[sock])


async def _freeze_when(ready: threading.Event, most: float = 600.0) -> None:
    """Freeze again once the hints' search has loaded (on a thread of its own: Numba and
    LLVM, about 50,000 objects more). Left in the collector's sight, every full collection
    walked them: 50-70 ms with every table stopped, where it takes a few without them."""
    end = time.monotonic() + most
    while not ready.is_set() and time.monotonic() < end:
        await asyncio.sleep(0.5)
    if ready.is_set():
        gc.collect()
        gc.freeze()


class BackgroundServer:
    """The server on a thread of this process, on a free loopback port."""

    def __init__(self, config: ServerConfig, host: str = "127.0.0.1") -> None:
        self.sock = bind(host, 0)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://{host}:{self.port}"
        self.ws_url = f"ws://{host}:{self.port}"
        self.server = make_server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def app(self) -> object:
        return self.server.config.app

    def start(self, timeout: float = 20) -> BackgroundServer:
        self.thread.start()
        for _ in range(int(timeout * 100)):
            if self.server.started:
                return self
            if not self.thread.is_alive():
                break
            time.sleep(0.01)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
