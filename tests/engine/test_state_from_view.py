"""``state_from_view``: a seat's view plus the cards it hides make a full state (the worlds the
expert imagines are built this way). Given the real hidden cards and the game's seed, it is the
real game again, past and future; given any other consistent cards, the seat cannot tell; given
cards that do not fit the view, it says in one line what is wrong."""

from __future__ import annotations

import pytest

from invariants import config_id, random_states, sweep_configs
from ono99.engine import (
    PositionError,
    State,
    apply,
    card_name,
    make_rules,
    position_text,
    state_from_view,
    summarize,
    view,
)

CONFIGS = sweep_configs()[3::19]  # 21 rule sets: both editions, every format, 2–6 players


def hidden(state: State, seat: int) -> dict[int, tuple[int, ...]]:
    """The hands ``seat`` cannot see: every other seat's, but those laid down (E1)."""
    v = view(state, seat)
    n = state.rules.players
    return {s: state.hands[s] for s in range(n) if s != seat and not v.laid_down[s]}


def rebuilt(state: State, seat: int) -> State:
    return state_from_view(
        view(state, seat), hidden(state, seat), state.pile[state.pile_pos :], seed=state.setup.seed
    )


@pytest.mark.parametrize(
    ("index", "rules"), list(enumerate(CONFIGS)), ids=[config_id(r) for r in CONFIGS]
)
def test_the_real_hidden_cards_give_the_real_game_back(index: int, rules) -> None:
    states = list(random_states(rules, 40 + index))  # states[k] is after k actions
    for k in range(0, len(states), 5):
        state = states[k]
        seat = (k // 5) % rules.players
        again = rebuilt(state, seat)
        assert view(again, seat) == view(state, seat)
        assert summarize(again) == summarize(state)
        assert position_text(again) == position_text(state)  # the present and the future
        assert again.events() == state.events() and again.actions() == state.actions()
        assert again.moves == state.moves and again.setup.dealer == state.setup.dealer
        # Play goes on as in the real game: the same draws, the same reshuffles and deals.
        future = states[-1].actions(k)[:12]
        for seat_acting, action in future:
            again = apply(again, seat_acting, action)
        assert position_text(again) == position_text(states[k + len(future)])


def test_any_consistent_cards_look_the_same_to_the_seat() -> None:
    """Swap two hidden seats' hands: another world, the same view."""
    rules = make_rules("2022", players=4)
    state = list(random_states(rules, 9))[20]
    seat = state.to_play
    assert seat is not None
    hands = hidden(state, seat)
    a, b = sorted(s for s in hands if len(hands[s]) == 4)[:2]
    hands[a], hands[b] = hands[b], hands[a]
    world = state_from_view(view(state, seat), hands, state.pile[state.pile_pos :], seed=1)
    assert world.hands != state.hands and view(world, seat) == view(state, seat)


def test_cards_may_be_names() -> None:
    state = list(random_states(make_rules("1980", players=2), 4))[3]
    seat = state.to_play
    assert seat is not None
    other = 1 - seat
    names = {other: [card_name(c) for c in state.hands[other]]}
    pile = [card_name(c) for c in state.pile[state.pile_pos :]]
    assert state_from_view(view(state, seat), names, pile, seed=0).hands == state.hands


STATE = list(random_states(make_rules("2022", players=3), 5))[6]
SEAT = 0
PILE = STATE.pile[STATE.pile_pos :]


@pytest.mark.parametrize(
    ("change", "wrong"),
    [
        (lambda h, p: (h, p[1:]), "pile: the draw pile holds"),
        (lambda h, p: ({**h, 0: STATE.hands[0]}, p), "hands: seat 0's hand is not hidden from"),
        (lambda h, p: ({**h, 1: h[1][:3]}, p), "hands: seat 1 holds 4 cards, not 3"),
        (lambda h, p: ({**h, 1: (h[1][0],) * 4}, p), "cards: seat 0 cannot see"),
        (lambda h, p: ({**h, 1: ("seven", *h[1][1:])}, p), "hands[1][0]: unknown card 'seven'"),
    ],
    ids=["short pile", "own hand", "short hand", "wrong cards", "no card"],
)
def test_cards_that_do_not_fit_the_view_are_named(change, wrong: str) -> None:
    hands, pile = change(hidden(STATE, SEAT), PILE)
    with pytest.raises(PositionError) as caught:
        state_from_view(view(STATE, SEAT), hands, pile, seed=0)
    assert str(caught.value).startswith(wrong) and "\n" not in str(caught.value), caught.value


def test_a_spectator_has_no_seat_to_build_around() -> None:
    with pytest.raises(PositionError, match="spectator"):
        state_from_view(view(STATE), {}, PILE, seed=0)
