"""Cards (RULES.md §1, §3, N1).

A card is a small int: its position in the canonical order of N1, so sorting card ids
sorts hands canonically. Names are the notation of N1; the words a player reads, which
differ by language and edition (Play 2 / Double Play), are ``ono99.i18n.card_label``'s.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import NotationError

CARD_NAMES: tuple[str, ...] = tuple(str(n) for n in range(11)) + (
    "-10",
    "reverse",
    "play2",
    "hold",
    "ono99",
)
NUM_CARD_KINDS = len(CARD_NAMES)

MINUS_TEN = 11
REVERSE = 12
PLAY2 = 13
HOLD = 14
ONO99 = 15

_BY_NAME = {name: card for card, name in enumerate(CARD_NAMES)}
# Spellings a person might type; the notation itself always prints the N1 name.
_ALIASES = {
    "−10": MINUS_TEN,
    "minus10": MINUS_TEN,
    "minus ten": MINUS_TEN,
    "ten": 10,
    "double": PLAY2,
    "doubleplay": PLAY2,
    "double play": PLAY2,
    "ono 99": ONO99,
    "o'no 99": ONO99,
    "99": ONO99,
}

# How many of each card a deck holds, in card order (C1, C2).
DECK_COUNTS: dict[str, tuple[int, ...]] = {
    #        0  1  2  3  4  5  6  7  8  9 10 -10 rev p2 hold 99
    "2022": (8, 6, 6, 6, 6, 6, 6, 6, 6, 6, 10, 10, 10, 10, 0, 10),
    "1980": (0, 0, 3, 3, 3, 3, 3, 3, 3, 3, 10, 4, 6, 2, 4, 4),
}

# Points a card left in hand costs under points scoring (M3).
CARD_POINTS: tuple[int, ...] = tuple(range(11)) + (15, 15, 15, 15, 20)


def card_name(card: int) -> str:
    """The N1 name of a card id."""
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """The card id for an N1 name (or a common spelling of it)."""
    if not isinstance(text, str):
        raise NotationError(f"a card must be a name like '7' or 'reverse', not {text!r}")
    key = " ".join(text.strip().lower().split())
    card = _BY_NAME.get(key)
    if card is None:
        card = _ALIASES.get(key)
    if card is None:
        card = _ALIASES.get(key.replace(" ", ""))
    if card is None:
        raise NotationError(f"unknown card {text!r}; cards are {', '.join(CARD_NAMES)}")
    return card


def deck(edition: str) -> tuple[int, ...]:
    """The edition's full deck in canonical order."""
    return tuple(card for card, n in enumerate(DECK_COUNTS[edition]) for _ in range(n))


def counts(cards: Iterable[int]) -> list[int]:
    """How many of each card kind ``cards`` holds, indexed by card id."""
    out = [0] * NUM_CARD_KINDS
    for card in cards:
        out[card] += 1
    return out
