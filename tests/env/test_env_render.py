"""``render_mode="rgb_array"``: the text render drawn as a picture with NumPy alone, so that
``gym.make(..., render_mode="rgb_array")`` (what SB3's make_vec_env passes) works."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from ono99.engine import view
from ono99.env import GYM_ID
from ono99.env.glyphs import H, W
from ono99.env.render import INK, MARGIN, PAPER, render_text, text_image


def test_rgb_array_render_is_the_text_drawn() -> None:
    env = gym.make(GYM_ID, render_mode="rgb_array", players=4)
    env.reset(seed=1)
    raw = env.unwrapped
    text = render_text(view(raw.game, raw.seat))
    lines = text.rstrip("\n").split("\n")
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    assert first.shape == (len(lines) * H + 2 * MARGIN, max(map(len, lines)) * W + 2 * MARGIN, 3)
    assert set(np.unique(first)) == {INK, PAPER}
    np.testing.assert_array_equal(first, text_image(text))
    env.step(int(raw.action_masks().argmax()))
    assert not np.array_equal(env.render(), first)  # the picture follows the game
    env.close()


def test_text_image_draws_each_character_in_its_cell() -> None:
    a, b = text_image("ab"), text_image("ba")
    cell = np.s_[MARGIN : MARGIN + H, MARGIN : MARGIN + W]
    right = np.s_[MARGIN : MARGIN + H, MARGIN + W : MARGIN + 2 * W]
    np.testing.assert_array_equal(a[cell], b[right])
    assert (a[cell] == INK).any() and not np.array_equal(a[cell], a[right])
    # a character the font lacks is drawn as "?"
    np.testing.assert_array_equal(text_image("€"), text_image("?"))
    assert (text_image(" ") == PAPER).all()
