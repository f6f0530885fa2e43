"""The table on a phone (390x844), as a family plays it (issue 41): the table starts near the
top of the screen in every language; card names on the pile and beside each seat break
between words, never inside one (Armenian and Marathi, whose words are long); each seat's last
card says what it is; a person who leaves mid-game keeps their name on their seat, marked as
left, until someone takes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Page, async_playwright, expect

from ono99.i18n.export import browser_catalog
from ono99.server import BackgroundServer, ServerConfig
from server_support import create_table
from test_browser_e2e import fits_width, launch, new_context, run, watch_errors
from tiers import slow

pytestmark = slow

# Words of an element's own text that are drawn on more than one line: a word broken inside.
BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    const node = el.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) continue;
    const text = node.textContent;
    for (const m of text.matchAll(/\\S+/g)) {
      const tops = [];
      for (let i = m.index; i < m.index + m[0].length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (rect.width > 0) tops.push(rect.top);
      }
      const lineHeight = parseFloat(getComputedStyle(el).fontSize);
      if (tops.length && Math.max(...tops) - Math.min(...tops) > lineHeight / 2) broken.push(m[0]);
    }
  }
  return broken;
}"""

# Every kind of card, drawn by the page's own cards.js where the table draws it: on the
# discard pile and as each seat's last card (1980's Play 2 is called Double Play).
LAY_CARDS = """async (cards) => {
  const { cardFace } = await import("/static/js/cards.js");
  const seats = [...document.querySelectorAll(".seat-last")];
  const pile = document.getElementById("discard");
  const laid = [];
  for (const [i, [name, edition]] of cards.entries()) {
    const face = cardFace(name, edition);
    face.classList.add("pile-card");
    face.style.setProperty("--i", "0");
    pile.replaceChildren(face);
    const seat = seats[i % seats.length];
    seat.classList.remove("seat-last-none");
    seat.querySelector(".seat-last-card").replaceChildren(cardFace(name, edition, { small: true }));
    laid.push([face.textContent, getComputedStyle(face).fontSize]);
    await new Promise((r) => requestAnimationFrame(r));
    window.broken.push(...window.brokenWords(".pile-card .card-name, .seat-last .card-name"));
  }
  return laid;
}"""

CARDS = [
    ["reverse", "2022"], ["play2", "2022"], ["hold", "2022"], ["ono99", "2022"],
    ["-10", "2022"], ["7", "2022"], ["play2", "1980"],
]  # fmt: skip


def quick_server(tmp_path: Path) -> BackgroundServer:
    config = ServerConfig(
        db=str(tmp_path / "ono99.db"), bot_delay=0.3, turn_limits=(5.0, 600.0), http_rate=0,
        create_rate=0, round_pause=0, max_open_tables=10,
    )  # fmt: skip
    return BackgroundServer(config)


async def open_phone(browser: Any, url: str, made: dict[str, Any], lang: str) -> Page:
    context = await new_context(browser, phone=True, paced=False)
    await context.add_init_script(f"localStorage.setItem('ono99.lang', '{lang}')")
    page = await context.new_page()
    await page.goto(f"{url}/t/{made['code']}#seat={made['token']}")
    return page


def test_the_phone_s_table_starts_high_and_card_names_never_break_inside_a_word(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        errors: list[str] = []
        tops: dict[str, float] = {}
        with quick_server(tmp_path) as server:
            async with async_playwright() as pw:
                browser = await launch(pw)
                for lang in ("en", "el", "es", "vi", "hy", "mr"):
                    made = create_table(server.url, ["human"] + ["random"] * 5, turn_seconds=60)
                    page = await open_phone(browser, server.url, made, lang)
                    watch_errors(page, lang, errors)
                    await page.locator("#lobby-actions button.primary").click()
                    felt = page.locator("#felt")
                    await expect(felt).to_be_visible()
                    box = await felt.bounding_box()
                    assert box is not None
                    tops[lang] = box["y"]
                    await fits_width(page)
                    if lang in ("hy", "mr"):
                        await page.evaluate(
                            f"window.broken = []; window.brokenWords = {BROKEN_WORDS}"
                        )
                        await page.evaluate(LAY_CARDS, CARDS)
                        broken = await page.evaluate("window.broken")
                        assert not broken, f"{lang}: words broken inside: {broken}"
                        # The label says what the card is, and fits its line too.
                        label = page.locator(".seat-last-label").first
                        await expect(label).to_have_text(browser_catalog(lang)["seat.last_label"])
                        assert not await page.evaluate(BROKEN_WORDS, ".seat-last-label")
                        await fits_width(page)
                    await page.context.close()
                await browser.close()
        # Issue 41: the header and its buttons took ~180 of 844 px before the table started.
        assert tops["en"] <= 120, tops
        assert max(tops.values()) <= 175, tops
        assert not errors, "\n".join(errors)

    run(main())


def test_a_seat_left_mid_game_keeps_its_owner_s_name_until_someone_takes_it(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        errors: list[str] = []
        with quick_server(tmp_path) as server:
            url = server.url
            made = create_table(url, ["human", "human"] + ["random"] * 2, turn_seconds=60)
            leo = httpx.post(f"{url}/api/tables/{made['code']}/join", json={"name": "Leo"}).json()
            async with async_playwright() as pw:
                browser = await launch(pw)
                mum = await open_phone(browser, url, made, "en")
                watch_errors(mum, "Mum", errors)
                context = await new_context(browser)
                guest = await context.new_page()
                watch_errors(guest, "Leo", errors)
                await guest.goto(f"{url}/t/{made['code']}#seat={leo['token']}")
                await mum.locator("#lobby-actions button.primary").click()
                await expect(guest.locator("#leave")).to_be_visible()
                guest.on("dialog", lambda d: d.accept())
                await guest.locator("#leave").click()
                seat = mum.locator("#seat-1")
                await expect(seat.locator(".seat-title")).to_have_text("Leo · left")
                await expect(seat.locator(".initial")).to_have_text("L")
                await expect(seat.locator(".seat-said")).to_contain_text("Leo (left)")
                await expect(mum.locator("#felt")).not_to_contain_text("(open seat)")
                # Someone takes the seat with the table's link: it is theirs now.
                httpx.post(f"{url}/api/tables/{made['code']}/join", json={"name": "Zoe"})
                await expect(seat.locator(".seat-title")).to_have_text("Zoe")
                await expect(seat.locator(".initial")).to_have_text("Z")
                await browser.close()
        assert not errors, "\n".join(errors)

    run(main())
