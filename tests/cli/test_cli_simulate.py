"""``ono99 simulate``: win tables that add up, JSON output, and one-line errors."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner

from ono99.cli.main import main
from ono99.engine import make_rules
from ono99.sim.seated import run_seated
from ono99.sim.stats import wilson_interval


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, ["simulate", *args])


def test_table_wins_add_up() -> None:
    result = invoke("--bots", "greedy,random,random,random", "--games", "20", "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "\x1b" not in out
    assert out.startswith("20 games · 2022 edition · 4 players · seed 3")
    rows = re.findall(r"^\s*(\d)\s+(greedy|random)\s+(\d+(?:\.\d+)?)\s+([\d.]+)%", out, re.M)
    assert [(seat, bot) for seat, bot, _, _ in rows] == [
        ("0", "greedy"),
        ("1", "random"),
        ("2", "random"),
        ("3", "random"),
    ]
    assert sum(float(wins) for _, _, wins, _ in rows) == pytest.approx(20)
    for _, _, wins, rate in rows:
        assert float(rate) == pytest.approx(float(wins) / 20 * 100, abs=0.06)
    assert re.search(r"^\s*all\s+20\s+100\.0%", out, re.M)
    assert re.search(r"^average per game: \d+\.\d actions, 1\.00 rounds$", out, re.M)


def test_json_and_rule_options() -> None:
    args = ["--bots", "greedy,random,greedy", "-n", "12", "--seed", "7", "--json"]
    result = invoke(*args, "--edition", "1980", "--match", "points", "--target", "60")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 12
    assert data["bots"] == ["greedy", "random", "greedy"]
    assert data["rules"] == {"edition": "1980", "players": 3, "match": "points", "target": 60}
    assert sum(data["wins"]) == pytest.approx(12)
    assert sum(data["win_rates"]) == pytest.approx(1)
    assert data["avg_rounds"] > 1
    assert data["avg_actions"] > 0
    again = invoke(*args, "--edition", "1980", "--match", "points", "--target", "60")
    assert again.stdout == result.stdout  # a seed makes a run reproducible


def test_shared_wins_count_fractionally() -> None:
    # Points matches can end in a tie (M3); game 2 of run seed 62 of these bots is one.
    rules = make_rules("2022", players=3, match="points", target=30, variant="lowest_score")
    tally = run_seated(rules, ["random", "random", "random"], 5, seed=62)
    assert tally.games == 5
    assert sum(tally.wins) == pytest.approx(5)
    assert any(0 < w % 1 < 1 for w in tally.wins)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "greedy,wizard"], "error: unknown bot 'wizard'; the bots are random, greedy"),
        (["--bots", "greedy"], "error: --bots: a game needs 2 to 6 players, not 1\n"),
        (["--games", "0"], "error: --games must be at least 1, not 0\n"),
        (["--match", "quick"], "error: option 'match': must be one of single, tokens, points, "),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1


def test_the_interval_is_the_tournaments_wilson_interval() -> None:
    result = invoke("--bots", "greedy,random", "--games", "30", "--seed", "5")
    assert result.exit_code == 0, result.output
    rows = re.findall(r"^\s*\d\s+\w+\s+(\S+)\s+\S+%\s+([\d.]+)%–([\d.]+)%$", result.stdout, re.M)
    assert len(rows) == 2
    for wins, low, high in rows:
        want = wilson_interval(float(wins), 30)  # asymmetric, unlike the old Wald ± half-width
        assert (float(low), float(high)) == pytest.approx([100 * x for x in want], abs=0.051)
