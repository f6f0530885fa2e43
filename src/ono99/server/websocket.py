"""The websocket endpoint, ``/ws/{code}``: decode, call the hub, send what it announces.

A connection's life: accept → its first message must be ``hello`` (with a seat token, or
none to watch) within ``hello_timeout`` → welcome, table, state → then commands in, errors
back to this connection only, announcements from the pub/sub. Each message is checked for
size, rate and schema before anything looks at it. An outgoing message is written straight to
the socket when it can take it, else it goes through a queue with a bound, so one slow reader
cannot hold up a table: past the bound it is disconnected.
A client address may hold ``max_connections`` websockets and a table ``max_spectators``
spectators, on this process (``Counts``); past either the connection is refused (4429).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..session import (
    Identity,
    RateLimiter,
    SessionError,
    message_id,
    normalize_code,
    parse_message,
)
from ..session.encode import dumps
from .config import ServerConfig
from .hub import Hub
from .limits import Counts
from .lobby import Lobby
from .metrics import Metrics
from .protocols import FRAMES, text_frame

# Close codes (4000–4999 are ours; see docs/protocol.md).
CLOSE_NOT_FOUND = 4404
CLOSE_BAD_HELLO = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_HELLO_TIMEOUT = 4408
CLOSE_CLOSED = 4410  # the table has closed (idle)
CLOSE_TOO_MANY = 4429  # too many connections from this address, or spectators at the table
CLOSE_POLICY = 1008  # too many refused messages
CLOSE_TOO_SLOW = 1013  # the client did not read its messages


class Connection:
    """One websocket's outgoing side: each message written straight to the socket when nothing
    waits before it and the socket can take it (``protocols.FRAMES``), else queued, with a
    bound, for a writer task that sends it when the reader has read."""

    def __init__(self, ws: WebSocket, limit: int) -> None:
        self.ws = ws
        self.limit = limit
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closing = False
        self.close_code = 1000
        # The writer task, and whether it is inside a write (which may wait for the reader).
        # No task per message: a writer that holds each write's task for a second promotes
        # thousands of objects a second to the oldest GC generation, and its full collections
        # stalled every table for 150 ms (benchmarks/bench_server.py, issue 24).
        self.writer: asyncio.Task[None] | None = None
        self.writing = False
        self.cut = False  # the writer was cancelled to close a reader who stopped
        extensions = ws.scope.get("extensions") or {}
        self.write_frame: Callable[[bytes], bool] | None = extensions.get(FRAMES)

    def send(self, text: str, frame: bytes | None = None) -> None:
        """Send ``text`` (``frame``: the same, framed already by ``protocols.text_frame``, as
        the lobby's list is for all its watchers). Written at once when nothing is queued to
        go before it and the socket takes it: no task woken, no middleware passed through."""
        if self.closing:
            return
        if (
            self.write_frame is not None
            and not self.writing
            and self.queue.empty()
            and self.write_frame(frame if frame is not None else text_frame(text))
        ):
            return
        if self.queue.qsize() >= self.limit:
            self.close(CLOSE_TOO_SLOW)
            return
        self.queue.put_nowait(text)

    def drop(self) -> None:
        """The seat is no longer this link's: the client forgets the link and watches."""
        self.close(CLOSE_BAD_TOKEN)

    def end(self) -> None:
        self.close(CLOSE_CLOSED)

    def close(self, code: int = 1000) -> None:
        if not self.closing:
            self.closing = True
            self.close_code = code
            self.queue.put_nowait(None)
            if code == CLOSE_TOO_SLOW and self.writing and self.writer is not None:
                # It waits for a reader who stopped: give up on it and on the rest, and close
                # now (server/protocols.py writes the close behind what the socket holds).
                self.cut = True
                self.writer.cancel()

    async def write_loop(self) -> None:
        self.writer = writer = asyncio.current_task()
        assert writer is not None
        with contextlib.suppress(Exception):
            try:
                while (text := await self.queue.get()) is not None:
                    self.writing = True
                    await self.ws.send_text(text)  # a failed write ends the loop
                    self.writing = False
            except asyncio.CancelledError:
                if not self.cut:
                    raise
                writer.uncancel()
            await self.ws.close(self.close_code)


def error_message(exc: SessionError, ref: Any = None) -> str:
    message = {"type": "error", **exc.to_json()}
    if ref is not None:
        message["id"] = ref
    return dumps(message)


async def _take_address(ws: WebSocket, config: ServerConfig) -> str | None:
    """Count this websocket against its client address (``--max-connections``); past the
    limit, refuse it with a sentence and a close code, and say None."""
    addresses: Counts = ws.app.state.sockets
    address = ws.client.host if ws.client else "?"
    if addresses.take(address, config.max_connections):
        return address
    await ws.accept()
    most = config.max_connections
    refusal = SessionError("too_many_connections", "too many connections", most=most)
    await _refuse(ws, refusal, CLOSE_TOO_MANY)
    return None


async def _counted(
    ws: WebSocket, serve: Callable[[WebSocket, ServerConfig], Awaitable[None]]
) -> None:
    """Serve ``ws`` with ``serve`` while it counts against its client address, given back
    however it ends; past ``--max-connections`` it is refused before ``serve`` sees it."""
    config: ServerConfig = ws.app.state.config
    addresses: Counts = ws.app.state.sockets
    address = await _take_address(ws, config)
    if address is None:
        return
    try:
        await serve(ws, config)
    finally:
        addresses.give_back(address)


async def table_socket(ws: WebSocket) -> None:
    """``/ws/{code}``: a seat's or a spectator's connection to one table."""
    await _counted(ws, _serve)


async def _serve(ws: WebSocket, config: ServerConfig) -> None:
    hub: Hub = ws.app.state.hub
    await ws.accept()
    code = normalize_code(ws.path_params.get("code", ""))
    table = hub.get(code) if code else None
    if code is None or table is None:
        gone = hub.missing(code) if code else SessionError("not_found", "there is no such table")
        await _refuse(ws, gone, CLOSE_CLOSED if gone.code == "closed" else CLOSE_NOT_FOUND)
        return
    try:
        who = await asyncio.wait_for(_hello(ws, hub, code), config.hello_timeout)
    except SessionError as exc:
        close = CLOSE_BAD_TOKEN if exc.code == "bad_token" else CLOSE_BAD_HELLO
        await _refuse(ws, exc, close)
        return
    except TimeoutError:
        await _refuse(ws, SessionError("timeout", "say hello first"), CLOSE_HELLO_TIMEOUT)
        return
    except WebSocketDisconnect:
        return
    spectators: Counts = ws.app.state.spectators
    if who.seat is None and not spectators.take(code, config.max_spectators):
        most = config.max_spectators
        refusal = SessionError(
            "table_full_of_spectators", "this table has enough spectators", most=most
        )
        await _refuse(ws, refusal, CLOSE_TOO_MANY)
        return
    lobby: Lobby = ws.app.state.lobby
    if who.seat is None:
        lobby.poke()  # a listed table's spectators are in the lobby's list
    try:
        await _attached(ws, config, hub, code, who)
    finally:
        if who.seat is None:
            spectators.give_back(code)
            lobby.poke()


async def _attached(
    ws: WebSocket, config: ServerConfig, hub: Hub, code: str, who: Identity
) -> None:
    metrics: Metrics = ws.app.state.metrics
    conn = Connection(ws, config.queue_limit)
    # Again: the table may have been unloaded while we waited for hello.
    if not hub.attach(code, who, conn):
        await _refuse(ws, SessionError("not_found", "there is no such table"), CLOSE_NOT_FOUND)
        return
    writer = asyncio.create_task(conn.write_loop())
    limiter = RateLimiter(config.ws_rate, config.ws_burst, hub.now())
    metrics.connected(who.seat, +1)
    try:
        while not conn.closing:
            message = await ws.receive()
            arrived = time.perf_counter()
            if message["type"] == "websocket.disconnect" or conn.closing:
                break  # closing: e.g. its seat was given up, so it may not act for it
            if not limiter.allow(hub.now()):
                if limiter.refused > config.max_refused:
                    conn.close(CLOSE_POLICY)
                    break
                metrics.refused("rate_limited")
                conn.send(
                    error_message(SessionError("rate_limited", "too many messages; slow down"))
                )
                continue
            frame = message.get("text")
            if frame is None:
                frame = message.get("bytes") or b""
            ref = None
            try:
                cmd = parse_message(frame)
                ref = cmd.id
                hub.handle(code, who, cmd, conn)
                if cmd.type == "act":
                    metrics.move_seconds.observe(time.perf_counter() - arrived)
            except SessionError as exc:
                metrics.refused(exc.code)
                conn.send(error_message(exc, ref if ref is not None else message_id(frame)))
    except WebSocketDisconnect:
        pass
    finally:
        metrics.connected(who.seat, -1)
        hub.detach(code, who, conn)
        conn.close(conn.close_code)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)
        if conn.close_code == CLOSE_TOO_SLOW:
            await _linger(ws)


async def lobby_socket(ws: WebSocket) -> None:
    """``/ws/lobby``: the public tables waiting for players, sent at once and again whenever
    the list changes (``server/lobby.py``). A watcher has nothing to say: what it sends is
    read, counted against its rate like a player's messages, and dropped."""
    await _counted(ws, _watch_lobby)


async def _watch_lobby(ws: WebSocket, config: ServerConfig) -> None:
    await ws.accept()
    lobby: Lobby = ws.app.state.lobby
    hub: Hub = ws.app.state.hub
    conn = Connection(ws, config.queue_limit)
    writer = asyncio.create_task(conn.write_loop())
    limiter = RateLimiter(config.ws_rate, config.ws_burst, hub.now())
    lobby.watch(conn)
    try:
        while not conn.closing:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not limiter.allow(hub.now()) and limiter.refused > config.max_refused:
                conn.close(CLOSE_POLICY)
    except WebSocketDisconnect:
        pass
    finally:
        lobby.unwatch(conn)
        conn.close(conn.close_code)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)


async def _linger(ws: WebSocket, quiet: float = 0.1, most: float = 1.0) -> None:
    """Read and drop what a client closed for not reading still sends, until it has been
    quiet for ``quiet`` seconds (at most ``most``): a socket closed with unread data in it is
    reset, and a reset throws away the close frame (1013) still waiting in the client's
    buffers, so the client would never learn why."""
    end = asyncio.get_running_loop().time() + most
    with contextlib.suppress(Exception):
        while (left := end - asyncio.get_running_loop().time()) > 0:
            message = await asyncio.wait_for(ws.receive(), min(quiet, left))
            if message["type"] == "websocket.disconnect":
                return


async def _hello(ws: WebSocket, hub: Hub, code: str) -> Identity:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    frame = message.get("text")
    if frame is None:
        frame = message.get("bytes") or b""
    cmd = parse_message(frame)
    if cmd.type != "hello":
        raise SessionError("bad_request", "the first message must be hello")
    table = hub.get(code)
    if table is None:
        raise SessionError("not_found", "there is no such table")
    try:
        return table.identify(cmd.token)
    except SessionError:
        # The seat may have been taken on another process a moment ago: ask storage.
        table = hub.fresh(code)
        if table is None:
            raise
        return table.identify(cmd.token)


async def _refuse(ws: WebSocket, exc: SessionError, close: int) -> None:
    metrics: Metrics = ws.app.state.metrics
    metrics.refused(exc.code)
    with contextlib.suppress(Exception):
        await ws.send_text(error_message(exc))
        await ws.close(close)
