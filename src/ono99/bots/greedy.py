"""``greedy``: a sensible rule-based player, the standard opponent.

It plays its highest number that keeps the total legal, holds −10, Reverse, Hold and
Play 2 back for emergencies, answers a Play 2 with a deflector, and lays its own Play 2
when the total is high so that the next player has to find two safe cards.
"""

from __future__ import annotations

from ..engine import DISCARD, DRAW, PLAY, Action, View
from ..engine.cards import CARD_POINTS, HOLD, MINUS_TEN, ONO99, PLAY2, REVERSE

# Emergency cards, best first, for when no number can be played.
_EMERGENCY = (ONO99, PLAY2, HOLD, REVERSE, MINUS_TEN)


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic

    def choose(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if DRAW in legal:
            return DRAW  # never let an owed draw be lost
        if DISCARD in legal:
            return DISCARD
        cards = [a.card for a in legal if a.card is not None]
        rules = view.rules
        if view.must_bust:
            return PLAY[max(cards, key=lambda c: (CARD_POINTS[c], c))]  # shed the costliest
        if ONO99 in cards:
            return PLAY[ONO99]  # a dead card turned into a free play
        if view.owed == 2:
            for card in (REVERSE, HOLD, PLAY2):
                if card in cards and card in rules.deflectors:
                    return PLAY[card]
        high = view.total >= rules.max_total - 10
        if high and PLAY2 in cards:
            return PLAY[PLAY2]
        numbers = [c for c in cards if c <= 10]
        if numbers:
            return PLAY[max(numbers)]
        for card in _EMERGENCY:
            if card in cards:
                return PLAY[card]
        return legal[0]
