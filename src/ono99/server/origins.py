"""Refusing pages of other sites: a websocket upgrade or a POST whose ``Origin`` header names
another origin than the server's own (the scheme, host and port the request came to) or one
of ``allowed_origins`` gets 403 ``bad_origin``. A browser always sends ``Origin`` on these, so
another site's page cannot create tables or sit at one in its visitors' names; a request
without ``Origin`` (curl, a bot of one's own) is not a browser's and goes through."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from ..session import SessionError
from .endpoint import error_response

_DEFAULT_PORT = {"http": 80, "https": 443}


def origin_key(origin: str) -> str | None:
    """``scheme://host:port`` in lower case with the port always written, or None."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port or _DEFAULT_PORT.get(parts.scheme)
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORT or not parts.hostname or port is None:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}:{port}"


class OriginCheck:
    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = {k for k in map(origin_key, allowed) if k}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope["type"] == "websocket" or (
            scope["type"] == "http" and scope["method"] not in ("GET", "HEAD", "OPTIONS")
        )
        headers = Headers(scope=scope) if checked else None
        origin = headers.get("origin") if headers is not None else None
        if headers is None or origin is None or self._fits(origin, scope, headers):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await receive()  # websocket.connect; closing before accepting answers 403
            await send({"type": "websocket.close", "code": 1008})
            return
        refusal = SessionError("bad_origin", "requests from other sites' pages are refused")
        await error_response(refusal)(scope, receive, send)

    def _fits(self, origin: str, scope: Scope, headers: Headers) -> bool:
        key = origin_key(origin)
        if key is None:
            return False
        scheme = {"ws": "http", "wss": "https"}.get(scope["scheme"], scope["scheme"])
        own = origin_key(f"{scheme}://{headers.get('host', '')}")
        return key == own or key in self.allowed
