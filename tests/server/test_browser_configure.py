"""Issue 25 in headless Chromium: the host changes the rules from the lobby ("Change rules":
the create form's rule fields, prefilled) and again from the end of a game; a guest has no
such button and is told of the change; the running tally shows on the end screen and under
the game's title."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.async_api import async_playwright, expect

from ono99.server import BackgroundServer, ServerConfig
from test_browser_e2e import artifacts, launch, new_context, run, watch_errors
from tiers import slow

__all__ = ["artifacts"]  # a fixture, used by name


@slow  # a game in Chromium; the quick tier has test_server_configure.py
def test_the_host_changes_the_rules_in_the_lobby_and_after_a_game(
    tmp_path: Path, artifacts: Path
) -> None:
    async def main() -> None:
        config = ServerConfig(
            db=str(tmp_path / "ono99.db"), bot_delay=0.01, turn_limits=(0.05, 600.0),
            http_rate=0, round_pause=0,
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
                ben = await (await new_context(browser, phone=True)).new_page()
                errors: list[str] = []
                watch_errors(ana, "Ana", errors)
                watch_errors(ben, "Ben", errors)
                await ana.goto(f"{url}/t/{code}#seat={host['token']}")
                await ben.goto(f"{url}/t/{code}#seat={ben_seat['token']}")
                await expect(ben.locator("#lobby-rules")).to_contain_text("2022")
                await expect(ben.locator("#change-rules")).to_have_count(0)  # hosts only
                await ana.locator("#change-rules").click()
                dialog = ana.locator("#rules-dialog")
                await expect(dialog.locator("input[name=edition][value='2022']")).to_be_checked()
                await dialog.locator("input[name=edition][value='1980']").check()
                await dialog.locator("#opt-match").select_option("single")
                await ana.screenshot(path=str(artifacts / "change-rules-desktop.png"))
                await dialog.locator("#rules-save").click()
                await expect(dialog).to_have_count(0)
                for page in (ana, ben):
                    await expect(page.locator("#lobby-rules")).to_contain_text("1980 edition")
                    await expect(page.locator("#lobby-rules")).to_contain_text("Single game")
                await expect(ben.locator(".toast").first).to_contain_text("changed the rules")
                await ana.get_by_role("button", name="Start the game").click()
                # Every turn times out at once: the game is over in moments.
                await expect(ana.locator("#end #change-rules")).to_be_visible(timeout=30_000)
                for page in (ana, ben):
                    await expect(page.locator("#end-tally")).to_contain_text("Games won")
                    await expect(page.locator("#tally")).to_contain_text("Ana")
                await expect(ben.locator("#change-rules")).to_have_count(0)
                await ben.screenshot(path=str(artifacts / "end-tally-phone.png"))
                await ana.locator("#change-rules").click()
                dialog = ana.locator("#rules-dialog")
                await expect(dialog.locator("input[name=edition][value='1980']")).to_be_checked()
                await expect(dialog.locator("#opt-match")).to_have_value("single")
                await dialog.locator("#opt-match").select_option("points")
                await dialog.locator("#opt-target").fill("50")
                await dialog.locator("#rules-save").click()
                await expect(dialog).to_have_count(0)
                await ana.locator("#ready").click()
                await ben.locator("#ready").click()
                await expect(ana.locator("h1")).to_contain_text("Game 2", timeout=10_000)
                info = httpx.get(f"{url}/api/tables/{code}").json()
                assert info["game"] == 2 and info["tally"] in ([1, 0], [0, 1], [1, 1])
                assert (info["rules"]["match"], info["rules"]["target"]) == ("points", 50)
                record = httpx.get(f"{url}/api/tables/{code}/games/1/record").json()
                assert (record["rules"]["edition"], record["rules"].get("match")) == (
                    "1980",
                    "single",
                )  # the game played stays as it was
                assert not errors, errors
                await browser.close()

    run(main())
