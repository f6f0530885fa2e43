"""uvicorn's own protocols, each with one thing it lacks.

**A deadline for each request's head.** uvicorn times out only a connection idle *between*
requests (``timeout_keep_alive``): one that is opened and never sends a whole request line and
headers ("slowloris") is held for ever, and holds a place of ``limit_concurrency`` with it.
``HeaderDeadline`` is uvicorn's own httptools protocol with one timer more: armed when the
connection opens and when a request's first byte comes, cleared when its headers are complete;
when it fires the connection is closed. (The body has its own deadline where the body is read:
``endpoint.json_body``.) Nor does uvicorn bound a request's head on httptools (its h11 setting,
``h11_max_incomplete_event_size``, is h11's alone): a test sent 16 MB of headers within the
deadline. A head past ``MAX_HEAD`` bytes gets 431 and the connection is closed.

**A close that does not wait for the reader.** uvicorn's websocket ``send`` first waits until
the socket's buffer has drained, for a close too; so a close for a client that stopped reading
(``websocket.CLOSE_TOO_SLOW``) was never written: the client saw no close frame, or uvicorn's
keepalive's 1011 40 s later. ``PromptClose`` writes a close at once, behind what the buffer
holds: a client that reads again reads what it was sent, then 1013.

**One frame for many sockets.** The lobby sends one list to hundreds of watchers at once, and
through ASGI each of those writes was a task woken, Starlette's middleware passed through and
the same text framed again: 65% of the event loop's time under a crowd (py-spy,
``benchmarks/bench_lobby.py``), which the tables being played waited behind. A server's frames
are not masked, so one text's frame is the same bytes for every client: ``text_frame`` makes
it once, and ``PromptClose`` offers each connection's app a way to write it straight to the
socket (the scope's ``FRAMES`` extension), taken only when the socket could take a send now
(open, no compression, not paused for a reader behind); otherwise the caller sends it the
usual way, and waits as any send does.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State

MAX_HEAD = 65536  # bytes of request line and headers: ours are a few hundred
_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-length: 0\r\nconnection: close\r\n\r\n"
)


class HeaderDeadline(HttpToolsProtocol):
    header_timeout = 10.0
    _deadline: asyncio.TimerHandle | None = None
    _head = 0  # bytes received since the deadline was armed

    def data_received(self, data: bytes) -> None:
        if self._deadline is not None:
            self._head += len(data)
            if self._head > MAX_HEAD:
                self._disarm()
                self.transport.write(_TOO_LARGE)
                self.transport.close()
                return
        if not self.transport.is_closing():
            super().data_received(data)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # The websocket protocol has the connection now; this one is done with it. Without
        # this, it and its parser (which holds its methods) are a reference cycle holding the
        # transport and the socket until a full collection, and a crowd of websockets fills
        # the collections that stall every table (issue 26).
        self.parser = None  # type: ignore[assignment]

    def _arm(self) -> None:
        self._disarm()
        self._head = 0
        self._deadline = self.loop.call_later(self.header_timeout, self.transport.close)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None


def with_header_timeout(seconds: float) -> type[HeaderDeadline]:
    """The protocol class for uvicorn's ``http`` setting, with this deadline."""
    return type("HeaderDeadline", (HeaderDeadline,), {"header_timeout": seconds})


FRAMES = "ono99.frames"  # the scope's extension: write a frame from text_frame now, or say no


def text_frame(text: str) -> bytes:
    """``text`` as one whole, uncompressed frame from a server: the same bytes for any client."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


class PromptClose(WebSocketsSansIOProtocol):
    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][FRAMES] = self.write_frame

    def write_frame(self, frame: bytes) -> bool:
        """Write ``frame`` (made by ``text_frame``) now, if this socket could take a send now:
        True; else False, and nothing was written."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.initial_response is not None
            or self.conn.state is not State.OPEN
            or self.conn.extensions  # compressed: each socket's frame is its own
            or not self.writable.is_set()  # the reader is behind: wait as any send does
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(frame)
        return True

    async def send(self, message: ASGISendEvent) -> None:
        if message["type"] == "websocket.close" and self.handshake_complete:
            # The close is the last thing sent (the app's writer has stopped): nothing else
            # passes the drained buffer's gate after it, and uvicorn sends nothing after a close.
            self.writable.set()
        await super().send(message)
