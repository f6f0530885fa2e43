"""Players who come back (docs/protocol.md, "Players"): a name registered once per server, a key
that only its browser holds, profiles that count finished games, ratings on one scale for
people and bots, a leaderboard, moving to another device, forgetting, and the operator's bans.
Real servers: one on SQLite, and (full tier) three processes on PostgreSQL and Redis, each
request going to the next process — so a profile written by the process that finished a game
is read back from another."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

import httpx

from ono99.server import BackgroundServer
from server_support import TIMEOUT, Client, Cluster, run, server_fixture

# Turns of 0.05 s: the stand-in plays every turn, so a game is over in moments.
server = server_fixture("players", grace=600, bot_delay=0.01)


def call(
    srv: BackgroundServer | Cluster, method: str, path: str, key: str | None = None, **kw: Any
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.request(method, f"{srv.url}{path}", headers=headers, timeout=TIMEOUT, **kw)


_names = iter(range(10**6))


def fresh(prefix: str = "Zoë") -> str:
    return f"{prefix}{next(_names)}{int(time.time() * 1000) % 100000}"


def register(srv: BackgroundServer | Cluster, name: str) -> str:
    r = call(srv, "POST", "/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    assert r.json()["name"] == name
    key: str = r.json()["key"]
    return key


async def play_one(srv: BackgroundServer | Cluster, key: str | None, **table: Any) -> str:
    """A two-seat table (the key's holder and a bot), its game played out by the stand-in."""
    body = {
        "rules": {"edition": "2022"},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        "turn_seconds": 0.05,
        "name": "whoever",
        **table,
    }
    r = call(srv, "POST", "/api/tables", key, json=body)
    assert r.status_code == 201, r.text
    host = r.json()
    client = await Client.open(srv.ws_url, host["code"], host["token"])
    await client.send({"type": "start"})
    await client.expect(("update", "state"), lambda m: m["view"]["over"], timeout=30)
    await client.close()
    code: str = host["code"]
    return code


def test_a_name_is_held_once_on_the_server_as_people_read_it(
    server: BackgroundServer | Cluster,
) -> None:
    name = fresh("Chloé")
    key = register(server, name)
    for other in (name.upper(), name.replace("o", "\u043e"), f"  {name} "):  # Cyrillic о
        r = call(server, "POST", "/api/players", json={"name": other})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_held", other
    # Nobody without its key sits down under it.
    body = {"rules": {"edition": "2022"}, "seats": [{"kind": "human"}], "name": name.upper()}
    body["seats"].append({"kind": "bot", "bot": "greedy"})
    r = call(server, "POST", "/api/tables", json=body)
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_held"
    # Its holder does, under the profile's own name whatever the request said.
    r = call(server, "POST", "/api/tables", key, json=body)
    assert r.status_code == 201, r.text
    info = call(server, "GET", f"/api/tables/{r.json()['code']}").json()
    assert info["seats"][0]["name"] == name
    me = call(server, "GET", "/api/me", key)
    assert me.status_code == 200 and me.json()["name"] == name and "key" not in me.json()


def test_a_bad_or_unknown_key_is_refused_and_nothing_is_made(
    server: BackgroundServer | Cluster,
) -> None:
    for header in ("Bearer nope", "Basic abc", "Bearer " + "x" * 500):
        r = httpx.get(f"{server.url}/api/me", headers={"Authorization": header}, timeout=TIMEOUT)
        assert r.status_code == 401 and r.json()["error"]["code"] == "no_player"
    assert call(server, "GET", "/api/me").status_code == 401
    body = {"rules": {"edition": "2022"}, "seats": [{"kind": "human"}, {"kind": "human"}]}
    r = call(server, "POST", "/api/tables", "unknown-key", json={**body, "name": "Ana"})
    assert r.status_code == 401
    for bad in ({}, {"name": ""}, {"name": "x" * 80}, {"name": "A", "key": "k"}, [1]):
        r = call(server, "POST", "/api/players", json=bad)
        assert r.status_code == 400, bad


def test_a_finished_game_counts_on_the_profile_and_moves_the_rating(
    server: BackgroundServer | Cluster,
) -> None:
    name = fresh("Ana")
    key = register(server, name)
    before = call(server, "GET", f"/api/players/{name}").json()
    assert before["tally"] == [] and before["recent"] == [] and before["ratings"] == []

    async def main() -> None:
        await play_one(server, key, public=True)
        await play_one(server, key)  # private and not opted in: counted, not rated
        await play_one(server, key, rated=True)

    began = time.monotonic()
    run(main())
    profile = call(server, "GET", f"/api/players/{name}").json()
    assert time.monotonic() - began < 30
    assert profile["tally"] == [
        {
            "edition": "2022",
            "players": 2,
            "games": 3,
            "wins": sum(g["won"] for g in profile["recent"]),
        }
    ]
    assert [g["rated"] for g in profile["recent"]] == [True, False, True]
    (rating,) = profile["ratings"]
    assert rating["edition"] == "2022" and rating["games"] == 2
    assert rating["sigma"] < 25 / 3  # two rated games: less uncertain than a newcomer
    assert rating["rating"] != 0
    # The game's replay is there for each of them; the profile shows no key and no id.
    for g in profile["recent"]:
        replay = call(server, "GET", f"/api/tables/{g['code']}/games/{g['game']}/replay")
        assert replay.status_code == 200
    assert key not in str(profile)
    board = call(server, "GET", "/api/leaderboard?edition=2022").json()["leaders"]
    names = [row["name"] for row in board]
    assert name in names and any(row["bot"] == "greedy" for row in board)
    ordinals = [row["rating"] for row in board]
    assert ordinals == sorted(ordinals, reverse=True)
    assert call(server, "GET", "/api/leaderboard?edition=1999").status_code == 400


def test_another_device_gets_a_key_from_a_one_time_link(server: BackgroundServer | Cluster) -> None:
    name = fresh("Ben")
    key = register(server, name)
    link = call(server, "POST", "/api/me/link", key).json()
    assert link["link"] == f"/link#{link['code']}"
    claimed = call(server, "POST", "/api/players/claim", json={"code": link["code"]})
    assert claimed.status_code == 200 and claimed.json()["name"] == name
    second = claimed.json()["key"]
    assert second != key and call(server, "GET", "/api/me", second).json()["name"] == name
    again = call(server, "POST", "/api/players/claim", json={"code": link["code"]})
    assert again.status_code == 410 and again.json()["error"]["code"] == "bad_link"
    assert call(server, "GET", "/api/me", key).status_code == 200  # the first still holds it


def test_forget_me_deletes_the_profile_and_unnames_its_games(
    server: BackgroundServer | Cluster,
) -> None:
    name = fresh("Dev")
    key = register(server, name)
    code = run(play_one(server, key, public=True))
    record = call(server, "GET", f"/api/tables/{code}/games/1/record").json()
    assert record["meta"]["names"][0] == name
    assert call(server, "DELETE", "/api/me", key).status_code == 204
    assert call(server, "GET", "/api/me", key).status_code == 401
    assert call(server, "GET", f"/api/players/{name}").status_code == 404
    record = call(server, "GET", f"/api/tables/{code}/games/1/record").json()
    assert name not in str(record) and record["meta"]["names"][0] == "Player 1"
    board = call(server, "GET", "/api/leaderboard?edition=2022").json()["leaders"]
    assert name not in [row["name"] for row in board]
    register(server, name)  # the name is free again


def test_two_people_on_one_profile_cannot_take_two_seats(
    server: BackgroundServer | Cluster,
) -> None:
    name = fresh("Eun")
    key = register(server, name)
    body = {"rules": {"edition": "2022"}, "seats": [{"kind": "human"}, {"kind": "human"}]}
    host = call(server, "POST", "/api/tables", key, json={**body, "name": name}).json()
    r = call(server, "POST", f"/api/tables/{host['code']}/join", key, json={"name": "Other"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_seated"


def test_a_profile_s_page_answers_for_a_missing_or_odd_name(
    server: BackgroundServer | Cluster,
) -> None:
    for name in ("nobody-here-9", "%00", "x" * 200):
        r = call(server, "GET", f"/api/players/{name}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def _database(srv: BackgroundServer | Cluster) -> str:
    if isinstance(srv, Cluster):
        return str(srv.options["db"])
    return str(srv.server.config.app.state.config.db)  # type: ignore[attr-defined]


def test_an_operator_s_ban_holds_on_every_process_and_a_hidden_profile_is_not_shown(
    server: BackgroundServer | Cluster,
) -> None:
    name = fresh("Mallory")
    key = register(server, name)
    second = call(
        server,
        "POST",
        "/api/players/claim",
        json={"code": call(server, "POST", "/api/me/link", key).json()["code"]},
    ).json()["key"]
    admin = [sys.executable, "-m", "ono99", "admin"]
    done = subprocess.run(
        [*admin, "ban", name.lower(), "--db", _database(server)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and f"{name} is banned" in done.stdout, done.stderr
    listed = subprocess.run(
        [*admin, "list", "--db", _database(server)], capture_output=True, text=True, timeout=60
    )
    assert any(line.startswith(name) and "banned" in line for line in listed.stdout.splitlines())
    body = {
        "rules": {"edition": "2022"},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        "name": name,
    }
    processes = len(server.processes) if isinstance(server, Cluster) else 1
    for _ in range(2 * processes):  # every process in turn, with each of its keys
        for k in (key, second):
            for method, path, kw in (
                ("GET", "/api/me", {}),
                ("POST", "/api/tables", {"json": body}),
                ("POST", "/api/quick", {"json": {"name": name}}),
            ):
                r = call(server, method, path, k, **kw)
                assert r.status_code == 403 and r.json()["error"]["code"] == "banned", (
                    path,
                    r.text,
                )
    # Still its name: nobody else takes it while it is banned.
    assert call(server, "POST", "/api/players", json={"name": name}).status_code == 409
    done = subprocess.run(
        [*admin, "unban", key, "--db", _database(server)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert call(server, "GET", "/api/me", key).status_code == 200
    assert call(server, "GET", f"/api/players/{name}").status_code == 200
    subprocess.run(
        [*admin, "hide", name, "--db", _database(server)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    assert call(server, "GET", f"/api/players/{name}").status_code == 404
    missing = subprocess.run(
        [*admin, "ban", "nobody-at-all-7", "--db", _database(server)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        missing.returncode == 1
        and "no player" in missing.stderr
        and "Traceback" not in missing.stderr
    )


def test_the_host_removes_someone_from_a_public_table_and_they_stay_out(
    server: BackgroundServer | Cluster,
) -> None:
    name = fresh("Gus")
    key = register(server, name)
    body = {
        "rules": {"edition": "2022"},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
        "name": "Ana",
        "public": True,
    }
    host = call(server, "POST", "/api/tables", json=body).json()
    code = host["code"]
    joined = call(server, "POST", f"/api/tables/{code}/join", key, json={})
    assert joined.status_code == 200, joined.text

    async def remove() -> None:
        ana = await Client.open(server.ws_url, code, host["token"])
        await ana.send({"type": "seat", "seat": joined.json()["seat"], "kind": "open"})
        await ana.expect("table", lambda m: all(s["name"] != name for s in m["seats"]))
        await ana.close()

    run(remove())
    for _ in range(3):  # on every process
        again = call(server, "POST", f"/api/tables/{code}/join", key, json={})
        assert again.status_code == 403 and again.json()["error"]["code"] == "removed"
    other = call(server, "POST", f"/api/tables/{code}/join", json={"name": fresh("Hal")})
    assert other.status_code == 200


def test_a_profile_shows_nothing_of_a_game_still_being_played(
    server: BackgroundServer | Cluster,
) -> None:
    """Leak test: while a game is played, neither the profile, nor the leaderboard, nor the
    holder's own /api/me says anything of it (no code, no hand, no seed); once it is over, its
    result is there at once, in the same request after the end (no polling)."""
    name = fresh("Ivo")
    key = register(server, name)
    body = {
        "rules": {"edition": "2022"},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        "name": name,
        "public": True,
        "turn_seconds": 0.05,
    }
    host = call(server, "POST", "/api/tables", key, json=body).json()

    async def main() -> None:
        client = await Client.open(server.ws_url, host["code"], host["token"])
        await client.send({"type": "start"})
        await client.expect("state", lambda m: m["game"] == 1)
        seen = [
            call(server, "GET", path, key).text
            for path in (f"/api/players/{name}", "/api/me", "/api/leaderboard?edition=2022")
        ]
        for text in seen:
            assert host["code"] not in text and host["token"] not in text and key not in text
            assert "seed" not in text and "hand" not in text
        await client.expect(("update", "state"), lambda m: m["view"]["over"], timeout=30)
        profile = call(server, "GET", f"/api/players/{name}").json()
        assert [g["code"] for g in profile["recent"]] == [host["code"]]
        await client.close()

    run(main())
