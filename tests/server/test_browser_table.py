"""The browser game as a card table, in headless Chromium (as ``test_browser_e2e.py``).

The seats around an oval, the piles and the total in the middle and the hand below all fit on
the first screen of a laptop and of a phone; bot moves are shown one after the other, each
card flying from its seat to the pile, and the table catches up with the game; with reduced
motion nothing flies and the game is played to its end; the mute button is remembered; a
greyed card says why, in words anyone can see (the server's refusal); the end screen ranks
everyone in the terminal's finishing order, in two languages.

Games that must reach a given moment are stored first (as ``owing_two`` in the e2e tests does)
and come back from storage when the server starts, as after a restart.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Page, async_playwright, expect

from ono99.engine import (
    PLAY,
    Action,
    IllegalActionError,
    State,
    apply,
    legal_actions,
    load_record,
    make_rules,
    new_game,
    replay,
)
from ono99.i18n import refusal_text, translator
from ono99.i18n.export import browser_catalog
from ono99.server import BackgroundServer, ServerConfig
from ono99.storage import SqliteStore
from server_support import create_table
from test_browser_e2e import (
    END,
    GAME_SECONDS,
    PLAYABLE,
    Player,
    artifacts,
    download_record,
    fast_server,
    fits_width,
    in_viewport,
    launch,
    new_context,
    run,
    serve,
    watch_errors,
)
from tiers import slow

__all__ = ["artifacts", "fast_server"]  # fixtures, used by name
pytestmark = slow  # seconds each in Chromium: the quick tier keeps one browser game (e2e)

# Keeps, in window.seen, when each play-by-play line and each flying card appeared, and
# when each update arrived and was shown (table.js's ono99:shown event).
WATCH = """
window.seen = { lines: [], flights: 0, shown: [] };
document.addEventListener("ono99:shown", (e) => {
  window.seen.shown.push([e.detail.arrived, performance.now()]);
});
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver((records) => {
    for (const r of records) for (const node of r.addedNodes) {
      if (node.nodeType !== 1) continue;
      if (node.tagName === "LI" && node.parentElement && node.parentElement.id === "log") {
        window.seen.lines.push([performance.now(), node.textContent]);
      }
      if (node.classList.contains("flying")) window.seen.flights += 1;
    }
  }).observe(document.body, { childList: true, subtree: true });
});
"""


def stored_game(
    tmp_path: Path, players: int, wanted: Callable[[State, list[Any]], Action | None]
) -> tuple[str, str, State, Action]:
    """A table of Ana and random bots (no turn timer) whose game is stored up to the first
    moment of a random game where ``wanted(state, actions)`` names an action of Ana's: the
    table's code, Ana's token, that state and that action. Start the server afterwards."""
    with serve(tmp_path, bot_delay=0.05) as server:
        made = httpx.post(
            f"{server.url}/api/tables",
            json={"seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1),
                  "name": "Ana", "turn_seconds": 0},
        )  # fmt: skip
        assert made.status_code == 201, made.text
        code, token = made.json()["code"], made.json()["token"]
    rules = make_rules("2022", players=players)
    for seed in range(3000):
        rng = random.Random(seed)
        state = new_game(rules, seed)
        actions: list[Any] = []
        while not state.over:
            mover = state.to_play
            assert mover is not None
            if mover == 0 and (action := wanted(state, actions)) is not None:
                store = SqliteStore(tmp_path / "ono99.db")
                with store.transaction():
                    store.start_game(code, 1, seed, state.dealer)
                    for i, (seat, act) in enumerate(actions):
                        store.add_action(code, 1, i, seat, str(act), "seat" if seat == 0 else "bot")
                store.close()
                return code, token, state, action
            act = rng.choice(legal_actions(state, mover))
            actions.append((mover, act))
            state = apply(state, mover, act)
    raise AssertionError("no game reached the wanted moment")


async def table_on_screen(page: Page, seats: int) -> None:
    """Every seat, the total, the last card and the hand are on the first screen."""
    assert await page.evaluate("window.scrollY") == 0
    await expect(page.locator("#felt .seat")).to_have_count(seats)
    for i in range(seats):
        await in_viewport(page, f"#seat-{i}")
    for selector in ("#total", "#discard .pile-card", "#draw-pile", "#hand", "#turn"):
        await in_viewport(page, selector)
    for card in await page.locator("#hand .hand-card").all():
        box = await card.bounding_box()
        size = page.viewport_size
        assert box and size and box["y"] + box["height"] <= size["height"], box
    await fits_width(page)


def owes_two_with_history(state: State, actions: list[Any]) -> Action | None:
    """Ana owes two cards (a Play 2 came her way), each other seat has played this round."""
    if state.owed != 2 or len(actions) < 8:
        return None
    return legal_actions(state, 0)[0]


def test_the_table_fits_a_laptop_and_a_phone(tmp_path: Path, artifacts: Path) -> None:
    """Four seats round the table, from Ana's seat at the bottom; a Play 2 has reached her:
    her seat carries the ×2 badge and the turn; each other seat shows its card backs and the
    last card it played; on 1280×800 and on 390×844 nothing needs scrolling."""
    code, token, state, _ = stored_game(tmp_path, 4, owes_two_with_history)

    async def main(base: str) -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            for phone in (False, True):
                page = await (await new_context(browser, phone=phone)).new_page()
                watch_errors(page, "phone" if phone else "desktop", errors)
                await page.goto(f"{base}/t/{code}#seat={token}")
                await expect(page.locator(PLAYABLE).first).to_be_visible()
                await expect(page.locator("#total")).to_have_text(str(state.total))
                await table_on_screen(page, 4)
                await expect(page.locator("#seat-0")).to_have_class(re.compile(r"\bseat-turn\b"))
                await expect(page.locator("#seat-0 .owe-badge")).to_have_text("×2")
                await expect(page.locator("#seat-0 .seat-said")).to_contain_text("owes 2 cards")
                for seat in (1, 2, 3):
                    backs = page.locator(f"#seat-{seat} .backs .back")
                    await expect(backs).to_have_count(len(state.hands[seat]))
                await expect(page.locator(".seat-last .card")).not_to_have_count(0)
                # Seat order runs clockwise on screen from Ana at the bottom: 1 left, 2 top.
                boxes = [await page.locator(f"#seat-{i}").bounding_box() for i in range(4)]
                assert all(boxes)
                assert boxes[0]["y"] > boxes[1]["y"] > boxes[2]["y"]  # type: ignore[index]
                assert boxes[1]["x"] < boxes[2]["x"] < boxes[3]["x"]  # type: ignore[index]
                # The play-by-play: beside the table on a laptop, a drawer on a phone.
                log = page.locator("#log")
                if phone:
                    await expect(log).not_to_be_in_viewport()
                    await page.locator("#log-open").click()
                    await expect(log).to_be_in_viewport(ratio=1)  # slid all the way in
                    await page.screenshot(path=artifacts / "table-drawer-phone.png")
                    await page.locator(".drawer-close").click()
                    await expect(log).not_to_be_in_viewport()
                else:
                    await expect(page.locator("#log-open")).to_be_hidden()
                    await expect(log).to_be_in_viewport()
                name = "table-phone.png" if phone else "table-desktop.png"
                await page.screenshot(path=artifacts / name)
            await browser.close()
        assert not errors, "\n".join(errors)

    with serve(tmp_path, bot_delay=0.05) as server:
        run(main(server.url))


def test_bot_moves_are_shown_one_at_a_time_and_catch_up(
    fast_server: BackgroundServer, artifacts: Path
) -> None:
    """Ana and five quick bots (a move every 50 ms): after each of her cards, the bots' moves
    reach the page almost together, and the page shows them one after the other, a card flying
    to the pile each time, quicker when many wait, never far behind, and ends on the game's own
    total."""
    base = fast_server.url
    made = create_table(base, ["human"] + ["random"] * 5, turn_seconds=30)
    code, token = made["code"], made["token"]

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            context = await new_context(browser)
            await context.add_init_script(WATCH)
            page = await context.new_page()
            watch_errors(page, "host", errors)
            await page.goto(f"{base}/t/{code}#seat={token}")
            await page.get_by_role("button", name="Start the game").click()
            player = Player(page, "host", 8)
            ready = page.locator(f"{PLAYABLE}, {END}").first
            while len(await page.evaluate("window.seen.shown")) < 12:
                await ready.wait_for(timeout=20_000)
                if await page.locator(END).is_visible():
                    break
                await player.click_first(page.locator(PLAYABLE).first)
            await ready.wait_for(timeout=20_000)  # the queue has caught up
            shown = await page.evaluate("window.seen.shown")  # [arrived, shown] per update
            pairs = list(itertools.pairwise(shown))
            # Updates that arrived together were shown apart, each with its moment on screen.
            bunched = [(a, b) for a, b in pairs if b[0] - a[0] < 100]
            assert len(bunched) >= 2, shown

            # Each had its moment, unless the table was behind: then it catches up at once
            # (table/queue.js), as no update may wait longer than 1.5 s to be shown — which
            # the queue's budget does only when the update is late, or three or more wait
            # behind it (its share of what is left of 1.5 s is then under a step's 150 ms).
            def behind(k: int) -> int:
                return sum(1 for arrived, _ in shown[k + 1 :] if arrived <= shown[k][1])

            apart = [
                b[1] - a[1] >= 100 or b[1] - b[0] > 1000 or behind(k + 1) >= 3
                for k, (a, b) in enumerate(pairs)
            ]
            assert all(apart), shown
            # None waited long: the queue speeds up rather than fall behind.
            assert max(at - arrived for arrived, at in shown) < 2000, shown
            # A card flew for each, but those the queue showed at once to catch up.
            paced = [k for k in range(len(shown)) if shown[k][1] - shown[k][0] <= 1000]
            paced = [k for k in paced if behind(k) < 3]
            assert await page.evaluate("window.seen.flights") >= len(paced) - 2
            # The table shows the game's own total once it has caught up.
            lines = [text for _, text in await page.evaluate("window.seen.lines") if "→" in text]
            total = re.findall(r"→ (-?\d+)", lines[-1])[-1]
            await expect(page.locator("#total")).to_have_text(total)
            await page.screenshot(path=artifacts / "queue-desktop.png")
            await browser.close()
        assert not errors, "\n".join(errors)

    run(main())


def test_reduced_motion_plays_a_whole_game(fast_server: BackgroundServer) -> None:
    """With prefers-reduced-motion, no card flies and nothing waits: a whole game, to its end."""
    base = fast_server.url
    made = create_table(base, ["human"] + ["random"] * 2, turn_seconds=30)
    code, token = made["code"], made["token"]

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            context = await browser.new_context(
                viewport={"width": 390, "height": 844}, reduced_motion="reduce", has_touch=True
            )
            await context.add_init_script(WATCH)
            page = await context.new_page()
            watch_errors(page, "host", errors)
            await page.goto(f"{base}/t/{code}#seat={token}")
            await page.get_by_role("button", name="Start the game").click()
            player = Player(page, "host", 5)
            await asyncio.wait_for(player.play_until_over(), GAME_SECONDS)
            await expect(page.locator(END)).to_be_visible()
            assert player.cards > 0
            assert await page.evaluate("window.seen.flights") == 0
            await browser.close()
        assert not errors, "\n".join(errors)

    run(main())


def test_mute_is_remembered_and_sounds_follow_it(fast_server: BackgroundServer) -> None:
    """Sounds start after the first click; the mute button stops them, and a reload keeps it."""
    base = fast_server.url
    made = create_table(base, ["human"] + ["random"] * 2, turn_seconds=30)
    code, token = made["code"], made["token"]
    played = "async () => (await import('/static/js/sound.js')).played.slice()"

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            page = await (await new_context(browser)).new_page()
            watch_errors(page, "host", errors)
            await page.goto(f"{base}/t/{code}#seat={token}")
            await page.get_by_role("button", name="Start the game").click()
            mute = page.locator("#mute")
            await expect(mute).to_have_attribute("aria-pressed", "false")
            await expect(mute).to_have_accessible_name("Mute sounds")
            await page.locator(PLAYABLE).first.click()  # the first click lets sounds play
            await page.wait_for_function(
                "async () => (await import('/static/js/sound.js')).played.includes('card')"
            )
            await mute.click()
            await expect(mute).to_have_attribute("aria-pressed", "true")
            heard = len(await page.evaluate(played))
            ready = page.locator(f"{PLAYABLE}, {END}").first
            await ready.wait_for(timeout=20_000)
            lines = await page.locator("#log li").count()
            if await Player(page, "host", 1).click_first(page.locator(PLAYABLE).first):
                await expect(page.locator("#log li")).not_to_have_count(lines)  # moves shown
                await ready.wait_for(timeout=20_000)
            assert len(await page.evaluate(played)) == heard  # muted: nothing more
            await page.reload()
            await expect(page.locator("#mute")).to_have_attribute("aria-pressed", "true")
            await page.locator("#mute").click()
            await page.reload()
            await expect(page.locator("#mute")).to_have_attribute("aria-pressed", "false")
            await browser.close()
        assert not errors, "\n".join(errors)

    run(main())


def too_high_card(state: State, actions: list[Any]) -> Action | None:
    """A card of Ana's that the rules refuse because it would pass the limit."""
    legal = legal_actions(state, 0)
    if not legal:
        return None
    for card in state.hands[0]:
        try:
            apply(state, 0, PLAY[card])
        except IllegalActionError as err:
            if err.code == "too_high":
                return PLAY[card]
    return None


def test_a_greyed_card_says_why(tmp_path: Path, artifacts: Path) -> None:
    """Tapping a card that cannot be played shows the server's reason by the hand, as the
    terminal words it ("You can't play 9: that makes 101, above 98"), and changes nothing."""
    code, token, state, action = stored_game(tmp_path, 3, too_high_card)
    try:
        apply(state, 0, action)
    except IllegalActionError as err:
        expected = refusal_text(err, "2022", translator("en"))
    index = state.hands[0].index(action.card)

    async def main(base: str) -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            page = await (await new_context(browser, phone=True)).new_page()
            watch_errors(page, "ana", errors)
            await page.goto(f"{base}/t/{code}#seat={token}")
            card = page.locator(f'#hand .hand-card[data-index="{index}"]')
            await expect(card).to_have_attribute("aria-disabled", "true")
            lines = await page.locator("#log li").count()
            await card.click(force=True)  # aria-disabled: Playwright would wait for it
            refusal = page.locator("#refusal")
            await expect(refusal).to_have_text(expected)
            await in_viewport(page, "#refusal")
            await fits_width(page)
            await page.screenshot(path=artifacts / "refusal-phone.png")
            await page.wait_for_function(
                "(text) => window.said.some((s) => s.includes(text))", arg=expected
            )
            # By key too, and the answer is remembered: nothing is sent twice.
            await page.keyboard.press(str(index + 1))
            await expect(refusal).to_have_text(expected)
            await expect(page.locator("#log li")).to_have_count(lines)  # nothing was played
            await browser.close()
        assert not errors, "\n".join(errors)

    with serve(tmp_path, bot_delay=0.05) as server:
        run(main(server.url))


def test_the_end_screen_ranks_everyone_in_two_languages(
    fast_server: BackgroundServer, artifacts: Path
) -> None:
    """A whole game of Ana and three bots; the end screen lists every seat in the terminal's
    finishing order (the winners, then the last out to the first out), each with its place:
    "1st", "2nd"… in English, and after a switch to Armenian, "1-ին", "2-րդ"…"""
    base = fast_server.url
    made = create_table(base, ["human"] + ["random"] * 3, turn_seconds=30)
    code, token = made["code"], made["token"]

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            context = await browser.new_context(
                viewport={"width": 390, "height": 844}, reduced_motion="reduce", has_touch=True
            )
            page = await context.new_page()
            watch_errors(page, "host", errors)
            await page.goto(f"{base}/t/{code}#seat={token}")
            await page.get_by_role("button", name="Start the game").click()
            await asyncio.wait_for(Player(page, "host", 11).play_until_over(), GAME_SECONDS)
            record = await download_record(page)
            final = replay(load_record(record))
            names = record["meta"]["names"]
            order = list(final.winners) + [s for s in reversed(final.out) if s not in final.winners]
            assert sorted(order) == [0, 1, 2, 3]
            for lang in ("en", "hy"):
                if lang != "en":
                    await page.evaluate(f"localStorage.setItem('ono99.lang', '{lang}')")
                    await page.reload()
                words = browser_catalog(lang)
                rows = page.locator(".standings li")
                await expect(rows).to_have_count(4)
                for i, seat in enumerate(order):
                    place = 1 if seat in final.winners else i + 1
                    row = rows.nth(i)
                    await expect(row.locator(".place")).to_have_text(words[f"end.place.{place}"])
                    await expect(row).to_have_attribute("data-seat", str(seat))
                    await expect(row).to_contain_text(names[seat])
                await fits_width(page)
                await page.screenshot(path=artifacts / f"end-ranked-{lang}.png", full_page=True)
            await browser.close()
        assert not errors, "\n".join(errors)

    run(main())


def test_a_guest_asks_for_a_hint_and_leaves_and_the_host_frees_a_seat(
    fast_server: BackgroundServer,
) -> None:
    """Point 6 and 5 in the browser: the Hint button shows each playable move's chance of
    winning (the terminal's `hint`); Leave seat turns a guest into a spectator, in Spanish on
    a phone; the host's Seats panel frees a person's seat mid-game."""

    async def main() -> None:
        url = fast_server.url
        host = httpx.post(
            f"{url}/api/tables",
            json={
                "seats": [{"kind": "human"}] * 3 + [{"kind": "bot", "bot": "greedy"}],
                "name": "Ana",
                "turn_seconds": 5,
            },
        ).json()  # fmt: skip  (Chloé has no browser: her stand-in plays after 5 s)
        code = host["code"]
        guests = [
            httpx.post(f"{url}/api/tables/{code}/join", json={"name": n}).json()
            for n in ("Ben", "Chloé")
        ]
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            ana_ctx = await new_context(browser)
            ben_ctx = await new_context(browser, phone=True)
            ana, ben = await ana_ctx.new_page(), await ben_ctx.new_page()
            watch_errors(ana, "Ana", errors)
            watch_errors(ben, "Ben", errors)
            await ben.add_init_script("localStorage.setItem('ono99.lang', 'es')")
            await ana.goto(f"{url}/t/{code}#seat={host['token']}")
            await ben.goto(f"{url}/t/{code}#seat={guests[0]['token']}")
            await ana.get_by_role("button", name="Start the game").click()
            # Whoever is to play first among the people asks for a hint.
            asked = None
            for _ in range(600):
                for page in (ana, ben):
                    button = page.locator("#hint:not([disabled])")
                    if await button.count():
                        await button.click()
                        asked = page
                        break
                if asked:
                    break
                await ana.wait_for_timeout(100)
            assert asked is not None, "no person had a decision with a Hint button"
            tags = asked.locator("#hand .chance")
            await expect(tags.first).to_be_visible(timeout=20_000)
            texts = await tags.all_inner_texts()
            assert texts and all(t.strip().endswith("%") for t in texts), texts
            # The suggested move is marked: one card kind (two alike cards are one move).
            best = asked.locator("#hand .hand-card:has(.chance-best)")
            await expect(best.first).to_be_visible()
            assert len(set(await best.evaluate_all("els => els.map(e => e.dataset.card)"))) == 1
            # Ben leaves (he confirms), and watches: no hand, no Leave button.
            ben.on("dialog", lambda d: asyncio.ensure_future(d.accept()))
            await ben.locator("#leave").click()
            await expect(ben.locator("#leave")).to_have_count(0, timeout=10_000)
            await expect(ben.locator("#hand .hand-card")).to_have_count(0)
            # The host frees Chloé's seat from the Seats panel: a stand-in plays it.
            panel = ana.locator(".host-seats")
            await panel.locator("summary").click()
            await panel.get_by_role("button", name="Free this seat").first.click()
            await expect(ana.locator(".host-seats")).to_have_count(0, timeout=10_000)
            assert not errors, errors
            await browser.close()

    run(main())


def test_the_create_form_names_bots_by_level_and_the_1980_card_by_its_name(
    fast_server: BackgroundServer,
) -> None:
    """Issue 27 items 7 and 8 in the browser: each seat's bot list reads weakest first, each
    bot led by a plain level ("Beginner (random)"); the 1980 edition's option names its own
    card, the Double Play."""

    async def main() -> None:
        async with async_playwright() as pw:
            browser = await launch(pw)
            page = await (await new_context(browser)).new_page()
            errors: list[str] = []
            watch_errors(page, "home", errors)
            await page.goto(fast_server.url)
            seat = page.locator("#create-seat-2 option")
            await expect(seat.first).to_be_attached()
            options = await seat.all_inner_texts()
            bots = [o for o in options if "(" in o]
            assert bots[:2] == ["Bot: Beginner (random)", "Bot: Easy (greedy)"], options
            assert bots[-1] == "Bot: Expert (searches ahead)", options
            label = page.locator("label[for='opt-play2_deflects_play2']")
            await expect(label).to_have_text("Play 2 answers Play 2")
            await page.get_by_label("1980", exact=False).first.check()
            await expect(label).to_have_text("Double Play answers Double Play")
            # One minus sign, the cards' own, as the terminal writes it (a total below zero).
            shown = await page.evaluate(
                "import('/static/js/i18n.js').then((m) => [m.formatNumber(-10), m.formatNumber(7)])"
            )
            assert shown == ["\u221210", "7"], shown
            assert not errors, errors
            await browser.close()

    run(main())


def test_the_join_page_says_what_the_table_is_and_a_seat_can_be_taken_mid_game(
    fast_server: BackgroundServer,
) -> None:
    """Point 6: before giving a name, the join page shows the edition, the match, the timer,
    the hints and who sits where; a seat left open during a game is joined from it, and the
    newcomer plays on from the table's present."""

    async def main() -> None:
        url = fast_server.url
        host = httpx.post(
            f"{url}/api/tables",
            json={"rules": {"edition": "1980", "match": "tokens"},
                  "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
                  "name": "Ana", "turn_seconds": 60, "hints": False},
        ).json()  # fmt: skip
        code = host["code"]
        async with async_playwright() as pw:
            browser = await launch(pw)
            ana = await (await new_context(browser)).new_page()
            await ana.goto(f"{url}/t/{code}#seat={host['token']}")
            zoe_ctx = await new_context(browser, phone=True)
            zoe = await zoe_ctx.new_page()
            errors: list[str] = []
            watch_errors(zoe, "Zoé", errors)
            await zoe.goto(f"{url}/t/{code}")
            facts = zoe.locator(".join-facts")
            await expect(facts).to_contain_text("1980 edition")
            await expect(facts).to_contain_text("Tokens")
            await expect(facts).to_contain_text("60")
            await expect(facts.locator("li")).to_have_count(3)
            await expect(facts.locator("li").nth(0)).to_contain_text("Ana")
            await expect(facts.locator("li").nth(2)).to_contain_text("(bot)")
            await expect(zoe.locator("#join-name")).to_be_visible()
            await zoe.locator("#join-name").fill("Zoé")
            await zoe.get_by_role("button", name="Take a seat").click()
            await expect(zoe.locator(".lobby-seats")).to_contain_text("Zoé (you)")
            await ana.get_by_role("button", name="Start the game").click()
            await expect(zoe.locator("#hand .hand-card")).to_have_count(4, timeout=10_000)
            assert await zoe.locator("#hint").count() == 0  # the host switched hints off
            # Mid-game the host frees Zoé's seat; Max joins it from the join page.
            panel = ana.locator(".host-seats")
            await panel.locator("summary").click()
            await panel.get_by_role("button", name="Free this seat").click()
            await expect(zoe.locator("#hand .hand-card")).to_have_count(0, timeout=10_000)
            max_page = await (await new_context(browser)).new_page()
            watch_errors(max_page, "Max", errors)
            await max_page.goto(f"{url}/t/{code}")
            await expect(max_page.locator(".join-facts li").nth(1)).to_contain_text("Open")
            await max_page.locator("#join-name").fill("Max")
            await max_page.get_by_role("button", name="Take a seat").click()
            await expect(max_page.locator("#felt")).to_be_visible(timeout=10_000)
            await expect(max_page.locator("#hand .hand-card")).not_to_have_count(0)
            await expect(ana.locator("#seat-1")).to_contain_text("Max")
            assert not errors, errors
            await browser.close()

    run(main())


def test_the_next_game_waits_for_everyone_or_the_host_s_countdown(tmp_path: Path) -> None:
    """Point 4: at the end, Ben (in Greek) says he is ready and Ana sees it; the host's Next
    game then counts down on both screens and the next game starts for both."""

    async def main() -> None:
        config = ServerConfig(
            db=str(tmp_path / "ono99.db"), bot_delay=0.01, turn_limits=(0.05, 600.0),
            http_rate=0, countdown=2.0, round_pause=0,
        )  # fmt: skip
        with BackgroundServer(config) as server:
            url = server.url
            host = httpx.post(
                f"{url}/api/tables",
                json={"seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ana",
                      "turn_seconds": 0.05},
            ).json()  # fmt: skip
            code = host["code"]
            ben_seat = httpx.post(f"{url}/api/tables/{code}/join", json={"name": "Ben"}).json()
            async with async_playwright() as pw:
                browser = await launch(pw)
                ana = await (await new_context(browser)).new_page()
                ben_ctx = await new_context(browser, phone=True)
                await ben_ctx.add_init_script("localStorage.setItem('ono99.lang', 'el')")
                ben = await ben_ctx.new_page()
                errors: list[str] = []
                watch_errors(ana, "Ana", errors)
                watch_errors(ben, "Ben", errors)
                await ana.goto(f"{url}/t/{code}#seat={host['token']}")
                await ben.goto(f"{url}/t/{code}#seat={ben_seat['token']}")
                await ana.get_by_role("button", name="Start the game").click()
                # Every turn times out at once: the game is over in moments.
                await expect(ben.locator("#ready")).to_be_visible(timeout=30_000)
                await ben.locator("#ready").click()
                await expect(ana.locator("#next-status")).to_contain_text("Ben", timeout=10_000)
                await expect(ben.locator("#ready")).to_have_count(0)
                assert "Game 1" in await ana.locator("h1").inner_text()
                await ana.locator("#ready").click()  # the last one ready: game 2 at once
                await expect(ana.locator("h1")).to_contain_text("Game 2", timeout=10_000)
                # Game 2 over: the host asks for the next one before Ben is ready.
                await expect(ana.locator("#again")).to_be_visible(timeout=30_000)
                await ana.locator("#again").click()
                await expect(ana.locator("#next-countdown")).to_contain_text("second")
                await expect(ben.locator("#next-countdown")).to_be_visible()
                assert "Game 2" in await ana.locator("h1").inner_text()
                await expect(ana.locator("h1")).to_contain_text("Game 3", timeout=15_000)
                await expect(ben.locator("h1")).to_contain_text("3", timeout=15_000)
                assert not errors, errors
                await browser.close()

    run(main())
