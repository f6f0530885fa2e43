"""The text render as a picture, for ``render_mode="rgb_array"`` (what SB3's ``make_vec_env``
and video recorders ask for): the lines of ``render_text`` drawn in a 7 × 14 bitmap font
(``glyphs.py``) with NumPy alone, dark on light."""

from __future__ import annotations

import numpy as np

from .glyphs import BITMAPS, CHARS, H, W

MARGIN = 4
INK, PAPER = 20, 245

_GLYPHS = np.array(
    [[(int(b, 16) >> (W * H - 1 - k)) & 1 for k in range(W * H)] for b in BITMAPS],
    dtype=np.bool_,
).reshape(len(BITMAPS), H, W)
_INDEX = {c: i for i, c in enumerate(CHARS)}
_UNKNOWN = _INDEX["?"]


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
