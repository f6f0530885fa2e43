"""V1: hidden information leaves the engine only through views, and views hold none of it
(STYLE.md principle 7).

The strong check: take a real state, build a second one that differs *only* in what a seat
cannot see — the other seats' hands (the cards reshuffled among the same hand sizes, laid-down
hands kept), the draw pile's order, the seed, the deck orders and reshuffles — and require the
seat's view to be identical, events included. Then let another seat act in both states: the
views after that step must still agree whenever the public outcome was the same, which catches
a leak in the events the engine writes (a draw naming its card, a reshuffle showing the order).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from hidden import differs, hide
from invariants import ENGINE, choose, config_id, random_states, sweep_configs
from ono99.engine import (
    DRAW,
    Event,
    IllegalActionError,
    Setup,
    State,
    View,
    apply,
    cards_drawn,
    legal_actions,
    new_game,
    view,
)

CONFIGS = sweep_configs()[::2]
BIG_SEED = 987_654_321_000  # far from any total, size or score, so it can be searched for
SAMPLES = 12  # states looked at per game


def sampled_states(index: int, rules) -> Iterator[State]:
    states = list(random_states(rules, BIG_SEED + index))
    rng = random.Random(index)
    picks = set(rng.sample(range(len(states)), min(SAMPLES, len(states))))
    picks.add(len(states) - 1)  # the finished game
    # States about to reshuffle, so that a step from them writes a reshuffle event.
    low = [i for i, s in enumerate(states) if s.draw_pile_size <= 1 and not s.over]
    picks.update(rng.sample(low, min(3, len(low))))
    for i in sorted(picks):
        yield states[i]


def viewers(state: State) -> list[int | None]:
    return [None, *range(state.rules.players)]


@pytest.mark.parametrize(
    ("index", "rules"), list(enumerate(CONFIGS)), ids=[config_id(r) for r in CONFIGS]
)
def test_views_do_not_depend_on_hidden_information(index: int, rules) -> None:
    rng = random.Random(f"leak:{index}")
    changed = 0
    stepped = 0
    for state in sampled_states(index, rules):
        for seat in viewers(state):
            other = hide(state, seat, rng)
            changed += differs(state, other, seat)
            mine, theirs = view(state, seat), view(other, seat)
            assert mine == theirs, f"seat {seat}'s view shows hidden information"
            assert mine.events == theirs.events
            stepped += _step_both(state, other, seat)
    assert changed, "no sampled state had any hidden information to change"
    assert stepped, "no step could be replayed on the changed state"


def _step_both(state: State, other: State, seat: int | None) -> int:
    """Let a seat other than ``seat`` act the same way in both states; when the public
    outcome (the kinds and seats of the new events) is the same, so must the views be."""
    if state.over:
        return 0
    moves = [(t, DRAW) for t in state.owes_draw if t != seat]
    actor = state.to_play
    if actor != seat:
        assert actor is not None
        both = set(legal_actions(state, actor)) & set(legal_actions(other, actor))
        moves += [(actor, a) for a in sorted(both, key=lambda a: a.index)]
    checked = 0
    for t, action in moves:
        try:
            a, b = apply(state, t, action), apply(other, t, action)
        except IllegalActionError:
            continue
        new_a = _new_events(state, a)
        new_b = _new_events(other, b)
        if any(e.kind in ("round_end", "eliminated") for e in new_a + new_b):
            continue  # hidden cards made public by the rules: laid down (E1), scored (M3)
        if [(e.kind, e.seat) for e in new_a] != [(e.kind, e.seat) for e in new_b]:
            continue  # hidden cards decided a consequence (an elimination, a bust's out)
        assert view(a, seat) == view(b, seat), f"after seat {t} {action}, seat {seat} sees more"
        assert new_a == new_b
        checked += 1
    return checked


def _new_events(before: State, after: State) -> list[Event]:
    return after.events()[len(before.events()) :]


# --------------------------------------------------------------------------- what views hold


def _walk(obj: Any, seen: set[int]) -> Iterator[Any]:
    """Every object reachable from a view and not in ``seen`` (iteratively: the event log is a
    long cons list)."""
    stack = [obj]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        yield x
        if isinstance(x, (str, int, float, bool, type(None))):
            continue
        if isinstance(x, (tuple, list, set, frozenset)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        else:
            if dataclasses.is_dataclass(x):
                stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
            stack.extend(getattr(x, "__dict__", {}).values())
            for slot in getattr(type(x), "__slots__", ()):
                if hasattr(x, slot):
                    stack.append(getattr(x, slot))


@pytest.mark.parametrize(
    ("index", "rules"), list(enumerate(CONFIGS[::3])), ids=[config_id(r) for r in CONFIGS[::3]]
)
def test_views_hold_no_seed_setup_or_deck_order(index: int, rules) -> None:
    for state in sampled_states(index, rules):
        secret_orders = {o for o in state.decks_used + state.reshuffles_used if len(o) >= 8}
        rest = state.pile[state.pile_pos :]
        if len(rest) >= 8:
            secret_orders.add(rest)
        seen: set[int] = set()  # the views of one state share their objects: look once
        for seat in viewers(state):
            v = view(state, seat)
            for x in _walk(v, seen):
                assert not isinstance(x, (Setup, State)), f"view({seat}) holds a {type(x)}"
                assert not (type(x) is int and x == state.setup.seed), f"view({seat}) has the seed"
                assert not (isinstance(x, tuple) and x in secret_orders), (
                    f"view({seat}) holds a deck or draw pile order"
                )


@pytest.mark.parametrize(
    ("index", "rules"), list(enumerate(CONFIGS[1::3])), ids=[config_id(r) for r in CONFIGS[1::3]]
)
def test_a_seat_sees_the_spectator_view_plus_its_own_hand(index: int, rules) -> None:
    for state in sampled_states(index, rules):
        spectator = view(state)
        assert spectator.seat is None
        assert spectator.hand is None
        assert spectator.legal == ()
        for seat in range(rules.players):
            mine = view(state, seat)
            assert mine.hand == state.hands[seat]
            assert mine.legal == tuple(legal_actions(state, seat))
            assert dataclasses.replace(mine, seat=None, hand=None, legal=()) == spectator


@pytest.mark.parametrize(
    ("index", "rules"), list(enumerate(CONFIGS[2::3])), ids=[config_id(r) for r in CONFIGS[2::3]]
)
def test_public_events_carry_only_public_facts(index: int, rules) -> None:
    """Every event in a view is of a public kind and carries only what V1 allows: cards
    played, laid-down hands (single game only), counts, totals, seats, scores."""
    single = rules.match == "single"
    for state in sampled_states(index, rules):
        v: View = view(state)
        for e in v.events:
            if e.kind in ("draw", "lost_draw", "left", "out_of_round", "lost_token", "over"):
                assert e.card is None, e
            if e.kind in ("draw", "lost_draw", "left"):
                assert (e.total, e.data) == (None, None), e
            if e.kind == "reshuffle":
                assert type(e.data) is int and e.card is None, e
            elif e.kind == "deal":
                assert (e.card, e.total, type(e.data)) == (None, 0, int), e
            elif e.kind == "eliminated":
                assert single and e.data == v.laid_down[e.seat], e
            elif e.kind == "play":
                assert e.data in (None, "deflect", "bust"), e
            elif e.kind == "round_end":
                assert e.data[1] is None or all(type(p) is int for p in e.data[1]), e
            else:
                assert e.kind in ("draw", "lost_draw", "left", "out_of_round", "lost_token",
                                  "over", "discard"), e  # fmt: skip


def _taken(before: State, after: State) -> tuple[int, ...] | None:
    """The cards that left the draw pile in one step, in the order drawn; None when that
    cannot be read off the piles (a deal, or more than one reshuffle in the step)."""
    if after.round != before.round:
        return None
    if after.reshuffle_count == before.reshuffle_count:
        return before.pile[before.pile_pos : after.pile_pos]
    if after.reshuffle_count == before.reshuffle_count + 1:
        return before.pile[before.pile_pos :] + after.pile[: after.pile_pos]
    return None


@pytest.mark.parametrize(
    ("index", "rules"), list(enumerate(CONFIGS[1::3])), ids=[config_id(r) for r in CONFIGS[1::3]]
)
def test_a_seat_learns_from_its_views_exactly_the_cards_it_drew(index: int, rules) -> None:
    """T2, K7, X2: ``cards_drawn`` of two of a seat's views names the cards the piles say
    that seat took, over one step and over several; never another seat's draw, and nothing
    across a deal."""
    rng = random.Random(f"drawn:{index}")
    state = new_game(rules, BIG_SEED + index)
    steps: list[tuple[State, State, int]] = []
    while not state.over:
        seat, action = choose(state, rng, 0.7, ENGINE)
        after = apply(state, seat, action)
        steps.append((state, after, seat))
        state = after
    drew = 0
    for i, (before, after, actor) in enumerate(steps):
        taken = _taken(before, after)
        for seat in range(rules.players):
            got = cards_drawn(view(before, seat), view(after, seat))
            if after.round != before.round or seat != actor:  # a deal; another's draw
                assert got == (), (i, seat)
            elif taken is not None:
                assert got == tuple(sorted(taken)), (i, seat)
                drew += bool(got)
        # Over a stretch of the round: everything the seat took in it, even cards it has
        # played again since.
        window = steps[i : i + 7]
        far = window[-1][1]
        pieces = [_taken(b, a) for b, a, _ in window]
        if far.round == before.round and all(p is not None for p in pieces):
            for seat in range(rules.players):
                want = sorted(
                    c
                    for (_, _, t), p in zip(window, pieces, strict=True)
                    if t == seat
                    for c in p or ()
                )
                assert cards_drawn(view(before, seat), view(far, seat)) == tuple(want), (i, seat)
    assert drew, "no draw was seen"
