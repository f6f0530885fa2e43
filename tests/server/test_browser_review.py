"""The review of a finished game on its replay page, in headless Chromium (docs/review.md): the
win-chance line as an SVG, each decision's moves with their chances, the played move, the
mistakes with the better move, the lens with every hand known, a jump to a decision on the
table; on a phone, in Armenian, with the per-address limit worded in the reader's language.
Screenshots go to ``$ONO99_ARTIFACTS`` (or the test's folder)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from playwright.async_api import Page, async_playwright, expect

from ono99.engine import load_record
from ono99.i18n.export import browser_catalog
from ono99.sim.review import review_game
from server_support import TIMEOUT, Client, create_table, running_server
from test_browser_e2e import WAIT_MS, artifacts, fits_width, launch, new_context, watch_errors
from tiers import slow

__all__ = ["artifacts"]  # a fixture, used by name

# The decisions' table sits in a box that may scroll sideways; on a phone it must not need to.
WRAP_SCROLLS = """() => { const w = document.querySelector('.review-table-wrap');
                        return [w.scrollWidth, w.clientWidth]; }"""


def finished_game(base: str, ws: str) -> str:
    """A table of Ana and two bots whose first game is over (Ana's stand-in played her turns)."""
    host = create_table(base, ["human", "greedy", "heuristic"], turn_seconds=0.05)

    async def main() -> None:
        client = await Client.open(ws, host["code"], host["token"])
        await client.send({"type": "start"})
        await client.expect("update", lambda m: m["view"]["over"], timeout=60)
        await client.close()

    asyncio.run(main())
    return str(host["code"])


async def shown_review(page: Page) -> None:
    await expect(page.locator(".review-chart")).to_be_visible(timeout=WAIT_MS)
    await expect(page.locator(".review-status")).to_have_text("")


@slow
def test_the_review_on_the_replay_page(tmp_path: Path, artifacts: Path) -> None:
    with running_server(tmp_path / "ono99.db", review_burst=4, reviews_per_minute=0.01) as server:
        base = server.url
        code = finished_game(base, server.ws_url)
        text = httpx.get(f"{base}/api/tables/{code}/games/1/record", timeout=TIMEOUT).text
        record = load_record(text)
        fair = review_game(record, 0, seed=0)
        known = review_game(record, 0, lens="known", seed=0)
        en = browser_catalog("en")
        hy = browser_catalog("hy")

        async def main() -> None:
            errors: list[str] = []
            async with async_playwright() as pw:
                browser = await launch(pw)
                # Ana on a desktop, in English.
                context = await new_context(browser)
                page = await context.new_page()
                watch_errors(page, "desktop", errors)
                await page.goto(f"{base}/t/{code}/replay/1")
                await page.get_by_role("button", name=en["review.open"], exact=True).click()
                await shown_review(page)
                assert await page.locator(".review-chart circle").count() == len(fair.line)
                assert await page.locator(".review-mistakes li").count() == len(fair.mistakes)
                rows = page.locator(".review-table tbody tr")
                assert await rows.count() == len(fair.decisions)
                for i, d in enumerate(fair.decisions):
                    chips = rows.nth(i).locator(".move-chip")
                    assert await chips.count() == (1 if d.forced else len(d.chances))
                    assert await rows.nth(i).locator(".move-chip.played").count() == 1
                    best = 0 if d.forced or d.best is d.played else 1
                    assert await rows.nth(i).locator(".move-chip.best").count() == best
                if fair.mistakes:
                    first = fair.mistakes[0]
                    item = page.locator(".review-mistakes li").first
                    await expect(item).to_contain_text(f"[{first.move}] ")
                    await expect(item).to_contain_text(en[f"review.judgement.{first.judgement}"])
                await page.screenshot(path=artifacts / "review-desktop.png", full_page=True)
                # The lens with every hand known.
                await page.get_by_role("button", name=en["review.lens.known"]).click()
                await expect(page.locator(".review-about")).to_have_text(
                    en["review.lens.known.about"], timeout=WAIT_MS
                )
                await shown_review(page)
                assert await page.locator(".review-mistakes li").count() == len(known.mistakes)
                # A decision shown on the table: the replay goes to the state it was taken in.
                move = fair.decisions[-1].move
                await page.locator(".review-table tbody tr").last.get_by_role("button").click()
                await expect(page.locator("#replay-step")).to_have_value(str(move))
                await context.close()

                # On a phone, in Armenian: another seat, and then the limit of new reviews.
                context = await new_context(browser, phone=True)
                await context.add_init_script("localStorage.setItem('ono99.lang', 'hy')")
                page = await context.new_page()
                watch_errors(page, "phone", errors, refused=429)
                await page.goto(f"{base}/t/{code}/replay/1")
                await page.locator("#review-seat").select_option("1")
                await page.get_by_role("button", name=hy["review.open"], exact=True).click()
                await shown_review(page)
                await expect(page.locator("#review-heading")).to_have_text(hy["review.heading"])
                await fits_width(page)
                scroll = await page.evaluate(WRAP_SCROLLS)
                assert scroll[0] <= scroll[1], f"the decisions scroll sideways on a phone: {scroll}"
                await page.locator(".review").screenshot(path=artifacts / "review-phone-hy.png")
                await page.locator("#review-seat").select_option("2")  # the 4th new review
                await shown_review(page)
                await page.get_by_role("button", name=hy["review.lens.known"]).click()
                await expect(page.locator(".review-status")).to_have_text(
                    hy["error.review_limited"], timeout=WAIT_MS
                )
                await context.close()

                # On a phone in English, the page as a whole.
                context = await new_context(browser, phone=True)
                page = await context.new_page()
                watch_errors(page, "phone-en", errors)
                await page.goto(f"{base}/t/{code}/replay/1")
                await page.get_by_role("button", name=en["review.open"], exact=True).click()
                await shown_review(page)
                await fits_width(page)
                await page.screenshot(path=artifacts / "review-phone.png", full_page=True)
                await browser.close()
            assert not errors, errors

        asyncio.run(asyncio.wait_for(main(), 180))
