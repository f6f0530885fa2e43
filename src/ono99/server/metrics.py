"""What an operator watches: the server's metrics, in the Prometheus text format
(``GET /metrics`` with ``ono99 serve --metrics``; docs/deploy.md, "Watching a server").

Things that happen are counted where they happen: connections and refusals by the websocket
and HTTP handlers, moves where they are stored (every move, whoever made it: a person, a
bot, the stand-in). What the hub holds — its tables by phase, whether its bus is up — is read
from the hub when asked (``refresh``), so the hub knows nothing of metrics.

Under ``ono99 serve --workers N`` the supervisor sets ``PROMETHEUS_MULTIPROC_DIR`` for its
children: each writes its values there (prometheus-client's multiprocess mode) and a scrape
of any of them adds up all of them. Counters and connections are summed; tables are given
per process (a table with connections on two processes is held by both, and the limit,
``max_tables``, is each process's own); the bus is up only if it is up for every process.
Each child also refreshes what it reads from its hub every second, since a scrape reaches
only one of them.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.requests import Request
from starlette.responses import Response

from ..session import PLAYING
from ..session.phases import LOBBY, OVER
from ..storage import Store
from .hub import Hub

MULTIPROCESS = "PROMETHEUS_MULTIPROC_DIR"
PHASES = (LOBBY, PLAYING, OVER)
# From a millisecond (a move on SQLite) to seconds (a database or bus in trouble).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# A young collection takes well under a millisecond; a full one of a busy server, tens.
PAUSE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25)


class Metrics:
    """One server's metrics and the registry a scrape reads."""

    def __init__(self) -> None:
        self.shared = bool(os.environ.get(MULTIPROCESS))
        self.registry = CollectorRegistry()
        if self.shared:  # the values are in files, one per process, read at scrape
            MultiProcessCollector(self.registry)
        own = None if self.shared else self.registry
        self.connections = Gauge(
            "ono99_connections",
            "Open websocket connections that said hello, by role (player or spectator).",
            ["role"],
            registry=own,
            multiprocess_mode="livesum",
        )
        self.moves = Counter(
            "ono99_moves",
            "Moves stored, by who made them (seat: a person; bot; timer or away: the stand-in).",
            ["by"],
            registry=own,
        )
        self.move_seconds = Histogram(
            "ono99_move_seconds",
            "Seconds from a move's arrival on a websocket to its effects stored and announced.",
            registry=own,
            buckets=LATENCY_BUCKETS,
        )
        self.refusals = Counter(
            "ono99_refusals",
            "Commands and requests refused, by error code (docs/protocol.md).",
            ["code"],
            registry=own,
        )
        self.creates_waiting = Gauge(
            "ono99_creates_waiting",
            "New tables waiting their turn to be set up (--create-rate; docs/deploy.md).",
            registry=own,
            multiprocess_mode="livesum",
        )
        self.tables = Gauge(
            "ono99_tables",
            "Tables held in memory, by phase (per process under --workers: a pid label).",
            ["phase"],
            registry=own,
            multiprocess_mode="liveall",
        )
        self.bus_up = Gauge(
            "ono99_bus_up",
            "1 while the bus to the other server processes is up (always 1 without --redis).",
            registry=own,
            multiprocess_mode="livemin",
        )
        self.gc_pauses = Histogram(
            "ono99_gc_pause_seconds",
            "Seconds the process stood still for a garbage collection, by generation (2: full).",
            ["generation"],
            registry=own,
            buckets=PAUSE_BUCKETS,
        )
        self.lobby_watchers = Gauge(
            "ono99_lobby_watchers",
            "Websockets watching the lobby's list of public tables.",
            registry=own,
            multiprocess_mode="livesum",
        )
        self.public_tables = Gauge(
            "ono99_public_tables",
            "Public tables waiting for players, as the lobby last read them (the server's).",
            registry=own,
            multiprocess_mode="livemax",
        )
        self.quick_waiting = Gauge(
            "ono99_quick_waiting",
            "Play now requests waiting here for their setting's turn (server/quick.py).",
            registry=own,
            multiprocess_mode="livesum",
        )
        self.quick_seconds = Histogram(
            "ono99_quick_seconds",
            "Seconds from a Play now request's arrival to its seat (found or opened).",
            ["outcome"],
            registry=own,
            buckets=LATENCY_BUCKETS,
        )
        self.hub: Hub | None = None
        self._collecting = 0.0

    def watch(self, hub: Hub) -> None:
        self.hub = hub
        self.refresh()

    def collection(self, phase: str, info: dict[str, int]) -> None:
        """A ``gc.callbacks`` entry (``watch_collections``): every table on the process waits
        while a collection runs, so its length is a latency everyone pays."""
        if phase == "start":
            self._collecting = time.perf_counter()
        else:
            pause = time.perf_counter() - self._collecting
            self.gc_pauses.labels(str(info["generation"])).observe(pause)

    def watch_collections(self) -> None:
        gc.callbacks.append(self.collection)

    def unwatch_collections(self) -> None:
        if self.collection in gc.callbacks:
            gc.callbacks.remove(self.collection)

    def connected(self, seat: int | None, delta: int) -> None:
        self.connections.labels("spectator" if seat is None else "player").inc(delta)

    def refused(self, code: str) -> None:
        self.refusals.labels(code).inc()

    def refresh(self) -> None:
        """Read what the hub holds now."""
        if self.hub is None:
            return
        held = dict.fromkeys(PHASES, 0)
        for table in list(self.hub.tables.values()):
            held[table.phase] = held.get(table.phase, 0) + 1
        for phase, count in held.items():
            self.tables.labels(phase).set(count)
        self.bus_up.set(1 if self.hub.cluster.up else 0)

    async def keep_fresh(self, every: float = 1.0) -> None:
        """Under --workers: a scrape reaches one process; the others' hubs are read here."""
        while True:
            self.refresh()
            await asyncio.sleep(every)


async def page(request: Request) -> Response:
    """``GET /metrics``: routed only with ``--metrics`` (docs/deploy.md says who may see it)."""
    metrics: Metrics = request.app.state.metrics
    metrics.refresh()
    return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)


class CountedStore:
    """A store that counts the moves written through it: one place every move passes, once,
    on the process that made it (so the sum over processes is right)."""

    def __init__(self, store: Store, metrics: Metrics) -> None:
        self._store = store
        self._moves = metrics.moves

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def add_action(
        self, code: str, game: int, position: int, seat: int, action: str, by: str
    ) -> None:
        self._store.add_action(code, game, position, seat, action, by)
        self._moves.labels(by).inc()

    def append_action(
        self, code: str, seq: int, game: int, position: int, seat: int, action: str, by: str
    ) -> None:
        self._store.append_action(code, seq, game, position, seat, action, by)
        self._moves.labels(by).inc()
