"""The state summary (RULES.md N4): the omniscient, JSON-ready picture of a state that
``ono99 replay RECORD --json`` prints and that two implementations compare."""

from __future__ import annotations

from typing import Any

from .cards import CARD_NAMES
from .game import legal_actions
from .state import CW, State


def summarize(state: State) -> dict[str, Any]:
    """The N4 summary of ``state``, keys in the order RULES.md gives them."""
    summary: dict[str, Any] = {
        "over": state.over,
        "winners": list(state.winners),
        "round": state.round,
        "total": state.total,
        "direction": "cw" if state.direction == CW else "ccw",
        "to_play": state.to_play,
        "owed": state.owed,
        "legal": [str(a) for a in legal_actions(state)],
        "hands": [[CARD_NAMES[c] for c in hand] for hand in state.hands],
        "out": list(state.out),
        "out_of_round": list(state.out_of_round),
        "tokens": None if state.tokens is None else list(state.tokens),
        "scores": None if state.scores is None else list(state.scores),
        "draw_pile": state.draw_pile_size,
        "discard_pile": len(state.discard),
    }
    if state.rules.draw_penalty:
        summary["owes_draw"] = sorted(state.owes_draw)
    return summary
