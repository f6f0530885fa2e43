"""``GET /metrics`` (``ono99 serve --metrics``): a real server, real websockets, and the
Prometheus text it gives — connections by role, tables by phase, moves by who made them with
their latency, refusals by code, the bus. Off unless asked for.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from server_support import TIMEOUT, Client, create_table, run, running_server

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(url: str) -> Samples:
    r = httpx.get(f"{url}/metrics", timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    samples: Samples = {}
    for family in text_string_to_metric_families(r.text):
        assert family.documentation, f"{family.name} has no HELP text"
        for s in family.samples:
            samples[(s.name, frozenset(s.labels.items()))] = s.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_metrics_are_off_unless_asked_for(tmp_path: Path) -> None:
    with running_server(tmp_path / "ono99.db") as server:
        assert httpx.get(f"{server.url}/metrics", timeout=TIMEOUT).status_code == 404


def test_metrics_count_what_happens_at_a_table(tmp_path: Path) -> None:
    with running_server(tmp_path / "ono99.db", metrics=True) as server:

        async def main() -> None:
            before = scrape(server.url)
            assert value(before, "ono99_bus_up") == 1
            assert value(before, "ono99_tables", phase="lobby") == 0
            host = create_table(server.url, ["human", "greedy"])
            code = host["code"]
            player = await Client.open(server.ws_url, code, host["token"])
            watcher = await Client.open(server.ws_url, code, None)
            seen = scrape(server.url)
            assert value(seen, "ono99_connections", role="player") == 1
            assert value(seen, "ono99_connections", role="spectator") == 1
            assert value(seen, "ono99_tables", phase="lobby") == 1

            # Refusals, by code: on the websocket and over HTTP.
            await watcher.send({"type": "act", "action": "play 5"})
            assert (await watcher.expect("error"))["code"] == "not_seated"
            missing = httpx.post(
                f"{server.url}/api/tables/ZZZZZZ/join", json={"name": "Bo"}, timeout=TIMEOUT
            )
            assert missing.status_code == 404

            await player.send({"type": "start"})
            state = await player.expect(("state", "update"), lambda m: m.get("view") is not None)
            while state["view"]["to_play"] != host["seat"]:
                state = await player.expect("update")
            await player.send({"type": "act", "action": state["view"]["legal"][0]})
            # ... and the bot's answer: then nobody moves until we do.
            answered = await player.expect(
                "update", lambda m: m["view"]["to_play"] == host["seat"] or m["view"]["over"]
            )
            await watcher.close()

            after = scrape(server.url)
            assert value(after, "ono99_refusals_total", code="not_seated") == 1
            assert value(after, "ono99_refusals_total", code="not_found") == 1
            assert value(after, "ono99_tables", phase="playing") == 1
            assert value(after, "ono99_tables", phase="lobby") == 0
            assert value(after, "ono99_moves_total", by="seat") == 1
            assert value(after, "ono99_move_seconds_count") == 1
            assert 0 < value(after, "ono99_move_seconds_sum") < TIMEOUT
            # Bots' moves are counted as they are stored, like everyone's.
            assert value(after, "ono99_moves_total", by="bot") == answered["moves"] - 1 > 0
            for _ in range(100):  # the server notices the closed socket in its own time
                if value(after, "ono99_connections", role="spectator") == 0:
                    break
                await asyncio.sleep(0.05)
                after = scrape(server.url)
            assert value(after, "ono99_connections", role="spectator") == 0
            assert value(after, "ono99_connections", role="player") == 1
            await player.close()

        run(main())
