"""Translations over HTTP: the catalogs as JSON for the client, and the rules pages.

The JSON is made from the gettext catalogs when first asked for (ono99.i18n.export), so
the ``.po`` files stay the only copy of every message. The rules pages are the Markdown in
ono99/i18n/rules, rendered once per language.
"""

from __future__ import annotations

import functools
import html

from markdown_it import MarkdownIt
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from ..i18n import LANGUAGES, from_accept_language, rules_markdown, translator
from ..i18n.export import browser_catalog, languages_document

_CACHE = {"Cache-Control": "public, max-age=300"}


def _lang(request: Request) -> str | None:
    code = request.path_params.get("lang", "")
    return code if code in LANGUAGES else None


def _unknown(code: str) -> JSONResponse:
    known = ", ".join(LANGUAGES)
    return JSONResponse(
        {"error": "unknown_language", "message": f"no language {code!r}; known: {known}"},
        status_code=404,
    )


async def languages(request: Request) -> Response:
    preferred = from_accept_language(request.headers.get("accept-language"))
    return JSONResponse(languages_document(preferred), headers={"Vary": "Accept-Language"})


async def catalog(request: Request) -> Response:
    lang = _lang(request)
    if lang is None:
        return _unknown(request.path_params.get("lang", ""))
    return JSONResponse(browser_catalog(lang), headers=_CACHE)


async def rules_redirect(request: Request) -> Response:
    lang = from_accept_language(request.headers.get("accept-language"))
    return RedirectResponse(f"/rules/{lang}", status_code=307)


async def rules_page(request: Request) -> Response:
    lang = _lang(request)
    if lang is None:
        return _unknown(request.path_params.get("lang", ""))
    return HTMLResponse(_render_rules(lang), headers=_CACHE)


def rules_html(lang: str) -> str:
    """The rules page in ``lang``, as ``/rules/<lang>`` serves it (the static export writes it)."""
    return _render_rules(lang)


@functools.cache
def _render_rules(lang: str) -> str:
    tr = translator(lang)
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(rules_markdown(lang))
    first = rules_markdown(lang).splitlines()[0].lstrip("# ").strip()
    picker = " · ".join(
        f'<a href="/rules/{code}" lang="{code}" hreflang="{code}"'
        + (' aria-current="page"' if code == lang else "")
        + f">{html.escape(name)}</a>"
        for code, name in LANGUAGES.items()
    )
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{html.escape(first)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/css/style.css">
</head>
<body class="rules-page">
<header class="bar"><a class="brand" href="/">{html.escape(tr("app.name"))}</a>
<nav aria-label="{html.escape(tr("nav.language"))}" class="rules-languages">{picker}</nav></header>
<main id="app" class="rules">
<p><a href="/">{html.escape(tr("rules.back"))}</a></p>
{body}
</main>
</body>
</html>
"""
