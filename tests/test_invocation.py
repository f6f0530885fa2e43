"""Commands printed for the user name a program that exists, the way they started it, and a
bot whose extra is missing is never offered (the install profiles check the same for real in
fresh venvs: scripts/profiles.toml)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ono99.bots import BOT_INFO, BotInfo, RandomBot, UnknownBotError, check_bot, offered_bots
from ono99.invocation import LAUNCHER_VARIABLE, pip_install, program

ROOT = Path(__file__).resolve().parent.parent


def test_the_launcher_is_named_by_its_absolute_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LAUNCHER_VARIABLE, str(ROOT / "ono99"))
    assert program("/anything/.venv/bin/ono99") == str(ROOT / "ono99")


def test_python_dash_m_is_named_with_this_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LAUNCHER_VARIABLE, raising=False)
    assert program(str(ROOT / "src/ono99/__main__.py")) == f"{sys.executable} -m ono99"


def test_a_script_started_by_path_is_named_by_its_absolute_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(LAUNCHER_VARIABLE, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no ono99 on PATH
    script = Path(sys.executable).parent / "ono99"
    assert program(str(script)) == str(script.resolve())


def test_ono99_on_path_is_named_ono99(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LAUNCHER_VARIABLE, raising=False)
    script = Path(sys.executable).parent / "ono99"
    monkeypatch.setenv("PATH", f"{script.parent}{os.pathsep}{os.environ['PATH']}")
    assert program("ono99") == "ono99"


def test_help_examples_name_the_program_as_started() -> None:
    env = {k: v for k, v in os.environ.items() if k != LAUNCHER_VARIABLE}
    out = subprocess.run(
        [sys.executable, "-m", "ono99", "replay", "--help"],
        capture_output=True, text=True, check=True, env=env,
    ).stdout  # fmt: skip
    assert f"Usage: {sys.executable} -m ono99 replay" in out
    assert f"\n    {sys.executable} -m ono99 replay game.json --json" in out
    assert "\n    ono99 " not in out


def test_pip_install_names_this_checkout_and_interpreter() -> None:
    line = pip_install("rl")
    assert line == f"{sys.executable} -m pip install -e '{ROOT}[rl]'"


def test_a_bot_whose_modules_are_missing_says_which_extra_installs_it() -> None:
    info = BotInfo("ghost", 1, "easy", "", RandomBot, extra="ghosts", needs=("no_such_module_x",))
    note = info.missing()
    assert note is not None and note.startswith("the ghost bot needs the ghosts extra: ")
    assert note.endswith(pip_install("ghosts"))
    assert BotInfo("plain", 1, "easy", "", RandomBot, needs=("json",)).missing() is None


def test_offered_bots_are_exactly_the_opponents_that_can_be_built() -> None:
    for name, info in BOT_INFO.items():
        assert (name in offered_bots()) == (info.missing() is None)
    for name in offered_bots():
        assert check_bot(name).name == name
    assert "oracle" not in offered_bots()


def test_an_unknown_bot_is_a_one_line_error_listing_the_bots_here() -> None:
    with pytest.raises(UnknownBotError, match=r"^unknown bot 'nobody'; the bots are random, "):
        check_bot("nobody")


FAKE_PYTHON = """#!/usr/bin/env bash
# python3 -m venv DIR: a venv whose python (pip) succeeds at once and whose ono99 says so.
[ "$1 $2" = "-m venv" ] || exit 3
mkdir -p "$3/bin"
printf '#!/usr/bin/env bash\\nsleep 1\\n' > "$3/bin/python"
printf '#!/usr/bin/env bash\\necho "ono99 $*"\\n' > "$3/bin/ono99"
chmod +x "$3/bin/python" "$3/bin/ono99"
"""


def test_the_launcher_says_what_its_first_run_does_and_how_long_it_takes(
    tmp_path: Path,
) -> None:
    """``./ono99`` in a fresh checkout makes .venv and installs into it: 40 silent seconds
    before. It says so on stderr (stdout stays the game's), and later runs say nothing."""
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "ono99", checkout / "ono99")
    shutil.copy(ROOT / "scripts" / "bootstrap.sh", checkout / "scripts" / "bootstrap.sh")
    (checkout / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    fake = tmp_path / "python3"
    fake.write_text(FAKE_PYTHON, encoding="utf-8")
    fake.chmod(0o755)
    env = {**os.environ, "PYTHON": str(fake)}

    def launch() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["./ono99", "play"], cwd=checkout, env=env, capture_output=True, text=True, timeout=60
        )

    first = launch()
    assert first.returncode == 0, first.stderr
    assert first.stdout == "ono99 play\n"
    assert first.stderr.startswith(
        f"ono99: first run: creating {checkout / '.venv'} and installing ono99 with the server "
        "extra into it; this takes about a minute (later runs start at once)...\n"
    )
    assert re.search(r"^ono99: ready after \d+ s\.$", first.stderr, re.M)
    again = launch()
    assert again.stderr == "" and again.stdout == "ono99 play\n"
    (checkout / "pyproject.toml").touch()
    os.utime(checkout / "pyproject.toml", (time.time() + 5, time.time() + 5))
    changed = launch()
    assert "ono99: installing ono99 with the server extra into" in changed.stderr
