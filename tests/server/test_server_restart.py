"""A real ``python -m ono99 serve`` process is killed (SIGKILL) in the middle of a game and
started again on the same database: the game goes on from exactly where it was, and nothing
that anyone was shown is lost."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from ono99.engine import load_record, replay_states, view
from ono99.session import encode_view
from ono99.storage import SqliteStore
from server_support import TIMEOUT, Client, ServerProcess, create_table, join, running_server
from services import REDIS, drop_schema, fresh_schema, need_postgres, need_redis, postgres_url
from tiers import slow


def serve(db: Path | str) -> ServerProcess:
    """``ono99 serve`` on a SQLite file, or (``db`` a postgresql:// address) on PostgreSQL
    with the Redis bus."""
    where = ["--db", str(db)] if isinstance(db, Path) else ["--database", db, "--redis", REDIS]
    return ServerProcess(
        ["-m", "ono99", "serve", "--host", "127.0.0.1", "--port", "0", *where]
        + ["--bot-delay", "0.02", "--grace", "600", "--http-rate", "0"],
        cwd=db.parent if isinstance(db, Path) else None,
    )


@contextmanager
def server_process(db: Path | str) -> Iterator[ServerProcess]:
    server = serve(db)
    try:
        yield server
    finally:
        server.stop()


async def connect_all(ws_url: str, code: str, tokens: dict[int, str]) -> dict[int | None, Client]:
    clients: dict[int | None, Client] = {
        s: await Client.open(ws_url, code, t, f"seat {s}") for s, t in tokens.items()
    }
    clients[None] = await Client.open(ws_url, code, None, "spectator")
    return clients


async def close_all(clients: dict[int | None, Client]) -> None:
    for c in clients.values():
        await asyncio.wait_for(c.close(), TIMEOUT)


async def caught_up(client: Client, moves: int) -> None:
    while client.moves < moves:
        await client.receive()


async def play_until(
    clients: dict[int | None, Client], rng: random.Random, done: Any
) -> dict[str, Any]:
    """People play at random, one move at a time (the bot plays by itself), until an update
    for which ``done(update)`` holds, or the end; every connection has then seen it."""
    people = {s: c for s, c in clients.items() if s is not None}
    watcher = people[0]
    while True:
        v = watcher.view
        assert v is not None
        to_play = v["to_play"]
        if to_play in people:
            mover = people[to_play]
            await caught_up(mover, watcher.moves)
            assert mover.view is not None
            action = rng.choice(mover.view["legal"])
            await mover.send({"type": "act", "action": action, "moves": mover.moves})
        update = await watcher.expect("update")
        if done(update) or update["view"]["over"]:
            for c in clients.values():
                await caught_up(c, update["moves"])
            return update


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=slow)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    """A SQLite file, or a PostgreSQL schema of this test's own (dropped afterwards)."""
    if request.param == "sqlite":
        yield tmp_path / "games.db"
        return
    need_postgres()
    need_redis()
    schema = fresh_schema()
    try:
        yield postgres_url(schema)
    finally:
        drop_schema(schema)


def test_a_killed_server_resumes_every_game_exactly(database: Path | str) -> None:
    db = database
    seats = ["human", "human", "greedy"]
    rng = random.Random(11)
    with server_process(db) as first:
        host = create_table(first.url, seats, edition="1980", match="single")
        code = host["code"]
        tokens = {host["seat"]: host["token"]}
        joined = join(first.url, code, "Ben")
        tokens[joined["seat"]] = joined["token"]
        lobby = create_table(first.url, ["human", "human"])  # a table still in its lobby

        async def before() -> dict[int | None, Client]:
            clients = await connect_all(first.ws_url, code, tokens)
            await clients[0].send({"type": "start"})
            for c in clients.values():
                await c.expect("state", lambda m: m["game"] == 1)
            # Play a while, stopping where a person is to play (nothing else is due).
            await play_until(
                clients, rng, lambda m: m["moves"] >= 8 and m["view"]["to_play"] in (0, 1)
            )
            first.kill()
            await close_all(clients)
            return clients

        seen = asyncio.run(before())

    last = {seat: c.messages[-1] for seat, c in seen.items()}
    moves = last[0]["moves"]
    assert not last[0]["view"]["over"], "the game ended too soon to test a restart"
    actions_seen = [(m["seat"], m["action"]) for m in seen[None].messages if m["type"] == "update"]
    assert len(actions_seen) == moves

    with server_process(db) as second:
        info = httpx.get(f"{second.url}/api/tables/{code}", timeout=TIMEOUT).json()
        assert info["phase"] == "playing" and [s["name"] for s in info["seats"]][:2] == [
            "Ana",
            "Ben",
        ]
        assert httpx.get(f"{second.url}/api/tables/{lobby['code']}").json()["phase"] == "lobby"

        async def after() -> dict[int | None, Client]:
            clients = await connect_all(second.ws_url, code, tokens)
            for seat, c in clients.items():
                state = next(m for m in c.messages if m["type"] == "state")
                assert state["moves"] == moves  # nothing lost, nothing extra
                assert state["view"] == last[seat]["view"]  # the same state, seat by seat
            # Play on; kill again the moment a move is announced (the bot may be moving).
            await play_until(clients, rng, lambda m: m["moves"] >= moves + 6)
            second.kill()
            await close_all(clients)
            return clients

        resumed = asyncio.run(after())
        announced = max(c.moves for c in resumed.values())

    with server_process(db) as third:

        async def finish() -> dict[int | None, Client]:
            clients = await connect_all(third.ws_url, code, tokens)
            for c in clients.values():
                assert c.moves >= announced  # every announced move was stored first
            if not (clients[0].view or {}).get("over"):
                await play_until(clients, rng, lambda m: False)
            await close_all(clients)
            return clients

        final = asyncio.run(finish())
        record = httpx.get(f"{third.url}/api/tables/{code}/games/1/record", timeout=TIMEOUT)
        assert record.status_code == 200

    game = load_record(record.text)
    assert [(s, str(a)) for s, a in game.actions[:moves]] == actions_seen
    states = list(replay_states(game))
    assert states[-1].over
    for clients in (seen, resumed, final):
        for seat, c in clients.items():
            for message in c.messages:
                if message.get("view") is not None:
                    expected = encode_view(view(states[message["moves"]], seat))
                    assert message["view"] == expected


def test_serve_keeps_its_default_database_in_the_data_folder(tmp_path: Path) -> None:
    """``./ono99 serve`` run in a checkout left ``ono99.db`` beside the code; the default is
    $ONO99_HOME/ono99.db (where the records go), and the start-up line and --help say so."""
    checkout, home = tmp_path / "checkout", tmp_path / "home"
    checkout.mkdir()
    env = {**os.environ, "ONO99_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "ono99", "serve", "--host", "127.0.0.1", "--port", "0"]
    helped = subprocess.run(
        [*command, "--help"], capture_output=True, text=True, env=env, timeout=60
    )
    assert "[default: $ONO99_HOME/ono99.db, ONO99_HOME=~/.local/share/ono99]" in " ".join(
        helped.stdout.split()
    )
    with subprocess.Popen(
        command, cwd=checkout, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as proc:
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
        finally:
            proc.terminate()
            proc.communicate(timeout=30)
    assert f"(games are stored in {home / 'ono99.db'}; Ctrl-C stops)" in line, line
    assert (home / "ono99.db").is_file()
    assert list(checkout.iterdir()) == []


def test_a_server_on_sqlite_checkpoints_on_a_thread_and_folds_the_log_in_when_it_stops(
    tmp_path: Path,
) -> None:
    """While it serves, a SQLite server's checkpoints run on their own thread (its commits on
    the event loop never sync the disk, tests/storage); when it stops, the thread stops first
    and the last connection folds the log into the database."""
    db = tmp_path / "ono99.db"
    with running_server(db) as server:
        store = server.app.state.hub.store._store  # type: ignore[attr-defined]
        checkpointer = store._checkpointer
        assert checkpointer is not None and checkpointer.is_alive()
        code = create_table(server.url, ["human", "greedy"])["code"]
        assert Path(f"{db}-wal").exists()
    assert not checkpointer.is_alive() and store._checkpointer is None
    assert not Path(f"{db}-wal").exists()
    assert SqliteStore(db).load_table(code) is not None
