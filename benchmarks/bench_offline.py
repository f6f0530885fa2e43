"""The offline app in Chromium (issue 43): what its first load costs, how soon a hand is dealt
from the cache, and how long each bot takes to move in the browser. A benchmark, not a test.

A server runs on a loopback port of this process (temporary database), with the offline app
built (``ono99 app build``); Debian's headless Chromium visits it with a fresh profile of its
own (as a person's browser, on disk: the service worker keeps what it keeps).

- **first offline load**: every byte that came over the network (response bodies as sent,
  gzip where the server compresses, plus headers) from opening ``/offline`` with an empty
  profile to the setup form (Pyodide and this package loaded and started, the runtime kept for
  offline use); against the goal of 8 MB. Beside it the same for the online home page ``/``,
  which must load none of the runtime (the online pages stay as light as they were).
- **from cache**: with the network off, a reload of ``/offline`` until the engine is ready, and
  until a dealt hand is on screen (setup, Start) — median of ``--runs``.
- **bot moves**: in the page, the worker's table of one person and three bots of a kind
  (bot_delay 0, a tokens match of the 2022 edition): the person plays a random legal move,
  then the bots' moves are timed from the ask to the answer (the worker's Python searches plus
  the message both ways), each move the answer's time over the bots' moves in it,
  ``--moves`` per bot: median and p95, as fast as the machine goes, and 4x slower: DevTools'
  CPU throttling (``Emulation.setCPUThrottlingRate``) slows the page's thread but cannot reach
  a dedicated worker (Chromium refuses it there), so the whole of Chromium runs in a cgroup
  with a quarter of one core's time (``slowed``), the page throttled 4x besides. Needs root
  and cgroup v1's cpu controller (as here); elsewhere that figure says it was not measured.

    python benchmarks/bench_offline.py
    python benchmarks/bench_offline.py --moves 60 --bots random,greedy,heuristic,expert --json

Needs the ``test`` extra (playwright) and ``/usr/bin/chromium`` (or ONO99_CHROMIUM); the load
average (printed) shows up in every time: quote figures from a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from browser import CHROMIUM, CHROMIUM_ARGS, DESKTOP
from ono99.server import BackgroundServer, ServerConfig
from ono99.server.offline import RUNTIME, runtime_version

GOAL_BYTES = 8_000_000
KEPT = """async () => {
  const info = await (await fetch("/app/runtime.json")).json();
  const cache = await caches.open("ono99-runtime");
  const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
  return info.files.every((f) => have.has(f));
}"""
# The bot's moves, timed in the page: the same worker the table uses (device/device.js).
TIME_BOT = """async ([bot, moves]) => {
  const { Engine } = await import("/static/js/device/device.js");
  const engine = new Engine();
  await engine.load();
  const times = [];
  let view = null;
  let at = 0;
  const read = (answer) => {
    for (const text of answer.messages) {
      const m = JSON.parse(text);
      if (m.view) view = m.view;
      if (typeof m.moves === "number") at = m.moves;
    }
    return answer;
  };
  const table = { rules: { edition: "2022", match: "tokens" }, turn_seconds: 0,
                  seats: [{ kind: "human" }, ...[1, 2, 3].map(() => ({ kind: "bot", bot }))] };
  read(await engine.create({ table, people: ["Ana"], bot_delay: 0 }));
  read(await engine.hello(0));
  read(await engine.handle({ type: "start" }));
  let games = 1;
  while (times.length < moves) {
    if (!view || view.over) {
      read(await engine.handle({ type: "again" }));
      games += 1;
      continue;
    }
    if (view.to_play === 0 && view.legal.length) {
      const action = view.legal[Math.floor(Math.random() * view.legal.length)];
      read(await engine.handle({ type: "act", action, moves: at }));
      continue;
    }
    const t0 = performance.now();
    const answer = read(await engine.wake());
    const bots = answer.messages.filter((t) => JSON.parse(t).by === "bot").length;
    const each = (performance.now() - t0) / Math.max(1, bots);
    for (let i = 0; i < bots; i++) times.push(each);
  }
  engine.worker.terminate();
  return { times, games };
}"""


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min), {five:.2f} (5 min), {os.cpu_count()} cores"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def first_load(pw: Any, base: str, path: str, ready: str) -> dict[str, Any]:
    """Bytes over the network from an empty profile to ``ready`` on ``path``."""
    with tempfile.TemporaryDirectory() as profile:
        context = await pw.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, viewport=DESKTOP
        )
        seen: list[Any] = []
        context.on("requestfinished", lambda request: seen.append(request))
        page = context.pages[0]
        t0 = time.perf_counter()
        await page.goto(base + path)
        await page.locator(ready).wait_for(timeout=180_000)
        seconds = time.perf_counter() - t0
        if path == "/offline":
            await page.wait_for_function(f"({KEPT})()", timeout=180_000, polling=250)
        await asyncio.sleep(1.0)  # the worker's late requests
        total, runtime, count = 0, 0, 0
        for request in seen:
            response = await request.response()
            if response is None or response.from_service_worker:
                continue  # answered from the worker's cache: nothing crossed the network
            sizes = await request.sizes()
            size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
            total += size
            count += 1
            if "/app/" in request.url:
                runtime += size
        await context.close()
        return {"bytes": total, "runtime_bytes": runtime, "requests": count, "seconds": seconds}


async def from_cache(pw: Any, base: str, runs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as profile:
        context = await pw.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            viewport=DESKTOP,
            reduced_motion="reduce",
        )
        page = context.pages[0]
        await page.goto(base + "/offline")
        await page.locator("#device-setup").wait_for(timeout=180_000)
        await page.wait_for_function(f"({KEPT})()", timeout=180_000, polling=250)
        await context.set_offline(True)
        ready, dealt = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            await page.reload()
            await page.locator("#device-setup").wait_for(timeout=180_000)
            ready.append(time.perf_counter() - t0)
            await page.fill("#device-name-0", "Ana")
            await page.click("#device-start")
            await page.locator("#lobby-actions button.primary").click()
            await page.locator("#hand .hand-card").first.wait_for(timeout=60_000)
            dealt.append(time.perf_counter() - t0)
        await context.close()
        return {
            "engine_ready_s": statistics.median(ready),
            "dealt_hand_s": statistics.median(dealt),
            "runs": runs,
        }


@contextlib.contextmanager
def slowed(rate: float) -> Iterator[Path | None]:
    """A launcher that runs Chromium, and all it starts, with 1/``rate`` of one core's time (a
    cgroup's CPU quota): DevTools' CPU throttling does not reach a dedicated worker (Chromium
    answers "Operation is only supported for pages, not workers"), and the bots search there.
    None where cgroups cannot be written (then the figure is not measured)."""
    group = Path(f"/sys/fs/cgroup/cpu/ono99-bench-{os.getpid()}")
    try:
        group.mkdir()
        period = int((group / "cpu.cfs_period_us").read_text())
        (group / "cpu.cfs_quota_us").write_text(str(int(period / rate)))
    except OSError:
        yield None
        return
    with tempfile.TemporaryDirectory() as tmp:
        launcher = Path(tmp) / "chromium"
        launcher.write_text(f'#!/bin/sh\necho $$ > {group}/cgroup.procs\nexec {CHROMIUM} "$@"\n')
        launcher.chmod(0o755)
        try:
            yield launcher
        finally:
            for pid in (group / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):
                    Path("/sys/fs/cgroup/cpu/cgroup.procs").write_text(pid)
            with contextlib.suppress(OSError):
                group.rmdir()


async def bot_moves(
    pw: Any, base: str, bots: list[str], moves: int, rate: float
) -> dict[str, Any] | None:
    with slowed(rate) if rate > 1 else contextlib.nullcontext(CHROMIUM) as executable:
        if executable is None:
            return None
        browser = await pw.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
        try:
            return await timed_bots(browser, base, bots, moves, rate)
        finally:
            await browser.close()


async def timed_bots(
    browser: Any, base: str, bots: list[str], moves: int, rate: float
) -> dict[str, Any]:
    page = await browser.new_page(viewport=DESKTOP)
    if rate > 1:  # the page's own thread too, as DevTools throttles it
        session = await page.context.new_cdp_session(page)
        await session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    await page.goto(base + "/offline")
    await page.locator("#device-setup").wait_for(timeout=600_000)
    out: dict[str, Any] = {}
    for bot in bots:
        result = await page.evaluate(TIME_BOT, [bot, moves])
        times = result["times"]
        out[bot] = {
            "median_ms": statistics.median(times),
            "p95_ms": pct(times, 0.95),
            "max_ms": max(times),
            "moves": len(times),
            "games": result["games"],
        }
    return out


async def main(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(db=str(Path(tmp) / "bench.db"), http_rate=0)
        with BackgroundServer(config) as server:
            async with async_playwright() as pw:
                result: dict[str, Any] = {
                    "pyodide": runtime_version(RUNTIME),
                    "load_before": load(),
                }
                result["first_offline_load"] = await first_load(
                    pw, server.url, "/offline", "#device-setup"
                )
                result["first_online_load"] = await first_load(pw, server.url, "/", "form.play-now")
                result["from_cache"] = await from_cache(pw, server.url, args.runs)
                bots = args.bots.split(",")
                result["bot_moves"] = await bot_moves(pw, server.url, bots, args.moves, 1)
                result["bot_moves_4x"] = await bot_moves(pw, server.url, bots, args.moves, 4)
                result["load_after"] = load()
                return result


def report(r: dict[str, Any]) -> None:
    off, on = r["first_offline_load"], r["first_online_load"]
    verdict = "within" if off["bytes"] <= GOAL_BYTES else "OVER"
    print(f"Pyodide {r['pyodide']}; {r['load_before']}")
    print(
        f"first offline load: {off['bytes'] / 1e6:.2f} MB over the network in {off['requests']} "
        f"responses ({off['runtime_bytes'] / 1e6:.2f} MB of it the runtime), engine ready in "
        f"{off['seconds']:.1f} s; goal 8 MB: {verdict}"
    )
    print(
        f"first online load (home page): {on['bytes'] / 1e3:.0f} kB in {on['requests']} responses, "
        f"of it the runtime: {on['runtime_bytes']} bytes"
    )
    c = r["from_cache"]
    print(
        f"from cache, offline (median of {c['runs']}): engine ready {c['engine_ready_s']:.2f} s, "
        f"a dealt hand {c['dealt_hand_s']:.2f} s after the reload"
    )
    for key, label in (
        ("bot_moves", "no throttling"),
        ("bot_moves_4x", "a quarter of one core: 4x slower, as 4x CPU throttling"),
    ):
        print(f"a bot's move in the browser ({label}):")
        if r[key] is None:
            print("  not measured: the cgroup that slows Chromium down cannot be made here")
            continue
        for bot, m in r[key].items():
            print(
                f"  {bot:10} median {m['median_ms']:7.1f} ms  p95 {m['p95_ms']:7.1f} ms  "
                f"max {m['max_ms']:7.1f} ms  ({m['moves']} moves, {m['games']} games)"
            )
    print(r["load_after"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="reloads from cache (median)")
    parser.add_argument("--moves", type=int, default=40, help="timed moves per bot")
    parser.add_argument("--bots", default="random,greedy,heuristic,expert")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(main(args))
    print(json.dumps(result, indent=1)) if args.json else report(result)
