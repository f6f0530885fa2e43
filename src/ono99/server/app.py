"""The ASGI application: pages, the HTTP API, the websocket, and the static client."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import cast

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..session import Settings
from ..storage import SqliteStore, Store, open_store
from . import http, i18n, installable, metrics, offline, players
from .bus import open_bus
from .config import ServerConfig
from .hub import Hub
from .limits import Counts, Pace
from .lobby import Lobby
from .names import BlockedNames
from .origins import OriginCheck
from .quick import Matcher
from .reviews import Reviews
from .websocket import lobby_socket, table_socket

STATIC = Path(__file__).parent / "static"

_SECURITY_HEADERS = [
    (
        b"content-security-policy",
        # 'wasm-unsafe-eval': the offline app's worker compiles Pyodide (WebAssembly, not JS).
        b"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
        b"img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Adds a strict content security policy and friends to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def page(request: Request) -> Response:
    """Every page is the one client, which reads the address itself."""
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def health(request: Request) -> Response:
    return Response("ok\n", media_type="text/plain")


def create_app(config: ServerConfig | None = None) -> Starlette:
    config = config or ServerConfig()
    measured = metrics.Metrics()
    stored = open_store(config.db)
    store = cast(Store, metrics.CountedStore(stored, measured))
    settings = Settings(
        bot_delay=config.bot_delay,
        grace=config.grace,
        countdown=config.countdown,
        round_pause=config.round_pause,
        turn_limits=config.turn_limits,
    )
    hub = Hub(
        store,
        settings,
        max_tables=config.max_tables,
        bus=open_bus(config.redis),
        takeover=config.takeover,
        heartbeat=config.heartbeat,
        idle=config.idle,
    )
    measured.watch(hub)
    spectators = Counts()  # per table, this process's
    lobby = Lobby(store, measured, poll=config.lobby_poll, spectators=spectators)
    hub.listing_changed = lobby.poke

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        lobby.start()
        if isinstance(stored, SqliteStore):
            stored.checkpoint_in_background()  # its disk syncs off the event loop
        refresh = None
        if config.metrics and measured.shared:
            refresh = asyncio.create_task(measured.keep_fresh())
        if config.metrics:
            measured.watch_collections()
        try:
            yield
        finally:
            measured.unwatch_collections()
            if refresh is not None:
                refresh.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await refresh
            await lobby.stop()
            await hub.stop()
            store.close()

    routes = [
        Route("/", page),
        Route("/t/{code}", page),
        Route("/t/{code}/replay/{game}", page),
        Route("/p/{name}", page),
        Route("/leaders", page),
        Route("/link", page),
        Route("/offline", page),
        Route("/app/runtime.json", offline.runtime_json),
        Route("/app/pyodide-{version}/{name}", offline.pyodide_file),
        Route("/app/ono99-{digest}.zip", offline.package_file),
        Route("/healthz", health),
        Route("/manifest.webmanifest", installable.manifest),
        Route("/sw.js", installable.service_worker),
        Route("/i18n/languages", i18n.languages),
        Route("/i18n/{lang}.json", i18n.catalog),
        Route("/rules", i18n.rules_redirect),
        Route("/rules/{lang}", i18n.rules_page),
        Route("/api/options", http.options),
        Route("/api/tables", http.create_table, methods=["POST"]),
        Route("/api/lobby", http.lobby_list),
        Route("/api/quick", http.play_now, methods=["POST"]),
        Route("/api/tables/{code}", http.table_info),
        Route("/api/players", players.register, methods=["POST"]),
        Route("/api/players/claim", players.claim, methods=["POST"]),
        Route("/api/players/{name}", players.profile),
        Route("/api/me", players.me),
        Route("/api/me", players.forget, methods=["DELETE"]),
        Route("/api/me/link", players.make_link, methods=["POST"]),
        Route("/api/leaderboard", players.leaderboard),
        Route("/api/tables/{code}/join", http.join_table, methods=["POST"]),
        Route("/api/tables/{code}/games/{game}/record", http.game_record),
        Route("/api/tables/{code}/games/{game}/replay", http.game_replay),
        Route("/api/tables/{code}/games/{game}/review", http.game_review),
        WebSocketRoute("/ws/lobby", lobby_socket),
        WebSocketRoute("/ws/{code}", table_socket),
        *([Route("/metrics", metrics.page)] if config.metrics else []),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    app.state.config = config
    app.state.worker_script = installable.worker_script(STATIC)  # hashes every static file
    app.state.metrics = measured
    app.state.limiters = {}
    app.state.reviews = Reviews(config, hub.now)
    app.state.created = {}
    app.state.pace = Pace(config.create_rate, config.create_burst, config.create_wait)
    app.state.creating = Counts()  # tables waiting their turn to be created, per address
    app.state.sockets = Counts()  # websockets per client address
    app.state.spectators = spectators
    app.state.lobby = lobby
    app.state.blocked_names = BlockedNames(config.blocked_names)
    app.state.matcher = Matcher(hub, measured, wait=config.quick_wait)
    app.add_middleware(OriginCheck, allowed=config.allowed_origins)
    app.add_middleware(SecurityHeaders)
    return app
