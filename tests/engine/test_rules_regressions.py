"""Regression scenarios found while building the engine, each citing the rules involved."""

from __future__ import annotations

from collections import Counter

from ono99.engine import apply, legal_actions, make_rules, new_game, summarize
from ono99.engine.cards import CARD_NAMES


def _deck_with(front: list[str], edition: str) -> list[str]:
    """``front`` followed by the rest of the edition's deck in canonical order."""
    rest = Counter(CARD_NAMES[c] for c in make_rules(edition).deck)
    rest.subtract(front)
    assert min(rest.values()) >= 0
    return front + [name for name in CARD_NAMES for _ in range(rest[name])]


def test_M3_S1_round_ended_by_a_bust_deals_a_first_player_already_stuck() -> None:
    """A bust ends round 1 (M3); round 2's first player holds four 1980 ONO 99s and so is
    out of that round at once, which ends it too (one remains) and round 3 is dealt."""
    rules = make_rules("1980", players=2, match="points", max_total=10)
    round1 = _deck_with(["10", "9", "10", "9", "10", "9", "10", "8"], "1980")
    round2 = _deck_with(["ono99", "2", "ono99", "3", "ono99", "4", "ono99", "5"], "1980")
    state = new_game(rules, seed=1, dealer=1, decks=[round1, round2])
    state = apply(state, 0, "play 10")  # total 10: every 9 of seat 1 would make 19
    # Nothing is legal for seat 1 (8 or 9 would make 18 or 19): its plays are busts.
    assert [str(a) for a in legal_actions(state)] == ["play 8", "play 9"]
    state = apply(state, 1, "play 9")
    summary = summarize(state)
    assert summary["round"] == 3
    # Round 1: seat 0 holds 10, 10, 10 and the '2' it drew = 32; seat 1 busted, drew a '2'
    # and holds 9, 9, 8, 2 = 28, +25 for being out of the round = 53.
    # Round 2: seat 1 went out without playing: 4 × 20 + 25 = 105; seat 0 kept 2+3+4+5 = 14.
    events = [e for e in state.events() if e.kind == "round_end"]
    assert [e.data for e in events] == [(1, (32, 53)), (2, (14, 105))]
    assert summary["scores"] == [46, 158]
