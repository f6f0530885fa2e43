"""The ``learned`` bot (a trained network, ``ono99.bots.learned``) and the example that trains
it (``examples/train_policy.py``): the shipped weights load, the bot plays legally in both
editions and every match format, beats ``random`` clearly in a fixed-seed run (a low bar that
cannot flake), and the training script runs end to end on a tiny budget."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from invariants import config_id
from ono99.bots import BOTS, make_bot
from ono99.bots.learned import LearnedBot, weights_path
from ono99.engine import make_rules
from ono99.sim import play_game
from tiers import slow

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = [
    make_rules(edition, players=players, match=match)
    for edition in ("2022", "1980")
    for match in ("single", "tokens", "points")
    for players in (2, 4)
] + [make_rules("2022", players=3, draw_penalty=True), make_rules("1980", players=6)]


def test_the_learned_bot_is_registered_and_loads_its_weights() -> None:
    assert "learned" in BOTS
    bot = make_bot("learned", 1)
    assert isinstance(bot, LearnedBot) and bot.name == "learned"
    with np.load(weights_path()) as data:
        assert data["w1"].shape == (173, 128) and data["w2"].shape == (128, 18)
        assert np.isfinite(data["w1"]).all() and np.abs(data["w2"]).max() > 0


def test_the_learned_bot_needs_numpy_and_nothing_of_the_environments() -> None:
    """It encodes views with ``ono99.features`` (engine and NumPy only): building it and
    choosing a move loads neither the RL environments nor Gymnasium, PettingZoo or Numba, so
    the ``learned`` extra (NumPy alone) is all it needs, as its registry entry says."""
    script = (
        "import sys\n"
        "from ono99.bots import BOT_INFO, make_bot\n"
        "from ono99.engine import make_rules, new_game, view\n"
        "state = new_game(make_rules(), 1)\n"
        "make_bot('learned').choose(view(state, state.to_play))\n"
        "heavy = ('ono99.env', 'gymnasium', 'pettingzoo', 'numba')\n"
        "print(sorted(m for m in heavy if m in sys.modules), BOT_INFO['learned'].needs)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[] ('numpy',)"


@pytest.mark.parametrize("rules", CONFIGS, ids=[config_id(r) for r in CONFIGS])
def test_the_learned_bot_plays_legally_everywhere(rules: object) -> None:
    """``play_game`` applies every choice through the checked ``apply``: an illegal one
    raises. The learned bot takes every other seat."""
    from ono99.engine import Rules

    assert isinstance(rules, Rules)
    for game in range(2):
        bots = [
            make_bot("learned" if (s + game) % 2 == 0 else "random", s)
            for s in range(rules.players)
        ]
        final = play_game(rules, bots, 50 + game)
        assert final.over and final.winners


def test_the_learned_bot_beats_random_clearly() -> None:
    """Two players, 2022 single games, 200 fixed-seed games with the seats alternating. The
    shipped policy won 72.7% of 2,000 such games (docs/rl.md); a random player wins half, so
    60% is a bar the bot clears by four standard errors and a random player never would."""
    rules = make_rules("2022", players=2)
    wins = 0
    games = 200
    for g in range(games):
        learned = g % 2
        bots = [make_bot("random", g), make_bot("random", g)]
        bots[learned] = make_bot("learned", g)
        final = play_game(rules, bots, 7000 + g)
        wins += learned in final.winners
    assert wins / games >= 0.6, f"learned won {wins} of {games}"


@slow
def test_the_training_example_runs(tmp_path: Path) -> None:
    """A few tiny iterations of ``examples/train_policy.py``: weights, curve and plot appear,
    and the weights load into the bot, which then plays a legal game."""
    script = runpy.run_path(str(ROOT / "examples" / "train_policy.py"), run_name="train_policy")
    code = script["main"](
        ["--iterations", "2", "--num-envs", "16", "--steps", "4", "--out-dir", str(tmp_path)]
    )
    assert code == 0
    weights = tmp_path / "learned-2022.npz"
    assert (tmp_path / "learning-curve.png").stat().st_size > 1000
    lines = (tmp_path / "learning-curve.csv").read_text().splitlines()
    assert lines[0].startswith("iteration,steps,seconds") and len(lines) == 3
    bot = LearnedBot(weights=weights)
    final = play_game(make_rules("2022", players=3), [bot, bot, make_bot("greedy")], 3)
    assert final.over
