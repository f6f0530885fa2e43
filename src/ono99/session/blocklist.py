"""The names an operator will not have at their tables (``ono99 serve --blocked-names FILE``).

The file holds one entry a line; ``#`` starts a comment. An entry blocks a name that is the
entry, or holds it as a whole word ("bad" blocks "Bad", "the bad one", "bad-guy", not
"Badminton"); an entry written ``~word`` blocks any name with the word anywhere inside it,
for words that no innocent name holds. Names and entries are compared as ``same_name``
compares them, so that case, full-width letters and look-alike letters (a Cyrillic о for a
Latin o) do not slip a blocked name past the list.
"""

from __future__ import annotations

import re

from .errors import SessionError
from .setup import name_key

_WORD = re.compile(r"\w+")


class Blocklist:
    def __init__(self, words: frozenset[str] = frozenset(), inside: tuple[str, ...] = ()) -> None:
        self.words = words  # folded: whole names and whole words
        self.inside = inside  # folded: anywhere

    @classmethod
    def parse(cls, text: str) -> Blocklist:
        words: set[str] = set()
        inside: list[str] = []
        for line in text.splitlines():
            entry = line.split("#", 1)[0].strip()
            if entry.startswith("~"):
                folded = name_key(entry[1:].strip())
                if folded:
                    inside.append(folded)
            elif entry:
                words.add(name_key(entry))
        return cls(frozenset(words), tuple(inside))

    def __len__(self) -> int:
        return len(self.words) + len(self.inside)

    def blocks(self, name: str) -> bool:
        folded = name_key(name)
        if folded in self.words or any(word in folded for word in self.inside):
            return True
        found = _WORD.findall(folded)
        if any(word in self.words for word in found):
            return True
        # An entry of several words ("bad guy") as a run of the name's words.
        spaced = " " + " ".join(found) + " "
        return any(" " in w and f" {w} " in spaced for w in self.words)

    def check(self, name: str) -> None:
        """Refuse a blocked name, saying only that it is not allowed (never which entry)."""
        if self.blocks(name):
            raise SessionError(
                "name_blocked",
                "that name is not allowed on this server; pick another",
                field="name",
            )
