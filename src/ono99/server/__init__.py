"""The multiplayer server: an ASGI app (Starlette) with a websocket per connection, an
in-memory pub/sub per table, storage (SQLite, or PostgreSQL with a Redis bus between many
processes: docs/deploy.md), and the browser client in ``static/``.

Transport is thin: decode a message, call the session core (``ono99.session``), store the
changes, fan the announcements out (docs/protocol.md).
"""

from .app import create_app
from .config import ServerConfig
from .runner import BackgroundServer, run

__all__ = ["BackgroundServer", "ServerConfig", "create_app", "run"]
