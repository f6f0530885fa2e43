"""Translations: complete catalogs, consistent plurals, language choice, no English left.

The catalogs (src/ono99/i18n/locales) are the one source of every message; the terminal
game reads them through gettext and the browser through JSON made from them.
"""

from __future__ import annotations

import gettext
import re

import pytest
from babel import Locale

from ono99.engine import ALL_ACTIONS, REASONS, IllegalActionError
from ono99.i18n import (
    LANGUAGES,
    UnknownLanguageError,
    from_accept_language,
    from_environment,
    load_catalog,
    parse_language,
    refusal_text,
    rules_markdown,
    translator,
)
from ono99.i18n.export import browser_catalog, category_forms, own_entries
from ono99.i18n.tools import TEMPLATE, _template, problems

OTHERS = [lang for lang in LANGUAGES if lang != "en"]

# What may appear in Latin letters in a Greek, Marathi or Armenian text: brand and company
# names, keyboard keys and an example table code.
LATIN_ALLOWED = re.compile(
    r"O'NO 99|ONO 99|ONO|Mattel|International Games|UNO|ono99|"
    r"\b[A-Z]\b|\b[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}\b|\bCtrl\b|\bEnter\b"
)
# English words that no Spanish or Vietnamese sentence needs.
ENGLISH_WORDS = {
    "the", "and", "you", "your", "with", "card", "cards", "player", "players", "turn",
    "draw", "round", "game", "wins", "table", "seat", "hand", "points", "tokens", "play",
    "plays", "pile", "out", "score", "target", "match", "reverse", "hold",  # "total": es too
}  # fmt: skip


# Messages that quote what an English-typing player typed ('play 2' is only ever typed so).
QUOTES_INPUT = {"term.err.play2_ambiguous"}


def texts(lang: str) -> dict[str, list[str]]:
    out = {}
    for m in load_catalog(lang):
        if m.id and m.id not in QUOTES_INPUT:
            key = m.id[0] if isinstance(m.id, tuple) else m.id
            out[key] = list(m.string) if isinstance(m.string, tuple) else [m.string]
    return out


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    assert list(problems(lang)) == []


def test_the_template_is_up_to_date() -> None:
    """`python -m ono99.i18n update` was run after the English catalog last changed."""
    on_disk = {m.id: m.auto_comments for m in _read(TEMPLATE) if m.id}
    made = {m.id: m.auto_comments for m in _template() if m.id}
    assert on_disk.keys() == made.keys()
    assert {k: " ".join(" ".join(v).split()) for k, v in on_disk.items()} == {
        k: " ".join(" ".join(v).split()) for k, v in made.items()
    }


def _read(path):  # type: ignore[no-untyped-def]
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f)


@pytest.mark.parametrize("lang", ["el", "mr", "hy"])
def test_no_english_left_in_other_scripts(lang: str) -> None:
    leftovers = {}
    for key, strings in texts(lang).items():
        for text in strings:
            rest = LATIN_ALLOWED.sub("", re.sub(r"\{\w+\}", "", text))
            words = re.findall(r"[A-Za-z]{2,}", rest)
            if words:
                leftovers[key] = words
    assert leftovers == {}


@pytest.mark.parametrize("lang", ["es", "vi"])
def test_no_english_left_in_latin_scripts(lang: str) -> None:
    leftovers = {}
    for key, strings in texts(lang).items():
        for text in strings:
            words = set(re.findall(r"[a-z]+", re.sub(r"\{\w+\}", "", text).lower()))
            if words & ENGLISH_WORDS:
                leftovers[key] = sorted(words & ENGLISH_WORDS)
    assert leftovers == {}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_browser_and_terminal_choose_the_same_plural_form(lang: str) -> None:
    """gettext's Plural-Forms (terminal) and CLDR categories (the browser's
    Intl.PluralRules, here Babel's copy of CLDR) pick the same text for every count."""
    pick = gettext.c2py(load_catalog(lang).plural_expr)
    forms = category_forms(lang)
    rule = Locale.parse(lang).plural_form
    for n in [*range(0, 250), 1000, 1_000_000, 2_000_000]:
        assert forms[rule(n)] == pick(n), n
    browser = browser_catalog(lang)
    tr = translator(lang)
    for n in (0, 1, 2, 5, 21, 1_000_000):
        assert browser[f"create.players.count.{rule(n)}"].replace(
            "{count}", tr.number(n)
        ) == tr.plural("create.players.count", n)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_browser_catalog_has_every_key(lang: str) -> None:
    """The language's own catalog gives every browser key (English only fills gaps, and a
    gap is a failure here), and every plural message has a form for each of its categories."""
    english = browser_catalog("en")
    own = own_entries(lang)
    plural_bases = {m.id[0] for m in load_catalog("en") if isinstance(m.id, tuple)}
    singular = {k for k in english if k.rsplit(".", 1)[0] not in plural_bases}
    assert sorted(singular - own.keys()) == []
    wanted = {f"{base}.{cat}" for base in plural_bases for cat in category_forms(lang)}
    assert sorted(wanted - own.keys()) == []


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_reason_the_engine_gives_has_words_in_every_language(lang: str) -> None:
    """Every code of engine.REASONS has its own ``illegal.<code>`` message in every language
    (no English fallback), using only that reason's params; terminal and browser share it."""
    own = own_entries(lang)
    sample = {"card": "play2", "total": 95, "after": 105, "max_total": 98, "to_play": 1,
              "ono99s": 2, "last_seat": 3}  # fmt: skip
    tr = translator(lang)
    for code, reason in REASONS.items():
        text = own[f"illegal.{code}"]
        assert set(re.findall(r"\{(\w+)\}", text)) <= set(reason.params), code
        params = {name: sample[name] for name in reason.params}
        for action in ALL_ACTIONS:
            refusal = IllegalActionError("-", seat=0, action=action, code=code, params=params)
            words = refusal_text(refusal, "1980", tr)
            assert "{" not in words and "play2" not in words, (code, words)
    assert {"cant.play", "cant.draw", "cant.discard"} <= own.keys()


def test_numbers_use_latin_digits_and_local_grouping() -> None:
    assert translator("en").number(12345) == "12,345"
    assert translator("mr").number(12345) == "12,345"  # not Devanagari digits: cards print 0–9
    assert translator("es").number(12345) == "12.345"
    assert translator("el").number(12345) == "12.345"
    assert translator("hy").number(12345) == "12\xa0345"  # a no-break space


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_number_below_zero_has_the_minus_sign_of_the_cards(lang: str) -> None:
    tr = translator(lang)
    minus = tr("card.minus10").removesuffix("10")
    assert minus == "\u2212"
    assert tr.number(-1234).startswith(minus) and "-" not in tr.number(-1234)
    assert f"{minus}3" in tr("log.play.you", card=tr("card.minus10"), total=-3)


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "el_GR.UTF-8"}, "el"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_ALL": "hy_AM.UTF-8", "LANG": "el_GR.UTF-8"}, "hy"),
        ({"LC_MESSAGES": "vi_VN", "LANG": "es_ES"}, "vi"),
        ({"LANGUAGE": "fr:mr:en", "LANG": "es_ES.UTF-8"}, "mr"),
        ({"LANGUAGE": "fr", "LANG": "es_ES.UTF-8"}, "es"),
    ],
)
def test_language_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert from_environment(env) == lang


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("hy-AM,hy;q=0.9,en-US;q=0.8", "hy"),
        ("fr-FR, es;q=0.5, vi;q=0.7", "vi"),
        ("de, *;q=0.1", "en"),
        ("mr;q=0, el", "el"),
        ("es-419;q=bogus, el;q=0.2", "el"),
    ],
)
def test_language_from_accept_language(header: str | None, lang: str) -> None:
    assert from_accept_language(header) == lang


def test_an_unknown_language_names_the_known_ones() -> None:
    assert parse_language("mr_IN.UTF-8") == "mr"
    with pytest.raises(UnknownLanguageError, match=r"unknown language 'xx'; known: en \(English\)"):
        parse_language("xx")


def _shape(text: str) -> tuple[int, int, int]:
    lines = text.splitlines()
    headings = sum(1 for line in lines if line.startswith("#"))
    rows = sum(1 for line in lines if line.startswith("|"))
    fences = sum(1 for line in lines if line.startswith("```"))
    return headings, rows, fences


@pytest.mark.parametrize("lang", OTHERS)
def test_each_rules_page_has_the_shape_of_the_english_one(lang: str) -> None:
    page = rules_markdown(lang)
    assert _shape(page) == _shape(rules_markdown("en"))
    assert "](spec/" not in page  # no link into a spec the package does not ship
    for flag in ("--edition 1980", "--max-total", "--draw-penalty", "--bust-total"):
        assert flag in page  # what a player types stays as it is
