"""The text render as a picture, for ``render_mode="rgb_array"`` (what SB3's ``make_vec_env``
and video recorders ask for): the lines of ``render_text`` drawn in a 7 × 14 bitmap font
(``glyphs.py``) with NumPy alone, dark on light."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine import View
from .core import render_text
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
