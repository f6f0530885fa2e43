"""Keeping the catalogs in step: ``python -m ono99.i18n update`` and ``check``.

``update`` writes the template (``locales/ono99.pot``) from the English catalog and merges
it into every other catalog with Babel: new keys appear untranslated, removed keys become
obsolete, and a message whose English changed is marked fuzzy (the English each translation
was made from is kept as its ``#. en:`` comment). ``check`` lists what a translator still
owes: missing, fuzzy or English-looking messages and placeholder mismatches.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po

from .catalog import DOMAIN, LOCALES, catalog_path, load_catalog
from .languages import DEFAULT, LANGUAGES

TEMPLATE = LOCALES / f"{DOMAIN}.pot"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
_EN_PREFIX = "en: "

# Words that may stay as they are in every language: names and the card's printed title.
KEEP = ("ONO 99", "O'NO 99", "ONO", "Mattel", "International Games", "UNO", "ono99")


def english_texts(message: Message) -> tuple[str, ...]:
    s = message.string
    if isinstance(s, (tuple, list)):
        return tuple(s)
    return (s or "",)


# Every catalog's POT-Creation-Date: a date that changed on each update made every run rewrite
# all six files, and two branches that each ran it conflicted on that line alone.
STABLE_DATE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def _template() -> Catalog:
    english = load_catalog(DEFAULT)
    template = Catalog(
        domain=DOMAIN,
        project="ono99",
        copyright_holder="the ono99 authors",
        fuzzy=False,
        creation_date=STABLE_DATE,
    )
    for m in english:
        if not m.id:
            continue
        comments = [_EN_PREFIX + t for t in english_texts(m)] + [
            c for c in m.auto_comments if not c.startswith(_EN_PREFIX)
        ]
        template.add(m.id, "", auto_comments=comments, flags=m.flags - {"fuzzy"})
    return template


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, sort_output=True, include_previous=False)


def update() -> list[str]:
    """Regenerate the template and merge it into each catalog; returns what changed."""
    _write(load_catalog(DEFAULT), catalog_path(DEFAULT))  # sorted, as every catalog
    template = _template()
    _write(template, TEMPLATE)
    report = []
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = catalog_path(lang)
        if path.exists():
            catalog = load_catalog(lang)
            was = {_key(m): _english_note(m) for m in catalog if m.id}
        else:
            catalog = Catalog(
                locale=lang,
                domain=DOMAIN,
                project="ono99",
                copyright_holder="the ono99 authors",
                fuzzy=False,
            )
            was = {}
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        changed = 0
        for m in catalog:
            if not m.id:
                continue
            before = was.get(_key(m))
            if before and before != _english_note(m) and any(english_texts(m)):
                m.flags.add("fuzzy")
                changed += 1
        _write(catalog, path)
        load_catalog.cache_clear()
        report.append(f"{lang}: {len(catalog)} messages, {changed} newly fuzzy")
    return report


def _english_note(m: Message) -> str:
    """The English a translation was made from, as its comments hold it (write_po wraps
    long comments over several lines, so compare the words, not the lines)."""
    return " ".join(" ".join(m.auto_comments).split())


def _key(m: Message) -> str:
    return m.id[0] if isinstance(m.id, (tuple, list)) else m.id


def problems(lang: str) -> Iterator[str]:
    """Everything that keeps ``lang``'s catalog from being complete and consistent."""
    english = {_key(m): m for m in load_catalog(DEFAULT) if m.id}
    catalog = load_catalog(lang)
    seen = set()
    for m in catalog:
        if not m.id:
            continue
        key = _key(m)
        seen.add(key)
        if key not in english:
            yield f"{lang}: {key}: not in the English catalog"
            continue
        texts = english_texts(m)
        if m.fuzzy:
            yield f"{lang}: {key}: fuzzy (its English changed)"
        if not all(texts):
            yield f"{lang}: {key}: untranslated"
            continue
        want = set(PLACEHOLDER.findall(" ".join(english_texts(english[key]))))
        for text in texts:
            got = set(PLACEHOLDER.findall(text))
            # A plural form may leave out {count} (e.g. "one card" spelled as a word).
            if got - want or (want - got) - {"count"}:
                yield f"{lang}: {key}: placeholders {sorted(got)} ≠ English {sorted(want)}"
        if lang != DEFAULT:
            en = english_texts(english[key])
            if any(t == e for t in texts for e in en) and not _only_names(en[0]):
                yield f"{lang}: {key}: same as the English {en[0]!r}"
    for key in english.keys() - seen:
        yield f"{lang}: {key}: missing"


def _only_names(text: str) -> bool:
    rest = PLACEHOLDER.sub("", text)
    for name in KEEP:
        rest = rest.replace(name, "")
    return not re.search(r"[A-Za-z]{2,}", rest)
