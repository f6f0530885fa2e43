"""Issue 43, item 1: the browser game is an installable app — in Chromium, as a person's own
browser (a profile on disk: an incognito window never offers to install).

- Chromium finds nothing missing for installing it (``Page.getInstallabilityErrors``), reads
  the manifest without an error, and offers to install (``beforeinstallprompt``).
- After one visit online, the app opens with no network: the home page with its forms, in the
  language chosen, and a table's address opens the client too.
- What the worker keeps is the shell alone: no table's facts, seat link or game in its cache.
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import httpx
from playwright.async_api import async_playwright, expect

from browser import CHROMIUM, CHROMIUM_ARGS, PHONE
from ono99.server import BackgroundServer, ServerConfig
from test_browser_e2e import launch, run
from tiers import slow

pytestmark = slow

OFFERED = """window.__offered = 0;
addEventListener("beforeinstallprompt", () => { window.__offered += 1; });"""
CACHED = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const body = await (await cache.match(request)).text();
      out.push([name, new URL(request.url).pathname, body]);
    }
  }
  return out;
}"""


def test_the_manifest_icons_and_worker_are_served_as_an_app_needs(tmp_path: Path) -> None:
    with BackgroundServer(ServerConfig(db=str(tmp_path / "t.db"), http_rate=0)) as server:
        r = httpx.get(server.url + "/manifest.webmanifest")
        assert r.headers["content-type"].startswith("application/manifest+json")
        manifest = r.json()
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        from PIL import Image

        for icon in manifest["icons"]:
            got = httpx.get(server.url + icon["src"])
            assert got.status_code == 200 and got.headers["content-type"] == "image/png"
            with Image.open(io.BytesIO(got.content)) as image:
                assert f"{image.width}x{image.height}" == icon["sizes"]
        assert {i["purpose"] for i in manifest["icons"]} == {"any", "maskable"}
        worker = httpx.get(server.url + "/sw.js")
        assert worker.headers["content-type"].startswith("text/javascript")
        assert worker.headers["cache-control"] == "no-cache"  # a new server: a new worker
        assert "const VERSION = " in worker.text and '"/static/js/app.js"' in worker.text
        assert "/api/tables" not in worker.text.split("const SHELL = ")[1].split("\n")[0]


def test_chromium_offers_to_install_it_and_it_opens_offline(tmp_path: Path) -> None:
    async def main(base: str, code: str, token: str) -> None:
        async with async_playwright() as pw:
            await (await launch(pw)).close()  # fails with a sentence when there is no Chromium
            with tempfile.TemporaryDirectory() as profile:
                context = await pw.chromium.launch_persistent_context(
                    profile,
                    executable_path=str(CHROMIUM),
                    args=CHROMIUM_ARGS,
                    viewport=PHONE,
                    is_mobile=True,
                    has_touch=True,
                )
                await context.add_init_script(OFFERED)
                await context.add_init_script("localStorage.setItem('ono99.lang', 'hy')")
                page = context.pages[0] if context.pages else await context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                await page.goto(base + "/")
                assert await page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
                cdp = await context.new_cdp_session(page)
                found = await cdp.send("Page.getInstallabilityErrors")
                assert found["installabilityErrors"] == []
                read = await cdp.send("Page.getAppManifest")
                assert read["errors"] == [] and read["url"].endswith("/manifest.webmanifest")
                await page.wait_for_function("window.__offered > 0")  # Chromium offers to install

                # A seat at a table, online: its link, its facts, its game.
                await page.goto(f"{base}/t/{code}#seat={token}")
                await page.locator("#lobby-actions button.primary").click()  # start the game
                await expect(page.locator("#hand .hand-card").first).to_be_visible()
                kept = await page.evaluate(CACHED)
                paths = {path for _, path, _ in kept}
                assert "/" in paths and "/static/js/app.js" in paths and "/i18n/hy.json" in paths
                assert not any(p.startswith(("/api/tables", "/ws/", "/t/")) for p in paths)
                assert not any(token in body or code in body for _, _, body in kept)

                await context.set_offline(True)
                await page.goto(base + "/")
                await expect(page.locator("html")).to_have_attribute("lang", "hy")
                await expect(page.locator("form.play-now button.primary")).to_be_visible()
                await page.goto(f"{base}/t/{code}")  # the client opens; the table needs the network
                await expect(page.locator("#bar .brand")).to_be_visible()
                assert errors == []
                await context.close()

    with BackgroundServer(ServerConfig(db=str(tmp_path / "t.db"), http_rate=0, bot_delay=60)) as s:
        body = {
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
            "name": "Ana",
            "turn_seconds": 0,
        }
        made = httpx.post(s.url + "/api/tables", json=body).raise_for_status().json()
        run(main(s.url, made["code"], made["token"]))
