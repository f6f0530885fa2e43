"""``ono99 review``: a game's decisions for one seat, the mistakes with the better move and the
win-chance line, in the reader's language; ``--json`` is the library's review."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from tests.tiers import slow

from ono99.bots import make_bot
from ono99.cli.main import main
from ono99.cli.review import default_seat
from ono99.engine import load_record, make_rules, record_of
from ono99.sim.driver import play_game
from ono99.sim.review import review_game

DATA = Path(__file__).parents[1] / "data"
SMALL = DATA / "2022-single-2p-midgame.record.json"


def finished_game(path: Path) -> Path:
    """A whole game between bots, saved as ``ono99 play`` saves one (names, the person's seat)."""
    rules = make_rules("2022", players=3)
    final = play_game(rules, [make_bot("greedy", s) for s in range(3)], 21)
    record = record_of(final, meta={"names": ["Ana", "Bo", "Cy"], "human": 1})
    path.write_text(record.to_json(), encoding="utf-8")
    return path


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, ["review", *args])


def test_a_finished_game_reviewed_as_a_person_runs_it(tmp_path: Path) -> None:
    path = finished_game(tmp_path / "game.json")
    record = load_record(path.read_text(encoding="utf-8"))
    done = subprocess.run(
        [sys.executable, "-m", "ono99", "review", str(path), "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Review of Bo · What they could see\n")  # the person's seat
    assert "Win chance" in out and "Better move" in out
    review = review_game(record, 1)
    for d in review.decisions:
        assert re.search(rf"\n *{d.move} ", out), d.move
    assert "Largest mistakes" in out
    for d in review.mistakes:
        assert f"[{d.move}] {d.judgement.capitalize()} at total {d.total}: " in out  # type: ignore[union-attr]
    if not review.mistakes:
        assert "No mistakes" in out
    line = out.split("Win chance after each move played\n")[1]
    assert sum(ch in "▁▂▃▄▅▆▇█" for ch in line) == len(review.searched)


@slow
def test_json_is_the_library_review_in_another_process(tmp_path: Path) -> None:
    path = finished_game(tmp_path / "game.json")
    done = subprocess.run(
        [sys.executable, "-m", "ono99", "review", str(path), "--seat", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    record = load_record(path.read_text(encoding="utf-8"))
    assert json.loads(done.stdout) == review_game(record, 2).to_dict()


def test_every_hand_known_in_greek() -> None:
    result = invoke(str(SMALL), "--lens", "known", "--lang", "el")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Ανάλυση για θέση 0 · Όλα τα χέρια ανοιχτά\n")
    assert "Τα μεγαλύτερα λάθη" in result.stdout


def test_a_seat_the_game_does_not_have_is_refused() -> None:
    result = invoke(str(SMALL), "--seat", "2")
    assert result.exit_code == 2
    assert "error: --seat: the game has seats 0 to 1, not 2" in result.stderr


def test_a_bad_record_is_one_line() -> None:
    result = invoke("/nonexistent/game.json")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: /nonexistent/game.json: cannot read the record")


def test_the_default_seat_is_the_persons() -> None:
    record = load_record(SMALL.read_text(encoding="utf-8"))
    assert default_seat(record) == 0
    terminal = dataclasses.replace(record, meta={"human": 1})
    served = dataclasses.replace(record, meta={"players": ["greedy", "human"]})
    assert default_seat(terminal) == default_seat(served) == 1
