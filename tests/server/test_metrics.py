"""``GET /metrics`` (``ono99 serve --metrics``): a real server, real websockets, and the
Prometheus text it gives — connections by role, tables by phase, moves by who made them with
their latency, refusals by code, the bus. Off unless asked for. Under ``--workers 2`` a scrape
of either process adds up both (a real ``ono99 serve`` process tree on PostgreSQL and Redis).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from server_support import TIMEOUT, Client, create_table, run, running_server
from tiers import slow

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


def test_metrics_time_the_garbage_collections(tmp_path: Path) -> None:
    """A full collection stops every table on the process: its length is measured, by
    generation, while the server runs, and nothing of it is left behind when it stops."""
    before = list(gc.callbacks)
    with running_server(tmp_path / "ono99.db", metrics=True) as server:
        # The server runs on a thread of this process: its collector is ours. A collection
        # asked for while another thread's is running does nothing (CPython's `collecting`
        # flag, seen once in CI at load 3), so ask again until one has been counted.
        for _ in range(50):
            gc.collect()
            gc.collect(0)
            seen = scrape(server.url)
            if (
                value(seen, "ono99_gc_pause_seconds_count", generation="2") >= 1
                and value(seen, "ono99_gc_pause_seconds_count", generation="0") >= 1
            ):
                break
            time.sleep(0.05)
        assert value(seen, "ono99_gc_pause_seconds_count", generation="2") >= 1
        assert value(seen, "ono99_gc_pause_seconds_count", generation="0") >= 1
        assert value(seen, "ono99_gc_pause_seconds_sum", generation="2") > 0
        assert len(gc.callbacks) == len(before) + 1
    assert gc.callbacks == before
    with running_server(tmp_path / "off.db"):
        assert gc.callbacks == before  # not measured unless the metrics are on


# ------------------------------------------------------------------ many processes


@contextlib.contextmanager
def workers(n: int) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``ono99 serve --workers n --metrics`` on a fresh PostgreSQL schema and Redis."""
    from services import REDIS, drop_schema, fresh_schema, need_postgres, need_redis, postgres_url
    from test_server_workers import serve

    need_postgres()
    need_redis()
    schema = fresh_schema()
    # No per-address limits: the test creates tables from one address until the kernel has
    # handed connections to both processes, and one may take the first several (the other
    # still loading the hints' search, which takes it half a second of one core).
    proc = serve(
        *("--workers", str(n), "--metrics", "--bot-delay", "0.01", "--http-rate", "0"),
        *("--max-open-tables", "0", "--database", postgres_url(schema), "--redis", REDIS),
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        assert found, line + (proc.stderr.read() if proc.stderr else "")
        yield found.group(1), proc
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=TIMEOUT)
        drop_schema(schema)
        assert "Traceback" not in err, err


@slow
def test_a_scrape_of_any_worker_sums_them_all() -> None:
    from test_server_workers import accepted_by, children

    with workers(2) as (url, proc):
        ws_url = url.replace("http://", "ws://")
        port = int(url.rsplit(":", 1)[1])
        pids = children(proc.pid)

        async def main() -> None:
            # Each process reads its hub every second: the bus comes up just after "ready".
            for _ in range(int(TIMEOUT * 10)):
                if value(scrape(url), "ono99_bus_up") == 1:
                    break
                await asyncio.sleep(0.1)
            clients: list[Client] = []
            where: list[int] = []  # the process holding each client's connection
            # Open connections (each to a table of its own) until both processes hold some:
            # the kernel hands each to whichever process accepts first.
            while len(set(where)) < 2:
                assert len(clients) < 40, "every connection went to one process"
                host = create_table(url, ["human", "greedy"])
                client = await Client.open(ws_url, host["code"], host["token"])
                clients.append(client)
                where.append(accepted_by(pids, port, client.ws.local_address[1]))
            holders = set(where)
            # Tables per process (a pid label each), both among them, within a second or so.
            for _ in range(int(TIMEOUT * 10)):
                samples = scrape(url)
                held = {
                    int(dict(labels)["pid"]): v
                    for (name, labels), v in samples.items()
                    if name == "ono99_tables" and v > 0
                }
                # Both among them and every table counted: each process refreshes on its own.
                if holders <= set(held) and sum(held.values()) >= len(clients):
                    break
                await asyncio.sleep(0.1)
            assert holders <= set(held) and sum(held.values()) >= len(clients)
            for _ in range(6):  # several scrapes, so that both processes answer some
                samples = scrape(url)
                assert value(samples, "ono99_connections", role="player") == len(clients)
                assert value(samples, "ono99_bus_up") == 1

            # Every connection has a command refused; then one process dies: its connections
            # leave the sum (its supervisor drops its gauges), its refusals stay in it.
            refused: collections.Counter[str] = collections.Counter()
            for client in clients:
                await client.send({"type": "act", "action": "fly away"})
                refused[(await client.expect("error"))["code"]] += 1
            os.kill(where[0], signal.SIGKILL)
            left = sum(1 for pid in where if pid != where[0])
            for _ in range(int(TIMEOUT * 10)):
                samples = scrape(url)
                if value(samples, "ono99_connections", role="player") == left:
                    break
                await asyncio.sleep(0.1)
            assert value(samples, "ono99_connections", role="player") == left
            for code, count in refused.items():
                assert value(samples, "ono99_refusals_total", code=code) == count
            assert where[0] not in {
                int(dict(labels)["pid"]) for (name, labels) in samples if name == "ono99_tables"
            }
            for client in clients:
                await client.close()

        run(main(), 120)
