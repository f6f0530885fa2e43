"""greedy is written once, as data (``ono99.bots.greedy.GREEDY``), and every version of it chooses
alike (STYLE.md 12): ``GreedyBot`` on a view, the rollouts' other seats (``Playout.choice``, from
``RANKED``) and the vector environment's opponents (``greedy_actions`` over a ``FastBatch``, from
a NumPy copy of ``RANKS``).

Properties over generated positions: every position of random games in generated rule sets (all
three versions; the batch where it plays the rules, replaying the games' deals and moves), and
arbitrary hands, totals and owed cards set into a state (the bot and the playout). Then a few
positions that show what the rules of thumb say, one each.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from invariants import random_states
from ono99.bots.greedy import GREEDY, RANKED, RANKS, GreedyBot
from ono99.engine import (
    ALL_ACTIONS,
    DISCARD,
    DRAW,
    PLAY,
    Action,
    Rules,
    State,
    legal_actions,
    make_rules,
    new_game,
    view,
)
from ono99.engine.cards import HOLD, MINUS_TEN, NUM_CARD_KINDS, ONO99, PLAY2, REVERSE
from ono99.env.vector import greedy_actions
from ono99.fast.contract import BATCH
from ono99.fast.playout import Playout
from ono99.sim.fast import Deal, FastBatch
from strategies import rule_sets
from tiers import slow

SETTINGS = settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
BOT = GreedyBot()


def playout_choice(state: State) -> int:
    playout = Playout(state.rules, RANKED)
    playout.load(state)
    return playout.choice()


@slow
@SETTINGS
@given(rule_sets(playable=True), st.integers(0, 2**32 - 1))
def test_every_version_chooses_alike_in_play(rules: Rules, seed: int) -> None:
    states = list(random_states(rules, seed))
    decisions = 0
    for state in states:
        if state.over or len(legal_actions(state)) < 2:
            continue
        want = BOT.choose(view(state, state.to_play)).index
        assert playout_choice(state) == want, (rules.to_dict(), seed, state.moves)
        decisions += 1
    if BATCH.plays(rules):
        final = states[-1]
        moves = [action.index for _, action in final.actions()]
        batch = FastBatch(rules, 1, auto_reset=False)
        batch.load([Deal.of(final)])
        for t, state in enumerate(states):
            if t:
                batch.step([moves[t - 1]])
            got = int(greedy_actions(batch)[0])
            if state.over:
                assert got == -1
            else:
                want = BOT.choose(view(state, state.to_play)).index
                assert got == want, (rules.to_dict(), seed, t)
    assert decisions or len(states) < 4


@SETTINGS
@given(
    rule_sets(),
    st.lists(st.integers(0, NUM_CARD_KINDS - 1), min_size=1, max_size=4),
    st.integers(-40, 140),
    st.sampled_from([1, 2]),
    st.booleans(),
    st.booleans(),
)
def test_the_bot_and_the_playout_choose_alike_anywhere(
    rules: Rules, hand: list[int], total: int, owed: int, ono_played: bool, owes: bool
) -> None:
    state = new_game(rules, 0)
    seat = state.to_play
    assert seat is not None
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hand))
    state = state._replace(
        hands=tuple(hands),
        total=total,
        owed=owed,
        ono99_played=ono_played and rules.ono99_on_tens,
        owes_draw=(seat,) if owes and rules.draw_penalty and len(hand) < 4 else (),
    )
    assume(legal_actions(state))  # a seat with nothing to do is never asked
    assert playout_choice(state) == BOT.choose(view(state, seat)).index


def test_the_table_ranks_every_action_in_every_situation() -> None:
    for by_two in RANKS:
        for by_high in by_two:
            for ranks in by_high:
                assert sorted(ranks) == list(range(len(ALL_ACTIONS)))
    assert all(isinstance(a, Action) for _, actions in GREEDY for a in actions)


# --------------------------------------------------------------------------- what it says


def choose(rules: Rules, hand: list[int], total: int, owed: int = 1, **changes: Any) -> Action:
    """greedy's choice, every version of it, for the seat to play holding ``hand``."""
    state = new_game(rules, 0)
    seat = state.to_play
    assert seat is not None
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hand))
    state = state._replace(hands=tuple(hands), total=total, owed=owed, **changes)
    action = BOT.choose(view(state, seat))
    assert playout_choice(state) == action.index
    return action


def test_the_highest_number_that_fits() -> None:
    assert choose(make_rules("2022"), [3, 7, 9, MINUS_TEN], 90) is PLAY[7]


def test_specials_are_kept_for_emergencies() -> None:
    rules = make_rules("2022")
    assert choose(rules, [0, REVERSE, MINUS_TEN, PLAY2], 40) is PLAY[0]
    assert choose(rules, [9, REVERSE, MINUS_TEN], 95) is PLAY[REVERSE]
    assert choose(make_rules("1980"), [9, REVERSE, MINUS_TEN, HOLD], 95) is PLAY[HOLD]
    assert choose(rules, [9, 8, MINUS_TEN], 95) is PLAY[MINUS_TEN]


def test_a_play2_is_answered_with_a_deflector_and_laid_when_the_total_is_high() -> None:
    rules = make_rules("2022")
    assert choose(rules, [9, PLAY2, REVERSE], 40, owed=2) is PLAY[REVERSE]
    assert choose(rules, [9, PLAY2], 40, owed=2) is PLAY[PLAY2]
    assert choose(rules, [2, PLAY2], 88) is PLAY[PLAY2]
    assert choose(rules, [2, PLAY2], 87) is PLAY[2]


def test_an_ono99_on_tens_is_a_free_play() -> None:
    rules = make_rules("2022", ono99_on_tens=True)
    assert choose(rules, [5, ONO99, PLAY2], 50) is PLAY[ONO99]


def test_draws_and_discards_come_first() -> None:
    assert choose(make_rules("2022"), [ONO99] * 4, 40) is DISCARD
    penalty = make_rules("2022", draw_penalty=True)
    state = new_game(penalty, 0)
    seat = state.to_play
    assert seat is not None
    assert choose(penalty, [5, 6, 7], 40, owes_draw=(seat,)) is DRAW


def test_a_bust_sheds_the_costliest_card() -> None:
    rules = make_rules("2022", match="points")
    assert choose(rules, [9, 10, ONO99], 95) is PLAY[10]
    assert choose(rules, [10, MINUS_TEN, ONO99], 120) is PLAY[MINUS_TEN]  # 15 points
