"""The report's words and figures: names, and estimates written out with their intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ...engine import defaults
from ...engine.cards import parse_card
from ...i18n import card_label as card_words
from ..experiments import CardRow, Estimate

MATCH_NAMES = {"single": "single game", "tokens": "tokens match", "points": "points match"}
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def plain(x: float, spec: str) -> str:
    """``format(x, spec)``, but never "-0.0": a value that rounds to zero prints as zero."""
    text = format(x, spec)
    return text.replace("-", "+" if "+" in spec else "", 1) if float(text) == 0 else text


def pct(e: Estimate, digits: int = 1) -> str:
    """``56.5% [53.2, 59.8]``"""
    if math.isnan(e.value):
        return "–"
    d = f".{digits}f"
    return f"{plain(e.value * 100, d)}% [{plain(e.low * 100, d)}, {plain(e.high * 100, d)}]"


def pp(e: Estimate) -> str:
    """A difference of proportions in percentage points: ``+6.5 pp [+3.2, +9.8]``."""
    value, low, high = (plain(x * 100, "+.1f") for x in (e.value, e.low, e.high))
    return f"{value} pp [{low}, {high}]"


def num(e: Estimate, digits: int = 1, sign: bool = False) -> str:
    """A mean with its interval: ``40.0 [39.5, 40.5]``."""
    if math.isnan(e.value):
        return "–"
    f = f"+.{digits}f" if sign else f".{digits}f"
    return f"{plain(e.value, f)} [{plain(e.low, f)}, {plain(e.high, f)}]"


def card_label(row: CardRow, edition: str) -> str:
    return card_words(parse_card(row.card), edition)  # English: the catalog's default


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]], right: int = 1) -> str:
    """A Markdown table; columns from ``right`` on are right-aligned."""
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join("---:" if i >= right else "---" for i in range(len(header))) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def position_name(k: int, players: int) -> str:
    return "dealer" if k == players - 1 else ORDINALS[k]


def default_match(edition: str) -> str:
    return str(defaults(edition)["match"])


def options_text(options: dict[str, Any]) -> str:
    if not options:
        return ""
    return " (" + ", ".join(f"{k}={v}" for k, v in options.items()) + ")"
