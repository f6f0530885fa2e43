"""How the browser's card table keeps up: a benchmark of the client, not a test.

A server runs on a loopback port of this process (temporary database); a table of bots only
(``--players``, greedy) is started by its host, who watches in headless Chromium (Debian's, as
the browser tests launch it) on a laptop-sized window. The bots move every ``--bot-delay``
seconds; the page shows each move as the client's queue allows (table.js: a card flies to the
pile while the total counts up, 800 ms for a lone move, quicker when several wait). Measured,
over ``--games`` whole games:

- **arrival → shown**: from the moment an ``update`` reaches the page (its websocket message
  handler) to the moment its card has landed and the table shows the new state (the
  ``ono99:shown`` event table.js sends), in ms: median, p95 and max. This includes the time the
  update waited behind others in the queue.
- **dropped frames**: ``requestAnimationFrame`` gaps while a move is being shown; a gap of g ms
  counts round(g / 16.7) − 1 frames as dropped (60 Hz). Reported as dropped / expected frames.
- **bytes**: every response the table page loads (HTML, CSS, scripts, the catalog), by body
  length, and the websocket frames it receives in one game.

    python benchmarks/bench_client.py                     # 1 game, bots every 0.5 s
    python benchmarks/bench_client.py --bot-delay 0.05    # quick bots: the queue catches up
    python benchmarks/bench_client.py --json

Needs the ``test`` extra (playwright, httpx) and ``/usr/bin/chromium`` (or ONO99_CHROMIUM).
Headless Chromium draws without a GPU, so frame figures are a floor for a real screen, and
the machine's load (printed) shows up in them: quote figures from a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from playwright.async_api import async_playwright, expect

from ono99.server import BackgroundServer, ServerConfig

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the tests' browser and its launch arguments

from browser import CHROMIUM, DESKTOP, launch_chromium  # noqa: E402

# In the page: when each update arrived, when it was shown, and every animation frame.
PROBE = """
window.bench = { shown: [], frames: [], wsBytes: 0 };
const Socket = window.WebSocket;
window.WebSocket = class extends Socket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => { window.bench.wsBytes += e.data.length; });
  }
};
document.addEventListener("ono99:shown", (e) => {
  window.bench.shown.push([e.detail.arrived, performance.now()]);
});
const frame = (now) => { window.bench.frames.push(now); requestAnimationFrame(frame); };
requestAnimationFrame(frame);
"""

FRAME_MS = 1000 / 60


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def dropped_frames(frames: list[float], windows: list[tuple[float, float]]) -> tuple[int, int]:
    """Frames dropped and frames expected inside the windows (one per move on screen)."""
    dropped = expected = 0
    for start, end in windows:
        inside = [f for f in frames if start <= f <= end]
        expected += max(1, round((end - start) / FRAME_MS))
        for a, b in itertools.pairwise(inside):
            dropped += max(0, round((b - a) / FRAME_MS) - 1)
    return dropped, expected


async def measure(bot_delay: float, players: int, games: int) -> dict[str, Any]:
    if not CHROMIUM.exists():
        sys.exit(f"no browser at {CHROMIUM}: apt-get install chromium (or set ONO99_CHROMIUM)")
    latencies: list[float] = []
    dropped = expected = 0
    page_bytes: dict[str, int] = {}
    ws_bytes = 0
    moves = 0
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(db=str(Path(tmp) / "bench.db"), bot_delay=bot_delay, http_rate=0)
        with BackgroundServer(config) as server:
            async with async_playwright() as pw:
                browser = await launch_chromium(pw)
                for _ in range(games):
                    seats = [{"kind": "bot", "bot": "greedy"}] * players
                    made = httpx.post(
                        f"{server.url}/api/tables", json={"seats": seats}, timeout=20
                    ).raise_for_status()
                    code, token = made.json()["code"], made.json()["token"]
                    context = await browser.new_context(viewport=DESKTOP, device_scale_factor=1)
                    await context.add_init_script(PROBE)
                    page = await context.new_page()
                    sizes: dict[str, int] = {}

                    async def count(response: Any, sizes: dict[str, int] = sizes) -> None:
                        try:
                            sizes[response.url] = len(await response.body())
                        except Exception:  # a redirect or an aborted load has no body
                            sizes[response.url] = 0

                    page.on("response", lambda r, count=count: asyncio.ensure_future(count(r)))
                    await page.goto(f"{server.url}/t/{code}#seat={token}")
                    await page.get_by_role("button", name="Start the game").click()
                    await expect(page.locator("#end-title")).to_be_visible(timeout=600_000)
                    bench = await page.evaluate("window.bench")
                    shown = [(a, b) for a, b in bench["shown"] if a is not None]
                    latencies += [b - a for a, b in shown]
                    d, e = dropped_frames(bench["frames"], shown)
                    dropped += d
                    expected += e
                    moves += len(shown)
                    ws_bytes = bench["wsBytes"]
                    page_bytes = dict(sizes)
                    await context.close()
                await browser.close()
    return {
        "bot_delay_s": bot_delay,
        "players": players,
        "games": games,
        "moves": moves,
        "arrival_to_shown_ms": {
            "median": round(statistics.median(latencies)),
            "p95": round(percentile(latencies, 0.95)),
            "max": round(max(latencies)),
        },
        "frames": {"dropped": dropped, "expected": expected},
        "page_bytes": sum(page_bytes.values()),
        "page_files": {urlsplit(url).path: size for url, size in sorted(page_bytes.items())},
        "ws_bytes_last_game": ws_bytes,
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-delay", type=float, default=0.5, help="seconds between bot moves")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(measure(args.bot_delay, args.players, args.games))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    lat = result["arrival_to_shown_ms"]
    frames = result["frames"]
    load = ", ".join(f"{x:.2f}" for x in result["load_average"])
    print(f"load average at the end: {load}")
    print(
        f"{result['games']} game(s), {result['players']} greedy bots every "
        f"{result['bot_delay_s']} s: {result['moves']} moves shown"
    )
    print(f"arrival → shown: median {lat['median']} ms, p95 {lat['p95']} ms, max {lat['max']} ms")
    share = 100 * frames["dropped"] / max(1, frames["expected"])
    print(
        f"frames dropped while a move was shown: {frames['dropped']} of {frames['expected']} "
        f"({share:.1f}%)"
    )
    print(f"the table page loads {result['page_bytes']:,} bytes:")
    for name, size in result["page_files"].items():
        print(f"  {size:>8,}  {name}")
    print(f"websocket frames received in the last game: {result['ws_bytes_last_game']:,} bytes")


if __name__ == "__main__":
    main()
