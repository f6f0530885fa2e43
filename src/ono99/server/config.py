"""A server's settings: where it stores, how fast bots move, and the limits it enforces. The
one home of every default (``ono99 serve`` reads its options' defaults from here); standard
library only, so that the command can read them without the server extra."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..invocation import default_database


@dataclass(frozen=True)
class ServerConfig:
    # A SQLite file, or postgresql://… (many processes; docs/deploy.md). By default the one in
    # $ONO99_HOME, never a file in whatever folder the server was started from.
    db: str = field(default_factory=lambda: str(default_database()))
    redis: str | None = None  # redis://…: the bus to the other processes serving the tables
    takeover: float = 1.0  # seconds late this process fires the timers of a table another wrote
    heartbeat: float = 1.0  # seconds between "alive" notes on the bus (3 missed: gone)
    bot_delay: float = 1.0  # seconds before a bot moves, so people can follow
    grace: float = 60.0  # seconds a dropped player keeps the seat before the stand-in plays
    countdown: float = 10.0  # seconds the host's "next game" waits for those not yet ready
    round_pause: float = 8.0  # seconds a round's summary holds the next round (less: continue)
    turn_limits: tuple[float, float] = (5.0, 600.0)  # allowed turn timers (0 = none)
    ws_rate: float = 10.0  # messages per second per connection, sustained
    ws_burst: float = 20.0  # ... and at once
    max_refused: int = 200  # refused messages before a connection is closed
    http_rate: float = 2.0  # create/join requests per second per client address (0: no limit)
    http_burst: float = 30.0
    max_body: int = 8192  # bytes of a request body
    # Game reviews (docs/review.md): seconds of CPU each, so few at once and few per address.
    review_workers: int = 2  # reviews worked out at once (per process); more: review_busy
    reviews_per_minute: float = 6.0  # new reviews per client address (0: no limit) ...
    review_burst: float = 4.0  # ... and at once; a review already worked out costs nothing
    hello_timeout: float = 10.0
    queue_limit: int = 512  # unsent messages before a slow connection is dropped
    max_tables: int = 50_000  # tables held in memory
    # Seconds a table may go unchanged before it closes, unless people are playing it (0:
    # never): Hanab Live's 30 minutes. Its records stay (docs/deploy.md, "Tables end").
    idle: float = 1800.0
    ws_max_size: int = 65536  # frames above this are refused by the websocket layer (1009)
    metrics: bool = False  # GET /metrics (Prometheus); off: a server's internals are not public
    log_format: str = "text"  # or "json": one JSON object a line (server/logs.py)
    # Limits against abuse (docs/deploy.md, "Limits", says why these numbers).
    forwarded_allow_ips: str = ""  # proxies whose X-Forwarded-For is believed ("*": any)
    allowed_origins: tuple[str, ...] = ()  # pages of other origins that may use the API
    max_connections: int = 20  # websockets per client address (per process)
    max_spectators: int = 50  # spectators per table (per process)
    max_open_tables: int = 5  # unfinished tables one client address may have created
    header_timeout: float = 10.0  # seconds to send a request's headers (and its body)
    max_concurrency: int = 4000  # connections and requests at once (per process): 503 past it
    # New connections taken a second, and at once (per process; 0: as they come): a crowd
    # waits in the kernel's queue instead of stalling the tables (server/accepting.py).
    accept_rate: float = 150.0
    accept_burst: int = 10
    # New tables set up a second, and at once (per process; 0: as they come); a create that
    # would wait longer than create_wait seconds for its turn is refused as busy
    # (server/limits.py).
    create_rate: float = 20.0
    create_burst: int = 10
    create_wait: float = 10.0
    # Play now (server/quick.py): seconds a new table waits for people before bots of its
    # opener's level fill the seats still open; the lobby's list is read this often while
    # someone watches it (a table opened on another process shows within that).
    quick_wait: float = 20.0
    lobby_poll: float = 0.5
    # A file of names no one may take here (session/blocklist.py says how it matches), read
    # again when it changes: the operator edits it while the server runs.
    blocked_names: str | None = None

    @property
    def postgres(self) -> bool:
        return self.db.startswith(("postgresql://", "postgres://"))

    def check(self, workers: int = 1) -> None:
        """Raise ``ValueError`` with a sentence a person can act on when these settings
        cannot serve (``workers`` processes behind one address)."""
        if not self.postgres and Path(self.db).is_dir():
            raise ValueError(f"--db must be a file, and {self.db!r} is a folder")
        if self.blocked_names is not None and not Path(self.blocked_names).is_file():
            raise ValueError(f"--blocked-names must be a file, and {self.blocked_names!r} is not")
        if self.redis is not None and not self.postgres:
            raise ValueError("--redis joins processes that share a postgresql:// --database")
        if self.redis is not None and not self.redis.startswith(
            ("redis://", "rediss://", "unix://")
        ):
            raise ValueError(f"--redis must be a redis:// address, not {self.redis!r}")
        if workers > 1 and (not self.postgres or self.redis is None):
            raise ValueError(
                f"--workers {workers} runs processes that share the tables: they need a "
                "postgresql:// --database and a --redis bus (docs/deploy.md)"
            )
        if workers > 1 and os.name != "posix":
            raise ValueError("--workers needs a POSIX system (Linux, macOS); run one per port")


def defaults() -> dict[str, Any]:
    """Every setting's default, by name (``db``'s is computed: the data folder's file)."""
    out = {f.name: f.default for f in fields(ServerConfig)}
    out["db"] = str(default_database())
    return out
