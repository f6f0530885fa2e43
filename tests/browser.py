"""The browser every browser test drives, and how it is launched: Debian's chromium, headless
(``benchmarks/screenshots.py`` launches it the same way, from here)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.async_api import Browser

CHROMIUM = Path(os.environ.get("ONO99_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


async def launch_chromium(pw: Any) -> Browser:
    """Chromium at ``CHROMIUM`` (which must exist), with ``CHROMIUM_ARGS``."""
    browser: Browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    return browser
