"""End to end in a real headless browser: Playwright drives Debian's ``chromium``
(``/usr/bin/chromium``; ``.ci/run`` installs it) against ``ono99 serve`` on a loopback port.

Two people (two browser contexts: the host on a laptop-sized window, the friend on a
phone-sized one) set a table up with two bots through the home page's form, join by the invite
link and play a whole game by clicking their cards (the host's first two with the number keys),
while a third context watches; the end screen names, for each of them, the winner the
downloaded record names. Then the replay steps through it and the host plays again. A second
game, 1980 rules with the draw penalty set in the rule options, is played by clicking Draw
whenever it is offered. A third runs the client in a pseudo-language of long words on a phone:
nothing may overflow. Screenshots go to ``$ONO99_ARTIFACTS`` when set, else to the test's
temporary folder.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, BrowserContext, Page, async_playwright, expect
from playwright.async_api import Error as PlaywrightError

from browser import CHROMIUM, DESKTOP, PHONE, launch_chromium
from ono99.engine import (
    Action,
    Rules,
    State,
    apply,
    legal_actions,
    load_record,
    make_rules,
    new_game,
    replay,
    view,
)
from ono99.i18n.export import browser_catalog
from ono99.server import BackgroundServer, ServerConfig
from ono99.storage import SqliteStore
from tiers import slow

STATIC = Path(__file__).resolve().parents[2] / "src" / "ono99" / "server" / "static"
WAIT_MS = 45_000  # generous: a loaded CI machine must not make this flaky
GAME_SECONDS = 180  # a whole game, bots and clicks; it takes a few seconds

PLAYABLE = "#hand .hand-card.playable"
DRAW_BUTTON = "#hand-actions button.draw"
DISCARD_BUTTON = "#hand-actions button.discard"  # four ONO 99s in a 2022 hand (K7)
END = "#end-title"


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("ONO99_ARTIFACTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def serve(tmp_path: Path, bot_delay: float) -> BackgroundServer:
    config = ServerConfig(
        db=str(tmp_path / "ono99.db"),
        bot_delay=bot_delay,
        turn_limits=(5.0, 600.0),
        http_rate=0,
        round_pause=0,
    )
    return BackgroundServer(config)


@pytest.fixture
def fast_server(tmp_path: Path) -> Iterator[BackgroundServer]:
    with serve(tmp_path, bot_delay=0.05) as server:
        yield server


@pytest.fixture
def slow_bot_server(tmp_path: Path) -> Iterator[BackgroundServer]:
    # Bots wait long enough that a person's Draw, clicked at once, wins the race (X2).
    with serve(tmp_path, bot_delay=0.3) as server:
        yield server


async def launch(pw: Any) -> Browser:
    if not CHROMIUM.exists():
        pytest.fail(
            f"no browser at {CHROMIUM}: the browser test needs Debian's chromium "
            "(apt-get install chromium; .ci/run installs it), or ONO99_CHROMIUM=/path"
        )
    return await launch_chromium(pw)


# Keeps every text given to the screen-reader live regions, in window.said.
LISTEN = """
window.said = [];
document.addEventListener("DOMContentLoaded", () => {
  for (const id of ["say-polite", "say-assertive"]) {
    const region = document.getElementById(id);
    new MutationObserver(() => region.textContent && window.said.push(region.textContent))
      .observe(region, { childList: true, characterData: true, subtree: true });
  }
});
"""


async def new_context(browser: Browser, phone: bool = False, paced: bool = True) -> BrowserContext:
    """A person's browser. ``paced=False``: one who asks for reduced motion, whose table shows
    each move at once instead of at a pace one can follow (800 ms a move): for the tests of
    words and layout, which need a whole game's screens, not its pace (test_browser_table
    checks the pace)."""
    motion: Any = "no-preference" if paced else "reduce"
    if phone:
        context = await browser.new_context(
            viewport=PHONE,
            device_scale_factor=1,
            is_mobile=True,
            has_touch=True,
            reduced_motion=motion,
        )
    else:
        context = await browser.new_context(
            viewport=DESKTOP, device_scale_factor=1, reduced_motion=motion
        )
    await context.add_init_script(LISTEN)
    return context


def watch_errors(page: Page, label: str, errors: list[str], refused: int | None = None) -> None:
    """Collect script errors, console errors and warnings (a missing i18n key warns).
    ``refused``: an HTTP status the test provokes on purpose, which Chromium logs as a
    console error of its own (the page words the refusal; the test checks that)."""
    expected = f"the server responded with a status of {refused} "
    page.on("pageerror", lambda exc: errors.append(f"{label}: {exc}"))
    page.on(
        "console",
        lambda msg: (
            errors.append(f"{label}: console {msg.type}: {msg.text}")
            if msg.type in ("error", "warning")
            and not (refused is not None and expected in msg.text)
            else None
        ),
    )


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# ------------------------------------------------------------------ setting a table up


async def create_table(
    page: Page, base: str, name: str, seats: list[str], timer: str = "30 seconds"
) -> None:
    """Fill the home page's form: ``seats`` holds "human" or "bot:NAME" per seat."""
    await page.goto(base + "/")
    form = page.get_by_role("form", name="Create a table")
    await form.get_by_label("Your name").fill(name)
    await form.get_by_label("Players", exact=True).select_option(label=f"{len(seats)} players")
    for i, kind in enumerate(seats):
        await form.get_by_label(f"Seat {i + 1}", exact=True).select_option(kind)
    await form.get_by_label("Turn timer").select_option(label=timer)


async def invite_link(page: Page) -> str:
    link = page.get_by_role("link", name=re.compile(r"t.[2-9a-z]{12}$"))
    await expect(link).to_be_visible()
    href = await link.get_attribute("href")
    assert href is not None
    return href


async def in_viewport(page: Page, selector: str) -> None:
    """The element is on screen without scrolling (the page is not scrolled)."""
    box = await page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box)


OVERFLOWING = """() => [...document.querySelectorAll("body *")]
  .filter((el) => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1
    && !el.closest(".sr-only") && getComputedStyle(el).overflowX !== "auto")
  .map((el) => `${el.tagName}#${el.id}.${el.className}: ${el.textContent.slice(0, 40)}`)
"""


async def fits_width(page: Page) -> None:
    """No horizontal scrolling, and no box whose text runs out of it."""
    widths = await page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page is {widths[0]}px wide in a {widths[1]}px window"
    overflowing = await page.evaluate(OVERFLOWING)
    assert not overflowing, overflowing


# ------------------------------------------------------------------ playing


class Player:
    """One person at the table, clicking: Draw when it is offered, else a playable card."""

    def __init__(self, page: Page, label: str, seed: int, keys: int = 0) -> None:
        self.page = page
        self.label = label
        self.rng = random.Random(seed)
        self.keys = keys  # the first cards played with the keyboard (1-9), not the mouse
        self.cards = 0
        self.draws = 0
        self.misses = 0  # clicks in a row that found their target gone
        self.on_turn: Any = None  # called with the player before each click (screenshots)

    async def play_until_over(self) -> None:
        page = self.page
        anything = page.locator(f"{PLAYABLE}, {DRAW_BUTTON}, {DISCARD_BUTTON}, {END}").first
        while True:
            await anything.wait_for(timeout=WAIT_MS)
            if await page.locator(END).is_visible():
                return
            if self.on_turn is not None:
                await self.on_turn(self)
            if await self.click_first(page.locator(DRAW_BUTTON)):
                self.draws += 1
                continue
            if await self.click_first(page.locator(DISCARD_BUTTON)):
                self.cards += 1
                continue
            cards = page.locator(PLAYABLE)
            count = await cards.count()
            if not count:
                continue
            card = cards.nth(self.rng.randrange(count))
            if self.cards < self.keys:
                index = await card.get_attribute("data-index", timeout=2000)
                assert index is not None
                lines = await page.locator("#log li").count()
                await page.keyboard.press(str(int(index) + 1))
                await expect(page.locator("#log li")).not_to_have_count(lines)  # it was played
                self.cards += 1
            elif await self.click_first(card):
                self.cards += 1

    async def said(self) -> list[str]:
        said: list[str] = await self.page.evaluate("window.said")
        return said

    async def click_first(self, target: Any) -> bool:
        """Click ``target`` if it is still there: the page moves on under our feet (a bot's
        move, a new round), and a card gone meanwhile is simply not clicked."""
        if not await target.count():
            return False
        try:
            await target.click(timeout=2000)
        except PlaywrightError:  # detached, or gone for good: look again
            self.misses += 1
            assert self.misses < 25, f"{self.label}: a playable card that cannot be clicked"
            return False
        self.misses = 0
        return True


async def end_title(page: Page) -> str:
    title = page.locator(END)
    await expect(title).to_be_visible(timeout=WAIT_MS)
    return (await title.text_content() or "").strip()


async def download_record(page: Page) -> dict[str, Any]:
    async with page.expect_download() as info:
        await page.get_by_role("link", name="Download the game record").click()
    download = await info.value
    path = await download.path()
    data: dict[str, Any] = json.loads(Path(path).read_text())
    return data


def winner_line(record: dict[str, Any], me: int) -> str:
    """What the end screen says to seat ``me``."""
    winners = list(replay(load_record(record)).winners)
    names = record["meta"]["names"]
    if me in winners:
        return "You win!"
    assert len(winners) == 1, winners  # a single game has one winner
    return f"{names[winners[0]]} wins."


# ------------------------------------------------------------------ the tests


def test_two_people_and_two_bots_play_a_game_to_the_end(
    fast_server: BackgroundServer, artifacts: Path
) -> None:
    base = fast_server.url

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            host_ctx = await new_context(browser)
            # The friend's phone asks for reduced motion (moves at once), the host's laptop
            # does not (each move at a pace one can follow): both at one table.
            friend_ctx = await new_context(browser, phone=True, paced=False)
            host = await host_ctx.new_page()
            friend = await friend_ctx.new_page()
            watch_errors(host, "host", errors)
            watch_errors(friend, "friend", errors, refused=409)  # a name that is taken

            # The host sets up: Ana and a friend, and two greedy bots.
            await host.goto(base + "/")
            await expect(host.get_by_role("button", name="Create the table")).to_be_visible()
            await host.screenshot(path=artifacts / "home-desktop.png")
            await create_table(host, base, "Ana", ["human", "human", "bot:greedy", "bot:greedy"])
            await host.get_by_role("button", name="Create the table").click()
            link = await invite_link(host)
            start = host.get_by_role("button", name="Start the game")
            await expect(start).to_be_disabled()  # a seat still waits for the friend
            await host.screenshot(path=artifacts / "lobby-desktop.png")
            await in_viewport(host, "#lobby-actions button")  # no scrolling on a laptop

            # The friend opens the invite link and joins with a name.
            await friend.goto(link)
            await expect(
                friend.get_by_text(re.compile(r"^At the table: Ana, \w+ \(bot\)"))
            ).to_be_visible()
            await fits_width(friend)
            await friend.screenshot(path=artifacts / "join-phone.png")
            # The host's name is taken, however it is typed: the form says so, nothing else.
            await friend.get_by_label("Your name").fill(" ana ")
            await friend.get_by_role("button", name="Take a seat").click()
            await expect(friend.locator("form .form-error")).to_have_text(
                "Someone at this table is already called Ana. Pick another name."
            )
            await expect(friend.get_by_label("Your name")).to_be_focused()
            await fits_width(friend)
            await friend.screenshot(path=artifacts / "join-name-taken-phone.png")
            await friend.get_by_label("Your name").fill("Ben")
            await friend.get_by_role("button", name="Take a seat").click()
            await expect(friend.get_by_text("Waiting for the host to start")).to_be_visible()
            await expect(host.get_by_text("Ben", exact=False).first).to_be_visible()
            await fits_width(friend)
            await friend.screenshot(path=artifacts / "lobby-phone.png")

            await expect(start).to_be_enabled()
            await start.click()
            for page in (host, friend):
                await expect(page.locator("#total")).to_be_visible()
                await expect(page.locator("#hand .hand-card")).to_have_count(4)
            # The invite stays open beside the game on a laptop, and folds away on a phone.
            await expect(host.locator("details.invite")).to_have_attribute("open", "")
            await expect(friend.locator("details.invite")).not_to_have_attribute("open", "")
            # Someone else opens the link once the game is on: they watch, seeing no hand.
            watcher = await (await new_context(browser)).new_page()
            watch_errors(watcher, "watcher", errors)
            await watcher.goto(link)
            await expect(watcher.get_by_text("You are watching: no hand.")).to_be_visible()

            players = [Player(host, "host", 1, keys=2), Player(friend, "friend", 2)]
            shots: set[str] = set()

            async def mid_game(player: Player) -> None:
                """A screenshot of each once the game is under way, on their turn."""
                page = player.page
                if player.label in shots or await page.locator("#log li").count() < 6:
                    return
                shots.add(player.label)
                await expect(page.locator("#turn")).to_have_text(re.compile(r"^Your turn"))
                timer = page.locator("#timer")
                await expect(timer).to_be_visible()
                await expect(timer).to_contain_text(re.compile(r"^\d+ seconds? left$"))
                if player.label == "friend":
                    await fits_width(page)
                    await in_viewport(page, "#total")
                    await expect(page.locator(PLAYABLE).first).to_be_in_viewport()
                await page.screenshot(path=artifacts / f"game-{player.label}.png")

            for p in players:
                p.on_turn = mid_game
            await asyncio.wait_for(
                asyncio.gather(*(p.play_until_over() for p in players)), GAME_SECONDS
            )
            assert sum(p.cards for p in players) > 0, "nobody clicked a card"
            # Everyone saw every move: their play-by-play logs are as long.
            host_lines = await host.locator("#log li").count()
            await expect(friend.locator("#log li")).to_have_count(host_lines)
            await expect(watcher.locator("#log li")).to_have_count(host_lines)
            # Screen readers heard the totals, the turns, and the other person's moves.
            for player, other in zip(players, ["Ben", "Ana"], strict=True):
                said = await player.said()
                assert any(re.search(r"Total -?\d+\.", s) for s in said), said
                assert any("Your turn" in s for s in said), said
                assert any(re.search(other + r" plays .+ → -?\d+", s) for s in said), said

            # Both see the end screen, naming the winner the record names.
            record = await download_record(host)
            names = record["meta"]["names"]
            assert names[:2] == ["Ana", "Ben"] and len(set(names)) == 4, names  # a bot was Ben
            assert record["meta"]["players"] == ["human", "human", "greedy", "greedy"]
            by_seat = [s for s, _a in record["actions"]], record["meta"]["by"]
            clicked = [s for s, by in zip(*by_seat, strict=True) if by == "seat"]
            assert {0, 1} <= set(clicked), "both people's moves came from their clicks"
            assert await end_title(host) == winner_line(record, 0)
            assert await end_title(friend) == winner_line(record, 1)
            assert await end_title(watcher) == winner_line(record, -1)
            await host.screenshot(path=artifacts / "end-desktop.png")
            await fits_width(friend)
            await friend.screenshot(path=artifacts / "end-phone.png", full_page=True)

            # The friend replays the game step by step.
            await friend.get_by_role("link", name="Replay this game").click()
            steps = len(record["actions"])
            position = friend.locator("#replay-position")
            await expect(position).to_have_text(f"Step 0 of {steps}")
            await friend.get_by_role("button", name="Next").click()
            await expect(position).to_have_text(f"Step 1 of {steps}")
            await friend.get_by_role("button", name="Last").click()
            await expect(position).to_have_text(f"Step {steps} of {steps}")
            await expect(friend.locator(".replay-log li").last).to_contain_text("Game over")
            await fits_width(friend)
            await friend.screenshot(path=artifacts / "replay-phone.png")

            # The host plays again; the friend comes back to the table and is in it.
            await host.get_by_role("button", name="Play again").click()
            await expect(host.locator("#end")).to_be_hidden()
            await friend.get_by_role("link", name="Back to the table").click()
            for page in (host, friend):
                await expect(page.locator("#hand .hand-card")).to_have_count(4)
                await expect(page.locator("#log li").first).to_contain_text("Round 1")

            await browser.close()
        assert not errors, "\n".join(errors)

    run(main())


@slow
def test_draw_penalty_is_played_with_the_draw_button(
    slow_bot_server: BackgroundServer, artifacts: Path
) -> None:
    base = slow_bot_server.url

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            ctx = await new_context(browser, paced=False)  # the rules, not the pace
            page = await ctx.new_page()
            watch_errors(page, "host", errors)
            await create_table(
                page, base, "Ana", ["human", "bot:greedy", "bot:random"], timer="No timer"
            )
            form = page.get_by_role("form", name="Create a table")
            await form.get_by_label("1980 edition").check()
            await form.get_by_text("Rule options").click()
            await form.get_by_label("Draw penalty").check()
            await form.get_by_label("Match", exact=True).select_option("single")
            await page.screenshot(path=artifacts / "create-options.png", full_page=True)
            await page.get_by_role("button", name="Create the table").click()
            rules = page.locator("#lobby-rules")
            await expect(rules).to_contain_text("1980 edition")
            await expect(rules).to_contain_text(re.compile(r"Draw penalty\s*yes"))
            await page.get_by_role("button", name="Start the game").click()

            player = Player(page, "host", 3)
            shot = False

            async def on_turn(p: Player) -> None:
                nonlocal shot
                if not shot and await page.locator(DRAW_BUTTON).count():
                    shot = True
                    await page.screenshot(path=artifacts / "draw-desktop.png")

            player.on_turn = on_turn
            await asyncio.wait_for(player.play_until_over(), GAME_SECONDS)
            record = await download_record(page)
            assert record["rules"]["draw_penalty"] is True
            mine = [
                a
                for (seat, a), by in zip(record["actions"], record["meta"]["by"], strict=True)
                if seat == 0 and by == "seat"
            ]
            assert player.cards == 0 or "draw" in mine, "a draw clicked in time is taken"
            assert await end_title(page) == winner_line(record, 0)
            await browser.close()
        assert not errors, "\n".join(errors)

    run(main())


async def log_scroll(page: Page) -> dict[str, float]:
    metrics: dict[str, float] = await page.evaluate(
        """() => { const l = document.getElementById("log");
                   return {top: l.scrollTop, height: l.clientHeight, content: l.scrollHeight}; }"""
    )
    return metrics


@slow
def test_the_invite_folds_away_when_a_phone_host_starts(
    fast_server: BackgroundServer, artifacts: Path
) -> None:
    """Six seats on a phone: Start is below the fold, so the host scrolls down to it. Once the
    game is on, the page shows the table from its top (the total, the hand) and the invite is
    folded to one line, there to open when wanted."""
    base = fast_server.url
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 5
    made = httpx.post(f"{base}/api/tables", json={"seats": seats, "name": "Ana"})
    assert made.status_code == 201, made.text
    code, token = made.json()["code"], made.json()["token"]

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            page = await (await new_context(browser, phone=True)).new_page()
            watch_errors(page, "host", errors)
            await page.goto(f"{base}/t/{code}#seat={token}")
            start = page.get_by_role("button", name="Start the game")
            await expect(start).to_be_enabled()
            await start.scroll_into_view_if_needed()
            assert await page.evaluate("window.scrollY") > 0  # the test's premise
            await start.click()
            await expect(page.locator("#hand .hand-card")).to_have_count(4)
            invite = page.locator("details.invite")
            await expect(invite).not_to_have_attribute("open", "")
            await expect(invite.get_by_role("link")).to_be_hidden()
            await in_viewport(page, "#total")
            await in_viewport(page, "#hand")  # (its cards are redrawn at every move)
            await fits_width(page)
            await page.screenshot(path=artifacts / "game-started-phone.png")
            await invite.locator("summary").click()
            await expect(invite.get_by_role("link", name=re.compile(code))).to_be_visible()
            await fits_width(page)
            await browser.close()
        assert not errors, "\n".join(errors)

    run(main())


def owing_two(rules: Rules, seat: int, lines: int) -> tuple[int, list[Any], State, Action]:
    """A random game's seed and actions up to a moment when ``seat`` owes two cards (a Play 2
    came their way) with at least ``lines`` log lines so far, the state then, and a card of
    theirs that is only the first of the two (a Reverse or Play 2 would pass them on)."""
    for seed in range(2000):
        rng = random.Random(seed)
        state = new_game(rules, seed)
        actions: list[Any] = []
        while not state.over:
            mover = state.to_play
            assert mover is not None
            legal = legal_actions(state, mover)
            if mover == seat and state.owed == 2 and state.event_count >= lines:
                for action in legal:
                    if action.kind == "play" and view(apply(state, seat, action)).second_card:
                        return seed, actions, state, action
            action = rng.choice(legal)
            actions.append((mover, action))
            state = apply(state, mover, action)
    raise AssertionError("no game found where a Play 2 reaches the seat")


@slow
def test_a_play2_callout_for_the_second_card_and_a_reload_on_a_phone(
    tmp_path: Path, artifacts: Path
) -> None:
    """A game comes back from storage (as after a restart) just as a Play 2 reaches Ana, who
    is on a phone. After her first card the page says one more card is owed, to her and, in
    their words, to a watcher; after a reload it still says so and the play-by-play, which
    is longer than its box, is scrolled to the newest move. Her second card ends it."""
    with serve(tmp_path, bot_delay=0.05) as server:
        made = httpx.post(
            f"{server.url}/api/tables",
            json={"seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
                  "name": "Ana", "turn_seconds": 0},
        )  # fmt: skip
        assert made.status_code == 201, made.text
        code, token = made.json()["code"], made.json()["token"]
        stored_rules = httpx.get(f"{server.url}/api/tables/{code}").json()["rules"]
    rules = make_rules("2022", players=4)
    assert rules.to_dict(minimal=False) == stored_rules
    seed, actions, owing, first_card = owing_two(rules, 0, lines=24)
    first = owing.hands[0].index(first_card.card)
    store = SqliteStore(tmp_path / "ono99.db")
    with store.transaction():
        store.start_game(code, 1, seed, owing.dealer)
        for i, (seat, action) in enumerate(actions):
            store.add_action(code, 1, i, seat, str(action), "seat" if seat == 0 else "bot")
    store.close()
    lines = apply(owing, 0, first_card).event_count  # log lines after her first card

    async def main(base: str) -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            ana = await (await new_context(browser, phone=True)).new_page()
            watcher = await (await new_context(browser, phone=True)).new_page()
            watch_errors(ana, "ana", errors)
            watch_errors(watcher, "watcher", errors)
            await ana.goto(f"{base}/t/{code}#seat={token}")
            await watcher.goto(f"{base}/t/{code}")
            await expect(ana.locator("#turn")).to_have_text("Your turn: play 2 cards.")
            await expect(ana.locator("#warning")).to_contain_text("You must play 2 cards")
            await expect(watcher.locator("#warning")).to_have_text("Play 2! Ana must play 2 cards.")
            await ana.locator(f'#hand .hand-card[data-index="{first}"]').click()
            callout = "Play 2: one more card to play."
            await expect(ana.locator("#warning")).to_have_text(callout)
            await expect(ana.locator("#turn")).to_have_text("Your turn: one more card.")
            await expect(watcher.locator("#warning")).to_have_text(
                "Play 2: Ana owes one more card."
            )
            await expect(watcher.locator("#turn")).to_have_text("Ana's turn: one more card.")
            await ana.wait_for_function(  # and a screen reader hears it
                "() => window.said.some((s) => s.endsWith('Your turn: one more card.'))"
            )
            await in_viewport(ana, "#warning")
            await fits_width(ana)
            await ana.screenshot(path=artifacts / "play2-second-card-phone.png")
            await watcher.screenshot(path=artifacts / "play2-second-card-watcher-phone.png")

            await ana.reload()
            await expect(ana.locator("#warning")).to_have_text(callout)
            await expect(ana.locator("#log li")).to_have_count(lines)
            box = await log_scroll(ana)
            assert box["content"] > box["height"] + 100, box  # it overflows its box
            assert box["content"] - (box["top"] + box["height"]) <= 2, box  # at the bottom

            await ana.locator(PLAYABLE).first.click()
            await expect(ana.locator("#log li")).not_to_have_count(lines)
            for page in (ana, watcher):
                await expect(page.locator("#turn")).not_to_contain_text("one more card")
                await expect(page.locator("#warning")).not_to_contain_text("one more card")
            await browser.close()
        assert not errors, "\n".join(errors)

    with serve(tmp_path, bot_delay=0.05) as server:
        run(main(server.url))


def stretched(catalog: dict[str, str]) -> dict[str, str]:
    """Every text half as long again, ending in a long word that has no place to break: what
    a translation into Greek or Marathi may do to a layout."""

    def stretch(text: str) -> str:
        parts = re.split(r"(\{\w+\})", text)
        grown = [
            p if p.startswith("{") else re.sub(r"\w+", lambda m: m[0] + "ά" * (len(m[0]) // 2), p)
            for p in parts
        ]
        return "".join(grown) + " Ἀντιπροσωπευτικότητα"

    return {key: stretch(text) for key, text in catalog.items()}


@slow
def test_long_words_do_not_overflow_a_phone(fast_server: BackgroundServer, artifacts: Path) -> None:
    """The client in a pseudo-language of long words, on a phone: every screen fits."""
    base = fast_server.url
    catalog = browser_catalog("en")
    body = json.dumps(stretched(catalog), ensure_ascii=False)
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
    made = httpx.post(
        f"{base}/api/tables", json={"seats": seats, "name": "Ana", "turn_seconds": 60}
    )
    assert made.status_code == 201, made.text
    code, token = made.json()["code"], made.json()["token"]

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            context = await new_context(browser, phone=True, paced=False)
            await context.route(
                "**/i18n/en.json",
                lambda route: route.fulfill(body=body, content_type="application/json"),
            )
            page = await context.new_page()
            watch_errors(page, "host", errors)
            await page.goto(base + "/")
            await expect(page.locator("form.play-now button.primary")).to_contain_text("Ἀντι")
            await page.locator("details.options summary").click()
            await fits_width(page)
            await page.screenshot(path=artifacts / "long-home-phone.png", full_page=True)
            await page.goto(f"{base}/t/{code}#seat={token}")
            start = page.locator("#lobby-actions button.primary")
            await expect(start).to_be_enabled()
            await fits_width(page)
            await page.screenshot(path=artifacts / "long-lobby-phone.png", full_page=True)
            await start.click()
            player = Player(page, "host", 4)
            shot = False

            async def on_turn(p: Player) -> None:
                nonlocal shot
                if not shot and await page.locator("#log li").count() >= 6:
                    shot = True
                    await fits_width(page)
                    await page.screenshot(path=artifacts / "long-game-phone.png")

            player.on_turn = on_turn
            await asyncio.wait_for(player.play_until_over(), GAME_SECONDS)
            await expect(page.locator(END)).to_be_visible()
            await fits_width(page)
            await page.screenshot(path=artifacts / "long-end-phone.png", full_page=True)
            await browser.close()
        assert not errors, "\n".join(errors)

    run(main())


# ------------------------------------------------------------------ refusals, in words


WORD_REFUSALS = """
async ([lang, cases]) => {
  const i18n = await import("/static/js/i18n.js");
  const { errorText } = await import("/static/js/errors.js");
  await i18n.loadCatalog(lang);
  return cases.map(([params, edition]) => errorText({ code: "illegal", params }, edition));
}
"""


@slow
def test_the_browser_words_a_refusal_as_the_terminal_does(fast_server: BackgroundServer) -> None:
    """Every reason the engine gives (engine.REASONS), for each kind of action and each
    language: errors.js makes the same sentence from the session's error params as the
    terminal's ``refusal_text`` makes from the engine's error (one set of messages)."""
    from ono99.engine import ALL_ACTIONS, REASONS, IllegalActionError
    from ono99.i18n import LANGUAGES, refusal_text, translator

    sample = {"card": "play2", "total": 95, "after": 105, "max_total": 98, "to_play": 1,
              "ono99s": 2, "last_seat": 3}  # fmt: skip
    cases = []
    for code, reason in REASONS.items():
        params = {name: sample[name] for name in reason.params}
        for action in (ALL_ACTIONS[7], ALL_ACTIONS[13], ALL_ACTIONS[16], ALL_ACTIONS[17]):
            for edition in ("2022", "1980"):
                error = IllegalActionError("-", seat=0, action=action, code=code, params=params)
                session = {"action": str(action), "reason": code, "rule": reason.rule, **params}
                cases.append((error, session, edition))

    async def main() -> dict[str, list[str]]:
        async with async_playwright() as pw:
            browser = await launch(pw)
            page = await (await new_context(browser)).new_page()
            await page.goto(fast_server.url + "/")
            said = {}
            for lang in LANGUAGES:
                args = [lang, [[session, edition] for _, session, edition in cases]]
                said[lang] = await page.evaluate(WORD_REFUSALS, args)
            await browser.close()
            return said

    said = run(main())
    for lang in LANGUAGES:
        tr = translator(lang)
        assert said[lang] == [refusal_text(e, edition, tr) for e, _, edition in cases], lang


def test_a_busy_server_says_the_new_table_is_being_set_up(tmp_path: Path, artifacts: Path) -> None:
    """A server setting up many tables gives each its turn (``create_rate``): the home
    page's button says so while the table waits, and then the table opens as usual."""
    config = ServerConfig(
        db=str(tmp_path / "ono99.db"), http_rate=0, create_rate=0.4, create_burst=1
    )
    with BackgroundServer(config) as server:
        body = {"name": "Leo", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}

        async def main() -> None:
            async with async_playwright() as pw:
                browser = await launch(pw)
                page = await (await new_context(browser, phone=True)).new_page()
                await create_table(page, server.url, "Ana", ["human", "bot:greedy"])
                # Someone else's table takes the turn just before: this one waits 2.5 s.
                other = await asyncio.to_thread(httpx.post, f"{server.url}/api/tables", json=body)
                assert other.status_code == 201, other.text
                await page.get_by_role("button", name="Create the table").click()
                waiting = page.get_by_role("button", name="Setting up your table…")
                await expect(waiting).to_be_disabled(timeout=WAIT_MS)
                await page.screenshot(path=str(artifacts / "create-waiting-phone.png"))
                await invite_link(page)  # its turn came: the table opened
                await browser.close()

        run(main())
