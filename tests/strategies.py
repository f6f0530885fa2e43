"""Generated test material shared across folders: any valid rule set (a Hypothesis strategy)
and the state after a random prefix of play."""

from __future__ import annotations

from itertools import islice
from typing import Any

from hypothesis import strategies as st

from invariants import random_states
from ono99.engine import Rules, State, make_rules

BOOLEAN_OPTIONS = (
    "negative_totals",
    "four_ono99_discard",
    "play2_deflects_play2",
    "ono99_on_tens",
    "draw_penalty",
)


@st.composite
def rule_sets(draw: Any, playable: bool = False) -> Rules:
    """Any valid option set; with ``playable``, one whose matches end in reasonable time."""
    options: dict[str, Any] = {"players": draw(st.integers(2, 6))}
    if draw(st.booleans()):
        options["max_total"] = draw(
            st.sampled_from([10, 25, 98, 99, 120]) if playable else st.integers(10, 999)
        )
    for name in BOOLEAN_OPTIONS:
        if draw(st.booleans()):
            options[name] = draw(st.booleans())
    if draw(st.booleans()):
        options["match"] = draw(st.sampled_from(["single", "tokens", "points"]))
    if draw(st.booleans()):
        options["tokens"] = draw(st.integers(0, 3) if playable else st.integers(0, 99))
    if draw(st.booleans()) or playable:
        options["target"] = draw(st.integers(1, 120) if playable else st.integers(1, 100_000))
    if draw(st.booleans()):
        options["variant"] = draw(st.sampled_from(["last_standing", "lowest_score"]))
    if draw(st.booleans()):
        options["bust_total"] = draw(st.sampled_from(["unchanged", "keep", "reset"]))
    return make_rules(draw(st.sampled_from(["2022", "1980"])), **options)


def play_prefix(rules: Rules, seed: int, steps: int) -> State:
    """The state after at most ``steps`` random actions (fewer if the match ends)."""
    *_, state = islice(random_states(rules, seed), steps + 1)
    return state
