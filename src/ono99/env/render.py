"""What every environment's ``render()`` shows: a view as a few plain lines (``render_text``,
``render_mode="ansi"``), and those lines as a picture, for ``render_mode="rgb_array"`` (what
SB3's ``make_vec_env`` and video recorders ask for), drawn in a 7 × 14 bitmap font
(``glyphs.py``) with NumPy alone, dark on light."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine import View
from ..i18n import card_label, number_text
from .glyphs import BITMAPS, CHARS, H, W

MARGIN = 4
INK, PAPER = 20, 245

_GLYPHS = np.array(
    [[(int(b, 16) >> (W * H - 1 - k)) & 1 for k in range(W * H)] for b in BITMAPS],
    dtype=np.bool_,
).reshape(len(BITMAPS), H, W)
_INDEX = {c: i for i, c in enumerate(CHARS)}
_UNKNOWN = _INDEX["?"]


def check_render_mode(mode: str | None, modes: Sequence[str]) -> str | None:
    """``mode`` if it is one of the environment's ``modes`` (or None); else a ValueError."""
    if mode is not None and mode not in modes:
        raise ValueError(f"render_mode must be one of {list(modes)}")
    return mode


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


def render_view(v: View, mode: str) -> str | np.ndarray | None:
    """What ``render()`` gives in ``mode``: the text of the view (``ansi``), its picture
    (``rgb_array``), or None once the text is printed (``human``)."""
    text = render_text(v)
    if mode == "ansi":
        return text
    if mode == "rgb_array":
        return text_image(text)
    print(text)
    return None


def text_image(text: str) -> np.ndarray:
    """``text`` as an RGB image: uint8, (height, width, 3); a character the font lacks is
    drawn as ``?``."""
    lines = text.rstrip("\n").split("\n")
    cols = max(1, max(len(line) for line in lines))
    ink = np.zeros((len(lines) * H, cols * W), dtype=np.bool_)
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            ink[r * H : (r + 1) * H, c * W : (c + 1) * W] = _GLYPHS[_INDEX.get(ch, _UNKNOWN)]
    gray = np.full((ink.shape[0] + 2 * MARGIN, ink.shape[1] + 2 * MARGIN), PAPER, np.uint8)
    gray[MARGIN:-MARGIN, MARGIN:-MARGIN][ink] = INK
    return np.repeat(gray[:, :, None], 3, axis=2)
