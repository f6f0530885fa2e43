"""The multiplayer server: an ASGI app (Starlette) with a websocket per connection, an
in-memory pub/sub per table, storage (SQLite, or PostgreSQL with a Redis bus between many
processes: docs/deploy.md), and the browser client in ``static/``.

Transport is thin: decode a message, call the session core (``ono99.session``), store the
changes, fan the announcements out (docs/protocol.md).
"""

from __future__ import annotations

from typing import Any

from .config import ServerConfig

__all__ = ["BackgroundServer", "ServerConfig", "create_app", "run", "serve"]


def __getattr__(name: str) -> Any:
    """The app and its runners load Starlette and uvicorn (the server extra) when first
    asked for, so that ``ServerConfig`` and its defaults can be read without them."""
    if name == "create_app":
        from .app import create_app

        return create_app
    if name in ("BackgroundServer", "run"):
        from . import runner

        return getattr(runner, name)
    if name == "serve":
        from .workers import serve

        return serve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
