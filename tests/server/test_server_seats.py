"""Seats change hands (docs/protocol.md, `leave` and `seat`): a person gives up their seat and
watches, the host opens anyone's seat, in the lobby, between games or mid-game, and a stand-in
plays an open seat until someone joins. Against real servers: one on SQLite, and three
processes on PostgreSQL and Redis (every connection to the next process, so the connection a
change closes is usually on another process than the one that made it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from ono99.server import BackgroundServer
from ono99.server.hub import Hub
from ono99.session import Effects, Identity, Settings, Table, parse_table_request, wire
from ono99.storage import SqliteStore
from server_support import (
    TIMEOUT,
    Client,
    Cluster,
    join,
    run,
    server_fixture,
)
from test_server_protocol import seated

OPTIONS: dict[str, Any] = {"grace": 600, "bot_delay": 0.05, "ws_rate": 50, "ws_burst": 100}


server = server_fixture("seats", **OPTIONS)


async def close_code(client: Client) -> int | None:
    """Read on until the server closes the connection; its close code."""
    with pytest.raises(ConnectionClosed):
        while True:
            await client.receive(TIMEOUT)
    return client.ws.close_code


def hand_texts(client: Client) -> list[str]:
    return [m for m in client.raw if '"hand":[' in m]


def test_a_person_leaves_mid_game_the_stand_in_plays_and_a_newcomer_takes_the_seat(
    server: BackgroundServer | Cluster,
) -> None:
    async def main() -> None:
        code, clients, tokens = await seated(server, ["human", "human", "human"])
        ana, leaver = clients[0], clients[1]
        await leaver.send({"type": "leave", "id": "bye"})
        assert await close_code(leaver) == 4401  # the client forgets the link and watches
        table = await ana.expect("table", lambda m: m["seats"][1]["open"])
        # Open to anyone, and still named for the one who left (the log says whose it was).
        left = table["seats"][1]
        assert left["name"] == "P1" and left["left"] and table["phase"] == "playing"
        # The old link holds nothing now, on any process.
        again = await Client.open(server.ws_url, code, None, "watcher")
        with pytest.raises(ConnectionClosed):
            await Client.open(server.ws_url, code, tokens[1], "old link")
        # The stand-in plays the open seat: the game never waits for it.
        stood_in = None
        for _ in range(8):
            assert ana.view is not None
            mover = ana.view["to_play"]
            if mover == 1:
                stood_in = await ana.expect("update", lambda m: m["seat"] == 1)
                break
            player = clients[mover]
            while player.moves != ana.moves:
                await player.receive()
            assert player.view is not None
            await player.send({"type": "act", "action": player.view["legal"][0]})
            await ana.expect("update", lambda m, n=ana.moves: m["moves"] == n + 1)
        assert stood_in is not None and stood_in["by"] == "away"
        # A newcomer takes the seat mid-game, with its hand; the stand-in stops. The name of
        # the one who left is nobody's: the newcomer may have it.
        joined = join(server.url, code, "P1")
        assert joined["seat"] == 1
        zoe = await Client.open(server.ws_url, code, joined["token"], "the new P1")
        assert zoe.view is not None and zoe.view["seat"] == 1 and len(zoe.view["hand"]) >= 1
        assert zoe.table is not None and zoe.table["seats"][1]["name"] == "P1"
        assert not zoe.table["seats"][1]["open"] and not zoe.table["seats"][1]["left"]
        seen = await ana.expect("table", lambda m: m["seats"][1]["connected"])
        assert (seen["seats"][1]["name"], seen["seats"][1]["left"]) == ("P1", False)
        # The one who left, watching now, never sees a hand again.
        await again.drain()
        assert again.view is not None and again.view["hand"] is None
        assert not hand_texts(again)
        for c in (ana, clients[2], zoe, again):
            await c.close()

    run(main())


def test_the_host_opens_a_person_s_seat_and_only_the_host_may(
    server: BackgroundServer | Cluster,
) -> None:
    async def main() -> None:
        _code, clients, _tokens = await seated(server, ["human", "human", "greedy"])
        ana, ben = clients[0], clients[1]
        await ben.send({"type": "seat", "seat": 0, "kind": "open", "id": 7})
        refused = await ben.expect("error")
        assert refused["code"] == "not_host" and refused["id"] == 7
        await ana.send({"type": "seat", "seat": 2, "kind": "bot", "bot": "random", "id": 8})
        refused = await ana.expect("error")
        assert refused["code"] == "started" and refused["id"] == 8  # bots only between games
        await ana.send({"type": "seat", "seat": 1, "kind": "open"})
        assert await close_code(ben) == 4401
        table = await ana.expect("table", lambda m: m["seats"][1]["open"])
        assert table["seats"][2]["kind"] == "bot"
        assert table["seats"][1]["name"] == "P1" and table["seats"][1]["left"]  # removed
        await ana.close()

    run(main())


def test_in_the_lobby_a_seat_left_is_open_to_the_next_person(
    server: BackgroundServer | Cluster,
) -> None:
    async def main() -> None:
        from server_support import create_table

        host = create_table(server.url, ["human", "human"])
        code = host["code"]
        first = join(server.url, code, "Ben")
        ben = await Client.open(server.ws_url, code, first["token"], "Ben")
        ana = await Client.open(server.ws_url, code, host["token"], "Ana")
        await ben.send({"type": "leave"})
        assert await close_code(ben) == 4401
        lobby = await ana.expect("table", lambda m: m["seats"][1]["open"])
        assert lobby["seats"][1]["name"] is None and not lobby["seats"][1]["left"]
        await ana.send({"type": "start", "id": "go"})
        refused = await ana.expect("error")
        assert refused["code"] == "not_ready" and refused["id"] == "go"
        second = join(server.url, code, "Ben")  # the same name: Ben is gone
        assert second["seat"] == 1
        await ana.send({"type": "leave"})  # the host watches, and still hosts
        assert await close_code(ana) == 4401
        host_again = await Client.open(server.ws_url, code, host["token"], "host")
        welcome = next(m for m in host_again.messages if m["type"] == "welcome")
        assert welcome == {**welcome, "seat": None, "host": True}
        await host_again.close()

    run(main())


def test_the_host_gives_a_leaked_link_a_new_one_and_the_old_dies_at_once(
    server: BackgroundServer | Cluster,
) -> None:
    """docs/protocol.md `relink`: the new token reaches the host only; every connection of
    the old link closes (4401), on every process, and the old link opens nothing; the seat,
    its name and its hand stay, for whoever has the new link."""

    async def main() -> None:
        code, clients, tokens = await seated(server, ["human", "human", "greedy"])
        host, ben = clients[0], clients[1]
        thief = await Client.open(server.ws_url, code, tokens[1], "a second tab of the link")
        await host.send({"type": "relink", "seat": 1, "id": 7})
        link = await host.expect("link")
        assert link["seat"] == 1 and link["id"] == 7 and link["token"] != tokens[1]
        for old in (ben, thief):
            assert await close_code(old) == 4401
        with pytest.raises(ConnectionClosed):
            await Client.open(server.ws_url, code, tokens[1], "the old link again")
        back = await Client.open(server.ws_url, code, link["token"], "the new link")
        assert back.view is not None and back.view["seat"] == 1 and back.view["hand"]
        assert back.table is not None and back.table["seats"][1]["name"] == "P1"
        # Only the host, with the link, may; not for their own seat, a bot or nobody.
        await back.send({"type": "relink", "seat": 0, "id": "x"})
        assert (await back.expect("error"))["code"] == "not_host"
        for seat in (0, 2, 9):
            await host.send({"type": "relink", "seat": seat, "id": seat})
            refused = await host.expect("error", lambda m, s=seat: m.get("id") == s)
            assert refused["code"] == "bad_seat"
        for c in (host, back):
            await c.drain()
        # Nobody but the host ever saw the new token.
        assert all(link["token"] not in raw for c in (back, ben, thief) for raw in c.raw)
        for c in (host, back):
            await c.close()

    run(main())


def test_a_seat_left_is_still_named_for_its_person_when_the_table_is_reloaded(
    tmp_path: Path,
) -> None:
    """The name of the one who left is stored with the seat (``left_name``): a server that
    loads the table again (after a restart, or another process) shows the seat as they left
    it — open, named for them, marked as left."""

    async def main() -> None:
        settings = Settings(bot_delay=600, grace=600)
        hub = Hub(SqliteStore(tmp_path / "t.db"), settings)
        await hub.start()
        config, name = parse_table_request(
            {"seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ana"}, bots=settings.bots
        )
        table, _token, host = hub.create(config, name)
        code = table.code

        def take(t: Table) -> tuple[int, Effects]:
            seat, _, effects = t.join("Ben", hub.now())
            return seat, effects

        ben = Identity(hub.mutate(code, take), False)
        hub.mutate(code, lambda t: (None, t.start(host, hub.now())))
        hub.mutate(code, lambda t: (None, t.leave(ben, hub.now())))
        await hub.stop()
        again = Hub(SqliteStore(tmp_path / "t.db"), settings)
        await again.start()
        reloaded = again.get(code)
        assert reloaded is not None and reloaded.phase == "playing"
        seat = wire.table_message(reloaded, again.now())["seats"][1]
        assert (seat["name"], seat["open"], seat["left"]) == ("Ben", True, True)
        await again.stop()

    run(main())
