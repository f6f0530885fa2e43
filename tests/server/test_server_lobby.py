"""Issue 42: public tables in a live lobby, and Play now — against real servers (SQLite on
disk; four processes on PostgreSQL and Redis), real websockets and HTTP.

- A public table is listed (its public facts only) while it waits for players, and leaves the
  list when it fills, starts or closes; a private one never shows.
- The lobby's watchers get a new public table within a second, on every process.
- Play now seats people at the oldest table waiting for their setting, or opens one; the last
  seat starts the game; alone past the wait, bots of the chosen level fill the seats.
- Fifty people pressing Play now at once across four processes: no seat given twice, never
  two half-full tables for one setting.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from server_support import TIMEOUT, Client, create_table, join, running_cluster, running_server
from tiers import slow


def play_now(base: str, name: str, **ask: Any) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/quick", json={"name": name, **ask}, timeout=TIMEOUT)
    assert r.status_code in (200, 201), r.text
    data: dict[str, Any] = r.json()
    return data


def lobby(base: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{base}/api/lobby", timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    tables: list[dict[str, Any]] = r.json()["tables"]
    return tables


def public_table(base: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        "name": "Ana",
        "turn_seconds": 0,
        "public": True,
        **extra,
    }
    r = httpx.post(f"{base}/api/tables", json=body, timeout=TIMEOUT)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_public_table_is_listed_while_it_waits_and_a_private_one_never(tmp_path: Path) -> None:
    with running_server(tmp_path / "t.db") as server:
        base = server.url
        create_table(base, ["human", "human", "greedy"])  # private: the default
        assert lobby(base) == []
        made = public_table(base, ["human", "human", "human", "greedy"], lang="el")
        [entry] = lobby(base)
        assert entry["code"] == made["code"]
        assert (entry["edition"], entry["players"], entry["free"]) == ("2022", 4, 2)
        assert entry["names"] == ["Ana"] and entry["bots"] == 1, "people by name, bots counted"
        assert entry["lang"] == "el" and entry["quick"] is False
        # Nothing a seat's link or a game could hide: no token, no seed, no hand.
        text = json.dumps(entry)
        assert made["token"] not in text
        assert not {"token", "seed", "hand", "token_hash"} & set(entry)
        join(base, made["code"], "Leo")
        assert lobby(base)[0]["free"] == 1
        join(base, made["code"], "Zoe")
        assert lobby(base) == [], "every seat taken: off the list"


def test_bad_public_and_quick_requests_are_refused_in_one_message(tmp_path: Path) -> None:
    with running_server(tmp_path / "t.db") as server:
        base = server.url
        bad = [
            ({"public": "yes"}, "/api/tables"),
            ({"lang": "../../etc"}, "/api/tables"),
            ({"edition": "1999"}, "/api/quick"),
            ({"players": 9}, "/api/quick"),
            ({"players": True}, "/api/quick"),
            ({"bot": "oracle"}, "/api/quick"),
            ({"seat": 1}, "/api/quick"),
        ]
        for extra, path in bad:
            body: dict[str, Any] = {"name": "Ana", **extra}
            if path == "/api/tables":
                body["seats"] = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
            r = httpx.post(base + path, json=body, timeout=TIMEOUT)
            assert r.status_code == 400, (extra, r.text)
            assert r.json()["error"]["code"] == "bad_request", r.text
        r = httpx.post(base + "/api/quick", json={}, timeout=TIMEOUT)
        assert r.json()["error"]["code"] == "bad_name"
        assert lobby(base) == [], "nothing was opened by a refused request"


def test_play_now_fills_the_oldest_waiting_table_and_its_last_seat_starts_the_game(
    tmp_path: Path,
) -> None:
    with running_server(tmp_path / "t.db", quick_wait=60) as server:
        base, ws = server.url, server.url.replace("http", "ws")
        first = play_now(base, "Ana", edition="1980", players=3)
        assert first["host"] is True and first["seat"] == 0
        other = play_now(base, "Ben", edition="2022", players=3)  # another setting
        assert other["code"] != first["code"]
        second = play_now(base, "Ana", edition="1980", players=3)  # the same name
        assert second["code"] == first["code"] and second["seat"] == 1
        assert second["host"] is False

        async def main() -> None:
            host = await Client.open(ws, first["code"], first["token"], "host")
            table = host.table or await host.expect("table")
            assert table["phase"] == "lobby"
            assert [s["name"] for s in table["seats"]][:2] == ["Ana", "Ana 2"]
            third = play_now(base, "Zoe", edition="1980", players=3)
            assert third["code"] == first["code"] and third["seat"] == 2
            state = await host.expect("state", lambda m: m["game"] == 1)
            assert state["view"]["hand"], "the game began when its last seat was taken"
            await host.close()

        asyncio.run(main())
        codes = {t["code"] for t in lobby(base)}
        assert first["code"] not in codes and other["code"] in codes


def test_alone_after_the_wait_bots_of_the_chosen_level_take_the_open_seats(tmp_path: Path) -> None:
    with running_server(tmp_path / "t.db", quick_wait=1.0) as server:
        base, ws = server.url, server.url.replace("http", "ws")
        made = play_now(base, "Ana", players=4, bot="random")
        [entry] = lobby(base)
        assert entry["quick"] is True and entry["bot"] == "random"
        assert entry["fill_at"] > time.time()

        async def main() -> None:
            host = await Client.open(ws, made["code"], made["token"], "host")
            began = time.monotonic()
            state = await host.expect("state", lambda m: m["game"] == 1, timeout=10)
            waited = time.monotonic() - began
            assert 0.3 < waited < 5, waited
            table = await host.expect("table", lambda m: m["phase"] != "lobby")
            bots = [s for s in table["seats"] if s["kind"] == "bot"]
            assert len(bots) == 3 and {s["bot"] for s in bots} == {"random"}
            assert state["view"]["seat"] == 0
            await host.close()

        asyncio.run(main())
        assert lobby(base) == []


@pytest.mark.parametrize("count", [50, pytest.param(500, marks=slow)])
def test_the_lobby_tells_its_watchers_of_a_new_public_table_within_a_second(
    tmp_path: Path, count: int
) -> None:
    with running_server(tmp_path / "t.db") as server:
        base, ws = server.url, server.url.replace("http", "ws")

        async def main() -> None:
            watchers = [await connect(f"{ws}/ws/lobby", open_timeout=TIMEOUT) for _ in range(count)]
            for w in watchers:
                first = json.loads(await asyncio.wait_for(w.recv(), TIMEOUT))
                assert first == {"type": "lobby", "tables": []}
            began = time.monotonic()
            made = await asyncio.to_thread(public_table, base, ["human", "human"])
            lags = []
            for w in watchers:
                message = json.loads(await asyncio.wait_for(w.recv(), TIMEOUT))
                lags.append(time.monotonic() - began)
                assert [t["code"] for t in message["tables"]] == [made["code"]]
                assert made["token"] not in json.dumps(message)
            assert max(lags) < 1.0, max(lags)
            # A watcher has nothing to say: what it sends changes nothing for the others.
            await watchers[0].send("x" * 1000)
            await watchers[0].send(json.dumps({"type": "act", "action": "play 5"}))
            for w in watchers:
                await w.close()

        asyncio.run(main())


@slow
def test_fifty_people_press_play_now_at_once_on_four_processes() -> None:
    with running_cluster(4, quick_wait=600, bot_delay=0.05) as cluster:
        urls = [p.url for p in cluster.processes]

        async def main() -> list[dict[str, Any]]:
            async with httpx.AsyncClient(timeout=TIMEOUT) as http:

                async def press(i: int) -> dict[str, Any]:
                    r = await http.post(
                        f"{urls[i % 4]}/api/quick", json={"name": f"P{i}", "players": 4}
                    )
                    assert r.status_code in (200, 201), r.text
                    data: dict[str, Any] = r.json()
                    return data

                return await asyncio.gather(*(press(i) for i in range(50)))

        seated = asyncio.run(main())
        seats = [(s["code"], s["seat"]) for s in seated]
        assert len(set(seats)) == 50, "no seat given twice"
        assert len({s["token"] for s in seated}) == 50
        tables: dict[str, list[int]] = {}
        for code, seat in seats:
            tables.setdefault(code, []).append(seat)
        assert len(tables) == 13, tables  # 12 full tables of four, and one of two
        assert sorted(len(v) for v in tables.values()) == [2] + [4] * 12
        for code, taken in tables.items():
            assert sorted(taken) == list(range(len(taken))), (code, taken)
            info = httpx.get(f"{urls[0]}/api/tables/{code}", timeout=TIMEOUT).json()
            people = [s for s in info["seats"] if s["name"]]
            assert len(people) == len(taken)
            assert info["phase"] == ("lobby" if len(taken) == 2 else "playing"), info
        # The one table still waiting is the one every process lists.
        for url in urls:
            listed = [t for t in lobby(url) if t["quick"]]
            assert [t["free"] for t in listed] == [2]


@slow
def test_a_public_table_opened_on_one_process_shows_in_the_lobby_of_another() -> None:
    with running_cluster(2) as cluster:
        one, two = cluster.processes

        async def main() -> None:
            w = await connect(f"{two.ws_url}/ws/lobby", open_timeout=TIMEOUT)
            assert json.loads(await asyncio.wait_for(w.recv(), TIMEOUT))["tables"] == []
            began = time.monotonic()
            made = await asyncio.to_thread(public_table, one.url, ["human", "human"])
            message = json.loads(await asyncio.wait_for(w.recv(), TIMEOUT))
            assert time.monotonic() - began < 1.0
            assert [t["code"] for t in message["tables"]] == [made["code"]]
            # Filled through the first process: the second's watchers see it go.
            await asyncio.to_thread(join, one.url, made["code"], "Leo")
            message = json.loads(await asyncio.wait_for(w.recv(), TIMEOUT))
            assert message["tables"] == []
            await w.close()

        asyncio.run(main())


async def _spectators_seen(w: Any, code: str, count: int, within: float) -> float:
    """Seconds until the lobby's watcher ``w`` is told ``code`` has ``count`` spectators."""
    began = time.monotonic()
    while True:
        left = within - (time.monotonic() - began)
        assert left > 0, f"the lobby never said {count} watch {code}"
        message = json.loads(await asyncio.wait_for(w.recv(), left))
        entry = next((t for t in message["tables"] if t["code"] == code), None)
        if entry is not None and entry["spectators"] == count:
            return time.monotonic() - began


def test_the_lobby_counts_a_table_s_spectators_on_every_process() -> None:
    """Spectators on two processes are added up in a third's lobby; when they leave, or their
    process dies, the count goes down again (a dead process's within STALE seconds)."""
    with running_cluster(3) as cluster:
        one, two, three = cluster.processes

        async def main() -> None:
            made = await asyncio.to_thread(public_table, one.url, ["human", "human"])
            code = made["code"]
            w = await connect(f"{three.ws_url}/ws/lobby", open_timeout=TIMEOUT)
            first = json.loads(await asyncio.wait_for(w.recv(), TIMEOUT))
            assert first["tables"][0]["spectators"] == 0
            a = await Client.open(one.ws_url, code, None, "watcher on one")
            b = await Client.open(two.ws_url, code, None, "watcher on two")
            took = await _spectators_seen(w, code, 2, 5.0)
            assert took < 2.0, took  # a poll of each process, then the lobby's
            await a.close()
            await _spectators_seen(w, code, 1, 5.0)
            two.kill()  # its count is left in storage: the lobby stops counting it
            await _spectators_seen(w, code, 0, 15.0)
            await w.close()
            del b

        asyncio.run(main())


def test_a_quick_table_restored_after_a_restart_still_fills(tmp_path: Path) -> None:
    wait = 0.5
    db = tmp_path / "t.db"
    with running_server(db, quick_wait=wait) as server:
        made = play_now(server.url, "Ana", players=2)
    time.sleep(wait + 0.2)  # the wait ran out while no server ran
    with running_server(db, quick_wait=wait) as server:
        ws = server.url.replace("http", "ws")

        async def main() -> None:
            host = await Client.open(ws, made["code"], made["token"], "host")
            await host.expect("state", lambda m: m["game"] == 1, timeout=10)
            await host.close()

        asyncio.run(main())


LISTING_KEYS = {"code", "edition", "players", "match", "free", "names", "bots", "lang", "quick"}
LISTING_KEYS |= {"bot"}
LISTING_KEYS |= {"fill_at", "opened", "spectators"}  # how many watch: a count, no names


def test_what_the_lobby_sends_through_a_whole_game_holds_no_secret(tmp_path: Path) -> None:
    """The leak test of the lobby (issue 42): a watcher from before a public table is opened
    until its game is over hears only listing facts — never a token, a hand or the seed."""
    with running_server(tmp_path / "t.db", quick_wait=0.5) as server:
        base, ws = server.url, server.url.replace("http", "ws")

        async def main() -> tuple[list[str], dict[str, Any], dict[str, Any]]:
            watcher = await connect(f"{ws}/ws/lobby", open_timeout=TIMEOUT)
            heard = [await asyncio.wait_for(watcher.recv(), TIMEOUT)]
            first = await asyncio.to_thread(play_now, base, "Ana", players=3, bot="greedy")
            other = await asyncio.to_thread(play_now, base, "Ben", players=2, edition="1980")
            host = await Client.open(ws, first["code"], first["token"], "host")
            await host.expect("state", lambda m: m["game"] == 1, timeout=10)
            while not (host.view and host.view["over"]):
                v = host.view
                if v and v["legal"]:  # the first legal move, at once
                    await host.send({"type": "act", "action": v["legal"][0], "moves": host.moves})
                await host.receive()
            with contextlib.suppress(TimeoutError):
                while True:
                    heard.append(await asyncio.wait_for(watcher.recv(), 1.0))
            await watcher.close()
            await host.close()
            return [str(m) for m in heard], first, other

        heard, first, other = asyncio.run(main())
        record = httpx.get(f"{base}/api/tables/{first['code']}/games/1/record", timeout=TIMEOUT)
        seed = str(record.json()["seed"])
        assert len(heard) >= 3, heard  # empty, Ana's table, Ben's too, then Ana's gone
        for text in heard:
            assert first["token"] not in text and other["token"] not in text
            assert seed not in text
            message = json.loads(text)
            assert set(message) == {"type", "tables"}
            for entry in message["tables"]:
                assert set(entry) <= LISTING_KEYS, set(entry) - LISTING_KEYS
        last = json.loads(heard[-1])["tables"]
        assert [t["code"] for t in last] == [other["code"]], "Ana's game began: off the list"
