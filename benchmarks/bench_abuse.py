"""Abuse benchmark: does one address hurt everyone? Real tables of two people (``--tables``,
three by default) play on one ``ono99 serve`` process while, one after another, each flood of
issue 26 hits the server; the real tables' move → all-seats latency (p50/p99 over every move
of every real table) is measured while idle and under each flood, and the server's memory
(RSS) after each flood has stopped.

Before idle is measured, each flood hits the server once, small and for two seconds (no
``--no-warm-up``): what a server loads the first time it meets each kind of request (code,
its bots' threads, caches) is the cost of serving at all, and is not a flood's leftovers. Both
RSS figures are printed: at the start, and idle once warmed up. The floods run at the lowest
CPU priority (``nice 19``; ``BENCH_ABUSE_FLOOD_NOT_NICE=1`` turns that off): a flood from the
internet spends its senders' CPU, not the server machine's.

The floods, each for ``--flood`` seconds, from loopback addresses of their own (127.0.x.y: on
Linux the whole 127/8 is this machine, so each "address" is a real source address the server
sees, as behind no proxy):

- **tables, many addresses**: ``--addresses`` addresses, each creating all-bot tables as fast
  as the server lets it, watching each (which starts it) and leaving: abandoned games.
- **tables, one address**: one address creating as fast as it can, 20 requests at a time.
- **spectators**: ``--spectators`` connections to the real table, 20 per address, that never
  read what they are sent (the slowest readers there are).
- **half-open requests**: ``--half-open`` connections that send half an HTTP request's headers
  and then nothing.

After each flood the benchmark waits ``--settle`` seconds (a minute by default) and reads the
server's RSS again: the goal is within 10% of the idle figure. The goal for latency: the real
table's p99 under every flood within 2× of idle. The header gives the machine's load. The
server runs with ``--metrics``, and each flood's line gives the full garbage collections it
made (``ono99_gc_pause_seconds``): each stops every table, so they explain most of a p99.

    .venv/bin/python benchmarks/bench_abuse.py                 # every flood, about 8 minutes
    .venv/bin/python benchmarks/bench_abuse.py --flood 10 --settle 20 --spectators 500
    .venv/bin/python benchmarks/bench_abuse.py --only spectators --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from gc_scrape import full_collections
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
FLOODS = ("tables_many", "tables_one", "spectators", "half_open")


def source(i: int) -> str:
    """The i-th flood address: 127.0.1.2, 127.0.1.3, … (the real table is 127.0.0.1)."""
    return f"127.0.{1 + i // 250}.{2 + i % 250}"


class Server:
    def __init__(self, folder: Path, extra: list[str], cores: set[int] | None = None) -> None:
        self.log = open(folder / "server.log", "w+")  # noqa: SIM115 - kept open while it runs
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ono99", "serve", "--host", "127.0.0.1", "--port", "0"]
            + ["--db", str(folder / "abuse.db"), "--bot-delay", "0.3", "--metrics", *extra],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            cwd=ROOT,
            preexec_fn=None if cores is None else lambda: os.sched_setaffinity(0, cores),
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        if not match:
            self.proc.kill()
            self.log.seek(0)
            raise SystemExit(f"the server did not start: {line}{self.log.read()}")
        self.url = match.group(1)
        self.ws_url = self.url.replace("http://", "ws://")
        self.port = int(self.url.rsplit(":", 1)[1])

    def rss_mb(self) -> float:
        text = Path(f"/proc/{self.proc.pid}/status").read_text()
        kb = int(re.search(r"VmRSS:\s+(\d+)", text).group(1))  # type: ignore[union-attr]
        return kb / 1024

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)
        self.proc.kill()


def client(address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(transport=transport, timeout=30)


class RealTable:
    """Two people at one table, playing on and on; every move's latency to both seats."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.latencies: list[float] = []
        self.sent: dict[tuple[int, int], float] = {}  # (game, moves) → when sent
        self.arrived: dict[tuple[int, int], int] = {}  # … → seats that have it
        self.code = ""
        self.failures: Counter[str] = Counter()

    async def run(self, stop: asyncio.Event) -> None:
        async with client("127.0.0.1") as http:
            r = await http.post(
                f"{self.server.url}/api/tables",
                json={
                    "name": "Mum",
                    "seats": [{"kind": "human"}, {"kind": "human"}],
                    "turn_seconds": 0,
                    "rules": {},
                },
            )
            made = r.json()
            self.code = made["code"]
            joined = (
                await http.post(
                    f"{self.server.url}/api/tables/{self.code}/join", json={"name": "Leo"}
                )
            ).json()
        tokens = {made["seat"]: made["token"], joined["seat"]: joined["token"]}
        sockets = {}
        for seat, token in tokens.items():
            ws = await connect(f"{self.server.ws_url}/ws/{self.code}", max_size=2**22)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sockets[seat] = ws
        await sockets[0].send(json.dumps({"type": "start"}))
        await asyncio.gather(*(self.seat(s, ws, stop) for s, ws in sockets.items()))

    async def seat(self, seat: int, ws: ClientConnection, stop: asyncio.Event) -> None:
        game = 0
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            m = json.loads(text)
            if m.get("type") not in ("state", "update") or not m.get("view"):
                continue
            game, moves, view = m["game"], m["moves"], m["view"]
            key = (game, moves)
            if m["type"] == "update" and key in self.sent:
                self.arrived[key] = self.arrived.get(key, 0) + 1
                if self.arrived[key] == 2:
                    self.latencies.append(time.perf_counter() - self.sent.pop(key))
            if view["over"]:
                await ws.send(json.dumps({"type": "ready" if seat else "again"}))
                continue
            if view["to_play"] == seat and view["legal"]:
                await asyncio.sleep(0.15)  # a person's think time, shortened
                self.sent[(game, moves + 1)] = time.perf_counter()
                action = next((a for a in view["legal"] if a != "draw"), view["legal"][0])
                await ws.send(json.dumps({"type": "act", "action": action, "moves": moves}))
        await ws.close()


async def tables_from(
    address: str, url: str, ws_url: str, stop: asyncio.Event, tally: Counter[str], width: int = 1
) -> None:
    """Create all-bot tables from ``address`` as fast as allowed; watch each to start it,
    then leave it."""
    body = {"seats": [{"kind": "bot", "bot": "greedy"}] * 3, "turn_seconds": 0, "rules": {}}
    async with client(address) as http:

        async def one() -> None:
            while not stop.is_set():
                try:
                    r = await http.post(f"{url}/api/tables", json=body)
                except httpx.HTTPError:
                    tally["http error"] += 1
                    await asyncio.sleep(0.1)
                    continue
                if r.status_code != 201:
                    tally[f"create {r.status_code} {r.json().get('error', {}).get('code')}"] += 1
                    await asyncio.sleep(0.2)
                    continue
                tally["create 201"] += 1
                made = r.json()
                try:
                    ws = await connect(
                        f"{ws_url}/ws/{made['code']}", local_addr=(address, 0), open_timeout=10
                    )
                    await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
                    await ws.send(json.dumps({"type": "start"}))
                    await asyncio.sleep(0.5)
                    await ws.close()
                except Exception as exc:
                    tally[f"watch {type(exc).__name__}"] += 1

        await asyncio.gather(*(one() for _ in range(width)))


async def spectators(
    ws_base: str, code: str, n: int, stop: asyncio.Event, tally: Counter[str]
) -> None:
    """``n`` connections watching the real table, 20 per address, that never read."""
    opened: list[ClientConnection] = []

    async def watch(i: int) -> None:
        try:
            ws = await connect(
                f"{ws_base}/ws/{code}",
                local_addr=(source(i // 20), 0),
                open_timeout=20,
                max_queue=1,  # never read: the socket backs up at once
            )
            await ws.send(json.dumps({"type": "hello"}))
            opened.append(ws)
            tally["watching"] += 1
        except Exception as exc:
            tally[f"refused {type(exc).__name__}"] += 1

    for start in range(0, n, 100):
        await asyncio.gather(*(watch(i) for i in range(start, min(n, start + 100))))
    await stop.wait()
    closed = sum(1 for ws in opened if ws.close_code is not None)
    tally["closed by the server"] += closed
    codes = Counter(ws.close_code for ws in opened if ws.close_code is not None)
    for close, count in codes.items():
        tally[f"close {close}"] += count
    await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)


async def half_open(port: int, n: int, stop: asyncio.Event, tally: Counter[str]) -> None:
    """``n`` connections that send half a request's headers, then nothing."""
    socks: list[socket.socket] = []
    for i in range(n):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.bind((source(i // 10), 0))
            await asyncio.get_running_loop().sock_connect(s, ("127.0.0.1", port))
            s.send(b"GET /api/options HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            socks.append(s)
        except OSError:
            tally["connect refused"] += 1
            s.close()
    tally["opened"] = len(socks)
    await stop.wait()
    still = 0
    for s in socks:
        try:
            data = s.recv(1)
            still += 1 if data == b"" else 0  # b"": closed by the server
        except BlockingIOError:
            pass  # still open, nothing said
        except OSError:
            still += 1
        s.close()
    tally["closed by the server"] = still


def quantiles(xs: list[float]) -> tuple[float, float]:
    if len(xs) < 2:
        one = xs[0] * 1000 if xs else float("nan")
        return one, one
    q = statistics.quantiles(xs, n=100)
    return statistics.median(xs) * 1000, q[98] * 1000


def flood_process(
    name: str, url: str, code: str, args: dict[str, Any], seconds: float, out: Any, go: Any
) -> None:
    """One flood, in a process of its own (so that the flood's own work never delays the
    real table's clients), for ``seconds``; its outcomes go to ``out``. At the lowest CPU
    priority: a flood from the internet spends its senders' CPU, not the server's machine's,
    and on two cores a flood client at equal priority takes the server's core as often as
    not (its p99 under the same flood: 3.5× idle niced, 9.6× not; issue 26)."""
    if not os.environ.get("BENCH_ABUSE_FLOOD_NOT_NICE"):
        os.nice(19)
    ws_url = url.replace("http://", "ws://")
    port = int(url.rsplit(":", 1)[1])
    first = args.get("first", 0)  # each run's table floods from addresses of their own
    go.wait()  # the measuring starts after the fork, which stops the measuring process

    async def main() -> dict[str, int]:
        tally: Counter[str] = Counter()
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(seconds, stop.set)
        if name == "tables_many":
            await asyncio.gather(
                *(
                    tables_from(source(first + i), url, ws_url, stop, tally)
                    for i in range(args["addresses"])
                )
            )
        elif name == "tables_one":
            await tables_from(source(first + 999), url, ws_url, stop, tally, width=20)
        elif name == "spectators":
            await spectators(ws_url, code, args["spectators"], stop, tally)
        else:
            await half_open(port, args["half_open"], stop, tally)
        return dict(tally)

    out.put(asyncio.run(main()))


async def phase(
    tables: list[RealTable], seconds: float, flood: tuple[str, dict[str, Any]] | None = None
) -> tuple[list[float], dict[str, int]]:
    """Measure the real tables for ``seconds``, under the named flood if given (the
    spectators watch the first)."""

    def since() -> list[float]:
        return [x for t, start in zip(tables, starts, strict=True) for x in t.latencies[start:]]

    outcomes: dict[str, int] = {}
    if flood is None:
        starts = [len(t.latencies) for t in tables]
        await asyncio.sleep(seconds)
        return since(), outcomes
    out: multiprocessing.Queue[dict[str, int]] = multiprocessing.Queue()
    go = multiprocessing.Event()
    name, options = flood
    table = tables[0]
    proc = multiprocessing.Process(
        target=flood_process,
        args=(name, table.server.url, table.code, options, seconds, out, go),
    )
    # Forking this process stops its event loop, the real tables' clients', for 0.1 s on a
    # slow machine: the moves in flight then took that much longer, which is this
    # benchmark's doing, not the server's. So the fork comes first, then a pause for the
    # moves to flow again, and only then the measuring and the flood.
    proc.start()
    await asyncio.sleep(1)
    starts = [len(t.latencies) for t in tables]
    go.set()
    await asyncio.sleep(seconds)
    lat = since()
    while proc.is_alive() and out.empty():
        await asyncio.sleep(0.2)
    with contextlib.suppress(Exception):
        outcomes = out.get(timeout=30)
    proc.join(30)
    return lat, outcomes


async def measure(
    server: Server,
    tables: list[RealTable],
    args: argparse.Namespace,
    options: dict[str, Any],
    cold_rss: float,
) -> list[dict[str, Any]]:
    """Idle, then each flood with its settling time: a row per phase."""
    rows: list[dict[str, Any]] = []
    idle, _ = await phase(tables, args.flood)
    idle_rss = server.rss_mb()
    p50, p99 = quantiles(idle)
    rows.append(
        {
            "phase": "idle",
            "moves": len(idle),
            "p50_ms": p50,
            "p99_ms": p99,
            "rss_mb": idle_rss,
        }
    )
    print(
        f"idle: {len(idle)} moves at {args.tables} tables, p50 {p50:.1f} ms, p99 "
        f"{p99:.1f} ms, RSS {idle_rss:.0f} MB (at start {cold_rss:.0f} MB"
        f"{', then warmed up' if args.warm_up else ''})",
        flush=True,
    )
    for name in args.only or FLOODS:
        cpu0 = server.cpu_seconds()
        gc0 = full_collections(server.url)
        lat, tally = await phase(tables, args.flood, (name, options))
        cpu = server.cpu_seconds() - cpu0
        gcs = full_collections(server.url)
        gcs.subtract(gc0)
        during = server.rss_mb()
        await asyncio.sleep(args.settle)
        after = server.rss_mb()
        cpu_idle = (server.cpu_seconds() - cpu0 - cpu) / args.settle
        p50, p99 = quantiles(lat)
        row = {
            "phase": name,
            "moves": len(lat),
            "p50_ms": p50,
            "p99_ms": p99,
            "p99_vs_idle": p99 / rows[0]["p99_ms"],
            "rss_mb": during,
            "rss_after_mb": after,
            "rss_after_vs_idle": after / idle_rss,
            "server_cpu_cores_flood": cpu / args.flood,
            "server_cpu_cores_after": cpu_idle,
            "outcomes": tally,
            "full_collections": gcs["count"],
            "full_collections_over_25ms": gcs["long"],
            "full_collection_ms_mean": 1000 * gcs["seconds"] / max(gcs["count"], 1),
        }
        rows.append(row)
        print(
            f"{name}: {len(lat)} moves, p50 {p50:.1f} ms, p99 {p99:.1f} ms "
            f"({row['p99_vs_idle']:.2f}× idle); RSS {during:.0f} MB, {after:.0f} MB "
            f"{args.settle:.0f} s after ({row['rss_after_vs_idle']:.2f}× idle); server CPU "
            f"{row['server_cpu_cores_flood']:.2f} cores during, "
            f"{cpu_idle:.2f} after; full collections {gcs['count']:.0f} (over 25 ms: "
            f"{gcs['long']:.0f}, mean {row['full_collection_ms_mean']:.0f} ms); {tally}",
            flush=True,
        )
    return rows


def medians(runs: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each phase's median over the runs (p50, p99, RSS), its ratios to the median idle."""
    rows = []
    for phase_rows in zip(*runs, strict=True):
        row: dict[str, Any] = {"phase": phase_rows[0]["phase"]}
        for key in ("p50_ms", "p99_ms", "rss_mb", "rss_after_mb"):
            row[key] = statistics.median(r.get(key, r["rss_mb"]) for r in phase_rows)
        rows.append(row)
    for row in rows:
        row["p99_vs_idle"] = row["p99_ms"] / rows[0]["p99_ms"]
        row["rss_after_vs_idle"] = row["rss_after_mb"] / rows[0]["rss_mb"]
    return rows


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), args.server_args, {0} if args.pin else None)
        try:
            cold_rss = server.rss_mb()
            tables = [RealTable(server) for _ in range(args.tables)]
            stop_table = asyncio.Event()
            playing = asyncio.gather(*(t.run(stop_table) for t in tables))
            await asyncio.sleep(3)  # connected, dealt, a few moves
            options = {
                "addresses": args.addresses,
                "spectators": args.spectators,
                "half_open": args.half_open,
            }
            if args.warm_up:
                # Each flood once, small and short, before idle is measured: the code, the
                # threads and the caches a server loads the first time it meets each kind of
                # request are its cost of serving at all, not memory a flood left behind.
                # Addresses of its own: an address that left tables unfinished here would have
                # the first run's one-address flood refused from its first request.
                small = {"addresses": 2, "spectators": 60, "half_open": 20, "first": 50_000}
                for name in args.only or FLOODS:
                    await phase(tables, 2, (name, small))
                await asyncio.sleep(5)
            runs: list[list[dict[str, Any]]] = []
            for repeat in range(args.repeats):
                if args.repeats > 1:
                    print(f"-- run {repeat + 1} of {args.repeats}", flush=True)
                # New addresses for each run's table floods: the tables an address left
                # unfinished in the run before would have it refused from the start.
                fresh = {**options, "first": 1000 * repeat}
                runs.append(await measure(server, tables, args, fresh, cold_rss))
            rows = runs[0] if len(runs) == 1 else medians(runs)
            if len(runs) > 1:
                print(f"-- the median of {len(runs)} runs, phase by phase:", flush=True)
                for row in rows:
                    print(
                        f"{row['phase']}: p50 {row['p50_ms']:.1f} ms, p99 {row['p99_ms']:.1f} ms"
                        f" ({row['p99_vs_idle']:.2f}× idle); RSS after "
                        f"{row['rss_after_mb']:.0f} MB ({row['rss_after_vs_idle']:.2f}× idle)",
                        flush=True,
                    )
            stop_table.set()
            await playing
            return {
                "load_at_start": args.load,
                "tables": args.tables,
                "rss_at_start_mb": cold_rss,
                "warmed_up": args.warm_up,
                "flood_s": args.flood,
                "settle_s": args.settle,
                "pinned": args.pin,
                "rows": rows,
                "runs": runs,
            }
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--flood", type=float, default=30, help="seconds of each flood (and of idle)"
    )
    parser.add_argument(
        "--settle", type=float, default=60, help="seconds after a flood before RSS is read"
    )
    parser.add_argument(
        "--addresses", type=int, default=100, help="addresses of the many-address flood"
    )
    parser.add_argument(
        "--tables",
        type=int,
        default=3,
        help="real tables of two people (more moves: p99 of ~130 moves is the second worst)",
    )
    parser.add_argument(
        "--no-warm-up",
        dest="warm_up",
        action="store_false",
        help="measure idle on a server that has met no flood yet",
    )
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--half-open", type=int, default=500)
    parser.add_argument(
        "--only", action="append", choices=FLOODS, help="only this flood (repeatable)"
    )
    parser.add_argument(
        "--repeats", type=int, default=1, help="measure idle and every flood this many times"
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server on core 0, the clients and floods on the others (remote senders)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("server_args", nargs="*", help="after --: more `ono99 serve` options")
    args = parser.parse_args()
    args.load = os.getloadavg()
    if args.pin:  # this process, its real tables' clients and the floods it forks
        others = set(range(1, os.cpu_count() or 1))
        if not others:
            parser.error("--pin needs two cores or more")
        os.sched_setaffinity(0, others)
    print(
        "bench_abuse: load average at start "
        f"{args.load[0]:.2f} {args.load[1]:.2f} {args.load[2]:.2f}; "
        f"{os.cpu_count()} cores; flood {args.flood:.0f} s, settle {args.settle:.0f} s",
        flush=True,
    )
    result = asyncio.run(bench(args))
    if args.json:
        print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
