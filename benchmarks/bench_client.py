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

- **end**: from the update that ends the game reaching the page to the end screen's title on
  screen, in ms (the most over the games).

``--baseline REV`` (default: 431e8fa, the client before issue 41) plays the same number of
games, in the same run and alternately, with that revision's client (its static files, taken
from git and served to the page in place of today's: the protocol is the same), so that the
two are compared on the same machine at the same load.

    python benchmarks/bench_client.py                     # 1 game, bots every 0.5 s
    python benchmarks/bench_client.py --bot-delay 0.05    # quick bots: the queue catches up
    python benchmarks/bench_client.py --six               # issue 41: 10 six-seat games on a
        # phone, random bots every 0.05 s, 4x CPU throttling, against the baseline
    python benchmarks/bench_client.py --json

Needs the ``test`` extra (playwright, httpx) and ``/usr/bin/chromium`` (or ONO99_CHROMIUM).
Headless Chromium draws without a GPU, so frame figures are a floor for a real screen, and
the machine's load (printed) shows up in them: quote figures from a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import itertools
import json
import mimetypes
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from playwright.async_api import TimeoutError as PlaywrightTimeout
from playwright.async_api import async_playwright

from ono99.server import BackgroundServer, ServerConfig

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the tests' browser and its launch arguments

from browser import CHROMIUM, DESKTOP, PHONE, launch_chromium  # noqa: E402

BASELINE = "431e8fa"  # the client before issue 41 (one TableView of 2,300 lines)
STATIC = "src/ono99/server/static"

# In the page: when each update arrived, when it was shown, and every animation frame.
PROBE = """
window.bench = { shown: [], frames: [], wsBytes: 0, over: null, end: null };
const Socket = window.WebSocket;
window.WebSocket = class extends Socket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => { window.bench.wsBytes += e.data.length; });
    this.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "update" && m.view && m.view.over) window.bench.over = performance.now();
    });
  }
};
document.addEventListener("ono99:shown", (e) => {
  window.bench.shown.push([e.detail.arrived, performance.now()]);
});
document.addEventListener("DOMContentLoaded", () => {
  // Watching only the end screen's "hidden", and reading no layout: the probe must not
  // slow the page it measures (offsetParent on every mutation forced a layout each time).
  const seen = new MutationObserver(() => {
    const end = document.getElementById("end");
    if (!end || end.hidden || !document.getElementById("end-title")) return;
    window.bench.end = performance.now();
    seen.disconnect();
  });
  const what = { childList: true, subtree: true, attributeFilter: ["hidden"] };
  seen.observe(document.body, what);
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


def static_files(rev: str) -> dict[str, bytes]:
    """The client's static files at git revision ``rev``, by their path under /static/."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, STATIC], capture_output=True, check=True
    ).stdout
    files: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            data = tar.extractfile(member) if member.isfile() else None
            if data is not None:
                files["/static/" + member.name.removeprefix(STATIC + "/")] = data.read()
    return files


async def serve_from(page: Any, files: dict[str, bytes]) -> None:
    """The page loads its scripts and styles from ``files`` instead of from the server."""

    async def fulfil(route: Any) -> None:
        path = urlsplit(route.request.url).path
        if path not in files:
            await route.fulfill(status=404, body="")
            return
        kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
        await route.fulfill(status=200, body=files[path], content_type=kind)

    await page.route("**/static/**", fulfil)


async def one_game(
    browser: Any, url: str, args: argparse.Namespace, files: dict[str, bytes] | None
) -> dict[str, Any]:
    seats = [{"kind": "bot", "bot": args.bot}] * args.players
    made = httpx.post(f"{url}/api/tables", json={"seats": seats}, timeout=20).raise_for_status()
    code, token = made.json()["code"], made.json()["token"]
    if args.phone:
        context = await browser.new_context(
            viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True
        )
    else:
        context = await browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    await context.add_init_script(PROBE)
    page = await context.new_page()
    if files is not None:
        await serve_from(page, files)
    if args.throttle > 1:
        cdp = await context.new_cdp_session(page)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
    sizes: dict[str, int] = {}

    async def count(response: Any) -> None:
        try:
            sizes[response.url] = len(await response.body())
        except Exception:  # a redirect or an aborted load has no body
            sizes[response.url] = 0

    page.on("response", lambda r: asyncio.ensure_future(count(r)))
    await page.goto(f"{url}/t/{code}#seat={token}")
    await page.get_by_role("button", name="Start the game").click()
    # The end screen, however late: a client that froze is waited for up to the limit.
    # Asked twice a second, not by a locator's own polling (which took the page's time).
    with contextlib.suppress(PlaywrightTimeout):
        await page.wait_for_function(
            "() => window.bench.end !== null", polling=500, timeout=args.end_limit * 1000
        )
    bench = await page.evaluate("window.bench")
    await context.close()
    shown = [(a, b) for a, b in bench["shown"] if a is not None]
    d, e = dropped_frames(bench["frames"], shown)
    ended = None if bench["over"] is None else (bench["end"] or float("inf")) - bench["over"]
    return {
        "lags": [b - a for a, b in shown],
        "dropped": d,
        "expected": e,
        "end_ms": ended,
        "page_bytes": dict(sizes),
        "ws_bytes": bench["wsBytes"],
    }


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    lags = [x for g in games for x in g["lags"]]
    ends = [g["end_ms"] for g in games if g["end_ms"] is not None]
    page = games[-1]["page_bytes"]
    return {
        "games": len(games),
        "moves": len(lags),
        "arrival_to_shown_ms": {
            "median": round(statistics.median(lags)),
            "p95": round(percentile(lags, 0.95)),
            "max": round(max(lags)),
        },
        "per_game_max_ms": [round(max(g["lags"])) for g in games],
        "end_ms_max": None
        if not ends
        else (round(max(ends)) if max(ends) < float("inf") else "never"),
        "frames": {
            "dropped": sum(g["dropped"] for g in games),
            "expected": sum(g["expected"] for g in games),
        },
        "page_bytes": sum(page.values()),
        "page_files": {urlsplit(url).path: size for url, size in sorted(page.items())},
        "ws_bytes_last_game": games[-1]["ws_bytes"],
    }


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    if not CHROMIUM.exists():
        sys.exit(f"no browser at {CHROMIUM}: apt-get install chromium (or set ONO99_CHROMIUM)")
    baseline = static_files(args.baseline) if args.baseline else None
    runs: dict[str, list[dict[str, Any]]] = {"today": []}
    if baseline is not None:
        runs["baseline"] = []
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(
            db=str(Path(tmp) / "bench.db"), bot_delay=args.bot_delay, http_rate=0, create_rate=0
        )
        with BackgroundServer(config) as server:
            async with async_playwright() as pw:
                browser = await launch_chromium(pw)
                for _ in range(args.games):  # alternately: both see the same machine
                    runs["today"].append(await one_game(browser, server.url, args, None))
                    if baseline is not None:
                        runs["baseline"].append(await one_game(browser, server.url, args, baseline))
                await browser.close()
    return {
        "bot_delay_s": args.bot_delay,
        "players": args.players,
        "bot": args.bot,
        "phone": args.phone,
        "cpu_throttle": args.throttle,
        "baseline": args.baseline,
        "clients": {name: summary(games) for name, games in runs.items()},
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-delay", type=float, default=0.5, help="seconds between bot moves")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="greedy", help="every seat's bot")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--phone", action="store_true", help="a phone-sized page (390x844)")
    parser.add_argument("--throttle", type=float, default=1, help="Chromium's CPU slowdown")
    parser.add_argument("--baseline", default=None, help="also run this revision's client")
    parser.add_argument("--end-limit", type=float, default=60, help="s to wait for an end screen")
    parser.add_argument(
        "--six",
        action="store_true",
        help="issue 41's figures: 10 six-seat games of random bots every 0.05 s on a phone "
        f"with 4x CPU throttling, against {BASELINE}",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.six:
        args.players, args.bot, args.bot_delay, args.phone, args.throttle = (
            6,
            "random",
            0.05,
            True,
            4,
        )
        args.games = 10 if args.games == 1 else args.games
        args.baseline = args.baseline or BASELINE
    result = asyncio.run(measure(args))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    where = "a phone" if result["phone"] else "a laptop"
    print(
        f"{result['players']} {result['bot']} bots every {result['bot_delay_s']} s, on {where}"
        f" page, CPU throttled {result['cpu_throttle']}x"
    )
    for name, r in result["clients"].items():
        lat = r["arrival_to_shown_ms"]
        frames = r["frames"]
        label = "today's client" if name == "today" else f"baseline {result['baseline']}"
        print(f"{label}: {r['games']} game(s), {r['moves']} moves shown")
        print(
            f"  arrival → shown: median {lat['median']} ms, p95 {lat['p95']} ms, "
            f"max {lat['max']} ms"
        )
        print(f"  the most per game: {r['per_game_max_ms']} ms")
        print(f"  game end → end screen: at most {r['end_ms_max']} ms")
        share = 100 * frames["dropped"] / max(1, frames["expected"])
        print(
            f"  frames dropped while a move was shown: {frames['dropped']} of "
            f"{frames['expected']} ({share:.1f}%)"
        )
        print(f"  the table page loads {r['page_bytes']:,} bytes:")
        for file, size in r["page_files"].items():
            print(f"    {size:>8,}  {file}")
        print(f"  websocket frames received in the last game: {r['ws_bytes_last_game']:,} bytes")
    load = ", ".join(f"{x:.2f}" for x in result["load_average"])
    print(f"load average at the end (after both clients' games): {load}")


if __name__ == "__main__":
    main()
