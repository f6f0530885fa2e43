"""The player rules page, one Markdown file per language (``rules/<lang>.md``)."""

from __future__ import annotations

from pathlib import Path

from .languages import parse_language

RULES = Path(__file__).parent / "rules"


def rules_markdown(lang: str) -> str:
    return (RULES / f"{parse_language(lang)}.md").read_text(encoding="utf-8")
