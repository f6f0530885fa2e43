"""Players who come back, in Chromium (issue 42): a fresh browser keeps a name on the home page,
plays a rated game under it, and finds it on its profile with a rating and on the leaderboard;
a one-time link moves the profile to a phone; "forget me" on the phone deletes it, and the
first browser, whose key is then unknown, is offered a name again. Screenshots to the
artifacts folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, async_playwright, expect

from ono99.server import BackgroundServer, ServerConfig
from test_browser_e2e import fits_width, launch, new_context, run, watch_errors
from test_server_players import play_one
from tiers import slow

pytestmark = slow


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("ONO99_ARTIFACTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_name_kept_on_the_home_page_counts_games_moves_to_a_phone_and_is_forgotten(
    tmp_path: Path, artifacts: Path
) -> None:
    config = ServerConfig(
        db=str(tmp_path / "ono99.db"), bot_delay=0.01, http_rate=0, turn_limits=(0.05, 600)
    )
    with BackgroundServer(config) as server:
        base = server.url

        async def main() -> None:
            errors: list[str] = []
            async with async_playwright() as pw:
                browser: Browser = await launch(pw)
                desk = await (await new_context(browser, phone=False, paced=False)).new_page()
                watch_errors(desk, "desk", errors, refused=401)  # its key, once forgotten
                await desk.goto(base + "/")
                await desk.locator("#player-name").fill("Zoé")
                await desk.locator(".player-form button").click()
                await expect(desk.locator(".player-as")).to_contain_text("Zoé")
                # The forms below now offer the profile's name.
                await expect(desk.locator("#play-name")).to_have_value("Zoé")
                key = await desk.evaluate("() => localStorage.getItem('ono99:player')")
                assert isinstance(key, str) and len(key) >= 32
                code = await play_one(server, key, public=True)  # rated: public
                # A private table the host asks to rate, from the create form.
                await desk.locator("#create-rated").check()
                await desk.locator("#create-players").select_option("2")
                await desk.locator("form[aria-labelledby=create-title] button.primary").click()
                await desk.wait_for_url("**/t/*")
                made = desk.url.rsplit("/", 1)[1]
                async with httpx.AsyncClient() as http:
                    info = (await http.get(f"{base}/api/tables/{made}")).json()
                assert info["rated"] is True and info["public"] is False
                await desk.goto(base + "/")

                await desk.locator("#my-profile").click()
                await desk.wait_for_url("**/p/Z*")
                recent = desk.locator(".recent li")
                await expect(recent).to_have_count(1)
                await expect(recent.locator("a")).to_have_attribute(
                    "href", f"/t/{code}/replay/1?seat=0"
                )
                await expect(desk.locator("table.facts").first).to_contain_text("2022")
                # A game's replay opens its review for the seat the link names.
                await desk.goto(f"{base}/t/{code}/replay/1?seat=1")
                await expect(desk.locator("#review-seat")).to_have_value("1")
                await desk.go_back()
                await desk.screenshot(path=str(artifacts / "profile-desktop.png"), full_page=True)
                await desk.goto(base + "/leaders")
                await expect(desk.locator("table.facts a", has_text="Zoé")).to_have_count(1)
                await expect(desk.locator("table.facts")).to_contain_text("(bot)")
                await desk.screenshot(path=str(artifacts / "leaders-desktop.png"), full_page=True)

                # Another device: the link is made on the profile and opened on a phone.
                await desk.goto(base + "/p/Zo%C3%A9")
                await desk.locator("#link-device").click()
                url = await desk.locator(".link-url").input_value()
                assert url.startswith(base + "/link#")
                phone = await (await new_context(browser, phone=True, paced=False)).new_page()
                watch_errors(phone, "phone", errors)
                await phone.goto(url)
                await expect(phone.locator("p.lead[role=status]")).to_contain_text("Zoé")
                assert phone.url == base + "/link"  # the used code is not left in the address
                phone_key = await phone.evaluate("() => localStorage.getItem('ono99:player')")
                assert phone_key and phone_key != key
                await phone.goto(base + "/")
                await expect(phone.locator(".player-as")).to_contain_text("Zoé")
                await phone.goto(base + "/p/Zo%C3%A9")
                await expect(phone.locator(".recent li")).to_have_count(1)
                await fits_width(phone)
                await phone.screenshot(path=str(artifacts / "profile-phone.png"), full_page=True)
                # The same link again is refused, in words.
                again = await (await new_context(browser, phone=True, paced=False)).new_page()
                await again.goto(url)
                await expect(again.locator("p.error[role=alert]")).to_be_visible()

                # Forget me, from the phone: the profile is gone for both devices.
                phone.once("dialog", lambda d: d.accept())
                await phone.locator("#forget-me").click()
                await phone.wait_for_url(base + "/")
                await expect(phone.locator("#player-name")).to_be_visible()
                async with httpx.AsyncClient() as http:
                    gone = await http.get(f"{base}/api/players/Zo%C3%A9")
                    record = await http.get(f"{base}/api/tables/{code}/games/1/record")
                assert gone.status_code == 404
                assert "Zoé" not in json.dumps(record.json(), ensure_ascii=False)
                await desk.goto(base + "/")
                await expect(desk.locator("#player-name")).to_be_visible()
                # Its key forgotten: when the server says it knows it no more (the form shows
                # at once, before that answer comes, so wait for the answer, not the form).
                await desk.wait_for_function("() => localStorage.getItem('ono99:player') === null")
                assert await desk.evaluate("() => localStorage.getItem('ono99:player')") is None
                await browser.close()
            assert not errors, "\n".join(errors)

        run(main())
