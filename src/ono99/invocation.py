"""How the person at the keyboard runs ono99 here, so that every command we print for them
(a replay line, a ``--help`` example, the install line for a missing extra) works as printed,
pasted from any folder.

- Started by the ``./ono99`` launcher of a checkout: the launcher's absolute path (it sets
  ``$ONO99_LAUNCHER``); ``.venv/bin/ono99`` is not on their PATH.
- Started as ``ono99`` found on PATH: ``ono99``.
- Started by path (``.venv/bin/ono99``) or as ``python -m ono99``: that path, absolute.

And where ono99 keeps a person's files (``ono99_home``): game records, tournaments, the
server's default database — never the folder it happens to be run from.

Standard library only, and no I/O beyond reading the environment: any layer may ask.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

LAUNCHER_VARIABLE = "ONO99_LAUNCHER"
HOME_VARIABLE = "ONO99_HOME"
HOME_HELP = "ONO99_HOME=~/.local/share/ono99"  # for --help: its default


def ono99_home() -> Path:
    """The folder of the person's ono99 files: ``$ONO99_HOME``, else ~/.local/share/ono99."""
    return Path(os.environ.get(HOME_VARIABLE) or Path.home() / ".local" / "share" / "ono99")


def default_database() -> Path:
    """The server's SQLite file when none is named: in ``ono99_home``, not beside the code."""
    return ono99_home() / "ono99.db"


def program(argv0: str | None = None) -> str:
    """The command, ready for a shell, that runs ``ono99`` the way it was run this time."""
    launcher = os.environ.get(LAUNCHER_VARIABLE)
    if launcher:
        return shlex.quote(str(Path(launcher).resolve()))
    argv0 = sys.argv[0] if argv0 is None else argv0
    if Path(argv0).name in ("__main__.py", "-m", "-c", "") or argv0.endswith("ono99/__main__.py"):
        return f"{shlex.quote(sys.executable)} -m ono99"
    on_path = shutil.which("ono99")
    if on_path and Path(argv0).name == "ono99" and _same_file(on_path, argv0):
        return "ono99"
    found = shutil.which(argv0) or argv0
    return shlex.quote(str(Path(found).resolve()))


def source_checkout() -> Path | None:
    """The checkout this package is installed from in editable mode, if it is."""
    root = Path(__file__).resolve().parent.parent.parent
    if (root / "pyproject.toml").is_file() and (root / "src" / "ono99").is_dir():
        return root
    return None


def pip_install(extra: str) -> str:
    """The command that adds ``extra`` to the environment ono99 runs in."""
    pip = f"{shlex.quote(sys.executable)} -m pip install"
    checkout = source_checkout()
    if checkout is not None:
        return f"{pip} -e {shlex.quote(f'{checkout}[{extra}]')}"
    return f"{pip} {shlex.quote(f'ono99[{extra}]')}"


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, shutil.which(b) or b)
    except OSError:
        return False
