"""Issue 25, between the rounds of a match, in headless Chromium: a round of a tokens match
ends on its summary (who lost a token) over the table, on a laptop and on a phone; nothing
moves meanwhile; each person's Continue is seen by the other; the last one resumes play."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import async_playwright, expect

import ono99.engine.game as game_module
from ono99.engine import apply, legal_actions, make_rules, new_game, view
from ono99.engine.cards import CARD_POINTS
from ono99.engine.game import HAND_SIZE
from ono99.server import BackgroundServer, ServerConfig
from ono99.session import encode_events, encode_view
from server_support import Client
from test_browser_e2e import artifacts, fast_server, launch, new_context, run, watch_errors
from tiers import slow

__all__ = ["artifacts", "fast_server"]  # fixtures, used by name


@slow  # seconds in Chromium; the quick tier checks the pause in the session core
def test_a_round_ends_on_its_summary_until_everyone_continues(
    tmp_path: Path, artifacts: Path
) -> None:
    async def main() -> None:
        # Every turn times out at once (the stand-in plays it): a round ends in moments. The
        # pause is long: here it is the two Continues that end it.
        config = ServerConfig(
            db=str(tmp_path / "ono99.db"), bot_delay=0.01, turn_limits=(0.05, 600.0),
            http_rate=0, round_pause=60.0,
        )  # fmt: skip
        with BackgroundServer(config) as server:
            url = server.url
            host = httpx.post(
                f"{url}/api/tables",
                json={"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}],
                      "name": "Ana", "turn_seconds": 0.05, "rules": {"edition": "1980"}},
            ).json()  # fmt: skip
            code = host["code"]
            ben_seat = httpx.post(f"{url}/api/tables/{code}/join", json={"name": "Ben"}).json()
            watcher = await Client.open(server.ws_url, code, None, "spectator")
            async with async_playwright() as pw:
                browser = await launch(pw)
                ana = await (await new_context(browser)).new_page()
                ben = await (await new_context(browser, phone=True)).new_page()
                errors: list[str] = []
                watch_errors(ana, "Ana", errors)
                watch_errors(ben, "Ben", errors)
                await ana.goto(f"{url}/t/{code}#seat={host['token']}")
                await ben.goto(f"{url}/t/{code}#seat={ben_seat['token']}")
                await ana.get_by_role("button", name="Start the game").click()
                paused = await watcher.expect("table", lambda m: m["pause"] is not None, timeout=30)
                assert paused["pause"]["round"] == 1 and paused["pause"]["waiting"] == [0, 1]
                updates = [m for m in watcher.messages if m["type"] == "update"]
                loser = next(
                    e["seat"] for m in updates for e in m["events"] if e["kind"] == "lost_token"
                )
                name = ["Ana", "Ben", None][loser] or paused["seats"][2]["name"]
                for page in (ana, ben):
                    summary = page.locator("#round-summary")
                    # A page shows the round's last plays before its summary: on a loaded
                    # machine (the full suite on two cores) that took over 10 s once.
                    await expect(summary).to_be_visible(timeout=30_000)
                    await expect(summary.locator("h2")).to_have_text("Round 1 over")
                    await expect(summary).to_contain_text(f"{name} loses a token (2 left)")
                    await expect(summary.locator("#continue")).to_be_visible()
                await ana.screenshot(path=str(artifacts / "round-summary-desktop.png"))
                await ben.screenshot(path=str(artifacts / "round-summary-phone.png"))
                # Nothing moves under the summary: no bot, no turn timer.
                await asyncio.sleep(1.0)
                seen = len(watcher.messages)
                await watcher.drain()
                moved = [m for m in watcher.messages[seen:] if m["type"] in ("update", "table")]
                assert not [m for m in moved if m["type"] == "update"], json.dumps([paused, moved])
                await ana.locator("#continue").click()
                await expect(ana.locator("#continue")).to_have_count(0)
                await expect(ana.locator("#round-waiting")).to_contain_text("Ben")
                # Issue 41: a null child (the missing Continue button) was written as "null".
                await expect(ana.locator("#round-summary")).not_to_contain_text("null")
                await expect(ben.locator("#round-summary")).to_be_visible()
                await ben.locator("#continue").click()
                for page in (ana, ben):
                    await expect(page.locator("#round-summary")).to_be_hidden(timeout=10_000)
                resumed = await watcher.expect("update", timeout=10)  # play goes on
                assert resumed["view"]["round"] == 2
                assert not errors, errors
                await browser.close()
            await watcher.close()

    run(main())


def points_rounds(games: int) -> list[dict[str, Any]]:
    """Rounds of random points matches as the browser sees them (the spectator's view before
    the move that ended the round, that move's events, the view after), each with the truth:
    every hand as it was scored, caught inside the engine."""
    scored: list[list[tuple[int, ...]]] = []
    real = game_module._score_round

    def spy(w: Any) -> None:
        scored.append([tuple(h) for h in w.hands])
        real(w)

    cases = []
    game_module._score_round = spy
    try:
        for seed in range(games):
            rng = random.Random(seed)
            rules = make_rules("2022", players=3, match="points", draw_penalty=seed % 2 == 1)
            state = new_game(rules, seed)
            while not state.over:
                seat = state.owes_draw[0] if state.owes_draw else state.to_play
                assert seat is not None
                before, scored[:] = state, []
                state = apply(state, seat, rng.choice(legal_actions(state, seat)))
                if scored:
                    hands = scored[0]
                    cases.append({
                        "rules": rules.to_dict(minimal=False),
                        "before": encode_view(view(before, None)),
                        "events": encode_events(state.events(before.event_count)),
                        "after": encode_view(view(state, None)),
                        "cards": [sum(CARD_POINTS[c] for c in h) for h in hands],
                        "short": [max(0, HAND_SIZE - len(h)) for h in hands],
                        "bust": [s in before.out_of_round or s in state.out_of_round
                                 or any(e.kind == "out_of_round" and e.seat == s
                                        for e in state.events(before.event_count))
                                 for s in range(3)],
                    })  # fmt: skip
    finally:
        game_module._score_round = real
    return cases


def test_the_summary_says_where_each_player_s_points_came_from(
    fast_server: BackgroundServer,
) -> None:
    """round.js, run in Chromium on rounds of real points matches (with and without the draw
    penalty), splits each player's points as the engine scored them: the cards left in hand,
    15 for each card missing from a full hand, 25 more for a bust (the rules, "Points")."""
    cases = points_rounds(12)
    assert len(cases) > 20

    async def main() -> list[Any]:
        async with async_playwright() as pw:
            browser = await launch(pw)
            page = await (await new_context(browser)).new_page()
            await page.goto(fast_server.url + "/")
            found: list[Any] = await page.evaluate(
                """async (cases) => {
                  const { roundSummary } = await import("/static/js/round.js");
                  return cases.map((c) => roundSummary(c.before, c.events, c.after, c.rules));
                }""",
                cases,
            )
            await browser.close()
            return found

    found = run(main())
    for case, summary in zip(cases, found, strict=True):
        assert summary["round"] == case["before"]["round"]
        for row in summary["rows"]:
            s = row["seat"]
            assert (row["cards"], row["short"], row["bust"] > 0) == (
                case["cards"][s],
                case["short"][s],
                case["bust"][s],
            ), (case["events"], row)
            assert row["cards"] + row["shortPoints"] + row["bust"] == row["points"]
