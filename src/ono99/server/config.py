"""A server's settings: where it stores, how fast bots move, and the limits it enforces."""

from __future__ import annotations

from dataclasses import dataclass, field

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
