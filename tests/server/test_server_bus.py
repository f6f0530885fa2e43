"""Two hubs in one Python process, as two server processes would be, on one SQLite file and
the in-process bus (``LocalBus``): the second implementation of the bus, held to the same
promises as Redis — each hub's connections see every move once and in order, whichever hub
took it, and of two hubs given a move for the same position at once exactly one takes it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from ono99.server.bus import LocalBroker, LocalBus
from ono99.server.hub import Hub
from ono99.session import (
    Command,
    Effects,
    Identity,
    SessionError,
    Settings,
    Table,
    parse_table_request,
    wire,
)
from ono99.storage import SqliteStore


class Sink:
    """Where a connection's messages go: kept, to be checked."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.messages.append(json.loads(text))

    def moves(self) -> list[int]:
        return [m["moves"] for m in self.messages if m["type"] == "update"]


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_two_hubs_on_the_local_bus_share_a_table(tmp_path: Path) -> None:
    async def main() -> None:
        broker = LocalBroker()
        settings = Settings(bot_delay=0.01, grace=600)
        hubs = [
            Hub(SqliteStore(tmp_path / "t.db"), settings, bus=LocalBus(broker), takeover=0.05)
            for _ in range(2)
        ]
        for hub in hubs:
            await hub.start()
        a, b = hubs
        config, name = parse_table_request(
            {"seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ana"}, bots=settings.bots
        )
        table, _token, host = a.create(config, name)
        code = table.code
        ana, ben = Sink(), Sink()
        ben_who = Identity(1, False)
        assert a.attach(code, host, ana)

        def take(t: Table) -> tuple[int, Effects]:
            seat, _, effects = t.join("Ben", b.now())
            return seat, effects

        seat = b.mutate(code, take)
        assert seat == 1 and b.attach(code, ben_who, ben)
        # At once, before a has heard of Ben: a refusal (seats open) is checked against
        # storage first, so the host's start is taken.
        a.handle(code, host, Command("start"), ana)
        await settle()
        for turn in range(30):
            t = a.tables[code]
            assert t.state is not None
            if t.state.over:
                break
            moves = t.state.moves
            mover = t.state.to_play
            who = host if mover == 0 else ben_who
            sinks = (ana, ben)
            legal = [m for m in sinks[mover].messages if m.get("view")][-1]["view"]["legal"]
            refused = 0
            for hub, sink in ((a, ana), (b, ben)):  # both hubs, the same instant
                try:
                    hub.handle(
                        code,
                        who,
                        Command("act", action=legal[turn % len(legal)], moves=moves),
                        sink,
                    )
                except SessionError as exc:
                    # Refused by the table brought up to date: as stale, or as over when the
                    # other hub's copy of that move ended the game.
                    assert exc.code in ("stale", "over")
                    refused += 1
            assert refused == 1
            await settle()
        assert ana.moves() == ben.moves() == list(range(1, len(ana.moves()) + 1))
        assert len(ana.moves()) >= 10
        stored = a.store.load_table(code)
        assert stored is not None and len(stored.actions) == len(ana.moves())
        for hub in hubs:
            await hub.stop()
            hub.store.close()

    asyncio.run(asyncio.wait_for(main(), 60))


def test_a_new_game_reaches_the_other_hub_without_reading_the_table(tmp_path: Path) -> None:
    """The note of a new game names it; the other hub reads only its seed (which the bus
    never carries) and deals the same game, instead of loading the whole table again."""

    async def main() -> None:
        broker = LocalBroker()
        settings = Settings(bot_delay=30, grace=600)
        a, b = (
            Hub(SqliteStore(tmp_path / "t.db"), settings, bus=LocalBus(broker)) for _ in range(2)
        )
        for hub in (a, b):
            await hub.start()
        config, name = parse_table_request(
            {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "name": "Ana"},
            bots=settings.bots,
        )
        table, _token, host = a.create(config, name)
        code = table.code
        ana, spectator = Sink(), Sink()
        assert a.attach(code, host, ana) and b.attach(code, Identity(None, False), spectator)
        await settle()
        loads: list[str] = []
        load_table = b.store.load_table
        b.store.load_table = lambda c: loads.append(c) or load_table(c)  # type: ignore[method-assign]
        a.handle(code, host, Command("start"), ana)
        await settle()
        assert loads == []
        dealt = spectator.messages[-2:]
        assert [m["type"] for m in dealt] == ["state", "table"]
        assert dealt[0]["game"] == 1
        assert dealt[0]["view"] == wire.state_message(a.tables[code], None, a.now())["view"]
        assert b.synced[code] == a.synced[code]
        for hub in (a, b):
            await hub.stop()
            hub.store.close()

    asyncio.run(asyncio.wait_for(main(), 60))


def test_a_seat_taken_on_one_hub_is_seen_at_once_on_the_other(tmp_path: Path) -> None:
    """Before the note of a join has come, the other hub's copy is behind; what it greets a
    connection with, and what it answers over HTTP (``fresh``), is the table as stored: the
    new seat's link works there at once (``serve --workers`` puts a join and the websocket
    that follows it on any of its processes)."""

    async def main() -> None:
        broker = LocalBroker()
        settings = Settings(grace=600)
        a, b = (
            Hub(SqliteStore(tmp_path / "t.db"), settings, bus=LocalBus(broker)) for _ in range(2)
        )
        for hub in (a, b):
            await hub.start()
        config, name = parse_table_request(
            {"seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ana"}, bots=settings.bots
        )
        table, _token, _host = a.create(config, name)
        code = table.code
        assert b.attach(code, Identity(None, False), Sink())
        await settle()

        def take(t: Table) -> tuple[str, Effects]:
            _seat, token, effects = t.join("Ben", a.now())
            return token, effects

        token = a.mutate(code, take)
        assert b.tables[code].seats[1].name is None  # the note is on its way
        fresh = b.fresh(code)
        assert fresh is not None and fresh.seats[1].name == "Ben"
        assert fresh.identify(token).seat == 1
        await settle()
        assert b.synced[code] == a.synced[code]
        for hub in (a, b):
            await hub.stop()
            hub.store.close()

    asyncio.run(asyncio.wait_for(main(), 60))
