"""The action space every environment shares: an agent's action read, its mask, and the
table of it that ``docs/rl.md`` shows.

Actions are the engine's indices into ``ALL_ACTIONS``: 0–15 play the card with that id (N1
order), 16 is ``discard ono99`` (K7), 17 is ``draw`` (X2). The space is the same for every
edition and option set; what a rule set forbids is simply never legal.
"""

from __future__ import annotations

import numpy as np

from ..engine import ALL_ACTIONS, DISCARD, DRAW, View
from ..engine.cards import HOLD, MINUS_TEN, ONO99, PLAY2, REVERSE
from ..features import NUM_ACTIONS, legal_mask


def action_index(action: object) -> int | None:
    """The index an agent passed, or None when it is not an integer from 0 to 17."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return None
    index = int(action)
    return index if 0 <= index < NUM_ACTIONS else None


def action_mask(v: View, acting: bool) -> np.ndarray:
    """An int8 mask of the 18 actions: this seat's legal actions (``features.legal_mask``) if
    it is the seat asked now, else none."""
    return legal_mask(v) if acting else np.zeros(NUM_ACTIONS, dtype=np.int8)


_WHEN = {
    MINUS_TEN: "holds a −10: it always fits (K2)",
    REVERSE: "holds a Reverse (K3)",
    PLAY2: "holds a Play 2 / Double Play; not as the first of two owed cards unless the rule "
    "play2_deflects_play2 (P2, P4)",
    HOLD: "holds a Hold (1980 deck only, K5)",
    ONO99: "holds an ONO 99, the rule ono99_on_tens, a total ending in 0, and no ONO 99 played "
    "yet this turn (X3); never otherwise (K6)",
}


def action_table_markdown() -> str:
    """The action space as a Markdown table (it is pasted into ``docs/rl.md``)."""
    lines = ["| index | action | legal when the seat … |", "|---|---|---|"]
    for action in ALL_ACTIONS:
        if action is DRAW:
            when = "owes a draw (rule draw_penalty, X2); never otherwise"
        elif action is DISCARD:
            when = (
                "holds four ONO 99s and the rule four_ono99_discard (K7); then nothing else is "
                "legal but an owed draw"
            )
        else:
            assert action.card is not None
            when = _WHEN.get(
                action.card,
                f"holds the card {action.card} and total + {action.card} ≤ max_total (T1)",
            )
        lines.append(f"| {action.index} | `{action}` | {when} |")
    return "\n".join(lines) + "\n"
