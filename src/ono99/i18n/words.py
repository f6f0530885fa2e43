"""Engine values in a reader's words: card names.

The engine speaks only notation (N1 card names); these turn them into what players read, in
any of the catalogs' languages. The browser client does the same from the same messages
(``static/js/cards.js``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.cards import HOLD, MINUS_TEN, ONO99, PLAY2, REVERSE
from .catalog import Translator, translator

_CARD_KEYS = {
    MINUS_TEN: "card.minus10",
    REVERSE: "card.reverse",
    HOLD: "card.hold",
    ONO99: "card.ono99",
}


def card_label(card: int, edition: str, tr: Translator | None = None) -> str:
    """A card's name as its players say it: "7", "Reverse", "Double Play" (1980)."""
    tr = tr or translator()
    if card <= 10:
        return tr("card.number", n=card)
    if card == PLAY2:
        return tr("card.doubleplay" if edition == "1980" else "card.play2")
    return tr(_CARD_KEYS[card])


def cards_text(cards: Iterable[int], edition: str, tr: Translator | None = None) -> str:
    """Cards as a player reads them: "10, Reverse, ONO 99"."""
    tr = tr or translator()
    names = [card_label(c, edition, tr) for c in cards]
    return ", ".join(names) if names else tr("cards.none")
