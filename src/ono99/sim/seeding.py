"""The seeding rule of every batch of bot games: where game ``i`` of a run comes from.

**The seeding rule** (``game_seeds``). Game ``i`` of a run with seed ``SEED`` is dealt from
``derived_seed(SEED, i)``, a SHA-256 hash of the two, and its first dealer is drawn from that
deal seed (``new_game`` with no dealer); the bot at seat ``s`` gets
``derived_seed(SEED, i, "seat", s)``. A game is therefore a pure function of the run's seed and
its index: ``ono99 tournament``, ``ono99 simulate`` and every experiment of ``ono99 analyze``
deal game ``i`` of a run the same way, and experiments that compare rule sets play the same
deals under each (paired games). The hash's label, ``ono99-tournament``, is where the rule was
first used; it stays so that published tournament records keep their seeds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from ..bots import make_bot
from ..engine import Rules, State
from .driver import play_game

SEED_LABEL = "ono99-tournament"


def derived_seed(*parts: object) -> int:
    """A seed hashed from ``parts``; below 2**53 so that any JSON reader keeps it exact."""
    text = ":".join([SEED_LABEL, *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 11


@dataclass(frozen=True)
class GameSeeds:
    """Where game ``index`` of a run comes from: the deal's seed (the first dealer is drawn
    from it) and each seat's bot seed."""

    deal: int
    bots: tuple[int, ...]  # per seat


def game_seeds(seed: int, index: int, players: int) -> GameSeeds:
    """The seeds of game ``index`` of the run with seed ``seed`` (the module docstring)."""
    return GameSeeds(
        derived_seed(seed, index),
        tuple(derived_seed(seed, index, "seat", s) for s in range(players)),
    )


def play_seeded(rules: Rules, bots: Sequence[str], seed: int, index: int) -> State:
    """Game ``index`` of the run with seed ``seed``: ``bots[s]`` (a registered name) at seat
    ``s``, seeded by the rule of ``game_seeds``; the final state."""
    seeds = game_seeds(seed, index, len(bots))
    players = [make_bot(name, s) for name, s in zip(bots, seeds.bots, strict=True)]
    return play_game(rules, players, seeds.deal)


__all__ = ["SEED_LABEL", "GameSeeds", "derived_seed", "game_seeds", "play_seeded"]
