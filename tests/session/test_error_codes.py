"""Every error code the server can send is documented and worded: a test holds each
``SessionError`` code in the source to docs/protocol.md and to every language's catalog (the
browser shows ``error.<code>``; an unknown code would reach a player as "unknown error")."""

from __future__ import annotations

import re
from pathlib import Path

from ono99.i18n.catalog import load_catalog
from ono99.i18n.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r'SessionError\(\s*"(\w+)"')


def error_codes() -> set[str]:
    return {
        code
        for path in (ROOT / "src" / "ono99").rglob("*.py")
        for code in CODE.findall(path.read_text(encoding="utf-8"))
    }


def test_the_source_raises_the_codes_this_test_reads() -> None:
    codes = error_codes()
    assert {"not_found", "closed", "illegal", "rate_limited", "name_taken"} <= codes
    assert len(codes) >= 25


def test_every_error_code_is_in_the_protocol_document() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert sorted(c for c in error_codes() if f"`{c}`" not in doc) == []


def test_every_error_code_has_words_in_every_language() -> None:
    for lang in LANGUAGES:
        catalog = load_catalog(lang)
        missing = sorted(
            c
            for c in error_codes()
            if not (catalog.get(f"error.{c}") and catalog.get(f"error.{c}").string)
        )
        assert missing == [], lang
