"""Between games (docs/protocol.md, `ready` and `again`): the next game starts when every
person there has said they are ready, or when the host's countdown, which everyone sees, runs
out — never under someone still reading the end. Real servers: one on SQLite, and three
processes on PostgreSQL and Redis, where the two people sit on different processes."""

from __future__ import annotations

from typing import Any

from ono99.server import BackgroundServer
from server_support import Client, Cluster, run, server_fixture
from test_server_protocol import seated

# Turns of 0.05 s: the stand-in plays every turn, so a game is over in moments.
OPTIONS: dict[str, Any] = {"grace": 600, "bot_delay": 0.01, "countdown": 1.0}


server = server_fixture("next", **OPTIONS)


async def game_over(clients: dict[int, Client]) -> None:
    for c in clients.values():
        await c.expect(("update", "state"), lambda m: m["view"]["over"], timeout=30)


def test_everyone_ready_starts_the_next_game(server: BackgroundServer | Cluster) -> None:
    async def main() -> None:
        _code, clients, _ = await seated(server, ["human", "human"], turn_seconds=0.05)
        await game_over(clients)
        ana, ben = clients[0], clients[1]
        await ben.send({"type": "ready"})
        for c in (ana, ben):  # everyone sees who is ready and who is awaited
            seen = await c.expect("table", lambda m: (m["next"] or {}).get("ready") == [1])
            assert seen["next"]["waiting"] == [0] and seen["next"]["ms_left"] is None
        assert ana.game == 1  # nothing started under Ana
        await ana.send({"type": "ready"})
        for c in (ana, ben):
            state = await c.expect("state", lambda m: m["game"] == 2)
            assert state["moves"] == 0
        for c in clients.values():
            await c.close()

    run(main())


def test_the_host_s_countdown_is_seen_and_then_starts_the_game(
    server: BackgroundServer | Cluster,
) -> None:
    async def main() -> None:
        _code, clients, _ = await seated(server, ["human", "human"], turn_seconds=0.05)
        await game_over(clients)
        ana, ben = clients[0], clients[1]
        await ana.send({"type": "again"})
        seen = await ben.expect("table", lambda m: (m["next"] or {}).get("ms_left") is not None)
        assert 0 < seen["next"]["ms_left"] <= 1000 and seen["next"]["waiting"] == [1]
        await ben.expect("state", lambda m: m["game"] == 2, timeout=10)
        await ana.expect("state", lambda m: m["game"] == 2, timeout=10)
        for c in clients.values():
            await c.close()

    run(main())
