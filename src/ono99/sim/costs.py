"""What a bot game costs in time before it is played: the priors of time estimates.

A game costs its turns times what a turn costs the bots at the table. Turns depend on the
edition and match format far more than on anything else (a tokens match lasts ten single
games); a turn's cost on whose turn it is (an expert turn searches, a greedy turn looks once).
The numbers were measured by ``benchmarks/bench_analysis.py`` (CPU time of one process) on the
two-core machine that README.md's timings come from, with every bot's default options. A run that
measures its own speed (``ono99 analyze``) needs them only for what it has not played yet,
scaled by how its own games compared.
"""

from __future__ import annotations

from collections.abc import Sequence

# Mean turns per game of greedy self-play at four players, by edition and match format.
TURNS_AT_FOUR: dict[tuple[str, str], float] = {
    ("2022", "single"): 40,
    ("2022", "tokens"): 432,
    ("2022", "points"): 158,
    ("1980", "single"): 28,
    ("1980", "tokens"): 308,
    ("1980", "points"): 121,
}

# Seconds one turn of each bot takes, the engine's work included, with default options.
TURN_SECONDS: dict[str, float] = {
    "random": 2e-5,
    "greedy": 3e-5,
    "learned": 7e-4,
    "neural": 1.5e-3,  # bench_bots: 1.5 ms at the median of its own moves (load 5-7)
    "heuristic": 6e-5,
    "expert": 6e-2,
}


def expected_turns(edition: str, match: str, players: int) -> float:
    """Turns in a game: a single game hardly grows with the table (its knock-outs end it
    sooner), a match's rounds grow about in proportion to the players."""
    turns = TURNS_AT_FOUR[(edition, match)]
    return turns if match == "single" else turns * players / 4


def known(lineup: Sequence[str]) -> bool:
    """Whether every bot of ``lineup`` has a measured turn cost."""
    return all(name in TURN_SECONDS for name in lineup)


def game_seconds(edition: str, match: str, lineup: Sequence[str]) -> float:
    """Expected seconds for one game of ``lineup`` (a bot name per seat), each seat taking
    its share of the turns. A bot not measured is priced as greedy: wrong in absolute terms
    (see ``known``), but right about which of its games cost more than others."""
    per_turn = sum(TURN_SECONDS.get(name, TURN_SECONDS["greedy"]) for name in lineup)
    return expected_turns(edition, match, len(lineup)) * per_turn / len(lineup)


__all__ = ["TURNS_AT_FOUR", "TURN_SECONDS", "expected_turns", "game_seconds", "known"]
