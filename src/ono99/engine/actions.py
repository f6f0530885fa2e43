"""Actions (RULES.md N2): ``play CARD``, ``discard ono99`` and ``draw``.

There are exactly 18 actions; each is a singleton, so they compare by identity and
double as a fixed action space (``action.index``) for bots and RL environments.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CARD_NAMES, NUM_CARD_KINDS, ONO99, parse_card
from .errors import NotationError


class Action(NamedTuple):
    kind: str  # "play", "discard" or "draw"
    card: int | None  # the card played (ONO99 for the discard), None for a draw

    def __str__(self) -> str:
        if self.kind == "draw":
            return "draw"
        assert self.card is not None
        return f"{self.kind} {CARD_NAMES[self.card]}"

    @property
    def index(self) -> int:
        """Position in ``ALL_ACTIONS``: plays by card id, then the discard, then draw."""
        if self.kind == "play":
            assert self.card is not None
            return self.card
        return NUM_CARD_KINDS if self.kind == "discard" else NUM_CARD_KINDS + 1

    @staticmethod
    def parse(text: str) -> Action:
        return parse_action(text)


PLAY: tuple[Action, ...] = tuple(Action("play", card) for card in range(NUM_CARD_KINDS))
DISCARD = Action("discard", ONO99)
DRAW = Action("draw", None)
ALL_ACTIONS: tuple[Action, ...] = PLAY + (DISCARD, DRAW)

_BY_TEXT = {str(action): action for action in ALL_ACTIONS}


def parse_action(text: str | Action) -> Action:
    """The action for its N2 text, e.g. ``"play 7"``, ``"discard ono99"``, ``"draw"``."""
    if isinstance(text, Action):
        return ALL_ACTIONS[text.index]
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
