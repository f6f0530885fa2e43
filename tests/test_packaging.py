"""The package data that ``pyproject.toml`` names holds every file the server serves: a wheel
(``pip install .``, not ``-e``) once left out the table's modules in static/js/table/ (a glob
one folder short), and every install the README offers is editable, so nothing else saw it."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "ono99"


def test_every_served_file_is_in_the_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["ono99"]
    served = [
        p.relative_to(PACKAGE).as_posix()
        for p in (PACKAGE / "server" / "static").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    ]
    assert "server/static/js/table/store.js" in served

    # setuptools' globs: "*" never crosses a folder (as fnmatch's does), so match part by part.
    def matches(path: str, pattern: str) -> bool:
        parts, globs = path.split("/"), pattern.split("/")
        return len(parts) == len(globs) and all(
            fnmatch(a, b) for a, b in zip(parts, globs, strict=True)
        )

    missing = [path for path in served if not any(matches(path, g) for g in patterns)]
    assert missing == []
