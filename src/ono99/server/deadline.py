"""A deadline for each request's head, which uvicorn lacks.

uvicorn times out only a connection idle *between* requests (``timeout_keep_alive``): one that
is opened and never sends a whole request line and headers ("slowloris") is held for ever, and
holds a place of ``limit_concurrency`` with it. This is uvicorn's own httptools protocol with one
timer more: armed when the connection opens and when a request's first byte comes, cleared when
its headers are complete; when it fires the connection is closed. (The body has its own deadline
where the body is read: ``http._json_body``.)
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HeaderDeadline(HttpToolsProtocol):
    header_timeout = 10.0
    _deadline: asyncio.TimerHandle | None = None

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

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.header_timeout, self.transport.close)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None


def with_header_timeout(seconds: float) -> type[HeaderDeadline]:
    """The protocol class for uvicorn's ``http`` setting, with this deadline."""
    return type("HeaderDeadline", (HeaderDeadline,), {"header_timeout": seconds})
