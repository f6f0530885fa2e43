"""The README stays true: its Python examples run, and its commands exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PY_BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_readme_has_python_examples() -> None:
    assert len(PY_BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(PY_BLOCKS)))
def test_readme_python_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(PY_BLOCKS[index], f"README.md python block {index}", "exec"), {})
    assert capsys.readouterr().out.strip()  # every example prints something


def test_readme_links_point_to_files() -> None:
    for target in re.findall(r"\]\(([^)#:]+)\)", README):
        assert (ROOT / target).exists(), target


def test_readme_commands_exist() -> None:
    from ono99.cli.main import main

    used = set(re.findall(r"\./ono99 ([a-z]+)", README))
    assert {"play", "serve", "rules"} <= used
    assert used <= set(main.commands), used - set(main.commands)


@pytest.mark.parametrize("page", sorted((ROOT / "docs").glob("*.md")), ids=lambda p: p.name)
def test_doc_links_point_to_files(page: Path) -> None:
    for target in re.findall(r"\]\(([^)#:]+)\)", page.read_text(encoding="utf-8")):
        assert (page.parent / target).exists(), (page.name, target)
