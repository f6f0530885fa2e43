"""Cards (RULES.md §1, §3, N1).

A card is a small int: its position in the canonical order of N1, so sorting card ids
sorts hands canonically. Names are the notation of N1; the words a player reads, which
differ by language and edition (Play 2 / Double Play), are ``ono99.i18n.card_label``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .errors import NotationError, Ono99Error, SetupError

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

_BY_NAME: dict[object, int] = {name: card for card, name in enumerate(CARD_NAMES)}
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


def card_ids(
    cards: Iterable[int | str],
    where: str,
    error: Callable[[str, str], Ono99Error] = SetupError,
) -> tuple[int, ...]:
    """The card ids of a list of ids or N1 names (or other spellings), in its order: the one
    parser of a card list. The first entry that is no card raises ``error(f"{where}[i]", why)``
    (a ``SetupError`` unless the caller names another, e.g. ``PositionError``)."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise error(where, f"must be a list of cards, not {cards!r}")
    try:  # the common case, fast: ids and N1 names
        return tuple(
            c if type(c) is int and 0 <= c < NUM_CARD_KINDS else _BY_NAME[c] for c in cards
        )
    except (KeyError, TypeError):  # another spelling, or no card: the careful way, which says
        pass
    out = []
    for i, card in enumerate(cards):
        if isinstance(card, str):
            try:
                out.append(parse_card(card))
            except NotationError as exc:
                raise error(f"{where}[{i}]", str(exc)) from None
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < NUM_CARD_KINDS:
            out.append(card)
        else:
            raise error(f"{where}[{i}]", f"not a card: {card!r}")
    return tuple(out)


def check_permutation(
    cards: tuple[int, ...], expected: Iterable[int], where: str, what: str
) -> tuple[int, ...]:
    """``cards``, if it holds exactly the cards of ``expected`` (in any order); else a
    ``SetupError`` naming the first card kind whose count differs."""
    have, want = counts(cards), counts(expected)
    if have != want:
        for card, (h, e) in enumerate(zip(have, want, strict=True)):
            if h != e:
                raise SetupError(
                    where,
                    f"not a permutation of {what}: it has {h} × {CARD_NAMES[card]!r} "
                    f"where {what} has {e}",
                )
    return cards
