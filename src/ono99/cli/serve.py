"""``ono99 serve``: the multiplayer server and its browser client."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import Any

import click

from ..invocation import HOME_HELP, default_database, pip_install
from .command import Command
from .options import BadOptions, CliError


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
    default=1.0,
    show_default=True,
    type=click.FloatRange(0, 30),
    help="Seconds a bot waits before it moves, so people can follow.",
)
@click.option(
    "--grace",
    default=60.0,
    show_default=True,
    type=click.FloatRange(0, 86400),
    help="Seconds a dropped player keeps their seat before a bot plays for them.",
)
@click.option(
    "--min-turn",
    default=5.0,
    show_default=True,
    type=click.FloatRange(0.05, 600),
    help="Shortest turn timer a table may ask for, in seconds.",
)
@click.option(
    "--http-rate",
    default=2.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Tables created or joined per second per client address (0: no limit).",
)
@click.option(
    "--idle-minutes",
    default=30.0,
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
    default=20,
    show_default=True,
    type=click.IntRange(0),
    help="Websockets per client address, per process (0: no limit).",
)
@click.option(
    "--max-spectators",
    default=50,
    show_default=True,
    type=click.IntRange(0),
    help="Spectators per table, per process (0: no limit).",
)
@click.option(
    "--max-open-tables",
    default=5,
    show_default=True,
    type=click.IntRange(0),
    help="Unfinished tables one client address may create (0: no limit).",
)
@click.option(
    "--header-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1),
    help="Seconds a client has to send a request's headers, and its body.",
)
@click.option(
    "--max-concurrency",
    default=4000,
    show_default=True,
    type=click.IntRange(0),
    help="Connections and requests at once per process; 503 past it (0: no limit).",
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
    try:
        from ..server import ServerConfig, run
    except ImportError as exc:  # the server extra is not installed
        raise CliError(f"the server needs its extra: {pip_install('server')} ({exc})") from None
    if not 0 <= port <= 65535:
        raise BadOptions(f"--port must be from 0 to 65535, not {port}")
    if db is None:
        db = str(default_database())
    postgres = db.startswith(("postgresql://", "postgres://"))
    if not postgres and Path(db).is_dir():
        raise BadOptions(f"--db must be a file, and {db!r} is a folder")
    if redis is not None and not postgres:
        raise BadOptions("--redis joins processes that share a postgresql:// --database")
    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        raise BadOptions(f"--redis must be a redis:// address, not {redis!r}")
    if workers > 1 and (not postgres or redis is None):
        raise BadOptions(
            f"--workers {workers} runs processes that share the tables: they need a "
            "postgresql:// --database and a --redis bus (docs/deploy.md)"
        )
    if workers > 1 and os.name != "posix":
        raise BadOptions("--workers needs a POSIX system (Linux, macOS); run one per port")
    if postgres or redis is not None:
        missing = [m for m in ("psycopg", "redis") if importlib.util.find_spec(m) is None]
        if missing:
            raise CliError(
                f"PostgreSQL and Redis need the scale extra: {pip_install('scale')}"
            ) from None
    if not postgres:
        try:
            Path(db).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CliError(f"cannot make the folder of --db {db}: {exc.strerror or exc}") from None
    config = ServerConfig(
        db=db if postgres else str(Path(db)),
        redis=redis,
        bot_delay=bot_delay,
        grace=grace,
        turn_limits=(min_turn, 600.0),
        http_rate=http_rate,
        idle=idle_minutes * 60,
        metrics=metrics,
        log_format=log_format,
        **limits,
    )

    def ready(url: str) -> None:
        where = "PostgreSQL" if postgres else config.db
        processes = f"; {workers} processes" if workers > 1 else ""
        click.echo(
            f"ONO 99 is served at {url}  (games are stored in {where}{processes}; Ctrl-C stops)"
        )
        sys.stdout.flush()

    try:
        if workers == 1:
            run(config, host, port, on_ready=ready)
        else:
            from ..server.workers import WorkerFailed, serve_workers
            from ..storage import open_store

            open_store(config.db).close()  # reachable, and migrated before the children race
            try:
                serve_workers(config, host, port, workers, on_ready=ready)
            except WorkerFailed as exc:
                raise CliError(f"{exc}; see the messages above") from None
    except KeyboardInterrupt:
        pass  # Ctrl-C is how it stops (uvicorn re-raises it): no "Aborted!", not in JSON logs
    except ImportError as exc:
        raise CliError(
            f"PostgreSQL and Redis need the scale extra: {pip_install('scale')}"
        ) from exc
    except OSError as exc:
        raise BadOptions(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except Exception as exc:
        if type(exc).__module__.startswith("psycopg"):  # the database is not there
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            shown = re.sub(r"//[^@/]*@", "//", db)  # no password in the message
            raise CliError(f"cannot use the database {shown}: {first}") from None
        raise
