"""What both environments share: the action space, masks, rewards and a text rendering.

Actions are the engine's indices into ``ALL_ACTIONS``: 0–15 play the card with that id (N1
order), 16 is ``discard ono99`` (K7), 17 is ``draw`` (X2). The space is the same for every
edition and option set; what a rule set forbids is simply never legal.
"""

from __future__ import annotations

import numpy as np

from ..engine import ALL_ACTIONS, DISCARD, DRAW, OUT, State, View
from ..engine.cards import HOLD, MINUS_TEN, ONO99, PLAY2, REVERSE
from ..features import NUM_ACTIONS, legal_mask
from ..i18n import card_label, number_text

WIN = 1.0  # shared among tied winners: each of k winners gets WIN / k
LOSS = -1.0
ILLEGAL = -1.0  # the default penalty for an illegal action, which ends the episode


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


def final_reward(state: State, seat: int) -> float:
    """The reward a seat's episode ends with: WIN / k for each of k winners, LOSS for a seat
    out of the game (no seat that leaves before the end can win), 0 while still playing."""
    if state.over:
        return WIN / len(state.winners) if seat in state.winners else LOSS
    return LOSS if state.status[seat] == OUT else 0.0


def render_text(v: View) -> str:
    """A few plain lines describing a view (a spectator's, or a seat's with its hand), in
    English (card names from the English catalog)."""
    edition = v.rules.edition
    n = v.rules.players
    if v.over:
        head = f"round {v.round} · game over · winners: {', '.join(map(str, v.winners))}"
    else:
        way = "clockwise" if v.direction > 0 else "counter-clockwise"
        head = (
            f"round {v.round} · total {number_text(v.total)} · {way} · seat {v.to_play} to play"
            f" ({v.owed} card{'s' if v.owed > 1 else ''} owed)"
        )
    lines = [head]
    for s in range(n):
        parts = [f"seat {s}{' (you)' if s == v.seat else ''}: {v.status[s]}",
                 f"{v.hand_sizes[s]} cards"]  # fmt: skip
        if s == v.seat and v.hand is not None:
            parts.append("[" + ", ".join(card_label(c, edition) for c in v.hand) + "]")
        if v.laid_down[s]:
            parts.append(
                "laid down [" + ", ".join(card_label(c, edition) for c in v.laid_down[s]) + "]"
            )
        if v.tokens is not None:
            parts.append(f"tokens {v.tokens[s]}")
        if v.scores is not None:
            parts.append(f"score {v.scores[s]}")
        if s in v.owes_draw:
            parts.append("owes a draw")
        lines.append(", ".join(parts))
    plays = [e for e in v.events if e.kind in ("play", "discard")]
    if plays:
        e = plays[-1]
        assert e.card is not None and e.total is not None
        verb = "laid down four" if e.kind == "discard" else "played"
        lines.append(
            f"last: seat {e.seat} {verb} {card_label(e.card, edition)} → {number_text(e.total)}"
        )
    return "\n".join(lines) + "\n"


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
