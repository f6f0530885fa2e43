"""Tables end (issue 26, docs/deploy.md "Tables end"): a lobby nobody starts and a game nobody
is at close after the idle time, their records kept and their memory freed on every process;
a game nobody is at waits instead of playing on; a look at a table does not keep it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from ono99.server import BackgroundServer
from server_support import (
    TIMEOUT,
    Client,
    create_table,
    run,
    running_server,
    server_fixture,
)

IDLE = 3.0  # seconds: the idle time of these servers

server = server_fixture("idle", idle=IDLE)


async def closed_code(client: Client, seconds: float = 10 * IDLE) -> int | None:
    """Read until the server closes the connection; its close code."""
    with pytest.raises(ConnectionClosed):
        while True:
            await client.receive(seconds)
    return client.ws.close_code


def status(base: str, code: str) -> tuple[int, dict[str, Any]]:
    r = httpx.get(f"{base}/api/tables/{code}", timeout=TIMEOUT)
    return r.status_code, r.json()


def test_a_lobby_nobody_starts_closes_and_says_so(server: Any) -> None:
    host = create_table(server.url, ["human", "human", "greedy"])
    code = host["code"]

    async def main() -> None:
        client = await Client.open(server.ws_url, code, host["token"])
        assert await closed_code(client) == 4410  # the table has closed
        notices = [m for m in client.messages if m["type"] == "notice"]
        assert [n["code"] for n in notices] == ["closed"]

    run(main())
    code_status, body = status(server.url, code)
    assert code_status == 410 and body["error"]["code"] == "closed"
    r = httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": "Leo"}, timeout=TIMEOUT)
    assert r.status_code == 410 and r.json()["error"]["code"] == "closed"

    async def late() -> None:  # a connection after it closed is told so, and closed
        client = Client(await connect(f"{server.ws_url}/ws/{code}", open_timeout=TIMEOUT), "")
        assert await closed_code(client) == 4410
        assert client.messages[-1]["code"] == "closed"

    run(late())


def test_a_finished_game_closes_later_and_its_record_stays(server: Any) -> None:
    host = create_table(server.url, ["human", "greedy"], turn_seconds=0.05)
    code = host["code"]

    async def main() -> None:
        client = await Client.open(server.ws_url, code, host["token"])
        await client.send({"type": "start"})
        # Nobody plays for the host: its timer runs out at every turn and the stand-in plays.
        await client.expect("table", lambda m: m["phase"] == "over", timeout=60)
        assert await closed_code(client) == 4410

    run(main(), 90)
    assert status(server.url, code)[0] == 410
    record = httpx.get(f"{server.url}/api/tables/{code}/games/1/record", timeout=TIMEOUT)
    assert record.status_code == 200 and record.json()["actions"]


def test_a_game_nobody_is_at_waits_then_closes(tmp_path: Path) -> None:
    """Every seat a bot; the host watches, starts it and leaves: the bots stop (nothing is
    stored after the host left), and the table closes after the idle time."""
    with running_server(tmp_path / "t.db", idle=3.0) as srv:
        host = create_table(srv.url, ["greedy", "greedy", "greedy"], name=None)
        code = host["code"]
        hub = srv.app.state.hub  # type: ignore[attr-defined]

        async def main() -> int:
            client = await Client.open(srv.ws_url, code, host["token"])
            await client.send({"type": "start"})
            await client.expect("update", lambda m: m["moves"] >= 3)
            await client.close()
            for _ in range(200):  # the server sees the close a moment later
                if code not in hub.tables:
                    break
                await asyncio.sleep(0.01)
            assert code not in hub.tables  # nobody is at it: not held in memory
            moves = hub.store.seq(code)
            await asyncio.sleep(1.0)
            assert hub.store.seq(code) == moves, "the bots played on with nobody there"
            return moves

        run(main())
        assert status(srv.url, code)[0] == 200  # not yet idle long enough
        for _ in range(100):  # closed by the sweep of idle tables in storage
            if status(srv.url, code)[0] == 410:
                break
            httpx.get(f"{srv.url}/api/options", timeout=TIMEOUT)
            asyncio.run(asyncio.sleep(0.1))
        assert status(srv.url, code)[0] == 410


def test_a_look_at_a_table_does_not_keep_it_in_memory(tmp_path: Path) -> None:
    with running_server(tmp_path / "t.db") as srv:
        hub = srv.app.state.hub  # type: ignore[attr-defined]
        codes = [create_table(srv.url, ["human", "greedy"])["code"] for _ in range(5)]
        for code in codes:
            assert status(srv.url, code)[0] == 200
        assert not set(codes) & set(hub.tables)


def test_idle_tables_from_before_a_restart_close(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with running_server(db, idle=0) as first:  # never closes anything
        code = create_table(first.url, ["human", "human"])["code"]
    with running_server(db, idle=1.0) as second:
        srv: BackgroundServer = second
        for _ in range(100):
            if status(srv.url, code)[0] == 410:
                break
            asyncio.run(asyncio.sleep(0.1))
        assert status(srv.url, code)[0] == 410
