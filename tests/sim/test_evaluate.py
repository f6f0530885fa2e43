"""``ono99.evaluate`` (any policy against the bots, seats rotated, fixed seeds) and outside
bots: import paths and the ``ono99.bots`` entry-point group, seated by ``ono99 tournament``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ono99
from ono99.bots import GreedyBot, UnknownBotError, check_bot, make_bot, outside_bots
from ono99.engine import ALL_ACTIONS, View
from ono99.features import observation_bounds
from ono99.sim.evaluate import IllegalPolicyAction, evaluate


def lowest(obs: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_ono99_evaluate_is_the_sim_function() -> None:
    assert ono99.evaluate is evaluate


def test_a_callable_policy_gets_the_observation_and_mask_of_its_seat() -> None:
    asked: list[tuple[Any, Any]] = []

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        asked.append((obs, mask))
        return lowest(obs, mask)

    result = evaluate(policy, opponents="random", players=3, games=6)
    assert result.decisions == len(asked) > 0
    for obs, mask in asked:
        assert obs.dtype == np.float32 and obs.shape == observation_bounds()[0].shape
        assert mask.dtype == np.int8 and mask.shape == (len(ALL_ACTIONS),) and mask.sum() >= 1
        # The hand block of the observation (count / 4) holds the cards a legal play plays.
        hand = np.round(obs[:16] * 4)
        assert all(hand[i] > 0 for i in np.flatnonzero(mask[:16]))


def test_seats_rotate_and_results_add_up() -> None:
    result = evaluate(lowest, opponents=["greedy", "random", "heuristic"], players=4, games=20)
    assert [s.games for s in result.seats] == [5, 5, 5, 5]
    assert result.overall.games == 20
    assert result.overall.wins == pytest.approx(sum(s.wins for s in result.seats))
    low, high = result.ci95
    assert 0 <= low <= result.win_rate <= high <= 1
    assert result.baseline == 0.25
    assert result.opponents == ("greedy", "random", "heuristic")
    data = json.loads(json.dumps(result.to_dict()))
    assert data["games"] == 20 and len(data["seats"]) == 4


def test_same_seed_same_games_and_a_bot_by_name_or_object_is_the_same() -> None:
    by_name = evaluate("greedy", opponents="random", players=2, games=16, seed=3)
    again = evaluate("greedy", opponents="random", players=2, games=16, seed=3)
    by_object = evaluate(GreedyBot(), opponents="random", players=2, games=16, seed=3)
    assert by_name.overall == again.overall == by_object.overall
    assert by_name.seats == by_object.seats
    other_seed = [evaluate("greedy", "random", 2, 16, seed=s).overall.wins for s in range(4)]
    assert len(set(other_seed)) > 1  # the seed changes the deals


def test_a_stronger_policy_measures_stronger() -> None:
    strong = evaluate("heuristic", opponents="random", players=2, games=60)
    weak = evaluate("random", opponents="heuristic", players=2, games=60)
    assert strong.ci95[0] > 0.5 > weak.ci95[1]


def test_editions_and_options_are_the_engines() -> None:
    result = evaluate(lowest, players=2, games=4, edition="1980", match="points", target=30)
    assert result.rules.edition == "1980" and result.rules.match == "points"


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"opponents": ["greedy"]}, ValueError, "4 players need 3 opponents"),
        ({"opponents": "wizard"}, UnknownBotError, "unknown bot 'wizard'; the bots are"),
        ({"games": 0}, ValueError, "games must be a whole number of at least 1, not 0"),
        ({"players": 7}, Exception, "option 'players': must be at most 6, not 7"),
    ],
)
def test_bad_arguments_are_one_line(kwargs: dict[str, Any], error: type, message: str) -> None:
    with pytest.raises(error) as info:
        evaluate(lowest, **kwargs)
    assert message in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (99, "the policy answered 99; action indices go from 0 to 17"),
        ("play 5", "the policy answered 'play 5'; it must answer an action index"),
        (None, "the policy answered None"),
    ],
)
def test_a_bad_answer_stops_with_one_line(answer: Any, message: str) -> None:
    with pytest.raises(IllegalPolicyAction, match=message):
        evaluate(lambda obs, mask: answer, players=2, games=1)


def test_an_illegal_action_names_the_legal_ones() -> None:
    def illegal(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(IllegalPolicyAction, match="which is not legal here; the legal actions"):
        evaluate(illegal, players=2, games=1)


def test_numpy_and_action_answers_are_accepted() -> None:
    a = evaluate(lambda o, m: np.int64(lowest(o, m)), players=2, games=4)
    b = evaluate(lambda o, m: ALL_ACTIONS[lowest(o, m)], players=2, games=4)
    c = evaluate(lambda o, m: np.array(lowest(o, m)), players=2, games=4)
    assert a.overall == b.overall == c.overall


# --------------------------------------------------------------------------- outside bots

BOTS_MODULE = '''
"""Outside bots for the tests."""
from ono99.bots import GreedyBot

class Copycat:
    """plays like greedy, from outside"""
    name = "copycat"
    def __init__(self, seed=None):
        self.inner = GreedyBot(seed)
    def choose(self, view):
        return self.inner.choose(view)

def first_legal():
    class First:
        def choose(self, view):
            return view.legal[0]
    return First()

class NoChoose:
    pass

def broken():
    return 42
'''


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "mybots.py").write_text(textwrap.dedent(BOTS_MODULE), encoding="utf-8")
    dist = folder / "mybots_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: mybots-plugin\nVersion: 0.1\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text(
        "[ono99.bots]\ncopycat = mybots:Copycat\nbroken-plugin = nosuchmodule:Bot\n",
        encoding="utf-8",
    )
    return folder


def run(code: str, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["PYTHONPATH"] = str(folder)
    env["ONO99_HOME"] = str(folder / "home")
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "ono99", *args]
    return subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=300, cwd=folder.parent
    )


def test_an_import_path_is_a_bot_and_plays_as_its_factory_says(outside: Path) -> None:
    code = textwrap.dedent(
        """
        from ono99.sim.evaluate import evaluate
        from ono99.bots import make_bot, check_bot
        bot = make_bot("mybots:Copycat", seed=1)
        print(bot.name, check_bot("mybots:Copycat").description)
        print(make_bot("mybots:first_legal").name)
        a = evaluate("mybots:Copycat", opponents="random", players=2, games=20)
        b = evaluate("greedy", opponents="random", players=2, games=20)
        print(a.overall == b.overall)
        print(evaluate("greedy", opponents="mybots:first_legal", players=3, games=6).opponents)
        """
    )
    result = run(code, outside)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "copycat plays like greedy, from outside"
    assert lines[1] == "mybots:first_legal"  # a bot without a name is called by its path
    assert lines[2] == "True"  # it plays exactly as greedy
    assert lines[3] == "('mybots:first_legal', 'mybots:first_legal')"


def test_a_bot_file_path_works_too(outside: Path) -> None:
    path = outside / "mybots.py"
    result = run(
        f"from ono99.bots import make_bot; print(make_bot({f'{path}:Copycat'!r}).name)", outside
    )
    assert result.stdout.strip() == "copycat", result.stderr


def test_an_entry_point_registers_a_bot_by_name(outside: Path) -> None:
    code = (
        "from ono99.bots import make_bot, outside_bots, offered_bots; "
        "print(outside_bots()); print(make_bot('copycat').name); print('copycat' in offered_bots())"
    )
    result = run(code, outside)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["('broken-plugin', 'copycat')", "copycat", "False"]


def test_the_tournament_seats_outside_bots_in_worker_processes(outside: Path) -> None:
    out = outside / "tour"
    result = run(
        "",
        outside,
        "tournament",
        "--bots",
        f"mybots:Copycat,copycat,{outside / 'mybots.py'}:first_legal",
        "--games",
        "6",
        "--workers",
        "2",
        "--seed",
        "1",
        "--out",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    names = [bot["bot"] for bot in summary["bots"]]
    assert "mybots:Copycat" in names and "copycat" in names and summary["games"] == 6


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("nosuch.module:Bot", "bot 'nosuch.module:Bot': no module named 'nosuch'"),
        ("mybots:Nope", "bot 'mybots:Nope': mybots has no attribute 'Nope'"),
        ("mybots:NoChoose", "bot 'mybots:NoChoose': class NoChoose has no choose(view) method"),
        (":Bot", "an import path is package.module:Factory"),
        ("missing.py:Bot", "bot file 'missing.py' does not exist"),
        ("broken-plugin", "bot 'broken-plugin' (entry point 'nosuchmodule:Bot' of group"),
    ],
)
def test_a_bad_outside_bot_is_one_line(outside: Path, name: str, message: str) -> None:
    result = run("", outside, "tournament", "--bots", f"greedy,{name}", "--games", "2")
    assert result.returncode == 2
    assert message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_a_factory_that_builds_no_bot_says_so(outside: Path) -> None:
    result = run(
        "from ono99.bots import make_bot\ntry:\n    make_bot('mybots:broken')\n"
        "except Exception as e:\n    print(type(e).__name__, e)",
        outside,
    )
    assert result.stdout.strip() == (
        "UnknownBotError bot 'mybots:broken' built int, which has no choose(view) method"
    )


def test_registry_names_win_and_unknown_names_still_list_the_bots() -> None:
    assert check_bot("greedy").level == "easy"
    assert outside_bots() == ()  # nothing registers here
    with pytest.raises(UnknownBotError, match="or an outside bot's import path"):
        make_bot("wizard")


def test_a_bot_is_anything_with_choose() -> None:
    class Lowest:
        name = "lowest"

        def choose(self, view: View) -> Any:
            return view.legal[0]

    result = evaluate(Lowest(), players=2, games=4)
    assert result.policy == "lowest"
