"""The ``ono99`` command: a click group of ``play``, ``serve``, ``admin``, ``replay``,
``review``, ``rules``, ``simulate``, ``tournament`` and ``analyze``."""

from __future__ import annotations

import os

# One BLAS thread per process, before anything loads NumPy. The program's networks run small
# batches (a hint's rollouts wait on the network a few hundred rows at a time) beside other
# work — a server's connections, one process per core in tournaments — and OpenBLAS's threads
# for every core only compete with it: a hint cost 76 ms of CPU with them against 39 ms with
# one (docs/bots.md). A person's own setting is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import click

from .. import __version__
from ..invocation import program
from .admin import admin_command
from .analyze import analyze_command
from .app import app_command
from .command import Group
from .play import play_command
from .replay import replay_command
from .review import review_command
from .rules import rules_command
from .serve import serve_command
from .simulate import simulate_command
from .tournament import tournament_command


@click.group(
    cls=Group,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="\b\nExamples:\n  ono99 play\n  ono99 play --lang el\n  ono99 rules --lang mr\n"
    "  ono99 replay game.json\n"
    "  ono99 review game.json\n"
    "  ono99 simulate --bots greedy,random --games 500\n\n"
    "Every rule option (RULES.md §8) is a flag of play and simulate: see\n"
    "ono99 COMMAND --help.",
)
@click.version_option(__version__, prog_name="ono99")
def main() -> None:
    """ONO 99, the card game: play it against bots, replay records, simulate bots."""


main.add_command(admin_command)
main.add_command(app_command)
main.add_command(analyze_command)
main.add_command(play_command)
main.add_command(replay_command)
main.add_command(review_command)
main.add_command(rules_command)
main.add_command(serve_command)
main.add_command(simulate_command)
main.add_command(tournament_command)


def run() -> None:
    """The console script: ``main`` under the name the user typed to start it, so that its
    usage lines and examples can be pasted back as they are."""
    main(prog_name=program())
