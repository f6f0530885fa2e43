"""The place to play under a crowd (issue 42): Play now's request → seated times, the lobby's
fan-out to its watchers, and what both cost an honest table being played meanwhile.

A fresh ``python -m ono99 serve`` process (SQLite, or ``--processes N`` on PostgreSQL + Redis,
the machine's, a fresh schema dropped afterwards) serves; the clients are real websockets and
HTTP on loopback. The honest table plays from a process of its own, as a person plays from a
device of their own: in this process, its moves' latency also counted the time this process's
one event loop spent receiving the crowd's lists (500 watchers each parsing each list), which
is the bench's cost, not the server's (``--same-process`` measures it that way, to compare).
For the same reason the crowd's clients run at a lower priority (``--crowd-nice``, 10 unless
told; the server and the honest table keep theirs): on a 2-core machine, 500 watchers parsing
each list they are sent keep a core busy for ~100 ms after every list, and the server and the
honest table waited for a core behind them, as they would not with the crowd on its own
devices (7 December, 500 watchers and 200 presses: crowd p99 1.9-2.3x idle at nice 0,
1.1-1.5x at nice 10; ``--crowd-nice 0`` measures it that way):

1. *Idle*: two people play a private table against each other, each move sent an eighth of a
   second after the other's has arrived (a quick person; faster, and the server's per-socket
   rate limit would refuse them): the time from sending a move to its update coming back is
   the move's latency (its p50/p99 are the baseline).
2. *Crowd*: ``--watchers`` websockets watch ``/ws/lobby``, and ``--presses`` people press Play
   now for one setting (``--players``), ``--rate`` a second, while the two go on playing. For
   each press: request → answer (seated). For each table a press opened: its answer → each
   watcher's first list that names it (the fan-out). And the honest table's moves again.

It prints the p50/p95/p99 of each and the crowd's move p99 against the idle one (the goal:
within 2x), with the load average. Run by hand, never by the tests:

    .venv/bin/python benchmarks/bench_lobby.py                         # 500 watchers, 200 presses
    .venv/bin/python benchmarks/bench_lobby.py --processes 4           # PostgreSQL + Redis
    .venv/bin/python benchmarks/bench_lobby.py --watchers 100 --presses 50 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the tests' server processes and services

from ono99.server.lobby import GATHER  # noqa: E402
from server_support import Cluster, ServerProcess  # noqa: E402


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def line(label: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"  {label}: {len(ms)} samples, p50 {pct(ms, 50):.1f} ms, p95 {pct(ms, 95):.1f} ms, "
        f"p99 {pct(ms, 99):.1f} ms, max {max(ms, default=float('nan')):.1f} ms"
    )


THINK = 0.12  # seconds a person of the honest table takes to play


class Honest:
    """Two people at a private two-seat table, playing each other as fast as the moves come."""

    def __init__(self, base: str, ws_base: str) -> None:
        self.base, self.ws_base = base, ws_base
        self.latencies: list[float] = []
        self.timed: list[tuple[float, float]] = []  # (sent on time.monotonic, latency)
        self.recording = False
        self.stopped = False

    async def run(self) -> None:
        async with httpx.AsyncClient(timeout=30) as http:
            while not self.stopped:
                await self._game(http)

    async def _game(self, http: httpx.AsyncClient) -> None:
        body = {"seats": [{"kind": "human"}] * 2, "name": "Ana", "turn_seconds": 0}
        made = (await http.post(f"{self.base}/api/tables", json=body)).json()
        code = made["code"]
        ben = {"name": "Ben"}
        joined = (await http.post(f"{self.base}/api/tables/{code}/join", json=ben)).json()
        seats = [Seat(), Seat()]
        for seat, token in zip(seats, (made["token"], joined["token"]), strict=True):
            seat.ws = await connect(f"{self.ws_base}/ws/{code}", max_size=2**22)
            await seat.ws.send(json.dumps({"type": "hello", "token": token}))
            seat.reader = asyncio.ensure_future(seat.read())
        await seats[0].ws.send(json.dumps({"type": "start"}))
        try:
            while not self.stopped:
                # Both seats have seen the same move: the one to play plays its first legal.
                await seats[0].at_least(0)
                moves = seats[0].moves
                await seats[1].at_least(moves)
                view = seats[0].view
                assert view is not None
                if view["over"]:
                    break
                mover = seats[view["to_play"]]
                if not mover.view or not mover.view["legal"]:
                    await seats[0].at_least(moves + 1)  # a draw owed elsewhere, say
                    continue
                await asyncio.sleep(THINK)  # a quick person (the server limits a socket's rate)
                sent = time.perf_counter()
                action = {"type": "act", "action": mover.view["legal"][0], "moves": moves}
                await mover.ws.send(json.dumps(action))
                await mover.at_least(moves + 1)
                if self.recording:
                    took = time.perf_counter() - sent
                    self.latencies.append(took)
                    self.timed.append((time.monotonic() - took, took))
                for seat in seats:
                    await seat.at_least(moves + 1)
        finally:
            for seat in seats:
                seat.reader.cancel()
                await seat.ws.close()


def honest_in_a_process(base: str, ws_base: str, pipe: Any) -> None:
    """The honest table on a loop of its own; every move's (sent, latency), on ``time.monotonic``
    (one clock for every process), go back through ``pipe`` when it says stop."""

    async def main() -> None:
        honest = Honest(base, ws_base)
        honest.recording = True
        playing = asyncio.ensure_future(honest.run())
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # "stop"
        honest.stopped = True
        playing.cancel()
        pipe.send(honest.timed)

    asyncio.run(main())


class Seat:
    """One person's websocket: the latest view it was sent, and the moves it had then."""

    def __init__(self) -> None:
        self.ws: Any = None
        self.reader: Any = None
        self.view: dict[str, Any] | None = None
        self.moves = -1
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for text in self.ws:
            m = json.loads(text)
            if m.get("view") is not None and m.get("game", 0) >= 1:
                self.view, self.moves = m["view"], m["moves"]
                self.changed.set()

    async def at_least(self, moves: int) -> None:
        """Until this seat has been told of ``moves`` moves (of the game begun)."""
        while self.view is None or self.moves < moves:
            self.changed.clear()
            await self.changed.wait()


LISTENERS: set[asyncio.Future[None]] = set()


async def watch(ws_base: str, n: int, seen: dict[str, list[float]]) -> list[ClientConnection]:
    """``n`` lobby watchers; ``seen[code]`` gets the time each first hears of a table."""
    socks = []
    for _ in range(n):
        ws = await connect(f"{ws_base}/ws/lobby", max_size=2**22)
        await ws.recv()  # the list as it is
        socks.append(ws)

    async def listen(ws: ClientConnection) -> None:
        known: set[str] = set()
        async for text in ws:
            now = time.perf_counter()
            for entry in json.loads(text)["tables"]:
                if entry["code"] not in known:
                    known.add(entry["code"])
                    seen.setdefault(entry["code"], []).append(now)

    for ws in socks:
        LISTENERS.add(asyncio.ensure_future(listen(ws)))
    return socks


async def bench(args: argparse.Namespace, urls: list[str]) -> dict[str, Any]:
    ws_urls = [u.replace("http://", "ws://") for u in urls]
    honest = Honest(urls[0], ws_urls[-1])
    pipe: Any = None
    child: Any = None
    if args.same_process:
        playing = asyncio.ensure_future(honest.run())
        playing.add_done_callback(
            lambda t: (
                t.cancelled()
                or t.exception() is None
                or print("the honest table:", repr(t.exception()))
            )
        )
    else:
        spawn = multiprocessing.get_context("spawn")
        pipe, theirs = spawn.Pipe()
        child = spawn.Process(target=honest_in_a_process, args=(urls[0], ws_urls[-1], theirs))
        child.start()
    if args.crowd_nice:
        os.nice(args.crowd_nice)  # the crowd's clients: the server and the honest table are not
    await asyncio.sleep(3.0 if child else 1.0)  # warm (a new process imports first)
    honest.recording = True
    idle_from = time.monotonic()
    await asyncio.sleep(args.seconds)
    idle_to = time.monotonic()
    idle = list(honest.latencies)
    honest.latencies.clear()
    crowd_from = time.monotonic()  # the watchers connect, then the presses: the crowd
    seen: dict[str, list[float]] = {}
    watchers = []
    for i in range(len(ws_urls)):
        share = args.watchers // len(ws_urls) + (i < args.watchers % len(ws_urls))
        watchers += await watch(ws_urls[i], share, seen)
    rate = args.rate or args.presses / args.seconds  # the crowd lasts as long as the idle window
    opened: dict[str, float] = {}
    seated: list[float] = []
    refused: dict[str, int] = {}
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=400)) as http:
        keys: list[str | None] = [None] * args.presses
        if args.registered:  # each presser has a profile (before the clock: not timed)
            for i in range(args.presses):
                made = await http.post(f"{urls[0]}/api/players", json={"name": f"P{i}"})
                keys[i] = made.json()["key"]

        async def press(i: int) -> None:
            await asyncio.sleep(i / rate)
            key = keys[i]
            sent = time.perf_counter()
            r = await http.post(
                f"{urls[i % len(urls)]}/api/quick",
                json={"name": f"P{i}", "players": args.players},
                headers={"Authorization": f"Bearer {key}"} if key else {},
            )
            done = time.perf_counter()
            if r.status_code >= 400:
                code = r.json()["error"]["code"]
                refused[code] = refused.get(code, 0) + 1
                return
            seated.append(done - sent)
            data = r.json()
            if data["host"]:
                opened[data["code"]] = done

        await asyncio.gather(*(press(i) for i in range(args.presses)))
    await asyncio.sleep(2.0)  # the last lists reach everyone
    crowd_to = time.monotonic()
    crowd = list(honest.latencies)
    honest.stopped = True
    if child is None:
        playing.cancel()
    else:
        pipe.send("stop")
        timed = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
        child.join(10)
        idle = [took for sent, took in timed if idle_from <= sent < idle_to]
        crowd = [took for sent, took in timed if crowd_from <= sent < crowd_to]
    for ws in watchers:
        await ws.close()
    fanout = [t - opened[code] for code, times in seen.items() if code in opened for t in times]
    reached = sum(1 for code in opened if len(seen.get(code, [])) >= args.watchers)
    return {
        "idle": idle,
        "crowd": crowd,
        "seated": seated,
        "fanout": fanout,
        "opened": len(opened),
        "reached_all": reached,
        "refused": refused,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument(
        "--rate", type=float, default=0, help="Play now presses a second (0: over --seconds)"
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0, help="of idle play measured")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--registered",
        action="store_true",
        help="every presser has a profile and sends its key (its seat and results are its)",
    )
    parser.add_argument(
        "--same-process",
        action="store_true",
        help="the honest table in this process, beside the crowd's clients (as before 7 December)",
    )
    parser.add_argument(
        "--crowd-nice",
        type=int,
        default=10,
        help=(
            "the crowd's clients' niceness, as if on devices of their own (this process: with "
            "--same-process the honest table's too); 0: the server's"
        ),
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    options = {
        "http_rate": 0,
        "max_connections": 0,
        "max_open_tables": 0,
        "create_rate": 0,
        "accept_rate": 0,
        "quick_wait": 3600,
        "turn_limits": [0.05, 600.0],
    }
    load0 = os.getloadavg()
    cluster = None
    server = None
    schema = None
    try:
        if args.processes > 1:
            from services import REDIS, drop_schema, fresh_schema, postgres_url

            schema = fresh_schema()
            options |= {"db": postgres_url(schema), "redis": REDIS}
            cluster = Cluster(options, args.processes)
            urls = [p.url for p in cluster.processes]
        else:
            folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-lobby-{os.getpid()}"
            folder.mkdir(exist_ok=True)
            options["db"] = str(folder / "ono99.db")
            server = ServerProcess.of(options)
            urls = [server.url]
        result = asyncio.run(bench(args, urls))
    finally:
        if cluster is not None:
            cluster.stop()
        if server is not None:
            server.stop()
        if schema is not None:
            drop_schema(schema)
    load1 = os.getloadavg()
    idle99, crowd99 = pct(result["idle"], 99), pct(result["crowd"], 99)
    if args.json:
        print(json.dumps({k: v for k, v in result.items()} | {"load": [load0, load1]}))
        return
    store = "SQLite" if args.processes == 1 else f"{args.processes} processes on PostgreSQL + Redis"
    print(
        f"load average at the start: {', '.join(f'{x:.2f}' for x in load0)}; "
        f"at the end: {', '.join(f'{x:.2f}' for x in load1)} ({os.cpu_count()} cores)"
    )
    print(
        f"{store}: {args.watchers} lobby watchers, {args.presses} Play now presses "
        f"({args.players} players) at {args.rate or args.presses / args.seconds:g}/s"
        f"{', each with a player key' if args.registered else ''}, one honest table of two people"
        f" ({'beside the crowd clients' if args.same_process else 'a process of its own'})"
        f"; the crowd's clients at nice {args.crowd_nice}"
    )
    print(line("honest move, idle", result["idle"]))
    print(line("honest move, in the crowd", result["crowd"]))
    print(f"  the crowd's p99 is {crowd99 / idle99:.2f}x the idle one (goal: at most 2x)")
    print(line("Play now request -> seated", result["seated"]))
    print(line("new table -> each watcher's list", result["fanout"]))
    print(
        f"  tables opened: {result['opened']}, heard of by every watcher: "
        f"{result['reached_all']} (one filled within {GATHER:g} s of opening is never listed); "
        f"refused presses: {result['refused'] or 'none'}"
    )


if __name__ == "__main__":
    main()
