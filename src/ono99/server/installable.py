"""What makes the browser game an installable app: its web app manifest and its service
worker, both at the site's root (a worker's scope is the folder it is served from, and the app's
is every page).

The worker (``static/sw.js``) keeps the app's *shell* — the one page, its styles, scripts and
icons, the translations, the options a table can have — so that the installed app opens with
no network. This module writes the list of those files and a version at the head of the
worker's script: the version is a hash of every file, so a server with new files is a new
worker, which replaces the old one's cache. The list and the hash are made once, when the app
is created (``create_app``), not on the event loop at the first request for ``/sw.js``.
Nothing of a table (its facts, seats, records, tokens) is ever in the list or the cache: the
worker lets ``/api/`` and ``/ws/`` through to the network untouched, but ``/api/options``.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..i18n import LANGUAGES
from ..i18n.export import browser_catalog

NO_CACHE = {"Cache-Control": "no-cache"}

MANIFEST = {
    "name": "ONO 99",
    "short_name": "ONO 99",
    "description": "The ONO 99 card game: keep the running total under 99.",
    "id": "/",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "display_override": ["fullscreen", "standalone"],
    "orientation": "any",
    "background_color": "#f6f4ef",
    "theme_color": "#1d5fb8",
    "icons": [
        {"src": f"/static/icons/{kind}-{size}.png", "sizes": f"{size}x{size}",
         "type": "image/png", "purpose": purpose}
        for kind, purpose in (("icon", "any"), ("maskable", "maskable"))
        for size in (192, 512)
    ],
}  # fmt: skip


async def manifest(request: Request) -> Response:
    return JSONResponse(MANIFEST, media_type="application/manifest+json", headers=NO_CACHE)


@functools.cache
def worker_script(static: Path, standalone: bool = False) -> str:
    """``static/sw.js`` headed by its ``VERSION`` and ``SHELL`` (see the module's doc), for the
    static folder ``static``; made once per process and folder. ``standalone``: for the static
    export (``server/offline.py``), which has no API and so no ``/api/options``."""
    files = sorted(
        p for p in static.rglob("*") if p.is_file() and p.name != "sw.js" and p.suffix != ".map"
    )
    shell = ["/", "/manifest.webmanifest"] + ([] if standalone else ["/api/options"])
    shell += ["/i18n/languages"]
    shell += [f"/i18n/{lang}.json" for lang in LANGUAGES]
    shell += [
        "/static/" + p.relative_to(static).as_posix() for p in files if p.name != "index.html"
    ]
    digest = hashlib.sha256()
    for p in files:
        digest.update(p.relative_to(static).as_posix().encode() + b"\0" + p.read_bytes())
    for lang in LANGUAGES:  # a new translation is a new shell too
        digest.update(json.dumps(browser_catalog(lang), sort_keys=True).encode())
    head = (
        "// Written by the server (server/installable.py): this shell's version and files.\n"
        f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
        f"const SHELL = {json.dumps(shell)};\n"
    )
    return head + (static / "sw.js").read_text(encoding="utf-8")


async def service_worker(request: Request) -> Response:
    script: str = request.app.state.worker_script
    return Response(script, media_type="text/javascript", headers=NO_CACHE)
