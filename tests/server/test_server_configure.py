"""The host changes the rules between games (docs/protocol.md, `configure`): in the lobby and
once a game is over, never during one, and never a guest; everyone is told (on another server
process too), and the next game is played by the new rules."""

from __future__ import annotations

import random
from typing import Any

from ono99.server import BackgroundServer
from server_support import Client, Cluster, create_table, join, run, server_fixture

server = server_fixture("configure", grace=600, bot_delay=0.01, ws_rate=1000, ws_burst=1000)


async def play_to_the_end(clients: dict[int, Client], rng: random.Random) -> None:
    """Both people act at random until the game is over."""
    while True:
        for c in clients.values():
            await c.drain()
        views = {s: c.view for s, c in clients.items()}
        if any(v is None or v["over"] for v in views.values()):
            return
        for s, v in views.items():
            assert v is not None
            if v["legal"]:
                action = rng.choice(v["legal"])
                await clients[s].send({"type": "act", "action": action, "moves": clients[s].moves})
                await clients[s].expect(("update", "error"))
                break


def test_the_host_changes_the_rules_between_games(server: BackgroundServer | Cluster) -> None:
    async def main() -> None:
        host = create_table(server.url, ["human", "human"], edition="2022")
        code = host["code"]
        guest = join(server.url, code, "Ben")
        ana = await Client.open(server.ws_url, code, host["token"], "Ana")
        ben = await Client.open(server.ws_url, code, guest["token"], "Ben")

        async def refused(client: Client, message: dict[str, Any], code_: str) -> None:
            await client.send({**message, "id": code_})
            error = await client.expect("error", lambda m: m.get("id") == code_)
            assert error["code"] == code_, error

        single = {"rules": {"edition": "1980", "match": "single"}, "turn_seconds": 0}
        await refused(ben, {"type": "configure", "config": single}, "not_host")
        await refused(ana, {"type": "configure", "config": {"rules": {"x": 1}}}, "bad_rules")
        await ana.send({"type": "configure", "config": single})  # in the lobby
        for c in (ana, ben):
            seen = await c.expect("table", lambda m: m["rules"]["edition"] == "1980")
            assert seen["rules"]["match"] == "single" and seen["phase"] == "lobby"
        await ana.send({"type": "start"})
        for c in (ana, ben):
            await c.expect("state", lambda m: m["game"] == 1)
        points = {"rules": {"edition": "2022", "match": "points", "target": 60}}
        await refused(ana, {"type": "configure", "config": points}, "started")
        await play_to_the_end({0: ana, 1: ben}, random.Random(5))
        await ana.send({"type": "configure", "config": points})  # between games
        for c in (ana, ben):
            seen = await c.expect("table", lambda m: m["rules"]["match"] == "points")
            assert seen["rules"]["edition"] == "2022" and seen["rules"]["target"] == 60
            assert seen["phase"] == "over"
        await refused(ben, {"type": "configure", "config": single}, "not_host")
        for c in (ana, ben):
            await c.send({"type": "ready"})
        for c in (ana, ben):
            state = await c.expect("state", lambda m: m["game"] == 2)
            assert state["view"]["scores"] == [0, 0]  # a points match now
        for c in (ana, ben):
            await c.close()

    run(main(), 180)  # a whole game, each move after a drain of both: slow on a busy cluster
