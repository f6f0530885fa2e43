"""Load benchmark of the multiplayer server: many concurrent tables of websocket clients on
loopback against one server process.

For each table count, a fresh ``python -m ono99 serve`` process is started on a free port
with a fresh database; that many tables are created over HTTP, every seat is taken by a
websocket client of this process (people, not bots: every move crosses the network), and the
games are played: the client whose turn it is waits a think time, then sends a legal move;
when a game ends its host starts another. For every move the time is taken from the moment
it is sent to the moment the *last* seat of its table has received the update announcing it
(so it includes validation, the SQLite commit, the per-seat views and the fan-out), and the
p50/p90/p99 of that latency are reported, with moves per second. The clients run in
``--clients`` processes of their own (the tables dealt among them), and every CPU second of the
measured window is accounted for — the servers, the clients, PostgreSQL, Redis and the rest of
the machine — in cores and in CPU milliseconds per move, so that neither the load generator
nor other work on the machine passes for the server's own cost.

Run by hand, never from the test suite:

    python benchmarks/bench_server.py                        # 50, 100 and 200 tables
    python benchmarks/bench_server.py --tables 200 --seconds 60 --think 0.5
    python benchmarks/bench_server.py --json
    # many processes on PostgreSQL + Redis (the machine's), against one on SQLite:
    python benchmarks/bench_server.py --processes 1,4 --tables 2000 --think 5
    python benchmarks/bench_server.py --failover              # kill -9 a writer: how long?

With ``--processes N`` (N > 1) the processes share a fresh PostgreSQL schema (dropped after) and
Redis; table i is made on process i mod N and its seats are spread over the processes, so every
move reaches most seats through the bus (docs/deploy.md).

The target: 200 concurrent tables with a p99 below 100 ms. The server and the clients share the
machine: other work on it shows up as latency (the header gives the load average at start), so
quote figures from a quiet machine. Compare versions over ``--seconds 60`` or more: CPython's
full garbage collection of a server holding 200 tables (about 130,000 objects) stalls it for
~100 ms once every 25-55 s, so whether a 30 s window holds one is chance, and it decides the
max and often the p99.
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
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from gc_scrape import full_collections
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
    def __init__(self, where: list[str], bot_delay: float = 1.0) -> None:
        path = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "PYTHONPATH": path}
        # Its log goes to a file, not a pipe nobody reads: a full pipe would stop the server.
        self.log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ono99", "serve", "--host", "127.0.0.1", "--port", "0"]
            + where
            + [
                "--http-rate",
                "0",
                "--max-connections",
                "0",
                "--max-open-tables",
                "0",
                "--create-rate",  # its tables are set up before it measures: no pace
                "0",
                "--grace",
                "3600",
                "--bot-delay",
                str(bot_delay),
                "--metrics",
            ],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=env,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        if not match:
            self.proc.kill()
            raise SystemExit(f"the server did not start: {line}{self.logged()}")
        self.url = match.group(1)
        self.ws_url = self.url.replace("http://", "ws://")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def logged(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        text = self.logged()
        if text.strip():  # what went wrong in there is part of the result
            lines = text.strip().splitlines()
            print(f"server {self.proc.pid} logged {len(lines)} lines; the last:", file=sys.stderr)
            print("\n".join(lines[-5:]), file=sys.stderr)
        self.log.close()


@contextmanager
def servers(
    args: argparse.Namespace, processes: int, bot_delay: float = 1.0
) -> Iterator[list[Server]]:
    """One process on a fresh SQLite file, or ``processes`` on a fresh PostgreSQL schema
    (dropped afterwards) and Redis."""
    started: list[Server] = []
    with tempfile.TemporaryDirectory() as tmp:
        schema = None
        if processes == 1 and not args.single_postgres:
            where = ["--db", str(Path(tmp) / "bench.db")]
        else:
            import psycopg

            schema = f"bench_{os.getpid()}_{random.randrange(10**9)}"
            sep = "&" if "?" in args.database else "?"
            where = ["--database", f"{args.database}{sep}schema={schema}"]
            if processes > 1:
                where += ["--redis", args.redis]
        try:
            for _ in range(processes):
                started.append(Server(where, bot_delay))
            yield started
        finally:
            for server in started:
                server.stop()
            if schema is not None:
                with psycopg.connect(args.database, autocommit=True) as db:
                    db.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')  # type: ignore[arg-type]


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


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def service_cpu(names: tuple[str, ...]) -> float:
    """CPU seconds of every process on the machine whose command is one of ``names`` (the
    PostgreSQL backends and Redis the servers use: other users of them count too)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as f:
                    if f.read().strip() not in names:
                        continue
            except OSError:
                continue
            total += cpu_of(int(entry))
    return total


def machine_cpu() -> float:
    """CPU seconds the whole machine has spent busy (every core, every process)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def client_process(
    urls: list[str], ws_urls: list[str], share: list[int], args: argparse.Namespace, pipe: Any
) -> None:
    """One of the load generator's processes: makes the tables of ``share`` (their indices),
    connects their seats, says ready, and plays from the times the parent sends back."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(play_share(urls, ws_urls, share, args, pipe))


async def play_share(
    urls: list[str], ws_urls: list[str], share: list[int], args: argparse.Namespace, pipe: Any
) -> None:
    """Table i is made on process i mod N, and its seat s connects to process (i + s) mod N:
    with several processes every move crosses the bus to the other seats."""
    players = args.players
    limits = httpx.Limits(max_connections=16)
    async with httpx.AsyncClient(limits=limits, timeout=120) as http:
        gate = asyncio.Semaphore(16)

        async def make_table(i: int) -> tuple[int, str, list[str]]:
            for attempt in range(5):  # a kept-alive connection may close under our feet
                try:
                    return await try_table(i)
                except httpx.TransportError:
                    if attempt == 4:
                        raise
                    await asyncio.sleep(0.5)
            raise AssertionError("unreachable")

        async def try_table(i: int) -> tuple[int, str, list[str]]:
            base = urls[i % len(urls)]
            body = {"seats": [{"kind": "human"}] * players, "name": "P0", "turn_seconds": 0}
            async with gate:
                r = await http.post(f"{base}/api/tables", json=body)
                r.raise_for_status()
                made = r.json()
                tokens = [made["token"]]
                for s in range(1, players):
                    r = await http.post(
                        f"{base}/api/tables/{made['code']}/join", json={"name": f"P{s}"}
                    )
                    r.raise_for_status()
                    tokens.append(r.json()["token"])
            return i, made["code"], tokens

        made = await asyncio.gather(*(make_table(i) for i in share))

    # Times are set once every client of every load process is connected.
    run = Run(players, args.think, float("inf"), float("inf"), random.Random(args.seed + share[0]))
    connections: list[ClientConnection] = []
    clients = []
    for i, code, tokens in made:
        for seat, token in enumerate(tokens):
            ws_url = ws_urls[(i + seat) % len(ws_urls)]
            ws = await connect(
                f"{ws_url}/ws/{code}", max_queue=None, open_timeout=120, ping_interval=None
            )
            await ws.send(json.dumps({"type": "hello", "token": token}))
            connections.append(ws)
            clients.append(asyncio.create_task(seat_client(run, ws, code, seat, seat == 0)))
    loop = asyncio.get_running_loop()
    pipe.send(len(connections))
    run.warmup_end, run.stop_at = await loop.run_in_executor(None, pipe.recv)
    await asyncio.sleep(max(0.0, run.warmup_end - args.warmup - time.perf_counter()))

    # Each host starts its game within a think time of the others, as people do: 2,000
    # tables started at one instant would measure a storm of new games (every other process
    # reads each new game from the database), not the steady play that follows.
    async def start(ws: ClientConnection, delay: float) -> None:
        await asyncio.sleep(delay)
        await ws.send(json.dumps({"type": "start"}))

    starts = [
        asyncio.create_task(start(connections[k * players], run.rng.random() * args.think))
        for k in range(len(made))
    ]
    await asyncio.sleep(max(0.0, run.warmup_end - time.perf_counter()))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, run.stop_at - time.perf_counter()))
    cpu = time.process_time() - cpu0
    await asyncio.gather(*starts)
    await asyncio.sleep(args.think * 2)  # let the last moves arrive
    for ws in connections:
        await ws.close()
    for task in clients:
        task.cancel()
    pipe.send(
        {
            "latencies": run.latencies,
            "messages": run.messages,
            "errors": run.errors,
            "games": run.games,
            "cpu": cpu,
        }
    )


def run_tables(procs: list[Server], tables: int, args: argparse.Namespace) -> dict[str, Any]:
    """The tables are dealt to ``--clients`` load processes (so that the load generator is
    not the bottleneck it measures); every CPU second of the measured window is accounted
    for: the server processes, the load processes, PostgreSQL, Redis, and the rest of the
    machine (other work on it)."""
    import multiprocessing

    urls = [p.url for p in procs]
    ws_urls = [p.ws_url for p in procs]
    k = max(1, min(args.clients, tables))
    workers = []
    for c in range(k):
        ours, theirs = multiprocessing.Pipe()
        share = list(range(c, tables, k))
        w = multiprocessing.Process(
            target=client_process, args=(urls, ws_urls, share, args, theirs), daemon=True
        )
        w.start()
        workers.append((w, ours))
    connected = sum(pipe.recv() for _, pipe in workers)
    print(f"{connected} connections open; playing", file=sys.stderr, flush=True)
    warmup_end = time.perf_counter() + 1.0 + args.warmup
    stop_at = warmup_end + args.seconds
    for _, pipe in workers:
        pipe.send((warmup_end, stop_at))
    print(f"measuring from {warmup_end:.3f} to {stop_at:.3f} (perf_counter)", file=sys.stderr)
    time.sleep(max(0.0, warmup_end - time.perf_counter()))
    pids = [p.proc.pid for p in procs]
    collected = [full_collections(p.url) for p in procs]
    services = ("postgres", "redis-server")
    before = (
        sum(cpu_of(pid) for pid in pids),
        service_cpu(services[:1]),
        service_cpu(services[1:]),
        machine_cpu(),
        time.perf_counter(),
    )
    time.sleep(max(0.0, stop_at - time.perf_counter()))
    after = (
        sum(cpu_of(pid) for pid in pids),
        service_cpu(services[:1]),
        service_cpu(services[1:]),
        machine_cpu(),
        time.perf_counter(),
    )
    window: Counter[str] = Counter()  # the full collections in the window, every process
    for seen, p in zip(collected, procs, strict=True):
        window.update(full_collections(p.url))
        window.subtract(seen)
    elapsed = after[4] - before[4]
    server_cpu, pg_cpu, redis_cpu, busy = (
        (a - b) / elapsed for a, b in zip(after[:4], before[:4], strict=True)
    )
    done = [pipe.recv() for _, pipe in workers]
    for w, _ in workers:
        w.join(30)
    client_cpu = sum(d["cpu"] for d in done) / elapsed
    lat = sorted(x * 1000 for d in done for x in d["latencies"])
    if not lat:
        raise SystemExit("no move was measured")

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p / 100 * len(lat)))]

    moves_per_s = len(lat) / args.seconds
    return {
        "processes": len(procs),
        "store": "sqlite" if len(procs) == 1 and not args.single_postgres else "postgres",
        "tables": tables,
        "connections": tables * args.players,
        "clients": k,
        "moves": len(lat),
        "moves_per_s": moves_per_s,
        "messages_per_s": sum(d["messages"] for d in done) / (args.seconds + args.warmup),
        "games_finished": sum(d["games"] for d in done),
        "errors": sum(d["errors"] for d in done),
        "p50_ms": pct(50),
        "p90_ms": pct(90),
        "p99_ms": pct(99),
        "max_ms": lat[-1],
        "mean_ms": statistics.fmean(lat),
        # CPU in cores (CPU seconds per second of the window), and per move in ms.
        "server_cpu": server_cpu,
        "client_cpu": client_cpu,
        "postgres_cpu": pg_cpu,
        "redis_cpu": redis_cpu,
        "other_cpu": max(0.0, busy - server_cpu - client_cpu - pg_cpu - redis_cpu),
        "server_ms_per_move": 1000 * server_cpu / moves_per_s,
        "client_ms_per_move": 1000 * client_cpu / moves_per_s,
        "services_ms_per_move": 1000 * (pg_cpu + redis_cpu) / moves_per_s,
        # Full garbage collections in the window, over all the server processes: each
        # stopped every table on its process.
        "full_collections": window["count"],
        "full_collections_over_25ms": window["long"],
        "full_collection_ms_mean": 1000 * window["seconds"] / max(1, window["count"]),
    }


async def failover(args: argparse.Namespace) -> dict[str, Any]:
    """Two processes; ``--failover-tables`` all-bot tables, each made and started on the first
    (so it writes their moves) and watched from the second. The first is killed (SIGKILL) in
    mid-play: the time from the kill to each table's next move, as the watcher on the second
    sees it, is how long that table stood still. A person's connection on the first, which
    reconnects to the second at once, measures the time to be playing again."""
    with servers(args, 2, bot_delay=args.failover_bot_delay) as (first, second):
        async with httpx.AsyncClient(timeout=60) as http:
            made = []
            for _ in range(args.failover_tables):
                body = {"seats": [{"kind": "bot", "bot": "random"}] * 3, "turn_seconds": 0}
                r = await http.post(f"{first.url}/api/tables", json=body)
                r.raise_for_status()
                made.append(r.json())
        moves: dict[str, list[float]] = {m["code"]: [] for m in made}
        hosts = []
        watchers = []

        async def watch(code: str) -> None:
            ws = await connect(f"{second.ws_url}/ws/{code}", max_queue=None, ping_interval=None)
            watchers.append(ws)
            await ws.send(json.dumps({"type": "hello"}))
            async for text in ws:
                if json.loads(text)["type"] == "update":
                    moves[code].append(time.perf_counter())

        tasks = [asyncio.create_task(watch(m["code"])) for m in made]
        for m in made:
            ws = await connect(f"{first.ws_url}/ws/{m['code']}", ping_interval=None)
            await ws.send(json.dumps({"type": "hello", "token": m["token"]}))
            hosts.append(ws)
        await asyncio.sleep(1.0)
        for ws in hosts:
            await ws.send(json.dumps({"type": "start"}))
        await asyncio.sleep(args.failover_bot_delay * 6)
        # A person's link, to follow to the other process.
        person = made[0]
        killed = time.perf_counter()
        first.kill()
        back = await connect(f"{second.ws_url}/ws/{person['code']}", ping_interval=None)
        await back.send(json.dumps({"type": "hello", "token": person["token"]}))
        while json.loads(await back.recv())["type"] != "state":
            pass
        reconnected = time.perf_counter() - killed
        await asyncio.sleep(args.failover_wait)
        gaps = []
        stalled = 0
        for times in moves.values():
            after = [t for t in times if t > killed]
            before = [t for t in times if t <= killed]
            if not before:
                continue  # had not started, or finished: nothing to fail over
            if after:
                gaps.append(after[0] - killed)
            else:
                stalled += 1
        await back.close()
        for ws in watchers:
            await ws.close()
        for t in tasks:
            t.cancel()
    gaps.sort()
    return {
        "tables": len(made),
        "moved_on": len(gaps),
        "stalled": stalled,
        "p50_s": gaps[len(gaps) // 2] if gaps else None,
        "max_s": gaps[-1] if gaps else None,
        "reconnect_s": reconnected,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,100,200", help="table counts, comma-separated")
    parser.add_argument(
        "--processes",
        default="1",
        help="server process counts, comma-separated: 1 is SQLite alone; more share "
        "PostgreSQL (--database) and Redis (--redis)",
    )
    parser.add_argument("--database", default="postgresql://127.0.0.1:5432/test")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument(
        "--single-postgres", action="store_true", help="one process on PostgreSQL, not SQLite"
    )
    parser.add_argument("--failover", action="store_true", help="measure failover instead")
    parser.add_argument("--failover-tables", type=int, default=50)
    parser.add_argument("--failover-bot-delay", type=float, default=0.2)
    parser.add_argument("--failover-wait", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=4, help="people per table (2–6)")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time per move (s)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time per run")
    parser.add_argument("--warmup", type=float, default=5.0, help="unmeasured time first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--clients",
        type=int,
        default=2,
        help="load generator processes the tables are dealt to (its CPU is reported)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    load = os.getloadavg()[0]
    if args.failover:
        result = asyncio.run(failover(args))
        after = os.getloadavg()[0]
        if args.json:
            print(json.dumps({"load": load, "load_after": after, **result}))
            return
        print(
            f"failover · 2 processes on PostgreSQL + Redis · {result['tables']} all-bot tables "
            f"written by the first, watched from the second · bot delay "
            f"{args.failover_bot_delay:g} s · load average {load:.2f} → {after:.2f}"
        )
        print(
            f"tables that moved on after the kill: {result['moved_on']} (stalled: "
            f"{result['stalled']}); kill → next move p50 {result['p50_s']:.2f} s, max "
            f"{result['max_s']:.2f} s; a person reconnected to the other process and had the "
            f"game in {result['reconnect_s'] * 1000:.0f} ms"
        )
        return
    results = []
    for processes in (int(x) for x in args.processes.split(",")):
        for tables in (int(x) for x in args.tables.split(",")):
            load_before = os.getloadavg()[0]
            with servers(args, processes) as procs:
                result = run_tables(procs, tables, args)
            result["load"] = load_before
            result["load_after"] = os.getloadavg()[0]
            results.append(result)
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
        "CPU in cores (CPU seconds per second measured; 2 cores = 200%) of the server processes, "
        "the load generator's processes, PostgreSQL's, Redis's, and everything else on the "
        "machine; ms: CPU milliseconds per move (servers | clients | PostgreSQL + Redis); gc: "
        "the servers' full garbage collections in the window (over 25 ms / all, mean ms)"
    )
    print(
        f"{'procs':>5} {'store':>8} {'tables':>6} {'moves/s':>8} {'p50 ms':>7} {'p90 ms':>7} "
        f"{'p99 ms':>7} {'max ms':>7} {'server':>6} {'client':>6} {'pg':>5} {'redis':>5} "
        f"{'other':>5} {'ms/move s|c|db':>16} {'gc':>10} {'err':>4} {'load':>11}"
    )
    for r in results:
        per_move = (
            f"{r['server_ms_per_move']:.2f}|{r['client_ms_per_move']:.2f}|"
            f"{r['services_ms_per_move']:.2f}"
        )
        gcs = (
            f"{r['full_collections_over_25ms']:.0f}/{r['full_collections']:.0f} "
            f"{r['full_collection_ms_mean']:.0f}"
        )
        print(
            f"{r['processes']:>5} {r['store']:>8} {r['tables']:>6} {r['moves_per_s']:>8.0f} "
            f"{r['p50_ms']:>7.1f} {r['p90_ms']:>7.1f} {r['p99_ms']:>7.1f} {r['max_ms']:>7.1f} "
            f"{r['server_cpu']:>6.0%} {r['client_cpu']:>6.0%} {r['postgres_cpu']:>5.0%} "
            f"{r['redis_cpu']:>5.0%} {r['other_cpu']:>5.0%} {per_move:>16} {gcs:>10} "
            f"{r['errors']:>4} "
            f"{r['load']:>5.2f}→{r['load_after']:<5.2f}"
        )


if __name__ == "__main__":
    main()
