"""Actions (RULES.md N2): ``play CARD``, ``discard ono99`` and ``draw``.

There are exactly 18 actions; each is a singleton, so they compare by identity and
double as a fixed action space (``action.index``) for bots and RL environments.
"""

from __future__ import annotations

from .cards import CARD_NAMES, NUM_CARD_KINDS, ONO99, parse_card
from .errors import NotationError


class Action:
    """One action. There are exactly 18 (``ALL_ACTIONS``); each is a singleton, so actions
    compare by identity, and unpickling gives back the same singleton."""

    __slots__ = ("card", "index", "kind")

    def __init__(self, kind: str, card: int | None, index: int) -> None:
        self.kind = kind  # "play", "discard" or "draw"
        self.card = card  # the card played (ONO99 for the discard), None for a draw
        self.index = index  # position in ALL_ACTIONS: plays by card id, discard, draw

    def __str__(self) -> str:
        if self.card is None:
            return "draw"
        return f"{self.kind} {CARD_NAMES[self.card]}"

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return parse_action, (str(self),)

    @staticmethod
    def parse(text: str) -> Action:
        return parse_action(text)


PLAY: tuple[Action, ...] = tuple(Action("play", card, card) for card in range(NUM_CARD_KINDS))
DISCARD = Action("discard", ONO99, NUM_CARD_KINDS)
DRAW = Action("draw", None, NUM_CARD_KINDS + 1)
ALL_ACTIONS: tuple[Action, ...] = PLAY + (DISCARD, DRAW)

_BY_TEXT = {str(action): action for action in ALL_ACTIONS}


def parse_action(text: str | Action) -> Action:
    """The action for its N2 text, e.g. ``"play 7"``, ``"discard ono99"``, ``"draw"``."""
    if isinstance(text, Action):
        return _BY_TEXT[str(text)]
    if not isinstance(text, str):
        raise NotationError(f"an action must be text like 'play 7', not {text!r}")
    action = _BY_TEXT.get(text)
    if action is not None:
        return action
    words = text.strip().lower().split(None, 1)
    if words == ["draw"]:
        return DRAW
    if len(words) == 2 and words[0] == "play":
        try:
            return PLAY[parse_card(words[1])]
        except NotationError:
            pass
    if len(words) == 2 and words[0] == "discard" and words[1] in ("ono99", "ono 99"):
        return DISCARD
    raise NotationError(
        f"unknown action {text!r}; actions are 'play CARD', 'discard ono99' and 'draw'"
    )
