"""scripts/tune_planner.py, which made the expert's planner tables (bots/tuned.py): its games
are paired (the same constants on the same seeds play the same games), a step stays in range,
and a short run ends with constants the expert can take."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ono99.bots.heuristic import DEFAULT, Constants
from ono99.engine import make_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import tune_planner


def test_the_same_constants_on_the_same_seeds_play_the_same_games() -> None:
    rules = make_rules("2022", players=2)
    assert tune_planner.paired(rules, DEFAULT, DEFAULT, 400, 5) == (0.0, 0.0)
    won = tune_planner.shares(rules, DEFAULT, 2000, 6)
    assert len(won) == 2000 and 0.45 < won.mean() < 0.62  # the planner beats greedy a little
    gain, se = tune_planner.paired(rules, DEFAULT, DEFAULT._replace(pressure=0.0), 2000, 5)
    assert gain < 0 and se > 0  # blind to the next player's danger: it loses games


def test_steps_stay_in_range() -> None:
    assert tune_planner.moved(DEFAULT, "second_step", 1, False, -1).second_step == 2
    assert tune_planner.moved(DEFAULT._replace(second_step=0), "second_step", 1, False, -1) == (
        DEFAULT._replace(second_step=0)
    )
    assert tune_planner.moved(DEFAULT, "keep_repeat", 0.5, False, 1).keep_repeat == 1.0
    assert tune_planner.moved(DEFAULT, "come_back", 2.0, False, -1).come_back == 0.0
    assert tune_planner.moved(DEFAULT, "keep_play2", 0.2, True, 1).keep_play2 == 12.0


def test_a_short_run_prints_constants(capsys: pytest.CaptureFixture[str]) -> None:
    assert tune_planner.main(["2p", "--games", "400", "--rounds", "1"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert isinstance(eval(last, {"Constants": Constants}), Constants)
