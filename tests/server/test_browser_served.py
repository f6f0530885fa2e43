"""One person plays a whole game against every bot the server offers, clicking in Chromium.

Against the server at ``$ONO99_SERVER_URL`` when it is set: the install profiles
(``scripts/profiles.toml``) point it at ``./ono99 serve`` started in a fresh checkout with only
what the launcher installs, so the browser game is tested on the install a family uses.
Without it, against a server of its own, as part of the suite.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.async_api import async_playwright, expect

from test_browser_e2e import (
    END,
    GAME_SECONDS,
    Player,
    create_table,
    end_title,
    launch,
    new_context,
    serve,
    watch_errors,
)
from tiers import slow

pytestmark = slow  # a whole browser game against every bot


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    outside = os.environ.get("ONO99_SERVER_URL")
    if outside:
        yield outside.rstrip("/")
        return
    with serve(tmp_path, bot_delay=0.05) as server:
        yield server.url


def test_a_game_against_every_offered_bot_is_played_to_the_end(base_url: str) -> None:
    health = httpx.get(base_url + "/healthz", timeout=10)
    assert health.status_code == 200, health.text
    offered = httpx.get(base_url + "/api/options", timeout=10).json()["bots"]
    assert {"random", "greedy", "heuristic", "expert"} <= set(offered), offered
    # Every offered bot sits at a table (up to five of them: six players at most).
    bots = [f"bot:{name}" for name in offered[:5]]

    async def main() -> None:
        errors: list[str] = []
        async with async_playwright() as pw:
            browser = await launch(pw)
            # Every bot's moves, not their pace: reduced motion shows each move at once.
            page = await (await new_context(browser, paced=False)).new_page()
            watch_errors(page, "player", errors)
            await create_table(page, base_url, "Ana", ["human", *bots], timer="No timer")
            await page.get_by_role("button", name="Create the table").click()
            await page.get_by_role("button", name="Start the game").click()
            await expect(page.locator("#hand .hand-card")).to_have_count(4)
            player = Player(page, "player", seed=7)
            await asyncio.wait_for(player.play_until_over(), GAME_SECONDS)
            title = await end_title(page)
            assert title == "You win!" or title.endswith(" wins."), title
            await expect(page.locator(END)).to_be_visible()
            await browser.close()
        assert not errors, "\n".join(errors)

    asyncio.run(main())
