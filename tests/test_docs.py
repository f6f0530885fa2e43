"""The README stays true: its Python examples run, and its commands exist."""

from __future__ import annotations

import doctest
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
sys.path.insert(0, str(ROOT / "scripts"))
import profiles  # noqa: E402  (scripts/profiles.py: the install profiles and their runner)

SH_BLOCKS = re.findall(r"```sh\n(.*?)```", README, re.S)


def test_readme_examples_are_doctests_that_pass() -> None:
    """The README's Python examples print what they say they print (the core install profile
    runs the same doctests in a venv of its own)."""
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=flags)
    assert result.attempted >= 10 and result.failed == 0, result


def readme_commands() -> list[str]:
    """Every command of the README's ```sh blocks, without its comment; a comment
    "# or: COMMAND" offers a second command."""
    commands = []
    for block in SH_BLOCKS:
        for line in block.splitlines():
            command, _, comment = line.partition(" # ")
            if command.strip() and not command.lstrip().startswith("#"):
                commands.append(command.strip())
            if comment.strip().startswith("or: "):
                commands.append(comment.strip().removeprefix("or: "))
    return commands


def profile_commands() -> dict[str, str]:
    """Each README command that an install profile runs, and the profile that runs it."""
    covered = {}
    for profile in profiles.load():
        if "install" in profile:
            covered[profile["install"]] = profile["name"]
        for step in profile["step"]:
            if "readme" in step:
                profiles.command_of(step)  # every replacement finds its text
                covered[step["readme"]] = profile["name"]
    return covered


def test_every_readme_command_is_run_by_an_install_profile() -> None:
    commands = readme_commands()
    assert len(commands) >= 15
    covered = profile_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "exec ./test" in ci or "\n./test\n" in ci  # ./test is what CI runs
    assert "./test --quick --collect-only" in ci  # and checks that the quick tier collects
    missing = [c for c in commands if c not in covered and c not in ("./test", "./test --quick")]
    assert not missing, f"README commands that no profile in scripts/profiles.toml runs: {missing}"


def test_every_profile_step_runs_a_command_the_readme_still_has() -> None:
    stale = sorted(set(profile_commands()) - set(readme_commands()))
    assert not stale, f"profile steps of README commands the README no longer has: {stale}"


def test_the_profiles_cover_every_install_and_extra() -> None:
    import tomllib

    extras = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    )
    names = {p["name"] for p in profiles.load()}
    offered = {e for n in names for e in n.split(",")} | {"test"}
    # bench is for benchmarks only, and the launcher's own install is the server extra.
    assert {"core", "launcher"} <= names
    assert extras - {"bench", "server"} <= offered, extras - offered


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
