"""Load benchmark of the multiplayer server: many concurrent tables of websocket clients on
loopback against one server process.

For each table count, a fresh ``python -m ono99 serve`` process is started on a free port
with a fresh database; that many tables are created over HTTP, every seat is taken by a
websocket client of this process (people, not bots: every move crosses the network), and the
games are played: the client whose turn it is waits a think time, then sends a legal move;
when a game ends its host starts another. For every move the time is taken from the moment
it is sent to the moment the *last* seat of its table has received the update announcing it
(so it includes validation, the SQLite commit, the per-seat views and the fan-out), and the
p50/p90/p99 of that latency are reported, with moves per second and the CPU the server used.

Run by hand, never from the test suite:

    python benchmarks/bench_server.py                        # 50, 100 and 200 tables
    python benchmarks/bench_server.py --tables 200 --seconds 60 --think 0.5
    python benchmarks/bench_server.py --json

The target: 200 concurrent tables with a p99 below 100 ms. The server and the clients share the
machine: other work on it shows up as latency (the header gives the load average at start), so
quote figures from a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Run:
    players: int
    think: float
    warmup_end: float
    stop_at: float
    rng: random.Random
    latencies: list[float] = field(default_factory=list)
    pending: dict[tuple[str, int, int], list[float]] = field(default_factory=dict)
    messages: int = 0
    errors: int = 0
    games: int = 0
    moves: int = 0

    def sent(self, code: str, game: int, moves: int, now: float) -> None:
        self.pending[(code, game, moves)] = [now, 0]

    def received(self, code: str, game: int, moves: int, now: float) -> None:
        entry = self.pending.get((code, game, moves))
        if entry is None:
            return
        entry[1] += 1
        if entry[1] == self.players:
            del self.pending[(code, game, moves)]
            if self.warmup_end <= entry[0] < self.stop_at:
                self.latencies.append(now - entry[0])
                self.moves += 1


class Server:
    def __init__(self, db: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ono99", "serve", "--host", "127.0.0.1", "--port", "0"]
            + ["--db", str(db), "--http-rate", "0", "--grace", "3600"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        if not match:
            self.proc.kill()
            raise SystemExit(f"the server did not start: {line}{self.proc.stderr.read()}")
        self.url = match.group(1)
        self.ws_url = self.url.replace("http://", "ws://")

    def cpu_seconds(self) -> float:
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


async def seat_client(run: Run, ws: ClientConnection, code: str, seat: int, host: bool) -> None:

    async def send_later(message: dict[str, Any], game: int, moves: int) -> None:
        await asyncio.sleep(run.think * (0.5 + run.rng.random()))
        if time.perf_counter() >= run.stop_at:
            return
        if message["type"] == "act":
            run.sent(code, game, moves + 1, time.perf_counter())
        await ws.send(json.dumps(message))

    tasks: set[asyncio.Task[None]] = set()
    async for text in ws:
        now = time.perf_counter()
        run.messages += 1
        m = json.loads(text)
        kind = m["type"]
        if kind == "update":
            run.received(code, m["game"], m["moves"], now)
        elif kind == "error":
            run.errors += 1
            continue
        if kind not in ("update", "state") or m.get("view") is None:
            continue
        v = m["view"]
        if v["over"]:
            if host:
                run.games += 1
                task = asyncio.create_task(send_later({"type": "again"}, m["game"], m["moves"]))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            continue
        if v["to_play"] == seat and v["legal"]:
            action = run.rng.choice(v["legal"])
            message = {"type": "act", "action": action, "moves": m["moves"]}
            task = asyncio.create_task(send_later(message, m["game"], m["moves"]))
            tasks.add(task)
            task.add_done_callback(tasks.discard)


async def run_tables(server: Server, tables: int, args: argparse.Namespace) -> dict[str, Any]:
    players = args.players
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=60) as http:

        async def make_table() -> tuple[str, list[str]]:
            body = {"seats": [{"kind": "human"}] * players, "name": "P0", "turn_seconds": 0}
            r = await http.post("/api/tables", json=body)
            r.raise_for_status()
            made = r.json()
            tokens = [made["token"]]
            for i in range(1, players):
                r = await http.post(f"/api/tables/{made['code']}/join", json={"name": f"P{i}"})
                r.raise_for_status()
                tokens.append(r.json()["token"])
            return made["code"], tokens

        made = await asyncio.gather(*(make_table() for _ in range(tables)))

    # Times are set once every client is connected.
    run = Run(players, args.think, float("inf"), float("inf"), random.Random(args.seed))
    connections: list[ClientConnection] = []
    clients = []
    for code, tokens in made:
        for seat, token in enumerate(tokens):
            ws = await connect(
                f"{server.ws_url}/ws/{code}", max_queue=None, open_timeout=60, ping_interval=None
            )
            await ws.send(json.dumps({"type": "hello", "token": token}))
            connections.append(ws)
            clients.append(asyncio.create_task(seat_client(run, ws, code, seat, seat == 0)))
    await asyncio.sleep(1.0)
    run.warmup_end = time.perf_counter() + args.warmup
    run.stop_at = run.warmup_end + args.seconds
    for i in range(len(made)):
        await connections[i * players].send(json.dumps({"type": "start"}))
    cpu0, t0 = None, None
    while time.perf_counter() < run.stop_at:
        if cpu0 is None and time.perf_counter() >= run.warmup_end:
            cpu0, t0 = server.cpu_seconds(), time.perf_counter()
            client0 = time.process_time()
        await asyncio.sleep(0.05)
    assert cpu0 is not None and t0 is not None
    elapsed = time.perf_counter() - t0
    server_cpu = (server.cpu_seconds() - cpu0) / elapsed
    client_cpu = (time.process_time() - client0) / elapsed
    await asyncio.sleep(args.think * 2)  # let the last moves arrive
    for ws in connections:
        await ws.close()
    for task in clients:
        task.cancel()
    lat = sorted(x * 1000 for x in run.latencies)
    if not lat:
        raise SystemExit("no move was measured")

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p / 100 * len(lat)))]

    return {
        "tables": tables,
        "connections": tables * players,
        "moves": len(lat),
        "moves_per_s": len(lat) / args.seconds,
        "messages_per_s": run.messages / (args.seconds + args.warmup),
        "games_finished": run.games,
        "errors": run.errors,
        "p50_ms": pct(50),
        "p90_ms": pct(90),
        "p99_ms": pct(99),
        "max_ms": lat[-1],
        "mean_ms": statistics.fmean(lat),
        "server_cpu": server_cpu,
        "client_cpu": client_cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,100,200", help="table counts, comma-separated")
    parser.add_argument("--players", type=int, default=4, help="people per table (2–6)")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time per move (s)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time per run")
    parser.add_argument("--warmup", type=float, default=5.0, help="unmeasured time first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    load = os.getloadavg()[0]
    results = []
    for tables in (int(x) for x in args.tables.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            server = Server(Path(tmp) / "bench.db")
            try:
                results.append(asyncio.run(run_tables(server, tables, args)))
            finally:
                server.stop()
    if args.json:
        out = {"think": args.think, "players": args.players, "load": load, "results": results}
        print(json.dumps(out))
        return
    print(
        f"ono99 server load · {platform.python_implementation()} {platform.python_version()} · "
        f"{os.cpu_count()} CPUs · {args.players} people per table · think {args.think:g} s · "
        f"{args.seconds:g} s measured after {args.warmup:g} s · load average at start {load:.2f}"
    )
    print(
        f"{'tables':>6} {'conns':>6} {'moves/s':>8} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} "
        f"{'max ms':>7} {'server CPU':>10} {'client CPU':>10} {'errors':>6}"
    )
    for r in results:
        print(
            f"{r['tables']:>6} {r['connections']:>6} {r['moves_per_s']:>8.0f} {r['p50_ms']:>7.1f} "
            f"{r['p90_ms']:>7.1f} {r['p99_ms']:>7.1f} {r['max_ms']:>7.1f} "
            f"{r['server_cpu']:>10.0%} {r['client_cpu']:>10.0%} {r['errors']:>6}"
        )


if __name__ == "__main__":
    main()
