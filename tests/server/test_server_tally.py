"""The running tally (docs/protocol.md, `table.tally`): how many of the table's games each
seat has won, counted from the stored finished games, so that a restart keeps it."""

from __future__ import annotations

from pathlib import Path

from server_support import Client, run, running_server
from test_server_protocol import seated

# Turns of 0.05 s: the stand-in plays every turn, so a game is over in moments.
OPTIONS = {"grace": 600.0, "bot_delay": 0.01}


async def winners_of(clients: dict[int, Client]) -> list[int]:
    over = {}
    for s, c in clients.items():
        over[s] = await c.expect(("update", "state"), lambda m: m["view"]["over"], timeout=30)
    return list(over[0]["view"]["winners"])


def test_two_games_make_a_tally_that_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "tally.db"
    expected = [0, 0]
    tokens: dict[int, str] = {}
    code = ""

    async def two_games(url: str, ws_url: str) -> None:
        nonlocal code, tokens
        srv = type("S", (), {"url": url, "ws_url": ws_url})
        code, clients, tokens = await seated(srv, ["human", "human"], turn_seconds=0.05)
        table = await clients[0].expect("table")
        assert table["tally"] == [0, 0]
        for game in (1, 2):
            for seat in await winners_of(clients):
                expected[seat] += 1
            seen = await clients[1].expect("table", lambda m: m["phase"] == "over")
            assert seen["tally"] == expected, (game, seen["tally"])
            if game == 1:
                for c in clients.values():
                    await c.send({"type": "ready"})
                for c in clients.values():
                    await c.expect("state", lambda m: m["game"] == 2)
        assert sum(expected) >= 2  # 2–0 or 1–1 (a shared win would count for both)
        for c in clients.values():
            await c.close()

    async def after_restart(ws_url: str) -> None:
        watcher = await Client.open(ws_url, code, None, "spectator")
        table = watcher.table  # sent before the state that Client.open waited for
        assert table is not None
        assert (table["game"], table["tally"]) == (2, expected)
        await watcher.close()

    with running_server(db, **OPTIONS) as first:
        run(two_games(first.url, first.ws_url))
    with running_server(db, **OPTIONS) as second:
        run(after_restart(second.ws_url))
