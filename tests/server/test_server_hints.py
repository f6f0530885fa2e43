"""The expert's hint in the browser (docs/protocol.md, `hint`): for a seated person with a
decision to make, every legal action with its estimated chance of winning, searched from their
view alone and sent to them alone; refused to spectators, out of turn, and at a table whose host
switched hints off. A real server on SQLite."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from ono99.server import BackgroundServer
from server_support import Client, create_table, run, running_server
from test_server_protocol import seated

OPTIONS: dict[str, Any] = {"grace": 600, "bot_delay": 0.05, "ws_rate": 50, "ws_burst": 100}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundServer]:
    with running_server(tmp_path_factory.mktemp("hints") / "ono99.db", **OPTIONS) as srv:
        yield srv


def test_the_hint_goes_to_the_person_to_play_alone(server: BackgroundServer) -> None:
    async def main() -> None:
        code, clients, _ = await seated(server, ["human", "human", "greedy"])
        watcher = await Client.open(server.ws_url, code, None, "watcher")
        view = clients[0].view
        while view is None or view["to_play"] == 2:  # the bot first: wait for a person's turn
            await clients[0].expect("update")
            view = clients[0].view
        mover, other = clients[view["to_play"]], clients[1 - view["to_play"]]
        assert mover.view is not None
        await mover.send({"type": "hint", "id": "h1"})
        hint = await mover.expect("hint")
        assert hint["id"] == "h1" and hint["seat"] == view["to_play"]
        assert (hint["game"], hint["moves"]) == (1, mover.moves)
        assert [a["action"] for a in hint["actions"]] == mover.view["legal"]
        assert hint["choice"] in mover.view["legal"]
        assert all(0.0 <= a["chance"] <= 1.0 for a in hint["actions"])
        # Asked again at the same decision: the same answer, not a second search's.
        await mover.send({"type": "hint", "id": 2})
        again = await mover.expect("hint")
        assert {**again, "id": "h1"} == hint
        # Out of turn, and watching: refused, to the sender only.
        await other.send({"type": "hint", "id": "h3"})
        refused = await other.expect("error")
        assert refused["code"] == "not_your_turn" and refused["id"] == "h3"
        await watcher.send({"type": "hint", "id": "h4"})
        refused = await watcher.expect("error")
        assert refused["code"] == "not_seated" and refused["id"] == "h4"
        for c in (other, watcher):
            await c.drain()
            assert not [m for m in c.messages if m["type"] == "hint"]
        # Nothing of the mover's hand reaches anyone else through it.
        hand = mover.view["hand"]
        assert hand and all(json.dumps(hand) not in raw for raw in watcher.raw)
        for c in (*clients.values(), watcher):
            await c.close()

    run(main())


def test_a_host_can_switch_hints_off_for_the_table(server: BackgroundServer) -> None:
    async def main() -> None:
        host = create_table(server.url, ["human", "greedy"], hints=False)
        ana = await Client.open(server.ws_url, host["code"], host["token"], "Ana")
        assert ana.table is not None and ana.table["hints"] is False
        await ana.send({"type": "start"})
        await ana.expect("state", lambda m: m["game"] == 1)
        await ana.send({"type": "hint", "id": 1})
        refused = await ana.expect("error")
        assert refused["code"] == "hints_off" and refused["id"] == 1
        await ana.close()

    run(main())
