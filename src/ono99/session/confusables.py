"""Names that look alike: the "skeleton" of Unicode's UTS #39 (section 4). Two strings that
look the same to a reader, such as "Chloé" with a Latin o and with a Cyrillic о, have the same
skeleton. The table is Unicode's confusables.txt, kept as ``confusables.txt`` beside this file
(``scripts/make_confusables.py`` writes it; its header says which version, and the licence)."""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

TABLE = Path(__file__).with_name("confusables.txt")


@cache
def prototypes() -> dict[str, str]:
    """Each confusable character, and the prototype it is read as."""
    table = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            char, prototype = line.split("\t")
            table[chr(int(char, 16))] = "".join(chr(int(c, 16)) for c in prototype.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: decompose, replace each character by its prototype, decompose."""
    table = prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)
