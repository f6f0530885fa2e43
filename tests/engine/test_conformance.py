"""The conformance sweep (STYLE.md principle 8): random games in every edition, match format,
option profile and player count, every invariant checked after every step (tests/invariants.py).

A failure names the configuration in the test id, and the seed, move and state in the message;
``play_checked_game(rules, seed)`` reproduces it.
"""

from __future__ import annotations

from collections import Counter

import pytest

from invariants import (
    config_id,
    play_checked_game,
    random_states,
    sweep_configs,
)
from ono99.engine import make_rules
from ono99.engine.cards import ONO99, PLAY2
from tiers import sampled, slow

CONFIGS = sweep_configs()
# Single games are short and the 2022 default: they get more seeds.
SEEDS = {"single": 20, "tokens": 6, "points": 6}


@pytest.mark.parametrize(
    ("index", "rules"), sampled(list(enumerate(CONFIGS)), 10, ids=lambda c: config_id(c[1]))
)
def test_random_games_keep_every_invariant(index: int, rules) -> None:
    """Every invariant after every step; in the first game of each configuration also every
    state's position text (the check costs as much again as the rest, so once is enough)."""
    for k in range(SEEDS[rules.match]):
        final = play_checked_game(rules, 1000 * index + k, positions=k == 0)
        assert final.over


@slow
@pytest.mark.parametrize("edition", ["2022", "1980"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_dealer(edition: str, players: int) -> None:
    """S1, M2: the game is right whoever deals first."""
    rules = make_rules(edition, players=players)
    for dealer in range(players):
        final = play_checked_game(rules, 77 + dealer, dealer=dealer)
        assert final.setup.dealer == dealer
        assert final.events()[0].seat == dealer


@slow
@pytest.mark.parametrize("edition", ["2022", "1980"])
def test_long_points_matches_at_the_default_target(edition: str) -> None:
    """M3 with the default target of 200: many rounds, reshuffles and deals."""
    for players in (2, 4, 6):
        final = play_checked_game(make_rules(edition, players=players, match="points"), players)
        assert final.round > 1


@slow
def test_the_sweep_exercises_every_rule() -> None:
    """The random sweep is only as good as what it reaches: one game per configuration must
    between them show every kind of event and every card behaviour the rules have."""
    seen: Counter[str] = Counter()
    for index, rules in enumerate(CONFIGS):
        *_, state = random_states(rules, 1000 * index)
        for e in state.events():
            seen[e.kind] += 1
            if e.kind == "play":
                seen[f"play:{e.data}"] += 1
                if e.card == ONO99:
                    seen["play ono99 (X3)"] += 1
                if e.card == PLAY2 and e.data == "deflect":
                    seen["play2 deflects play2"] += 1
                if e.total is not None and e.total < 0:
                    seen["negative total (K2)"] += 1
                if e.total is not None and e.total > rules.max_total:
                    seen["total above max after a kept bust (M3)"] += 1
        if state.over and len(state.winners) > 1:
            seen["shared win (M3)"] += 1
        last_standing = rules.match == "points" and rules.variant == "last_standing"
        if state.over and last_standing and len(state.out) == rules.players:
            seen["everyone left in the last round (M3)"] += 1
    wanted = [
        "deal", "play", "discard", "draw", "lost_draw", "reshuffle", "eliminated",
        "out_of_round", "round_end", "lost_token", "left", "over", "play:None", "play:deflect",
        "play:bust", "play ono99 (X3)", "play2 deflects play2", "negative total (K2)",
        "total above max after a kept bust (M3)", "shared win (M3)",
        "everyone left in the last round (M3)",
    ]  # fmt: skip
    missing = [w for w in wanted if not seen[w]]
    assert not missing, f"the sweep never reaches {missing}; seen {dict(seen)}"
