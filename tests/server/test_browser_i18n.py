"""The browser game in every language, in headless Chromium on a phone-sized screen.

For each language: the reader's pick is remembered, every screen (home, lobby, a whole game,
the end, the rules page) is in that language, nothing overflows the cards or buttons, and
every character on screen is drawn by a font that has it — checked by asking Chromium which
fonts it used for each text node (DevTools ``CSS.getPlatformFontsForNode``) and reading those
fonts' character maps. Then two people in two languages share a table, each reading the
play-by-play in their own. Screenshots go to ``$ONO99_ARTIFACTS`` (or the test's folder).
"""

from __future__ import annotations

import asyncio
import functools
import re
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from fontTools.ttLib import TTCollection, TTFont
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, async_playwright, expect

from ono99.i18n import LANGUAGES
from ono99.i18n.export import browser_catalog
from ono99.server import BackgroundServer
from test_browser_e2e import (
    END,
    GAME_SECONDS,
    Player,
    artifacts,
    fast_server,
    fits_width,
    launch,
    new_context,
    watch_errors,
)
from tiers import slow

pytestmark = slow  # whole browser games in six languages

__all__ = ["artifacts", "fast_server"]  # fixtures, used by name

SCRIPTS = {  # a letter range each language's texts must use
    "el": r"[\u0370-\u03ff]",
    "mr": r"[\u0900-\u097f]",
    "hy": r"[\u0530-\u058f]",
    "vi": r"[ạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹđ]",
    "es": r"[áéíóúñ¿¡]",
    "en": r"[A-Za-z]",
}


def create(base: str, lang: str, seats: int = 4) -> tuple[str, str]:
    made = httpx.post(
        f"{base}/api/tables",
        json={
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (seats - 1),
            "name": "Ana",
            "turn_seconds": 60,
        },
    )
    assert made.status_code == 201, made.text
    return made.json()["code"], made.json()["token"]


# ------------------------------------------------------------------ glyphs


@functools.cache
def font_file(family: str) -> str:
    done = subprocess.run(
        ["fc-match", f"{family}", "--format=%{file}"], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@functools.cache
def font_chars(family: str) -> frozenset[int]:
    path = font_file(family)
    chars: set[int] = set()
    if path.endswith((".ttc", ".otc")):
        with TTCollection(path) as collection:
            for font in collection.fonts:
                chars |= set(font.getBestCmap() or {})
    else:
        with TTFont(path) as font:
            chars |= set(font.getBestCmap() or {})
    return frozenset(chars)


async def missing_glyphs(page: Page) -> list[str]:
    """Characters on the page that no font Chromium used for their text node can draw. The
    page may change while its nodes are read (a move arrives, the table redraws): a node gone
    from under the walk makes it start again on a fresh copy of the page, at most five times."""
    for attempt in range(5):
        try:
            return await _missing_glyphs(page)
        except PlaywrightError as exc:
            if "Could not find node" not in str(exc) or attempt == 4:
                raise
    raise AssertionError("unreachable")


async def _missing_glyphs(page: Page) -> list[str]:
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("DOM.enable")
    await cdp.send("CSS.enable")
    root = (await cdp.send("DOM.getDocument", {"depth": -1, "pierce": True}))["root"]
    problems: list[str] = []

    async def visit(node: dict[str, Any]) -> None:
        texts = [
            c["nodeValue"]
            for c in node.get("children", [])
            if c["nodeType"] == 3 and c["nodeValue"].strip()
        ]
        if texts and node.get("nodeName") not in ("SCRIPT", "STYLE", "TITLE", "OPTION"):
            fonts = await cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})
            families = [f["familyName"] for f in fonts["fonts"]]
            if families:  # no fonts: the text is not rendered (hidden)
                covered = frozenset().union(*(font_chars(f) for f in families))
                for ch in set("".join(texts)):
                    if not ch.isspace() and ord(ch) not in covered and ch not in "\u200b\u00ad":
                        problems.append(f"{ch!r} U+{ord(ch):04X} in {texts[0][:30]!r} {families}")
        for child in node.get("children", []):
            await visit(child)

    try:
        await visit(root)
    finally:
        await cdp.detach()
    return problems


# Latin-letter words a Greek, Marathi or Armenian reader may meet: the brand, the players'
# and bots' names, the language picker's own names, table codes and links, key letters.
LATIN_OK = re.compile(
    r"https?://\S+|O'NO 99|ONO 99|ONO|Mattel|International Games|Ana|Ben|Chloé|Dev|"
    r"English|Español|Tiếng Việt|\b[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}\b|\b[A-Z]\b"
)
# On the rules page, the printed names of the cards (once, in the cards table) and what a
# player types in the terminal (options, flags, commands) stay as they are.
RULES_LATIN_OK = re.compile(
    r"\((Reverse|Play 2|Double Play|Hold)[^)]*\)|Reverse|Play 2|Double Play|Hold|"
    r"ono99 play[^\n]*|--[a-z0-9-]+|\b[a-z_0-9]+_[a-z_0-9]+\b|\b(single|tokens|points|"
    r"unchanged|keep|reset|players|match|target|variant|edition)\b|RULES\.md|\b[A-Z][0-9]\b|"
    r"\bN\b|§8|\bon\b|\boff\b"
)


async def english_words(page: Page, lang: str, rules: bool = False) -> list[str]:
    """Latin-script words on screen where a Greek, Marathi or Armenian reader should meet
    none (an empty list for other languages: their script is Latin)."""
    if lang not in ("el", "mr", "hy"):
        return []
    text = LATIN_OK.sub(" ", await page.locator("body").inner_text())
    if rules:
        text = RULES_LATIN_OK.sub(" ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


async def check_screen(page: Page, lang: str, name: str, folder: Path) -> None:
    assert await english_words(page, lang, rules=name == "rules") == [], (lang, name)
    await fits_width(page)
    missing = await missing_glyphs(page)
    assert not missing, f"{lang} {name}: {missing[:10]}"
    await page.screenshot(path=folder / f"{lang}-{name}-phone.png", full_page=True)


# ------------------------------------------------------------------ the tests


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_whole_game_in_each_language_on_a_phone(
    lang: str, fast_server: BackgroundServer, artifacts: Path
) -> None:
    base = fast_server.url
    words = browser_catalog(lang)
    code, token = create(base, lang)

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            context = await new_context(browser, phone=True, paced=False)
            page = await context.new_page()
            watch_errors(page, lang, errors)
            # The reader picks the language on the home page; the pick is remembered.
            await page.goto(base + "/")
            await page.locator("#language").select_option(lang)
            await expect(page.locator("html")).to_have_attribute("lang", lang)
            await expect(page.locator("h1")).to_have_text(words["home.title"])
            await page.locator("details.options summary").click()
            await check_screen(page, lang, "home", artifacts)
            await page.goto(f"{base}/t/{code}#seat={token}")
            await expect(page.locator("html")).to_have_attribute("lang", lang)
            start = page.locator("#lobby-actions button.primary")
            await expect(start).to_be_enabled()
            await check_screen(page, lang, "lobby", artifacts)
            await start.click()
            player = Player(page, lang, 7)
            checked = False

            async def on_turn(p: Player) -> None:
                nonlocal checked
                if not checked and await page.locator("#log li").count() >= 8:
                    checked = True
                    await check_screen(page, lang, "game", artifacts)

            player.on_turn = on_turn
            await asyncio.wait_for(player.play_until_over(), GAME_SECONDS)
            await expect(page.locator(END)).to_be_visible()
            log = await page.locator("#log").inner_text()
            assert re.search(SCRIPTS[lang], log), log[:200]
            await check_screen(page, lang, "end", artifacts)
            rules = await context.new_page()
            await rules.goto(f"{base}/rules/{lang}")
            await expect(rules.locator("html")).to_have_attribute("lang", lang)
            await check_screen(rules, lang, "rules", artifacts)
            await browser.close()
        assert not errors, "\n".join(errors)

    asyncio.run(main())


def test_each_reader_sees_the_table_in_their_own_language(
    fast_server: BackgroundServer, artifacts: Path
) -> None:
    """One table, a Marathi host and an Armenian friend (and a browser asking for Greek):
    the same events, worded per reader; the Accept-Language pick applies when none was made.
    The friend first asks for the host's name and is told, in Armenian, that it is taken."""
    base = fast_server.url
    made = httpx.post(
        f"{base}/api/tables",
        json={
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "name": "Ana",
        },
    )
    assert made.status_code == 201, made.text
    code, token = made.json()["code"], made.json()["token"]

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            # Words, not pace: everyone asks for reduced motion, so moves show at once.
            host_ctx = await new_context(browser, paced=False)
            await host_ctx.add_init_script("localStorage.setItem('ono99.lang', 'mr')")
            friend_ctx = await browser.new_context(
                locale="hy-AM", viewport={"width": 390, "height": 844}, reduced_motion="reduce"
            )
            watcher_ctx = await browser.new_context(locale="el-GR", reduced_motion="reduce")
            host, friend, watcher = (
                await host_ctx.new_page(),
                await friend_ctx.new_page(),
                await watcher_ctx.new_page(),
            )
            for page, label in ((host, "mr"), (friend, "hy"), (watcher, "el")):
                watch_errors(page, label, errors, refused=409 if page is friend else None)
            await host.goto(f"{base}/t/{code}#seat={token}")
            await friend.goto(f"{base}/t/{code}")
            await expect(friend.locator("html")).to_have_attribute("lang", "hy")
            # The host's name is taken: the join form says so in the friend's language.
            await friend.locator("#join-name").fill("ANA")
            await friend.locator("form button.primary").click()
            taken = browser_catalog("hy")["error.name_taken"].replace("{name}", "Ana")
            await expect(friend.locator("form .form-error")).to_have_text(taken)
            await fits_width(friend)
            await friend.screenshot(path=artifacts / "hy-join-name-taken-phone.png")
            await friend.locator("#join-name").fill("Բեն")
            await friend.locator("form button.primary").click()
            await watcher.goto(f"{base}/t/{code}")
            await expect(watcher.locator("html")).to_have_attribute("lang", "el")
            await watcher.locator("#lobby-seats, form").first.wait_for()
            watch = watcher.locator("form button:not(.primary)")
            if await watch.count():  # offered a seat still: watch instead
                await watch.click()
            start = host.locator("#lobby-actions button.primary")
            await expect(start).to_be_enabled()
            await start.click()
            players = [Player(host, "mr", 1), Player(friend, "hy", 2)]
            await asyncio.wait_for(
                asyncio.gather(*(p.play_until_over() for p in players)), GAME_SECONDS
            )
            for page, lang, others in (
                (host, "mr", ("hy", "el")),
                (friend, "hy", ("mr", "el")),
                (watcher, "el", ("mr", "hy")),
            ):
                await expect(page.locator(END)).to_be_visible()
                log = await page.locator("#log").inner_text()
                assert re.search(SCRIPTS[lang], log), (lang, log[:200])
                for other in others:
                    # Only names may be in another script: Բեն is the friend's name.
                    assert not re.search(SCRIPTS[other], log.replace("Բեն", "")), (lang, other)
            await friend.screenshot(path=artifacts / "hy-shared-table.png")
            await browser.close()
        assert not errors, "\n".join(errors)

    asyncio.run(main())


def test_the_glyph_check_sees_a_missing_glyph() -> None:
    """The checker itself: an unassigned code point, which no font has, is reported, and
    Armenian and Devanagari, which the Noto fonts carry, are not."""

    async def main() -> list[str]:
        async with async_playwright() as pw:
            browser = await launch(pw)
            page = await browser.new_page()
            await page.set_content('<p lang="hy">Բարև</p><p lang="mr">मराठी</p><p>\u0378 Z</p>')
            missing = await missing_glyphs(page)
            await browser.close()
            return missing

    missing = asyncio.run(main())
    assert len(missing) == 1 and "U+0378" in missing[0], missing
