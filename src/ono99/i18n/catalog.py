"""Message catalogs: gettext ``.po`` files read with Babel, one per language.

Every message has a stable key as its msgid (``"table.total"``, ``"term.prompt"``), the
same key the browser client uses; ``locales/en/LC_MESSAGES/ono99.po`` holds the English
source text, and every other catalog translates it. Texts use ``{name}`` placeholders.
Plural messages are gettext plural entries, chosen by the catalog's Plural-Forms (Babel
writes them from CLDR). Numbers are written the locale's way with Latin digits, as the cards
print them.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from babel import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from .languages import DEFAULT, LANGUAGES, parse_language

LOCALES = Path(__file__).parent / "locales"
DOMAIN = "ono99"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def load_catalog(lang: str) -> Catalog:
    """The parsed ``.po`` catalog of a supported language."""
    lang = parse_language(lang)
    with catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@functools.cache
def _translations(lang: str) -> Translations:
    # Compiled in memory, so the .po files stay the only copy; fuzzy entries are left out,
    # and a message a catalog lacks falls back to English rather than showing its key.
    source = load_catalog(lang)
    complete = Catalog(locale=lang, domain=DOMAIN)
    complete.mime_headers = source.mime_headers  # carries Plural-Forms into the .mo
    for m in source:
        texts = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
        if m.id and not m.fuzzy and all(texts):
            complete[m.id] = m
    buf = io.BytesIO()
    write_mo(buf, complete)
    buf.seek(0)
    translations = Translations(buf, domain=DOMAIN)
    if lang != DEFAULT:
        translations.add_fallback(_translations(DEFAULT))
    return translations


# The minus sign of every number a reader sees: the one printed on the −10 card
# (``card.minus10`` in every catalog), so "You play −10 → −3" uses one sign, not two.
MINUS = "\u2212"


def number_text(n: int) -> str:
    """An integer as readers see it: ``-3`` with the card's minus sign, ``−3``."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def _param_text(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return number_text(value)
    return str(value)


def fill(text: str, params: dict[str, object]) -> str:
    """``{name}`` placeholders replaced; unknown ones left as they are (as the browser does).
    Integers are written by ``number_text``."""
    return _PLACEHOLDER.sub(
        lambda m: _param_text(params[m.group(1)]) if m.group(1) in params else m.group(0), text
    )


class Translator:
    """Messages, numbers and lists in one language: ``tr("key", name=…)``,
    ``tr.plural("key", n)``, ``tr.number(n)``, ``tr.list([...])``."""

    def __init__(self, lang: str) -> None:
        self.lang = parse_language(lang)
        self.name = LANGUAGES[self.lang]
        self._gettext = _translations(self.lang)
        self.locale = Locale.parse(self.lang)

    def __call__(self, key: str, /, **params: object) -> str:
        return fill(self._gettext.gettext(key), params)

    def plural(self, key: str, count: int, /, **params: object) -> str:
        """The plural form for ``count``; ``{count}`` is the number in the locale's format."""
        text = self._gettext.ngettext(key, key, count)
        return fill(text, {"count": self.number(count), **params})

    def has(self, key: str) -> bool:
        return bool(load_catalog(self.lang).get(key)) or bool(load_catalog(DEFAULT).get(key))

    def number(self, n: float) -> str:
        text = format_decimal(abs(n), locale=self.locale, numbering_system="latn")
        return MINUS + text if n < 0 else text

    def list(self, items: Iterable[str], style: Literal["standard", "or"] = "standard") -> str:
        """Items as a list: "A, B and C", or with style "or", "A, B or C"."""
        return format_list(list(items), style=style, locale=self.locale)


@functools.cache
def translator(lang: str = DEFAULT) -> Translator:
    return Translator(lang)
