"""The place to play in Chromium (issue 42): two fresh browsers press Play now on the home page
and meet at one table, whose game starts when its last seat is taken; one alone sees the
countdown and gets bots after the wait; the home page's list of public tables shows a new one
within a second, without a reload, and its Join button seats a person under the name they last
played under. Desktop and phone, screenshots to the artifacts folder."""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, Page, async_playwright, expect

from ono99.server import BackgroundServer, ServerConfig
from test_browser_e2e import fits_width, launch, new_context, run, watch_errors
from tiers import slow

pytestmark = slow

WAIT_MS = 30_000


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("ONO99_ARTIFACTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def server(tmp_path: Path, quick_wait: float) -> BackgroundServer:
    return BackgroundServer(
        ServerConfig(
            db=str(tmp_path / "ono99.db"),
            bot_delay=0.2,
            http_rate=0,
            round_pause=0,
            quick_wait=quick_wait,
        )
    )


def in_chromium(
    tmp_path: Path, quick_wait: float, play: Callable[[Browser, str, list[str]], Awaitable[None]]
) -> None:
    """Run ``play(browser, base, errors)`` against a fresh server; no page may log an error."""
    with server(tmp_path, quick_wait) as s:

        async def main() -> None:
            errors: list[str] = []
            async with async_playwright() as pw:
                browser = await launch(pw)
                await play(browser, s.url, errors)
                await browser.close()
            assert not errors, "\n".join(errors)

        run(main())


async def press_play_now(
    page: Page, base: str, name: str, players: int, bot: str | None = None
) -> None:
    await page.goto(base + "/")
    await page.locator("#play-name").fill(name)
    await page.locator("#play-players").select_option(str(players))
    if bot is not None:
        await page.locator("#play-bot").select_option(bot)
    await page.locator("form.play-now button.primary").click()
    await page.wait_for_url("**/t/*")


def test_two_fresh_browsers_press_play_now_and_meet_at_one_table(
    tmp_path: Path, artifacts: Path
) -> None:
    async def play(browser: Browser, base: str, errors: list[str]) -> None:
        ana = await (await new_context(browser, phone=False, paced=False)).new_page()
        ben = await (await new_context(browser, phone=True, paced=False)).new_page()
        watch_errors(ana, "ana", errors)
        watch_errors(ben, "ben", errors)
        await press_play_now(ana, base, "Ana", 2)
        # Ana waits at her table: the countdown to the bots says so.
        await expect(ana.locator("#lobby-quick")).to_contain_text("bots")
        await expect(ana.locator("#lobby-public")).to_be_visible()
        await ana.screenshot(path=artifacts / "play-now-waiting-desktop.png")
        await press_play_now(ben, base, "Ben", 2)
        assert ben.url.split("/t/")[1] == ana.url.split("/t/")[1], "one table"
        # The last seat taken: the game begins for both, no button pressed.
        for page in (ana, ben):
            await expect(page.locator("#felt")).to_be_visible(timeout=WAIT_MS)
            await expect(page.locator("#hand .hand-card").first).to_be_visible()
        await expect(ana.locator("#seat-1 .seat-title")).to_contain_text("Ben")
        await fits_width(ben)
        await ben.screenshot(path=artifacts / "play-now-met-phone.png")

    in_chromium(tmp_path, 120, play)


def test_alone_the_countdown_runs_out_and_bots_take_the_seats(
    tmp_path: Path, artifacts: Path
) -> None:
    async def play(browser: Browser, base: str, errors: list[str]) -> None:
        page = await (await new_context(browser, phone=True, paced=False)).new_page()
        watch_errors(page, "ana", errors)
        await press_play_now(page, base, "Ana", 4, bot="random")
        quick = page.locator("#lobby-quick")
        await expect(quick).to_contain_text("Beginner")
        first = await quick.inner_text()
        await page.wait_for_timeout(1200)
        assert await quick.inner_text() != first, "the countdown counts"
        await fits_width(page)
        await page.screenshot(path=artifacts / "play-now-countdown-phone.png")
        await expect(page.locator("#felt")).to_be_visible(timeout=WAIT_MS)
        await expect(page.locator(".seat")).to_have_count(4)
        for seat in (1, 2, 3):
            title = page.locator(f"#seat-{seat} .seat-title")
            await expect(title).not_to_have_text("")

    in_chromium(tmp_path, 3, play)


def test_the_home_page_lists_a_new_public_table_within_a_second_and_join_seats_you(
    tmp_path: Path, artifacts: Path
) -> None:
    async def play(browser: Browser, base: str, errors: list[str]) -> None:
        context = await new_context(browser, phone=False, paced=False)
        page = await context.new_page()
        watch_errors(page, "leo", errors)
        await page.goto(base + "/")
        await expect(page.locator("#public-none")).to_be_visible()
        # Leo played here before: his name is remembered.
        await page.evaluate("localStorage.setItem('ono99.name', 'Leo')")
        body = {
            "seats": [
                {"kind": "human"},
                {"kind": "human"},
                {"kind": "bot", "bot": "greedy"},
            ],
            "name": "Zoe",
            "public": True,
            "lang": "es",
        }
        began = time.monotonic()
        r = httpx.post(base + "/api/tables", json=body, timeout=20)
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        row = page.locator(f'.public-table[data-code="{code}"]')
        await expect(row).to_be_visible(timeout=5000)
        assert time.monotonic() - began < 1.5, "shown within a second (and the click)"
        await expect(row).to_contain_text("Zoe")
        await expect(row).to_contain_text("Español")
        await expect(page.locator("#public-none")).to_be_hidden()
        await page.screenshot(path=artifacts / "public-tables-desktop.png")
        await row.locator("button.primary").click()
        await page.wait_for_url(f"**/t/{code}")
        await expect(page.locator("#lobby-seats")).to_contain_text("Leo")
        # Its last seat taken: off the list of a second watcher.
        other = await context.new_page()
        await other.goto(base + "/")
        await expect(other.locator("#public-none")).to_be_visible()

    in_chromium(tmp_path, 120, play)
