"""Engine values in a reader's words: card names, and why an action is refused.

The engine speaks only notation (N1 card names, N2 actions) and data (a refusal's code and
params); these turn them into what players read, in any of the catalogs' languages. The
browser client does the same from the same messages (``static/js/cards.js``, ``errors.js``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine import DISCARD, DRAW, IllegalActionError, parse_card
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


# Options whose words name a card that an edition calls otherwise: 1980's Double Play. Each
# such key has its ``.help`` beside it, as every option's does (the browser's form shows both).
_EDITION_OPTION_KEYS = {("play2_deflects_play2", "1980"): "option.play2_deflects_play2.doubleplay"}


def option_label(name: str, edition: str, tr: Translator | None = None) -> str:
    """A rule option's name as the edition's players say it: "Double Play answers Double
    Play" in 1980, "Play 2 answers Play 2" in 2022."""
    tr = tr or translator()
    return tr(_EDITION_OPTION_KEYS.get((name, edition), f"option.{name}"))


def cards_text(cards: Iterable[int], edition: str, tr: Translator | None = None) -> str:
    """Cards as a player reads them: "10, Reverse, ONO 99"."""
    tr = tr or translator()
    names = [card_label(c, edition, tr) for c in cards]
    return ", ".join(names) if names else tr("cards.none")


def refusal_text(refusal: IllegalActionError, edition: str, tr: Translator | None = None) -> str:
    """Why the reader may not take an action, from the engine's reason (``engine.REASONS``):
    "You can't play 10: that makes 105, above 98". ``illegal.<code>`` words the reason, with
    its params (a card named in N1 in the reader's words), inside ``cant.<kind>``."""
    tr = tr or translator()
    params = dict(refusal.params)
    if isinstance(params.get("card"), str):
        params["card"] = card_label(parse_card(params["card"]), edition, tr)
    reason = tr(f"illegal.{refusal.code}", **params)
    action = refusal.action
    if action is DRAW:
        return tr("cant.draw", reason=reason)
    if action is DISCARD:
        return tr("cant.discard", reason=reason)
    assert action is not None and action.card is not None
    return tr("cant.play", card=card_label(action.card, edition, tr), reason=reason)
