"""Taking new connections at a steady pace, so that a crowd arriving at once cannot stall the
tables being played.

asyncio's servers (and uvloop's) accept every connection waiting in the kernel's queue at once,
up to the backlog, and each one's setting up (its HTTP head parsed, the websocket handshake, the
app's first steps: about 1 ms of this process's time) then runs in the same few turns of the
event loop as the moves of the tables being played. 2,000 spectators arriving a hundred at a
time made turns of 50-70 ms for two seconds, and a move between two players, which takes three
turns, took 30-50 ms instead of 2 (``benchmarks/bench_abuse.py``, issue 26).

``PacedServer`` is uvicorn's server with one difference: its ``Acceptor`` takes connections
from the listening socket one per turn of the loop (nginx's ``multi_accept off``) and at most
``rate`` a second, ``burst`` at once (a token bucket). The rest wait in the kernel's queue, which
costs this process nothing: a crowd of newcomers waits a little longer for its first byte, and
the people already playing do not notice it. Nothing a client does can hold a place (a client
that connects and says nothing costs no token once it is in), so pacing cannot be used to keep
others out for longer than the queue takes to drain.

Everything after the accept (``limit_concurrency``, the protocols, the app) is uvicorn's own:
each connection reaches them as uvicorn's own server would hand it over.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import time
from collections.abc import Callable

import uvicorn

log = logging.getLogger("ono99.server")

RETRY = 1.0  # seconds before accepting again when the process is out of descriptors
_OUT_OF = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


class Acceptor:
    """Takes connections from one listening socket, one a turn, ``rate`` a second (``burst``
    at once; rate 0: as fast as they come), and hands each to a new ``protocol()``. Closed like
    an ``asyncio.Server``: uvicorn's shutdown calls ``close`` and ``wait_closed``."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        sock: socket.socket,
        protocol: Callable[[], asyncio.Protocol],
        rate: float,
        burst: int,
    ) -> None:
        self.loop = loop
        self.sock = sock
        self.protocol = protocol
        self.rate = rate
        self.burst = max(1.0, float(burst))
        self.tokens = self.burst
        self.stamp = time.monotonic()
        self.waiting = False  # not listening until a token is due (or descriptors are free)
        self.closed = False
        self.tasks: set[asyncio.Task[None]] = set()
        sock.setblocking(False)
        loop.add_reader(sock.fileno(), self._ready)

    def _ready(self) -> None:
        if self.rate > 0 and not self._token():
            return
        try:
            conn, _ = self.sock.accept()
        except (BlockingIOError, InterruptedError, ConnectionAbortedError):
            self._give_back()  # another process took it, or it was gone already
            return
        except OSError as exc:
            if exc.errno not in _OUT_OF:
                raise
            # Out of descriptors or memory: stop listening for a moment (what asyncio's own
            # server does) rather than spin on a socket that stays readable.
            log.error("cannot accept connections for now: %s", exc)
            self._give_back()
            self._pause(RETRY)
            return
        conn.setblocking(False)
        if conn.family in (socket.AF_INET, socket.AF_INET6):
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        task = self.loop.create_task(self._connect(conn))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _token(self) -> bool:
        """Take a token if there is one; if not, stop listening until the next is due."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self._pause((1 - self.tokens) / self.rate)
        return False

    def _give_back(self) -> None:
        if self.rate > 0:
            self.tokens = min(self.burst, self.tokens + 1)

    def _pause(self, seconds: float) -> None:
        if not self.waiting:
            self.waiting = True
            self.loop.remove_reader(self.sock.fileno())
            self.loop.call_later(seconds, self._resume)

    def _resume(self) -> None:
        self.waiting = False
        if not self.closed:
            self.loop.add_reader(self.sock.fileno(), self._ready)

    async def _connect(self, conn: socket.socket) -> None:
        try:
            await self.loop.connect_accepted_socket(self.protocol, conn)
        except Exception:
            log.exception("could not take a connection")
            conn.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if not self.waiting:
                self.loop.remove_reader(self.sock.fileno())

    async def wait_closed(self) -> None:
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)


class PacedServer(uvicorn.Server):
    """uvicorn's server, taking connections through an ``Acceptor`` per listening socket
    (``rate`` connections a second, ``burst`` at once, per process; 0: no pace)."""

    def __init__(self, config: uvicorn.Config, rate: float, burst: int) -> None:
        super().__init__(config)
        self.rate = rate
        self.burst = burst

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        if not sockets:
            raise ValueError("PacedServer serves sockets that already listen")
        await super().startup(sockets=[])  # the app's lifespan, and no listener of uvicorn's
        loop = asyncio.get_running_loop()
        config = self.config

        def protocol() -> asyncio.Protocol:
            return config.http_protocol_class(  # type: ignore[call-arg]
                config=config,
                server_state=self.server_state,
                app_state=self.lifespan.state,
                _loop=loop,
            )

        # What uvicorn's shutdown closes: an Acceptor does what it asks of an asyncio.Server.
        self.servers = [
            Acceptor(loop, sock, protocol, self.rate, self.burst)  # type: ignore[misc]
            for sock in sockets
        ]
