"""``ono99 analyze`` as it runs: its phases and their games, the progress it shows per phase
with a time left that each phase's own cost sets, and Ctrl-C, which keeps the experiments
finished as a partial report and says so in one line.

No test asserts a time: the time-left arithmetic runs on a clock the test moves by hand.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ono99.cli import analyze as analyze_cli
from ono99.cli.analyze_progress import PhaseClock
from ono99.sim.experiments import Phase, Run, default_strong_games, game_counts, plan
from ono99.sim.report import write_report
from tiers import slow

NAMES = ["seat order", "game length", "card effects", "house rules", "strong bot's edge"]


# --------------------------------------------------------------------------- the phases


def test_the_phases_and_their_games() -> None:
    # The README's example: 500 games per cell, the strong bot's count scaled down from it.
    assert default_strong_games(500) == 5
    assert [default_strong_games(n) for n in (1, 100, 101, 1000)] == [1, 1, 2, 10]
    phases = plan(500, strong="expert")
    assert [p.name for p in phases] == NAMES
    # 2 editions × 5 table sizes; × 3 match formats; 2 editions; 2 × 5 rule sets, twice.
    assert [p.games for p in phases] == [5000, 3000, 1000, 5000, 50]
    assert [p.bots for p in phases] == ["greedy"] * 4 + ["expert vs greedy"]
    assert [p.experiment for p in phases] == [
        "seat_order",
        "game_length",
        "card_effects",
        "house_rules",
        "house_rules",
    ]
    assert plan(500, 40, "expert")[-1].games == 400
    assert game_counts(500, 40) == 14_400
    # A game with the expert costs far more than a greedy one, and a tokens match (1980's
    # default) more than a single game (2022's): the priors order them so.
    seats, edge = phases[0], phases[-1]
    assert edge.prior_seconds() / edge.games > 100 * seats.prior_seconds() / seats.games
    assert [n for n, _ in edge.cells] == [5] * 10  # 2022's five rule sets, then 1980's
    assert edge.prior_seconds(25, 26) > 3 * edge.prior_seconds(0, 1)
    # Options change what the strong bot's games cost: the prior no longer says how long.
    assert all(p.known for p in phases)
    assert not plan(500, strong="expert", strong_options={"worlds": 8})[-1].known


def test_a_run_plays_each_phase_s_games_in_order() -> None:
    run = Run(3, seed=5, strong_games=2, strong="greedy")
    games: dict[str, int] = {}  # games played in each phase, in the order they began

    def begin(phase: Phase) -> None:
        games[phase.name] = 0

    def game() -> None:
        games[list(games)[-1]] += 1

    result = run.run(on_game=game, on_phase=begin)
    assert list(games.items()) == [(p.name, p.games) for p in run.phases]
    assert [p.name for p in run.phases] == NAMES
    assert not result.partial and result.strong_games == 2


@slow
def test_an_interrupted_run_keeps_the_experiments_it_finished(tmp_path: Path) -> None:
    run = Run(3, seed=5, strong_games=2, strong="greedy")

    def stop_at_cards(phase: Phase) -> None:
        if phase.name == "card effects":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run.run(on_phase=stop_at_cards)
    partial = run.partial()
    assert partial is not None and partial.partial
    assert partial.stopped_during == "card effects"
    assert partial.seat_order and partial.game_length
    assert partial.card_effects == () and partial.house_rules == ()
    paths = write_report(partial, tmp_path, "ono99 analyze --games 3")
    assert {p.name for p in paths} == {
        "report.md",
        "results.json",
        "seat_order.png",
        "length_by_players.png",
        "game_length.png",
    }
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "**Partial report**" in report and "during its card effects phase" in report
    assert "the sections on card effects and house rules are missing" in report
    assert "## 2. How long" in report and "## 3." not in report and "## 4." not in report
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["stopped_during"] == "card effects" and results["house_rules"] == []


# --------------------------------------------------------------------------- time left


class Hand:
    """A clock moved by the test."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_time_left_weighs_each_phase_by_its_own_cost() -> None:
    cheap = Phase("cheap", "seat_order", "greedy", ((10, 1.0),))
    # Two cells: games of a prior 50 s, then games of 200 s (a longer match, say).
    dear = Phase("dear", "house_rules", "expert vs greedy", ((2, 50.0), (2, 200.0)))
    hand = Hand()
    clock = PhaseClock((cheap, dear), workers=2, now=hand)
    # Before any game: the priors, shared by the two workers.
    assert clock.left(0) == (5.0, "prior")
    assert clock.total_left() == (5.0 + 500.0 / 2, False)
    clock.begin(cheap)
    for _ in range(5):
        clock.tick()
    hand.t += 10.0  # five games of a prior second each took ten: this machine is slow now
    assert clock.left(0) == (10.0, "measured")
    assert clock.left(1) == (2 * 500.0, "prior")  # its prior, at the speed measured
    for _ in range(5):
        clock.tick()
    hand.t += 10.0
    clock.begin(dear)
    assert clock.left(0) == (0.0, "done")
    assert clock.left(1) == (2 * 500.0, "prior")
    clock.tick()
    hand.t += 100.0  # the first dear game took a hundred seconds, its prior fifty
    # The rest at that rate, the 200 s games weighed as four times the 50 s one just played.
    assert clock.left(1) == (2 * (50.0 + 400.0), "measured")
    assert clock.total_left() == (900.0, False)
    assert clock.total_text() == "0:15:00"


def test_a_speed_up_carries_over_to_the_same_bots_only() -> None:
    greedy = Phase("a", "seat_order", "greedy", ((4, 10.0),))
    again = Phase("b", "game_length", "greedy", ((1, 10.0),))
    expert = Phase("c", "house_rules", "expert vs greedy", ((1, 100.0),))
    hand = Hand()
    clock = PhaseClock((greedy, again, expert), now=hand)
    clock.begin(greedy)
    for _ in range(4):
        clock.tick()
    hand.t += 20.0  # half their priors
    assert clock.left(1) == (5.0, "prior")  # the same bots: as fast again
    assert clock.left(2) == (100.0, "prior")  # others: no faster than their prior
    hand.t += 20.0
    clock.begin(again)
    clock.tick()
    hand.t += 40.0  # now the machine is slow: that does carry over
    assert clock.left(2) == (100.0 * 80.0 / 50.0, "prior")


def test_a_phase_of_unknown_cost_makes_the_total_a_lower_bound() -> None:
    cheap = Phase("cheap", "seat_order", "greedy", ((4, 1.0),))
    optioned = Phase("edge", "house_rules", "expert vs greedy", ((3, 10.0),), known=False)
    hand = Hand()
    clock = PhaseClock((cheap, optioned), now=hand)
    assert clock.left(1) == (0.0, "unknown")
    assert clock.total_left() == (4.0, True)
    assert clock.total_text() == "at least 0:00:04"
    clock.begin(cheap)
    for _ in range(4):
        clock.tick()
    hand.t += 4.0
    clock.begin(optioned)
    assert clock.total_text() == "at least 0:00:00"
    clock.tick()
    hand.t += 30.0
    assert clock.left(1) == (60.0, "measured")  # its own first game tells
    assert clock.total_text() == "0:01:00"


# --------------------------------------------------------------------------- the command


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "ono99", "analyze", *args]


def environment(cwd: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["MPLCONFIGDIR"] = str(cwd / "mpl")
    env["PYTHONIOENCODING"] = "utf-8"
    return env


@slow
def test_progress_bars_name_each_phase_on_a_terminal(tmp_path: Path) -> None:
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    env = {**environment(tmp_path), "COLUMNS": "120", "LINES": "40"}
    args = ["--games", "3", "--seed", "2", "--strong", "greedy", "--out", "r"]
    proc = subprocess.Popen(
        command(*args), stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path, env=env
    )
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal's other end closed: the command has ended
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.wait(timeout=300) == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode("utf-8", "replace"))
    for name in [*NAMES, "all phases"]:
        assert name in text
    assert " left" in text and "wrote" in text
    # --strong-games defaults to --games / 100 (at least 1), and the report says so.
    report = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "--games 3 --strong-games 1 --seed 2" in report


def interrupted(args: list[str], wait_for: str, cwd: Path) -> tuple[int, str]:
    """Start ``ono99 analyze`` in its own process group, wait for a progress line holding
    ``wait_for``, then press Ctrl-C the way a terminal does (SIGINT to the whole group, its
    worker processes included); its exit code and everything it wrote to stderr."""
    proc = subprocess.Popen(
        command(*args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=environment(cwd),
        start_new_session=True,
    )
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if wait_for in line:
            break
    else:
        proc.wait(timeout=60)
        pytest.fail(f"no line with {wait_for!r} in: {''.join(seen)}")
    os.killpg(proc.pid, signal.SIGINT)
    _, rest = proc.communicate(timeout=120)
    return proc.returncode, "".join(seen) + rest


@slow
def test_ctrl_c_keeps_the_phases_finished_as_a_partial_report(tmp_path: Path) -> None:
    args = ["--games", "60", "--seed", "4", "--strong", "expert", "--out", "r"]
    code, err = interrupted(args, "analyze: game length (2/5)", tmp_path)
    assert code == 130, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert re.fullmatch(
        r"interrupted during (game length|card effects|house rules) \(phase \d of 5\) after "
        r"\d:\d\d:\d\d; kept seat order.*: wrote a partial report to r/report\.md",
        last,
    ), last
    report = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "**Partial report**" in report
    assert "--games 60 --strong-games 1 --seed 4 --strong expert" in report


@slow
def test_ctrl_c_never_replaces_a_report_with_a_partial_one(tmp_path: Path) -> None:
    # Two workers: Ctrl-C reaches them too, and they must neither print nor linger.
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "report.md").write_text("an earlier report\n", encoding="utf-8")
    args = ["--games", "60", "--seed", "4", "--workers", "2", "--out", "r"]
    code, err = interrupted(args, "analyze: game length (2/5)", tmp_path)
    assert code == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert (
        err.strip()
        .splitlines()[-1]
        .endswith(
            "; nothing was written: r/report.md is from an earlier run and was left as it was"
        )
    )
    assert (tmp_path / "r" / "report.md").read_text(encoding="utf-8") == "an earlier report\n"
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == ["report.md"]


def test_an_interruption_in_the_first_phase_keeps_nothing(tmp_path: Path) -> None:
    run = Run(3, seed=5, strong_games=1, strong="greedy")

    def stop() -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run.run(on_game=stop)
    message = analyze_cli.interrupted(run, tmp_path / "r", "ono99 analyze", 75.0)
    assert message == (
        "interrupted during seat order (phase 1 of 5) after 0:01:15; "
        "nothing was written (no phase had finished)"
    )
    assert not (tmp_path / "r").exists()


@slow
def test_a_tiny_run_says_too_few_games_instead_of_stating_a_change(tmp_path: Path) -> None:
    """With one game per rule set, a rule that turned a loss into a win read "changes under
    max_total=99 (+100.0 pp [+100.0, +100.0])": a change stated from one game, with an
    interval of no width."""
    out = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "ono99", "analyze", "--games", "50", "--strong-games", "1",
         "--strong", "greedy", "--seed", "1", "-j", "1", "--out", str(out)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = (out / "report.md").read_text(encoding="utf-8")
    told = "too few games (1; a change needs at least 30) to tell whether a rule changes it"
    assert report.count(told) == 2  # both editions
    assert "and changes under" not in report
    assert "edge +75.0 pp [-4.3, +75.0], change not told: too few games (1; " in report
    assert "| +100.0 pp [-100.0, +100.0] |" in report  # the table: honestly wide
    assert not re.search(r"\[([+-]100\.0), \1\]", report)
    assert "length changes under ono99_on_tens=on" in report  # 50 games are enough for it
