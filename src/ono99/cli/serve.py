"""``ono99 serve``: the multiplayer server and its browser client."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import click

from ..invocation import HOME_HELP, pip_install
from ..server.config import ServerConfig, defaults
from .command import Command
from .options import BadOptions, CliError

DEFAULT = defaults()  # every option's default: the server's own (server/config.py)


@click.command(
    "serve",
    cls=Command,
    epilog="\b\nExamples:\n  ono99 serve\n  ono99 serve --port 8000 --db games.db\n"
    "  ono99 serve --database postgresql://db/ono99 --redis redis://cache:6379\n"
    "  ono99 serve --workers 4 --database postgresql://db/ono99 --redis redis://cache:6379\n"
    "  ono99 serve --metrics --log-format json",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=8099, show_default=True, type=int, help="Port to listen on (0: any free)."
)
@click.option(
    "--db",
    "--database",
    "db",
    default=None,
    help="SQLite file holding every table and game (unfinished games resume from it), or a "
    "postgresql://… address, shared by many server processes (the scale extra). "
    f"[default: $ONO99_HOME/ono99.db, {HOME_HELP}]",
)
@click.option(
    "--redis",
    default=None,
    help="redis://… address of the bus between server processes that share a PostgreSQL "
    "database (the scale extra); see docs/deploy.md.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Server processes behind the one address (more than one share a postgresql:// "
    "--database and a --redis bus; about one per core).",
)
@click.option(
    "--bot-delay",
    default=DEFAULT["bot_delay"],
    show_default=True,
    type=click.FloatRange(0, 30),
    help="Seconds a bot waits before it moves, so people can follow.",
)
@click.option(
    "--grace",
    default=DEFAULT["grace"],
    show_default=True,
    type=click.FloatRange(0, 86400),
    help="Seconds a dropped player keeps their seat before a bot plays for them.",
)
@click.option(
    "--min-turn",
    default=DEFAULT["turn_limits"][0],
    show_default=True,
    type=click.FloatRange(0.05, 600),
    help="Shortest turn timer a table may ask for, in seconds.",
)
@click.option(
    "--http-rate",
    default=DEFAULT["http_rate"],
    show_default=True,
    type=click.FloatRange(0),
    help="Tables created or joined per second per client address (0: no limit).",
)
@click.option(
    "--idle-minutes",
    default=DEFAULT["idle"] / 60,
    show_default=True,
    type=click.FloatRange(0),
    help="Minutes a table may go unchanged before it closes, unless people are playing it "
    "(0: never); its finished games stay.",
)
@click.option(
    "--metrics",
    is_flag=True,
    help="Serve GET /metrics (Prometheus) to whoever reaches the server: keep it from the "
    "public at the proxy (docs/deploy.md, Watching a server).",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: each log line a JSON object (time, level, logger, message, exc_info).",
)
# Limits against abuse: docs/deploy.md, "Limits", says why each default.
@click.option(
    "--forwarded-allow-ips",
    default="",
    metavar="IPS",
    help="Proxies (addresses, comma-separated; * any) whose X-Forwarded-For names the client.",
)
@click.option(
    "--allowed-origins",
    default="",
    metavar="ORIGINS",
    callback=lambda _c, _p, v: tuple(o.strip() for o in v.split(",") if o.strip()),
    help="Other sites (https://host, comma-separated) whose pages may use this server.",
)
@click.option(
    "--max-connections",
    default=DEFAULT["max_connections"],
    show_default=True,
    type=click.IntRange(0),
    help="Websockets per client address, per process (0: no limit).",
)
@click.option(
    "--max-spectators",
    default=DEFAULT["max_spectators"],
    show_default=True,
    type=click.IntRange(0),
    help="Spectators per table, per process (0: no limit).",
)
@click.option(
    "--max-open-tables",
    default=DEFAULT["max_open_tables"],
    show_default=True,
    type=click.IntRange(0),
    help="Unfinished tables one client address may create (0: no limit).",
)
@click.option(
    "--header-timeout",
    default=DEFAULT["header_timeout"],
    show_default=True,
    type=click.FloatRange(0.1),
    help="Seconds a client has to send a request's headers, and its body.",
)
@click.option(
    "--review-workers",
    default=DEFAULT["review_workers"],
    show_default=True,
    type=click.IntRange(0),
    help="Game reviews worked out at once, per process; more are refused for now (0: none).",
)
@click.option(
    "--reviews-per-minute",
    default=DEFAULT["reviews_per_minute"],
    show_default=True,
    type=click.FloatRange(0),
    help="New game reviews per client address per minute, 4 at once (0: no limit).",
)
@click.option(
    "--max-concurrency",
    default=DEFAULT["max_concurrency"],
    show_default=True,
    type=click.IntRange(0),
    help="Connections and requests at once per process; 503 past it (0: no limit).",
)
@click.option(
    "--accept-rate",
    default=DEFAULT["accept_rate"],
    show_default=True,
    type=click.FloatRange(0),
    help="New connections taken a second per process; more wait in the kernel's queue "
    "(0: no pace).",
)
@click.option(
    "--accept-burst",
    default=DEFAULT["accept_burst"],
    show_default=True,
    type=click.IntRange(1),
    help="New connections taken at once before --accept-rate paces them.",
)
@click.option(
    "--create-rate",
    default=DEFAULT["create_rate"],
    show_default=True,
    type=click.FloatRange(0),
    help="New tables set up a second per process; more wait their turn, up to "
    "--create-wait seconds, then are refused as busy (0: no pace).",
)
@click.option(
    "--create-burst",
    default=DEFAULT["create_burst"],
    show_default=True,
    type=click.IntRange(1),
    help="New tables set up at once before --create-rate paces them.",
)
@click.option(
    "--create-wait",
    default=DEFAULT["create_wait"],
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds a new table may wait its turn before the request is refused as busy.",
)
@click.option(
    "--quick-wait",
    default=DEFAULT["quick_wait"],
    show_default=True,
    type=click.FloatRange(0, 3600),
    help="Seconds a table Play now opened waits for people before bots fill its open seats.",
)
@click.option(
    "--blocked-names",
    default=None,
    type=click.Path(dir_okay=False),
    help="A file of names nobody may take here, one a line (~word: anywhere in a name); "
    "read again when it changes.",
)
def serve_command(
    host: str,
    port: int,
    db: str | None,
    redis: str | None,
    workers: int,
    bot_delay: float,
    grace: float,
    min_turn: float,
    http_rate: float,
    idle_minutes: float,
    metrics: bool,
    log_format: str,
    **limits: Any,
) -> None:
    """Serve ONO 99 to browsers: create a table, share its link, play in real time.

    Every table and every accepted move is stored in the SQLite file --db before anyone sees
    it; stop and restart the server at any time and unfinished games go on where they were.
    The start-up line says where that file is.
    """
    if not 0 <= port <= 65535:
        raise BadOptions(f"--port must be from 0 to 65535, not {port}")
    db = DEFAULT["db"] if db is None else db
    config = ServerConfig(
        db=db if db.startswith(("postgresql://", "postgres://")) else str(Path(db)),
        redis=redis,
        bot_delay=bot_delay,
        grace=grace,
        turn_limits=(min_turn, DEFAULT["turn_limits"][1]),
        http_rate=http_rate,
        idle=idle_minutes * 60,
        metrics=metrics,
        log_format=log_format,
        **limits,
    )
    try:
        config.check(workers)
    except ValueError as exc:
        raise BadOptions(str(exc)) from None
    if any(importlib.util.find_spec(m) is None for m in ("starlette", "uvicorn")):
        raise CliError(f"the server needs its extra: {pip_install('server')}")
    scale = config.postgres or redis is not None
    if scale and any(importlib.util.find_spec(m) is None for m in ("psycopg", "redis")):
        raise CliError(f"PostgreSQL and Redis need the scale extra: {pip_install('scale')}")
    from ..server import serve
    from ..server.workers import WorkerFailed

    def ready(url: str) -> None:
        where = "PostgreSQL" if config.postgres else config.db
        processes = f"; {workers} processes" if workers > 1 else ""
        click.echo(
            f"ONO 99 is served at {url}  (games are stored in {where}{processes}; Ctrl-C stops)"
        )
        sys.stdout.flush()

    try:
        serve(config, host, port, workers, on_ready=ready)
    except KeyboardInterrupt:
        pass  # Ctrl-C is how it stops (uvicorn re-raises it): no "Aborted!", not in JSON logs
    except WorkerFailed as exc:
        raise CliError(f"{exc}; see the messages above") from None
    except OSError as exc:
        why = exc.strerror or str(exc)
        if exc.filename is not None:  # the database's folder could not be made
            raise CliError(f"cannot make the folder of --db {config.db}: {why}") from None
        raise BadOptions(f"cannot listen on {host}:{port}: {why}") from None
    except Exception as exc:
        if type(exc).__module__.startswith("psycopg"):  # the database is not there
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            shown = re.sub(r"//[^@/]*@", "//", db)  # no password in the message
            raise CliError(f"cannot use the database {shown}: {first}") from None
        raise
