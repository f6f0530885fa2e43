"""The documentation's screenshots of the browser game: a table in the middle of a game, on a
laptop-sized window (1280×800) and on a phone (390×844), both from the seat of the person
whose turn it is, with the turn timer running; the phone also in dark mode.

A server runs on a loopback port of this process with a temporary database; Ana and Ben sit at
a table with two greedy bots and play by clicking (Playwright driving Debian's chromium, as
``tests/server/test_browser_e2e.py`` does) until the game is well under way; then the pictures are
taken. The shuffle is secret and fresh, so every run shows another game.

    python benchmarks/screenshots.py                      # writes docs/screenshots/table-*.png
    python benchmarks/screenshots.py --out /tmp/shots --end   # ... and the end screens too
    python benchmarks/screenshots.py --home               # the home page: home-*.png

The same seat is also shown on a phone in each language, at the same moment, in
``i18n/<lang>-game-phone.png`` under the output folder (``docs/translating/README.md`` shows them).
``--home`` takes the home page instead, with Play now and three public tables waiting for
players (one opened by Play now, counting down to its bots), on a laptop and a phone and on a
phone in each language (``i18n/<lang>-home-phone.png``).

Needs the ``test`` extra (playwright, httpx) and ``/usr/bin/chromium`` (or ONO99_CHROMIUM).
The PNGs are reduced to a 256-colour palette when Pillow is there, to keep the repository small.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser, Page, async_playwright, expect
from playwright.async_api import Error as PlaywrightError

from ono99.i18n import LANGUAGES
from ono99.server import BackgroundServer, ServerConfig

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the tests' browser and its launch arguments

from browser import CHROMIUM, DESKTOP, PHONE, launch_chromium  # noqa: E402

PLAYABLE = "#hand .hand-card.playable"
END = "#end-title"


def setup(base: str) -> tuple[str, str, str]:
    """A table for Ana (host), Ben and two greedy bots: the code and both seat tokens."""
    body: dict[str, Any] = {
        "rules": {"edition": "2022"},
        "seats": [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 2,
        "name": "Ana",
        "turn_seconds": 60,
    }
    made = httpx.post(f"{base}/api/tables", json=body, timeout=20).raise_for_status().json()
    joined = httpx.post(
        f"{base}/api/tables/{made['code']}/join", json={"name": "Ben"}, timeout=20
    ).raise_for_status()
    return made["code"], made["token"], joined.json()["token"]


async def seat_page(
    browser: Browser,
    base: str,
    code: str,
    token: str,
    phone: bool,
    lang: str | None = None,
    dark: bool = False,
) -> Page:
    """A window on the table for the holder of ``token`` (their personal link), in ``lang``
    when given (as if the reader had picked it)."""
    scheme = "dark" if dark else "light"
    if phone:
        context = await browser.new_context(
            viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
            color_scheme=scheme,
        )  # fmt: skip
    else:
        context = await browser.new_context(
            viewport=DESKTOP, device_scale_factor=1, color_scheme=scheme
        )
    if lang is not None:
        await context.add_init_script(f"localStorage.setItem('ono99.lang', '{lang}')")
    page = await context.new_page()
    page.on("pageerror", lambda exc: print(f"script error: {exc}", file=sys.stderr))
    await page.goto(f"{base}/t/{code}#seat={token}")
    return page


async def play_out(page: Page, rng: random.Random, until: Any = None) -> bool:
    """Click a playable card whenever there is one, until the game is over (False) or
    ``until(page)`` says stop, on this seat's turn (True)."""
    ready = page.locator(f"{PLAYABLE}, {END}").first
    while True:
        await ready.wait_for(timeout=30_000)
        if await page.locator(END).is_visible():
            return False
        if until is not None and await until(page):
            return True
        cards = page.locator(PLAYABLE)
        count = await cards.count()
        if count:
            with contextlib.suppress(PlaywrightError):  # the hand changed under the click
                await cards.nth(rng.randrange(count)).click(timeout=2000)


def under_way(lines: int) -> Any:
    """The moment for the picture: the log holds ``lines`` lines, nobody is out yet, and the
    hand shows a card that is not a number and one that cannot be played."""

    async def check(page: Page) -> bool:
        if await page.locator("#log li").count() < lines:
            return False
        if await page.locator(".seat-out").count():
            return False
        special = page.locator("#hand .card:not(.card-number)")
        faded = page.locator('#hand .hand-card[aria-disabled="true"]')
        return bool(await special.count() and await faded.count())

    return check


def shrink(path: Path) -> None:
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


async def take(out: Path, lines: int, end: bool, attempts: int = 10) -> list[Path]:
    if not CHROMIUM.exists():
        sys.exit(f"no browser at {CHROMIUM}: apt-get install chromium (or set ONO99_CHROMIUM)")
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random()
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(db=str(Path(tmp) / "shots.db"), bot_delay=0.15, http_rate=0)
        with BackgroundServer(config) as server:
            async with async_playwright() as pw:
                browser = await launch_chromium(pw)
                for _ in range(attempts):
                    code, host_token, friend_token = setup(server.url)
                    host = await seat_page(browser, server.url, code, host_token, phone=False)
                    friend = await seat_page(browser, server.url, code, friend_token, phone=True)
                    await host.get_by_role("button", name="Start the game").click()
                    friend_plays = asyncio.ensure_future(play_out(friend, rng))
                    if not await play_out(host, rng, until=under_way(lines)):
                        await friend_plays
                        continue  # the game ended too soon: deal again
                    # The same seat on a phone, at the same moment.
                    phone = await seat_page(browser, server.url, code, host_token, phone=True)
                    await expect(phone.locator(PLAYABLE).first).to_be_visible()
                    for page in (host, phone):
                        await expect(page.locator("#timer")).to_be_visible()
                    await host.mouse.move(0, 0)  # no card raised by the pointer over it
                    shots = [out / "table-desktop.png", out / "table-phone.png"]
                    await host.screenshot(path=shots[0])
                    await phone.screenshot(path=shots[1])
                    await phone.close()
                    dark = await seat_page(
                        browser, server.url, code, host_token, phone=True, dark=True
                    )
                    await expect(dark.locator(PLAYABLE).first).to_be_visible()
                    shots.append(out / "table-phone-dark.png")
                    await dark.screenshot(path=shots[-1])
                    await dark.close()
                    for lang in LANGUAGES:  # the same moment, in each language
                        page = await seat_page(
                            browser, server.url, code, host_token, phone=True, lang=lang
                        )
                        await expect(page.locator("html")).to_have_attribute("lang", lang)
                        await expect(page.locator(PLAYABLE).first).to_be_visible()
                        await expect(page.locator("#timer")).to_be_visible()
                        shots.append(out / "i18n" / f"{lang}-game-phone.png")
                        shots[-1].parent.mkdir(exist_ok=True)
                        await page.screenshot(path=shots[-1])
                        await page.close()
                    await asyncio.gather(play_out(host, rng), friend_plays)
                    if end:
                        await expect(friend.locator(END)).to_be_visible()
                        shots += [out / "end-desktop.png", out / "end-phone.png"]
                        await host.screenshot(path=shots[-2])
                        await friend.screenshot(path=shots[-1], full_page=True)
                    await browser.close()
                    for path in shots:
                        shrink(path)
                    return shots
    sys.exit(f"no game lasted long enough in {attempts} tries")


def public_tables(base: str) -> None:
    """Three public tables waiting for players, as the home page lists them."""
    seats: list[dict[str, Any]] = [
        {"kind": "human"},
        {"kind": "human"},
        {"kind": "bot", "bot": "greedy"},
    ]
    for name, rules, lang in (
        ("Ana", {"edition": "2022"}, "el"),
        ("Chloé", {"edition": "1980"}, "es"),
    ):
        body = {"rules": rules, "seats": seats, "name": name, "public": True, "lang": lang}
        httpx.post(f"{base}/api/tables", json=body, timeout=20).raise_for_status()
    ask = {"name": "Leo", "edition": "2022", "players": 4, "bot": "greedy"}
    httpx.post(f"{base}/api/quick", json=ask, timeout=20).raise_for_status()


async def home_page(browser: Browser, base: str, phone: bool, lang: str | None = None) -> Page:
    view = (
        {"viewport": PHONE, "is_mobile": True, "has_touch": True}
        if phone
        else {"viewport": DESKTOP}
    )
    context = await browser.new_context(device_scale_factor=1, **view)  # type: ignore[arg-type]
    if lang is not None:
        await context.add_init_script(f"localStorage.setItem('ono99.lang', '{lang}')")
    page = await context.new_page()
    page.on("pageerror", lambda exc: print(f"script error: {exc}", file=sys.stderr))
    await page.goto(base + "/")
    await expect(page.locator(".public-panel li.public-table")).to_have_count(3)
    return page


async def take_home(out: Path) -> list[Path]:
    if not CHROMIUM.exists():
        sys.exit(f"no browser at {CHROMIUM}: apt-get install chromium (or set ONO99_CHROMIUM)")
    (out / "i18n").mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(db=str(Path(tmp) / "shots.db"), http_rate=0, quick_wait=60)
        with BackgroundServer(config) as server:
            public_tables(server.url)
            async with async_playwright() as pw:
                browser = await launch_chromium(pw)
                for phone, name in ((False, "home-desktop.png"), (True, "home-phone.png")):
                    page = await home_page(browser, server.url, phone)
                    shots.append(out / name)
                    await page.screenshot(path=shots[-1], full_page=True)
                    await page.context.close()
                for lang in LANGUAGES:
                    page = await home_page(browser, server.url, True, lang)
                    await expect(page.locator("html")).to_have_attribute("lang", lang)
                    shots.append(out / "i18n" / f"{lang}-home-phone.png")
                    await page.screenshot(path=shots[-1], full_page=True)
                    await page.context.close()
                await browser.close()
    for path in shots:
        shrink(path)
    return shots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--lines", type=int, default=14, help="log lines before the picture")
    parser.add_argument("--end", action="store_true", help="also the end screens")
    parser.add_argument("--home", action="store_true", help="the home page instead")
    args = parser.parse_args()
    shots = take_home(args.out) if args.home else take(args.out, args.lines, args.end)
    for path in asyncio.run(shots):
        print(f"{path}  {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
