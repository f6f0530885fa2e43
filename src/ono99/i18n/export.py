"""The browser's copy of a catalog, made from the ``.po`` file when it is asked for.

The client looks messages up by key, and picks plural forms with ``Intl.PluralRules``, which
names CLDR categories ("one", "few", "other") rather than gettext's numbered forms. So a
plural message becomes one key per category, ``key.one`` / ``key.other``, each holding the
gettext form that the catalog's own Plural-Forms picks for numbers of that category.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable

from babel import Locale

from .catalog import load_catalog
from .languages import DEFAULT, LANGUAGES, parse_language

# Enough numbers to meet every CLDR category of our languages (Spanish "many" starts at a
# million); they are only tried until one of each category is found.
_SAMPLES = (*range(0, 200), 1000, 1_000_000, 2_000_000)


def category_forms(lang: str) -> dict[str, int]:
    """CLDR plural category → index of the gettext form used for it in ``lang``."""
    catalog = load_catalog(lang)
    pick: Callable[[int], int] = gettext.c2py(catalog.plural_expr)
    rule = Locale.parse(lang).plural_form
    out: dict[str, int] = {}
    for n in _SAMPLES:
        out.setdefault(rule(n), pick(n))
    return out


@functools.cache
def browser_catalog(lang: str) -> dict[str, str]:
    """Key → text for the browser, English filling any gap."""
    lang = parse_language(lang)
    if lang == DEFAULT:
        return own_entries(lang)
    return {**browser_catalog(DEFAULT), **own_entries(lang)}


def own_entries(lang: str) -> dict[str, str]:
    """The browser's keys that ``lang``'s own catalog translates (no English fallback)."""
    out: dict[str, str] = {}
    forms = category_forms(lang)
    for message in load_catalog(lang):
        if not message.id or message.fuzzy or not message.string:
            continue
        if isinstance(message.id, (tuple, list)):
            key = message.id[0]
            strings = message.string
            if not all(strings):
                continue
            for category, index in forms.items():
                out[f"{key}.{category}"] = strings[index]
        elif isinstance(message.string, str):
            out[message.id] = message.string
    return out


def languages_document(preferred: str) -> dict[str, object]:
    """What the client's language picker needs."""
    return {
        "default": preferred,
        "languages": [{"code": code, "name": name} for code, name in LANGUAGES.items()],
    }
