"""Quick reactions (docs/protocol.md, `react`): a seated person's 👍 reaches everyone at the
table, spectators and the other server processes' connections too; anything else, a spectator's,
or a second one within two seconds is refused to the sender alone. One server on SQLite, and
three processes on PostgreSQL and Redis (each connection on the next process)."""

from __future__ import annotations

from typing import Any

from ono99.server import BackgroundServer
from server_support import Client, Cluster, run, server_fixture
from test_server_protocol import seated

OPTIONS: dict[str, Any] = {"grace": 600, "bot_delay": 30, "ws_rate": 50, "ws_burst": 100}


server = server_fixture("react", **OPTIONS)


def test_a_reaction_reaches_everyone_and_only_the_offered_ones_do(
    server: BackgroundServer | Cluster,
) -> None:
    async def main() -> None:
        code, clients, _ = await seated(server, ["human", "human", "greedy"])
        watcher = await Client.open(server.ws_url, code, None, "watcher")
        await clients[1].send({"type": "react", "reaction": "🎉"})
        for c in (*clients.values(), watcher):
            got = await c.expect("reaction")
            assert got == {"type": "reaction", "seat": 1, "reaction": "🎉"}
        for frame, code_ in (
            ({"type": "react", "reaction": "🎉", "id": 1}, "rate_limited"),  # within 2 s
            ({"type": "react", "reaction": "you lose", "id": 2}, "bad_request"),
            ({"type": "react", "reaction": "💩", "id": 3}, "bad_request"),
            ({"type": "react", "id": 4}, "bad_request"),
        ):
            await clients[1].send(frame)
            refused = await clients[1].expect("error")
            assert (refused["code"], refused["id"]) == (code_, frame["id"])
        await watcher.send({"type": "react", "reaction": "👍", "id": "w"})
        refused = await watcher.expect("error")
        assert (refused["code"], refused["id"]) == ("not_seated", "w")
        for c in (clients[0], watcher):
            await c.drain()
            assert len([m for m in c.messages if m["type"] == "reaction"]) == 1
        for c in (*clients.values(), watcher):
            await c.close()

    run(main())
