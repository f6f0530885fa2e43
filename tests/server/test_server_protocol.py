"""The protocol over real websockets and HTTP, against a server on a loopback port:
joining, playing, refusals that reach only their sender, malformed and oversized messages,
reconnecting, the turn timer, the grace period and spectators."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from ono99.i18n import LANGUAGES
from ono99.i18n.export import browser_catalog
from ono99.server import BackgroundServer
from ono99.session import token_hash
from server_support import (
    TIMEOUT,
    Client,
    Cluster,
    create_table,
    join,
    running_cluster,
    running_server,
)
from tiers import slow

OPTIONS: dict[str, Any] = {"grace": 0.3, "ws_rate": 20, "ws_burst": 40}


@pytest.fixture(scope="module")
def local_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundServer]:
    """One server on a thread of this process, on SQLite: the default install."""
    db = tmp_path_factory.mktemp("protocol") / "ono99.db"
    with running_server(db, **OPTIONS) as srv:
        yield srv


@pytest.fixture(scope="module", params=["sqlite", pytest.param("cluster", marks=slow)])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BackgroundServer | Cluster]:
    """Every test here runs twice: on one server with SQLite, and on three server processes
    on PostgreSQL and Redis, each HTTP request and connection going to the next of them."""
    if request.param == "sqlite":
        db = tmp_path_factory.mktemp("protocol") / "ono99.db"
        with running_server(db, **OPTIONS) as srv:
            yield srv
    else:
        with running_cluster(3, **OPTIONS) as cluster:
            yield cluster


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 60))


async def seated(
    srv: BackgroundServer | Cluster, seats: list[str], **table: Any
) -> tuple[str, dict[int, Client], dict[int, str]]:
    """A table with people (connected clients) and bots, started."""
    host = create_table(srv.url, seats, **table)
    code = host["code"]
    tokens = {host["seat"]: host["token"]}
    for i, kind in enumerate(seats):
        if kind == "human" and i != host["seat"]:
            joined = join(srv.url, code, f"P{i}")
            tokens[joined["seat"]] = joined["token"]
    clients = {s: await Client.open(srv.ws_url, code, t, f"seat {s}") for s, t in tokens.items()}
    await clients[host["seat"]].send({"type": "start"})
    for c in clients.values():
        await c.expect("state", lambda m: m["game"] == 1)
    return code, clients, tokens


async def close_all(clients: dict[int, Client]) -> None:
    for c in clients.values():
        await c.close()


# ------------------------------------------------------------------ joining and playing


def test_join_start_and_play(server: BackgroundServer | Cluster) -> None:
    async def main() -> None:
        _code, clients, _ = await seated(server, ["human", "human", "human"])
        a = clients[0]
        assert a.table is not None and [s["name"] for s in a.table["seats"]] == ["Ana", "P1", "P2"]
        view = a.view
        assert view is not None and view["hand"] is not None and len(view["hand"]) == 4
        to_play = view["to_play"]
        mover = clients[to_play]
        assert mover.view is not None
        action = mover.view["legal"][0]
        await mover.send({"type": "act", "action": action, "moves": 0})
        for seat, c in clients.items():
            update = await c.expect("update")
            assert update["moves"] == 1 and update["seat"] == to_play
            assert update["action"] == action and update["by"] == "seat"
            assert update["events"][0]["kind"] == "play"
            assert update["view"]["seat"] == seat
            assert len(update["view"]["hand"]) == 4
        await close_all(clients)

    run(main())


def test_a_name_already_at_the_table_is_refused_and_the_seat_stays_open(
    server: BackgroundServer | Cluster,
) -> None:
    """Session rule (docs/protocol.md, joining) over the real server: a second "Ana" is
    refused with ``name_taken`` (409), the host's websocket hears of no change, the seat is
    still open for someone else, and that someone may take a bot's name (the bot moves over)."""

    async def main() -> None:
        host = create_table(server.url, ["human", "human", "human", "greedy"])
        code = host["code"]
        ana = await Client.open(server.ws_url, code, host["token"], "host")
        await ana.expect("table", lambda m: m["seats"][0]["connected"])
        heard = len(ana.messages)
        url = f"{server.url}/api/tables/{code}/join"
        for same in (" ana ", "ANA", "Ana"):
            r = httpx.post(url, json={"name": same}, timeout=TIMEOUT)
            assert r.status_code == 409, r.text
            assert r.json()["error"]["code"] == "name_taken"
            assert r.json()["error"]["params"] == {"name": "Ana"}  # whose name it is
        await ana.drain()
        assert [m["type"] for m in ana.messages[heard:]] == ["pong"]  # nothing changed
        assert ana.table is not None and [s["open"] for s in ana.table["seats"]] == [
            False, True, True, False
        ]  # fmt: skip
        bot_name = ana.table["seats"][3]["name"]
        joined = join(server.url, code, bot_name.upper())
        assert joined["seat"] == 1
        seen = await ana.expect("table", lambda m: not m["seats"][1]["open"])
        names = [s["name"] for s in seen["seats"]]
        assert names[1] == bot_name.upper() and names[3] not in (bot_name, "Ana", None)
        r = httpx.post(url, json={"name": bot_name}, timeout=TIMEOUT)  # now a person's name
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
        await ana.close()

    run(main())


def test_refusals_go_to_their_sender_only_and_change_nothing(
    server: BackgroundServer | Cluster,
) -> None:
    async def main() -> None:
        code, clients, _ = await seated(server, ["human", "human", "human"])
        view = clients[0].view
        assert view is not None
        to_play = view["to_play"]
        other = (to_play + 1) % 3
        mover = clients[to_play]
        assert mover.view is not None
        hand = mover.view["hand"]
        absent = next(c for c in "0123456789" if c not in hand)
        attempts = [
            (clients[other], {"type": "act", "action": "play 5", "id": 1}, "not_your_turn"),
            (mover, {"type": "act", "action": f"play {absent}", "id": 2}, "illegal"),
            (mover, {"type": "act", "action": "draw", "id": 3}, "illegal"),
            (mover, {"type": "act", "action": "fly away", "id": 4}, "bad_action"),
            (mover, {"type": "act", "action": "play 5", "moves": 9, "id": 5}, "stale"),
            (clients[1], {"type": "start", "id": 6}, "not_host"),
            (clients[0], {"type": "start", "id": 7}, "started"),
            (clients[0], {"type": "again", "id": 8}, "not_over"),
        ]
        sent: dict[int, set[int]] = {id(c): set() for c in clients.values()}
        for client, message, code_ in attempts:
            await client.send(message)
            sent[id(client)].add(message["id"])
            error = await client.expect("error")
            assert error["code"] == code_ and error["id"] == message["id"], error
        for c in clients.values():
            await c.drain()
            assert not [m for m in c.messages if m["type"] == "update"]
            assert {e["id"] for e in c.errors()} == sent[id(c)]  # each its own, no others
        # Nothing changed: a newcomer sees the game where it was.
        watcher = await Client.open(server.ws_url, code, None)
        assert watcher.moves == 0 and watcher.view is not None
        assert watcher.view["hand_sizes"] == [4, 4, 4]
        await watcher.close()
        await close_all(clients)

    run(main())


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("this is not json", "bad_json"),
        ("[1, 2, 3]", "bad_json"),
        (b"\xff\xfe\x00", "bad_json"),
        ('{"type": "teleport"}', "bad_request"),
        ('{"type": "act"}', "bad_request"),
        ('{"type": "act", "action": ["play", 7]}', "bad_request"),
        ('{"type": "act", "action": "play 7", "admin": true}', "bad_request"),
        ('{"type": "hello", "token": "again"}', "bad_request"),
        ('{"type": "ping", "pad": "' + "x" * 10_000 + '"}', "too_big"),
    ],
)
def test_malformed_and_oversized_messages_get_an_error(
    server: BackgroundServer, frame: str | bytes, code: str
) -> None:
    async def main() -> None:
        host = create_table(server.url, ["human", "greedy"])
        client = await Client.open(server.ws_url, host["code"], host["token"])
        await client.send(frame)
        error = await client.expect("error")
        assert error["code"] == code
        await client.drain()  # still connected and served
        await client.close()

    run(main())


def test_a_frame_above_the_websocket_limit_closes_the_connection(
    server: BackgroundServer | Cluster,
) -> None:
    async def main() -> None:
        host = create_table(server.url, ["human", "greedy"])
        client = await Client.open(server.ws_url, host["code"], host["token"])
        await client.send("x" * 200_000)
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(10):
                await client.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

    run(main())


def test_too_many_messages_are_refused(server: BackgroundServer | Cluster) -> None:
    async def main() -> None:
        host = create_table(server.url, ["human", "greedy"])
        client = await Client.open(server.ws_url, host["code"], host["token"])
        for i in range(80):
            await client.send({"type": "ping", "id": i})
        error = await client.expect("error", lambda m: m["code"] == "rate_limited")
        assert "id" not in error
        pongs = [m for m in client.messages if m["type"] == "pong"]
        assert len(pongs) < 80
        await client.close()

    run(main())


@pytest.mark.parametrize(
    ("first", "close"),
    [
        ({"type": "ping"}, 4400),
        ({"type": "hello", "token": "guessed-token"}, 4401),
        ("garbage", 4400),
    ],
)
def test_the_first_message_must_be_a_valid_hello(
    server: BackgroundServer, first: dict[str, Any] | str, close: int
) -> None:
    async def main() -> None:
        host = create_table(server.url, ["human", "greedy"])
        async with connect(f"{server.ws_url}/ws/{host['code']}") as ws:
            await ws.send(first if isinstance(first, str) else json.dumps(first))
            error = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            assert error["type"] == "error"
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), TIMEOUT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == close

    run(main())


def test_an_unknown_table_is_refused(server: BackgroundServer | Cluster) -> None:
    async def main() -> None:
        for code in ("abcdefghjkmn", "not-a-code", "x" * 300):
            async with connect(f"{server.ws_url}/ws/{code}") as ws:
                error = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                assert error["code"] == "not_found"
                with pytest.raises(ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), TIMEOUT)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404

    run(main())


# ------------------------------------------------------------------ staying at the table


def test_reconnect_with_the_same_link_is_back_in_the_same_state(
    server: BackgroundServer | Cluster,
) -> None:
    async def main() -> None:
        code, clients, tokens = await seated(server, ["human", "human"])
        view = clients[0].view
        assert view is not None
        mover = clients[view["to_play"]]
        assert mover.view is not None
        await mover.send({"type": "act", "action": mover.view["legal"][0]})
        for c in clients.values():
            await c.expect("update")
        leaver = 1
        before = clients[leaver].messages[-1]
        await clients[leaver].close()
        # Gone (whether already past the 0.3 s grace depends on how fast the news crossed
        # processes: a loaded CI machine saw "away" first; the grace has its own test below).
        await clients[0].expect(
            "table", lambda m: not m["seats"][leaver]["connected"], timeout=TIMEOUT
        )
        back = await Client.open(server.ws_url, code, tokens[leaver])
        welcome = next(m for m in back.messages if m["type"] == "welcome")
        assert welcome["seat"] == leaver and welcome["host"] is False
        state = back.messages[-1]
        assert state["type"] == "state" and state["moves"] == before["moves"] == 1
        assert state["view"] == before["view"]
        assert [e["kind"] for e in state["log"]][:2] == ["deal", "play"]
        await clients[0].expect("table", lambda m: m["seats"][leaver]["connected"])
        await back.close()
        await clients[0].close()

    run(main())


def test_after_the_grace_period_the_stand_in_plays_for_a_dropped_player(
    server: BackgroundServer | Cluster,
) -> None:
    async def main() -> None:
        code, clients, tokens = await seated(server, ["human", "human"])
        view = clients[0].view
        assert view is not None
        gone = view["to_play"]
        stay = 1 - gone
        await clients[gone].close()
        table = await clients[stay].expect("table", lambda m: m["seats"][gone]["away"])
        assert table["turn"]["auto"] is True
        update = await clients[stay].expect("update", lambda m: m["seat"] == gone)
        assert update["by"] == "away"
        back = await Client.open(server.ws_url, code, tokens[gone])
        assert back.table is not None and not back.table["seats"][gone]["away"]
        await back.close()
        await clients[stay].close()

    run(main())


def test_the_turn_timer_runs_out_and_the_stand_in_plays(server: BackgroundServer | Cluster) -> None:
    async def main() -> None:
        _code, clients, _ = await seated(server, ["human", "human"], turn_seconds=0.2)
        view = clients[0].view
        assert view is not None
        slow = view["to_play"]
        state = clients[0].messages[-1]
        assert state["turn"]["seat"] == slow and state["turn"]["seconds"] == 0.2
        assert 0 <= state["turn"]["ms_left"] <= 200
        for c in clients.values():
            update = await c.expect("update")
            assert update["seat"] == slow and update["by"] == "timer"
        await close_all(clients)

    run(main())


def test_spectators_see_every_move_but_no_hand(server: BackgroundServer | Cluster) -> None:
    async def main() -> None:
        host = create_table(server.url, ["greedy", "random", "greedy"], name=None)
        watcher = await Client.open(server.ws_url, host["code"], None)
        host_conn = await Client.open(server.ws_url, host["code"], host["token"])
        welcome = next(m for m in host_conn.messages if m["type"] == "welcome")
        assert welcome == {
            "type": "welcome",
            "protocol": 1,
            "code": host["code"],
            "seat": None,
            "host": True,
        }
        await host_conn.send({"type": "start"})
        seen = (await watcher.expect("state", lambda m: m["game"] == 1))["moves"]
        while seen < 5:
            # Each move as an update, in order; on many processes a move made elsewhere may
            # come inside a whole state instead (a catch-up), never a step back.
            message = await watcher.expect(("update", "state"))
            if message["type"] == "update":
                assert message["moves"] == seen + 1
            else:
                assert message["moves"] >= seen
            seen = message["moves"]
            assert message["view"]["hand"] is None and message["view"]["legal"] == []
        await watcher.send({"type": "act", "action": "play 5"})
        error = await watcher.expect("error")
        assert error["code"] == "not_seated"
        await watcher.close()
        await host_conn.close()

    run(main())


def test_play_again_after_the_end(server: BackgroundServer | Cluster) -> None:
    async def main() -> None:
        host = create_table(server.url, ["human", "greedy"], turn_seconds=0.05)
        client = await Client.open(server.ws_url, host["code"], host["token"])
        await client.send({"type": "start"})
        await client.expect("update", lambda m: m["view"]["over"], timeout=60)
        await client.send({"type": "again"})
        state = await client.expect("state", lambda m: m["game"] == 2)
        assert state["moves"] == 0 and not state["view"]["over"]
        info = httpx.get(f"{server.url}/api/tables/{host['code']}", timeout=TIMEOUT).json()
        assert info["games"] == [{"game": 1, "finished": True}, {"game": 2, "finished": False}]
        assert (
            httpx.get(f"{server.url}/api/tables/{host['code']}/games/1/record").status_code == 200
        )
        await client.close()

    run(main())


# ------------------------------------------------------------------ HTTP


def test_http_api_refusals(server: BackgroundServer | Cluster) -> None:
    base = server.url
    r = httpx.post(
        f"{base}/api/tables", json={"seats": [{"kind": "bot"}] * 2, "rules": {"players": 9}}
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    r = httpx.post(
        f"{base}/api/tables", json={"seats": [{"kind": "bot"}] * 2, "rules": {"max_total": 3}}
    )
    assert r.status_code == 400 and r.json()["error"]["params"]["option"] == "max_total"
    r = httpx.post(f"{base}/api/tables", content=b"{" + b" " * 20_000 + b"}")
    assert r.status_code == 413
    r = httpx.post(f"{base}/api/tables", content=b"{nope")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    host = create_table(base, ["human", "human"])
    code = host["code"]
    ben = join(base, code, "Ben")
    r = httpx.post(f"{base}/api/tables/{code}/join", json={"name": "Chloé"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "full"
    r = httpx.post(f"{base}/api/tables/{code}/join", json={"name": "x", "seat": 0})
    assert r.status_code == 400
    assert httpx.get(f"{base}/api/tables/abcdefghjkmn").status_code == 404
    assert httpx.post(f"{base}/api/tables/abcdefghjkmn/join", json={"name": "A"}).status_code == 404
    # No record or replay of a game that is not over, nor of one that never was.
    for path in ("games/1/record", "games/1/replay", "games/0/record", "games/x/replay"):
        assert httpx.get(f"{base}/api/tables/{code}/{path}").status_code == 404
    info = httpx.get(f"{base}/api/tables/{code}").json()
    assert info["phase"] == "lobby" and info["games"] == []
    text = json.dumps(info)
    for token in (host["token"], ben["token"]):
        assert token not in text and token_hash(token) not in text


def test_pages_options_and_headers(server: BackgroundServer | Cluster) -> None:
    for path in ("/", "/t/abcdefghjkmn", "/t/abcdefghjkmn/replay/1"):
        r = httpx.get(server.url + path)
        assert r.status_code == 200 and "<html" in r.text.lower()
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["referrer-policy"] == "no-referrer"
    options = httpx.get(f"{server.url}/api/options").json()
    assert {"random", "greedy"} <= set(options["bots"])
    assert options["editions"]["1980"]["match"] == "tokens"
    assert {o["name"] for o in options["options"]} >= {"max_total", "draw_penalty", "match"}
    assert httpx.get(f"{server.url}/i18n/en.json").json()["app.name"] == "ONO 99"


def test_languages_catalogs_and_rules_pages(server: BackgroundServer | Cluster) -> None:
    """The client's catalogs and the rules pages, per language; a language is negotiated
    from Accept-Language; an unknown one is a clear 404."""
    doc = httpx.get(f"{server.url}/i18n/languages", headers={"Accept-Language": "mr-IN, en;q=0.5"})
    assert doc.json()["default"] == "mr"
    assert [lang["code"] for lang in doc.json()["languages"]] == list(LANGUAGES)
    assert httpx.get(f"{server.url}/i18n/languages").json()["default"] == "en"
    for lang in LANGUAGES:
        catalog = httpx.get(f"{server.url}/i18n/{lang}.json").json()
        assert catalog.keys() >= {"home.title", "create.players.count.other", "log.play.you"}
        page = httpx.get(f"{server.url}/rules/{lang}")
        assert page.status_code == 200
        assert f'<html lang="{lang}">' in page.text
        assert "<table>" in page.text and "<h1>" in page.text
    bad = httpx.get(f"{server.url}/i18n/xx.json")
    assert bad.status_code == 404 and "known: en, el" in bad.json()["message"]
    assert httpx.get(f"{server.url}/rules/../../etc/passwd").status_code == 404
    went = httpx.get(f"{server.url}/rules", headers={"Accept-Language": "hy"})
    assert went.status_code == 307 and went.headers["location"] == "/rules/hy"


def test_http_rate_limit(tmp_path: Path) -> None:
    with running_server(tmp_path / "r.db", http_rate=0.001, http_burst=3) as srv:
        codes = [
            httpx.post(f"{srv.url}/api/tables", json={"seats": [{"kind": "bot"}] * 2}).status_code
            for _ in range(5)
        ]
        assert codes[:3] == [201, 201, 201] and codes[3:] == [429, 429]


# ------------------------------------------------------------------ the client's words

STATIC = Path(__file__).resolve().parents[2] / "src" / "ono99" / "server" / "static"


def test_every_string_the_client_looks_up_is_in_the_catalog() -> None:
    """All words of the browser client live in the catalogs (served as /i18n/<lang>.json);
    every key the code names, and every key it builds from server data (options,
    their choices, statuses, errors, log events), must be there."""
    from ono99.engine import OPTIONS, REASONS, Status

    catalog = browser_catalog("en")
    source = "\n".join(p.read_text(encoding="utf-8") for p in (STATIC / "js").rglob("*.js"))
    literal = set(re.findall(r"""\bt[n]?\(\s*["']([a-z0-9_.]+)["']""", source))
    assert len(literal) > 100
    from ono99.bots import BOT_INFO

    built = {"edition.2022", "edition.1980", "error.unknown", "conn.connecting", "conn.online"}
    built |= {f"bot.{name}" for name in BOT_INFO}  # the seat menus name every bot
    built |= {f"status.{s}" for s in Status}
    built |= {f"illegal.{code}" for code in REASONS}  # a refusal's params.reason (errors.js)
    for spec in OPTIONS:
        if spec.name == "players":
            continue
        built |= {f"option.{spec.name}", f"option.{spec.name}.help"}
        built |= {f"option.{spec.name}.{c}" for c in spec.choices}
    server_code = "\n".join(
        p.read_text(encoding="utf-8")
        for folder in ("session", "server")
        for p in (STATIC.parents[1] / folder).glob("*.py")
    )
    codes = set(re.findall(r"""SessionError\(\s*["']([a-z_]+)["']""", server_code))
    assert {"illegal", "not_your_turn", "stale", "too_big", "rate_limited"} <= codes
    built |= {f"error.{c}" for c in codes | {"network"}}
    for kind in ("deal", "play", "bust", "discard", "draw", "lost_draw", "eliminated",
                 "out_of_round", "round_end.tokens", "lost_token", "left.tokens", "left.points",
                 "over.one"):  # fmt: skip
        built |= {f"log.{kind}", f"log.{kind}.you"}
    plural = {k.rsplit(".", 1)[0] for k in catalog if k.endswith((".one", ".other"))}
    missing = sorted(
        k
        for k in literal | built
        if k not in catalog and not (k in plural and f"{k}.other" in catalog)
    )
    assert not missing
    for key, text in catalog.items():
        assert isinstance(text, str) and text, key


def test_an_idle_table_is_unloaded_and_comes_back_from_storage(
    local_server: BackgroundServer,
) -> None:
    server = local_server
    hub = server.app.state.hub  # type: ignore[attr-defined]

    async def main() -> None:
        host = create_table(server.url, ["human", "human", "greedy"])
        code = host["code"]
        client = await Client.open(server.ws_url, code, host["token"])
        assert code in hub.tables
        await client.close()
        for _ in range(500):  # the server sees the close a moment later
            if code not in hub.tables:
                break
            await asyncio.sleep(0.01)
        assert code not in hub.tables
        join(server.url, code, "Ben")  # loads it again, lobby and all
        back = await Client.open(server.ws_url, code, host["token"])
        assert back.table is not None
        assert [s["name"] for s in back.table["seats"]][:2] == ["Ana", "Ben"]
        await back.send({"type": "start"})
        await back.expect("state", lambda m: m["game"] == 1)
        await back.close()

    run(main())
