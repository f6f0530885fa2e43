"""Hints in ``ono99 play``: ``hint`` at the prompt and ``--hints`` at every turn show the
expert's suggestion and its estimated win chance for each legal move — computed from the
person's view alone.
"""

from __future__ import annotations

import io
import random
import re
import time
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console

from hidden import hide
from ono99.bots import make_bot
from ono99.cli.main import main
from ono99.cli.play import TerminalGame
from ono99.cli.play_screen import Screen
from ono99.engine import make_rules, to_act, view
from ono99.i18n import translator
from test_cli_play import check_transcript, run_cli, script

HINT_HEAD = re.compile(r"^  Hint \(expert\): estimated chance to win( the match)?$", re.M)
HINT_LINE = re.compile(r"^    (\S.*?) +(\d+)%(  ◀ suggested)?$")


CLOSE_NOTE = "    A higher figure that is not suggested is within the search's margin of error."


def close_notes(out: str) -> list[bool]:
    """For each hint shown, whether the margin-of-error note follows its moves."""
    lines = out.splitlines()
    notes = []
    for i, line in enumerate(lines):
        if HINT_HEAD.match(line):
            rest = [row for row in lines[i + 1 :] if not HINT_LINE.match(row)]
            notes.append(bool(rest) and rest[0] == CLOSE_NOTE)
    return notes


def hint_blocks(out: str) -> list[list[tuple[str, int, bool]]]:
    """Each hint shown: its lines as (move, percent, suggested)."""
    blocks = []
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if HINT_HEAD.match(line):
            block = []
            for row in lines[i + 1 :]:
                m = HINT_LINE.match(row)
                if not m:
                    break
                block.append((m[1], int(m[2]), bool(m[3])))
            blocks.append(block)
    return blocks


def test_hints_flag_shows_a_hint_before_every_move(tmp_path: Path) -> None:
    done = run_cli(["play", "--hints", "--seed", "3", "--save", str(tmp_path / "g.json")],
                   script(), tmp_path)  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, done.stderr + out[-2000:]
    check_transcript(out)
    blocks = hint_blocks(out)
    turns = out.count("───── Round")  # the table is shown once per turn of the person
    assert turns > 1 and len(blocks) == turns
    for block in blocks:
        assert block, "a hint lists at least one move"
        assert block[0][2] and not any(s for _, _, s in block[1:])  # the first is suggested
        others = [p for _, p, _ in block[1:]]  # after the suggestion, likeliest first
        assert others == sorted(others, reverse=True)
        assert all(0 <= p <= 100 for _, p, _ in block)
    # A move shown above the suggestion gets a word on the margin of error, and only then.
    notes = close_notes(out)
    higher = [max((p for _, p, _ in b[1:]), default=-1) > b[0][1] for b in blocks]
    assert notes == higher


def test_hint_at_the_prompt(tmp_path: Path) -> None:
    done = run_cli(["play", "--seed", "9", "--save", str(tmp_path / "g.json")],
                   "hint\nquit\n", tmp_path)  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, done.stderr
    blocks = hint_blocks(out)
    assert len(blocks) == 1
    # The moves named are exactly the legal ones shown for this hand.
    hand = re.search(r"^  Your hand (.*)$", out, re.M)
    assert hand is not None
    for move, _, _ in blocks[0]:
        card, position = re.fullmatch(r"(.+) \(#(\d)\)", move).groups()  # type: ignore[union-attr]
        assert f"#{position} {card}" in hand[1]


def test_hints_for_a_tokens_match_speak_of_the_match(tmp_path: Path) -> None:
    done = run_cli(
        ["play", "--edition", "1980", "--seed", "2", "--save", str(tmp_path / "g.json")],
        "hint\nquit\n",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "Hint (expert): estimated chance to win the match" in done.stdout


def test_help_mentions_hints() -> None:
    result = CliRunner().invoke(main, ["play", "--help"], prog_name="ono99")
    assert result.exit_code == 0
    assert "--hints" in result.output
    assert "ono99 play --hints" in result.output


def test_the_hint_depends_only_on_the_persons_view() -> None:
    """Two games that differ only in cards the person cannot see print the same hint."""
    rules = make_rules("2022", players=3)
    rng = random.Random(4)
    shown = []
    for hidden in (False, True):
        console = Console(file=io.StringIO(), width=100, highlight=False, emoji=False)
        bots = [None, make_bot("greedy"), make_bot("greedy")]
        game = TerminalGame(rules, 12, 0, ["You", "Ana", "Ben"], bots, console, lambda: "")
        game.play_bots()  # up to the person's first turn
        assert to_act(game.state) == 0
        if hidden:
            before = game.state
            game.state = hide(before, 0, rng)
            assert game.state.hands[1:] != before.hands[1:]
        assert len(view(game.state, 0).legal) > 1
        game.show_hint()
        text = console.file.getvalue()  # type: ignore[attr-defined]
        assert "Hint (expert)" in text
        shown.append(text)
    assert shown[0] == shown[1]


def test_a_person_waiting_for_a_hint_is_told_so_and_why_it_is_slow() -> None:
    """The first hint after installing compiles the expert's search (half a minute on a cold
    Numba cache): at a terminal a spinner says a hint is being worked out, and after a few
    seconds why it takes long; in a script or a log nothing is added."""
    rules = make_rules("2022", players=2)

    def shown(interactive: bool, lang: str = "en") -> str:
        out = io.StringIO()
        console = Console(
            file=out, force_terminal=interactive, force_interactive=interactive, width=100
        )
        screen = Screen(console, rules, 0, ["You", "Ana"], [None, "greedy"], translator(lang))
        with screen.working(slow_after=0.5):
            time.sleep(1.5)  # the search, compiling (rich redraws 12.5 times a second)
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", out.getvalue())

    seen = shown(True)
    assert "Working out a hint…" in seen
    assert "Still working: the first hint after installing takes up to a minute." in seen
    assert seen.index("Working out") < seen.index("Still working")
    assert "μετά την εγκατάσταση" in shown(True, "el")
    assert shown(False) == ""
