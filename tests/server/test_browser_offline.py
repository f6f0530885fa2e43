"""Issue 43, items 2-4: the game on the device, with no network — in Chromium, as a person's own
browser (a profile on disk), against the server and against the static export.

- After one online visit of /offline, the network goes (``context.set_offline(True)``): the
  page, Pyodide and this package come from the service worker's cache, and a whole game
  against bots is played to its end; halfway, the browser is closed and opened again on its
  profile (still offline), which offers the kept game (IndexedDB) and resumes it where it was.
  Its record, downloaded, replays to its winners.
- Pass-and-play on a phone: two people and a bot; between the people's turns the "pass to"
  screen holds no hand at all, and the next screen is the next person's own seat; a reload
  halfway resumes on the "pass to" screen of whoever's turn it is.
- ``ono99 app export`` written to a folder, served by ``python -m http.server`` (no ono99
  server at all): the same, offline, to the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, async_playwright, expect

from browser import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE
from ono99.engine import load_record, replay
from ono99.server import BackgroundServer, ServerConfig
from ono99.server.offline import RUNTIME, NotBuilt, runtime_version
from test_browser_e2e import (
    DISCARD_BUTTON,
    DRAW_BUTTON,
    END,
    PLAYABLE,
    WAIT_MS,
    Player,
    fits_width,
    launch,
    run,
)
from tiers import slow

pytestmark = slow

# Screenshots to look at (ONO99_ARTIFACTS=folder; else each test's temporary folder).
ARTIFACTS = Path(os.environ.get("ONO99_ARTIFACTS") or tempfile.mkdtemp(prefix="ono99-offline-"))
LOAD_MS = 120_000  # Pyodide's first start on a loaded 2-core machine: seconds, not minutes
KEPT = """async () => {
  const info = await (await fetch("/app/runtime.json")).json();
  const cache = await caches.open("ono99-runtime");
  const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
  return info.files.every((f) => have.has(f)) && have.has("/app/runtime.json");
}"""


@pytest.fixture(autouse=True)
def built() -> None:
    try:
        runtime_version(RUNTIME)
    except NotBuilt as exc:
        pytest.fail(f"{exc} (./test builds it when Node is installed)")


async def own_browser(pw: Any, profile: str, phone: bool = False) -> Any:
    await (await launch(pw)).close()  # fails with a sentence when there is no Chromium
    extra: dict[str, Any] = (
        {"viewport": PHONE, "is_mobile": True, "has_touch": True}
        if phone
        else {"viewport": DESKTOP}
    )
    return await pw.chromium.launch_persistent_context(
        profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, reduced_motion="reduce", **extra
    )


def watch(page: Page, errors: list[str]) -> None:
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)


async def visit_then_go_offline(context: Any, page: Page, url: str) -> None:
    """One visit online, until the runtime is kept; then no network, and the page again."""
    await page.goto(url)
    await expect(page.locator("#device-setup")).to_be_visible(timeout=LOAD_MS)
    # The page says when it can play with no network: the runtime kept, the service worker
    # active (it keeps the page itself).
    await expect(page.locator("#device-offline-ready")).to_be_visible(timeout=LOAD_MS)
    assert await page.evaluate(f"({KEPT})()")
    await context.set_offline(True)
    await page.reload()
    await expect(page.locator("#device-setup")).to_be_visible(timeout=LOAD_MS)


async def set_up(page: Page, seats: list[str], names: list[str]) -> None:
    """The setup form: ``seats`` holds "human" or "bot:NAME" per seat; a name per person."""
    await page.select_option("#device-players", str(len(seats)))
    people = iter(names)
    for i, seat in enumerate(seats):
        await page.select_option(f"#device-seat-{i}", seat)
        if seat == "human":
            await page.fill(f"#device-name-{i}", next(people))
    await page.click("#device-start")
    await page.locator("#lobby-actions button.primary").click()  # the lobby's Start


async def record_of(page: Page) -> dict[str, Any]:
    async with page.expect_download() as info:
        await page.locator("#record-download").click()
    path = await (await info.value).path()
    data: dict[str, Any] = json.loads(Path(path).read_text())
    return data


async def play_against_bots_with_a_restart(pw: Any, url: str, shot: str) -> list[str]:
    """A game against bots, offline, with the browser closed and opened again halfway (its
    profile kept, the network still off): the kept game resumes and is played to its end.
    Returns the page's errors."""
    errors: list[str] = []
    with tempfile.TemporaryDirectory() as profile:
        context = await own_browser(pw, profile)
        page = context.pages[0]
        watch(page, errors)
        await visit_then_go_offline(context, page, url)
        await set_up(page, ["human", "bot:random", "bot:greedy"], ["Ana"])
        await expect(page.locator("#hand .hand-card").first).to_be_visible(timeout=WAIT_MS)
        half = Player(page, "Ana", seed=1)
        for _ in range(3):  # a few moves of Ana's
            anything = page.locator(f"{PLAYABLE}, {DRAW_BUTTON}, {DISCARD_BUTTON}, {END}").first
            await anything.wait_for(timeout=WAIT_MS)
            if await page.locator(END).is_visible():
                break
            if not await half.click_first(page.locator(DRAW_BUTTON)):
                await half.click_first(page.locator(PLAYABLE).first)
        moves = await page.evaluate("document.querySelectorAll('#log li').length")
        await page.screenshot(path=ARTIFACTS / f"{shot}-playing.png")
        await context.close()

        context = await own_browser(pw, profile)  # the browser again, on the same profile
        await context.set_offline(True)
        page = context.pages[0] if context.pages else await context.new_page()
        watch(page, errors)
        await page.goto(url)
        await expect(page.locator("#device-resume")).to_be_visible(timeout=LOAD_MS)
        await page.screenshot(path=ARTIFACTS / f"{shot}-resume.png")
        await page.locator("#device-resume-button").click()
        await expect(page.locator("#hand")).to_be_visible(timeout=WAIT_MS)
        # The log is the game's so far: nothing lost, nothing dealt anew.
        assert await page.evaluate("document.querySelectorAll('#log li').length") >= moves
        await Player(page, "Ana", seed=2).play_until_over()
        title = (await page.locator(END).text_content() or "").strip()
        await page.screenshot(path=ARTIFACTS / f"{shot}-over.png")
        record = await record_of(page)
        state = replay(load_record(record))
        assert state.over
        assert (title == "You win!") == (0 in state.winners), (title, state.winners)
        # Still offline, the page again: it works, and sets up the next game.
        await page.goto(url)
        await expect(page.locator("#device-setup")).to_be_visible(timeout=LOAD_MS)
        await context.close()
    return [e for e in errors if "ERR_INTERNET_DISCONNECTED" not in e]


def test_against_bots_offline_to_the_end_with_a_browser_restart_between(tmp_path: Path) -> None:
    async def main(base: str) -> None:
        async with async_playwright() as pw:
            url = base + "/offline?bot_delay=0.05"
            assert await play_against_bots_with_a_restart(pw, url, "offline") == []

    with BackgroundServer(ServerConfig(db=str(tmp_path / "t.db"), http_rate=0)) as server:
        run(main(server.url))


def test_pass_and_play_on_a_phone_hides_each_hand_between_turns(tmp_path: Path) -> None:
    async def main(base: str) -> None:
        async with async_playwright() as pw:
            with tempfile.TemporaryDirectory() as profile:
                context = await own_browser(pw, profile, phone=True)
                page = context.pages[0]
                errors: list[str] = []
                watch(page, errors)
                await visit_then_go_offline(context, page, base + "/offline?bot_delay=0.05")
                await page.select_option("#device-seat-1", "human")
                await fits_width(page)  # a name field under each person's seat, on a phone
                await set_up(page, ["human", "human", "bot:greedy"], ["Ana", "Leo"])
                passes = {"Ana": 0, "Leo": 0}
                players = {"Ana": Player(page, "Ana", seed=3), "Leo": Player(page, "Leo", seed=4)}
                ready = page.locator("#device-pass-ready")
                current = "Ana"  # the host's screen first
                anything = page.locator(
                    f"{PLAYABLE}, {DRAW_BUTTON}, {DISCARD_BUTTON}, {END}, #device-pass-ready"
                ).first
                while True:
                    await anything.wait_for(timeout=WAIT_MS)
                    if await page.locator(END).is_visible():
                        break
                    if await ready.count():
                        # Nobody's hand on this screen: not shown, not in the page at all.
                        assert await page.locator("#hand, .hand-card").count() == 0
                        title = await page.locator("#pass-title").text_content() or ""
                        name = re.sub(r"^Pass the device to ", "", title).strip()
                        if sum(passes.values()) == 1:
                            await page.screenshot(path=ARTIFACTS / "offline-pass-phone.png")
                        passes[name] += 1
                        if sum(passes.values()) == 3:
                            # A reload halfway (offline): the kept game resumes on the "pass
                            # to" screen of whoever's turn it is, with no hand shown first.
                            await page.reload()
                            await page.locator("#device-resume-button").click(timeout=LOAD_MS)
                            await expect(ready).to_be_visible(timeout=WAIT_MS)
                            assert await page.locator("#hand, .hand-card").count() == 0
                            assert await page.locator("#pass-title").text_content() == title
                        await ready.click()
                        # The next screen is that person's own seat.
                        await expect(page.get_by_text(f"{name} (you)").first).to_be_visible(
                            timeout=WAIT_MS
                        )
                        current = name
                        continue
                    player = players[current]
                    if await player.click_first(page.locator(DRAW_BUTTON)):
                        continue
                    if await player.click_first(page.locator(DISCARD_BUTTON)):
                        continue
                    cards = page.locator(PLAYABLE)
                    if await cards.count():
                        await player.click_first(
                            cards.nth(player.rng.randrange(await cards.count()))
                        )
                assert passes["Ana"] >= 1 and passes["Leo"] >= 1, passes
                await page.screenshot(path=ARTIFACTS / "offline-pass-over-phone.png")
                record = await record_of(page)
                assert replay(load_record(record)).over
                await context.close()
                assert [e for e in errors if "ERR_INTERNET_DISCONNECTED" not in e] == []

    with BackgroundServer(ServerConfig(db=str(tmp_path / "t.db"), http_rate=0)) as server:
        run(main(server.url))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def static_host(folder: Path) -> Iterator[str]:
    port = free_port()
    host = subprocess.Popen(
        [sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(folder), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
        yield f"http://127.0.0.1:{port}"
    finally:
        host.terminate()
        host.wait(10)


def test_the_exported_folder_on_a_plain_static_host_plays_offline(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "ono99", "app", "export", str(site)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "python -m http.server" in done.stdout
    assert (site / "index.html").read_text().count('data-standalone="1"') == 1
    # A second export into the same folder is refused, and changes nothing there.
    again = subprocess.run(
        [sys.executable, "-m", "ono99", "app", "export", str(site)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode != 0 and "not empty" in again.stderr

    async def main(base: str) -> None:
        async with async_playwright() as pw:
            url = base + "/?bot_delay=0.05"
            assert await play_against_bots_with_a_restart(pw, url, "export") == []

    with static_host(site) as base:
        run(main(base))
