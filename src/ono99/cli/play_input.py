"""What the person types in ``ono99 play``: moves and commands, in any language.

``parse_move`` turns a line into the action it names, or a ``MoveError`` saying in the
person's words why it names none; whether that action is legal is the engine's question, and
``why_not`` is its answer (``why_illegal``) in those words. ``command_words`` are the words
each command answers to: the English ones always, and each language's own.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ..engine import DISCARD, DRAW, PLAY, Action, NotationError, View, parse_card, why_illegal
from ..engine.cards import HOLD, MINUS_TEN, ONO99, PLAY2, REVERSE
from ..i18n import Translator, card_label, cards_text, refusal_text, translator


class MoveError(ValueError):
    """Input that names no move the person can make; the message is for them."""


# Short words for cards, understood in every language (besides each language's card names).
_EXTRA_CARD_WORDS = {
    "r": REVERSE,
    "rev": REVERSE,
    "p2": PLAY2,
    "dp": PLAY2,
    "ono": ONO99,
    "m10": MINUS_TEN,
}

# What each command is called: the English words always work; each language adds its own
# (the ``term.words.*`` messages, comma-separated).
COMMANDS = {
    "draw": ("d", "draw"),
    "discard": ("discard", "discard ono99", "discard ono 99", "discard 99"),
    "quit": ("quit", "q", "exit"),
    "help": ("help", "h"),
    "status": ("status", "s", "table"),
    "moves": ("?", "moves", "legal"),
    "hint": ("hint", "hints"),
    "watch": ("w", "watch"),
}


def norm(text: str) -> str:
    """Input as compared: lowercase, single spaces, composed (NFC) and without accents, so
    "dao nguoc" and "đảo ngược", or "Αντιστροφη" and "αντιστροφή", name the same card."""
    text = unicodedata.normalize("NFD", " ".join(text.strip().lower().split()))
    # Marks that sit on Latin, Greek and Armenian letters; Devanagari's vowel signs stay.
    text = "".join(ch for ch in text if not ("\u0300" <= ch <= "\u036f"))
    return unicodedata.normalize("NFC", text).replace("đ", "d")


def command_words(command: str, tr: Translator) -> set[str]:
    words = set(COMMANDS[command])
    words.update(norm(w) for w in tr(f"term.words.{command}").split(",") if w.strip())
    return words


def command_word(command: str, tr: Translator) -> str:
    """The word the help shows for ``command``: the language's first, else the English."""
    return tr(f"term.words.{command}").split(",")[0].strip() or COMMANDS[command][0]


def parse_move(
    text: str,
    hand: Sequence[int],
    legal: Sequence[Action],
    edition: str,
    tr: Translator | None = None,
) -> Action:
    """The action a line of input names: a card (``7``, ``-10``, ``reverse``, or the card's
    name in the player's language), a position in ``hand`` (``#2``), ``play CARD``,
    ``draw``/``d`` or ``discard``."""
    tr = tr or translator()
    words = norm(text)
    if words in command_words("draw", tr):
        return DRAW
    if words in command_words("discard", tr):
        return DISCARD
    if words.startswith("#"):
        return _card_action(_position(words[1:].strip(), hand, text, tr), hand, legal)
    if words == "play 2" and edition == "2022":
        # The card is called "Play 2", and "play 2" is also how the notation plays a 2.
        if PLAY2 in hand and 2 in hand:
            raise MoveError(tr("term.err.play2_ambiguous"))
        return _card_action(2 if 2 in hand else PLAY2, hand, legal, edition, tr)
    if words.startswith("play "):
        return _card_action(_card(words[5:], text, edition, tr), hand, legal, edition, tr)
    if words.isdigit():
        # A bare number is always a card's value; #N is how a position is named. A number
        # that was a position whenever no card had its value played a card the person never
        # named (2 for the Play 2 played the card at #2).
        n = int(words)
        if n <= 10 and n in hand:
            return _card_action(n, hand, legal)
        raise MoveError(
            tr(
                "term.err.no_number",
                n=n,
                hand=positions_text(hand, edition, tr),
                size=len(hand),
            )
        )
    return _card_action(_card(words, text, edition, tr), hand, legal, edition, tr)


def positions_text(hand: Sequence[int], edition: str, tr: Translator) -> str:
    """The hand with each card's position, as ``#N`` names it: ``#1 3, #2 8, #3 −10``."""
    return ", ".join(f"#{i} {card_label(c, edition, tr)}" for i, c in enumerate(hand, 1))


def position_hint(text: str, hand: Sequence[int], edition: str, tr: Translator) -> str:
    """For a number read as a card, how to reach the different card at that position."""
    words = text.strip()
    if not words.isdigit():
        return ""
    n = int(words)
    if n in hand and 1 <= n <= len(hand) and hand[n - 1] != n:
        return tr("term.err.position_hint", card=card_label(hand[n - 1], edition, tr), n=n)
    return ""


def why_not(v: View, action: Action, tr: Translator) -> str:
    """Why the seat of view ``v`` may not take ``action`` now, in its words: the engine's
    reason (``why_illegal``), asked of the view, so it says nothing the person could not see."""
    assert v.seat is not None
    refusal = why_illegal(v, v.seat, action)
    assert refusal is not None, f"{action} is legal"
    return refusal_text(refusal, v.rules.edition, tr)


def _card(words: str, text: str, edition: str, tr: Translator) -> int:
    card = _EXTRA_CARD_WORDS.get(words)
    if card is not None:
        return card
    for c in (MINUS_TEN, REVERSE, PLAY2, HOLD, ONO99):  # the card names of the language
        name = norm(card_label(c, edition, tr))
        if words in (name, name.replace(" ", "")):
            return c
    try:
        return parse_card(words)
    except NotationError:
        raise MoveError(tr("term.err.unknown", text=text.strip())) from None


def _position(words: str, hand: Sequence[int], text: str, tr: Translator) -> int:
    if not words.isdigit() or not 1 <= int(words) <= len(hand):
        raise MoveError(tr("term.err.position", text=text.strip(), size=len(hand)))
    return hand[int(words) - 1]


def _card_action(
    card: int,
    hand: Sequence[int],
    legal: Sequence[Action],
    edition: str | None = None,
    tr: Translator | None = None,
) -> Action:
    if edition is not None and card not in hand:
        tr = tr or translator()
        raise MoveError(
            tr(
                "term.err.not_held",
                card=card_label(card, edition, tr),
                hand=cards_text(hand, edition, tr),
            )
        )
    # Four ONO 99s: naming one of them means laying all four down (K7).
    if card == ONO99 and DISCARD in legal and PLAY[ONO99] not in legal:
        return DISCARD
    return PLAY[card]
