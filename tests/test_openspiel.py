"""The OpenSpiel game (ono99.openspiel, the ``openspiel`` extra): OpenSpiel's own random
simulation test and its API checks on sampled states, the chance nodes giving the engine exactly
the cards they chose (S1 deal, T2 draws, T3 reshuffles, K7, X2), the observer hiding every card
the seat cannot see (V1), resampling from an information state, and IS-MCTS running on it."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.integration_tests import api_test
from open_spiel.python.algorithms import ismcts, mcts

import ono99.openspiel as ospiel
from ono99.engine import (
    ALL_ACTIONS,
    DISCARD,
    DRAW,
    legal_actions,
    make_position,
    parse_action,
    to_act,
    view,
)
from ono99.engine.cards import counts
from ono99.engine.cards import parse_card as card_id

CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 4},
    {"players": 6},
    {"players": 3, "edition": 1980},
    {"players": 2, "draw_penalty": True},
    {"players": 5, "edition": 1980, "draw_penalty": True},
]


def config_id(params: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in params.items())


def play(
    game: pyspiel.Game, rng: random.Random, check: Any = None
) -> tuple[pyspiel.State, dict[str, int]]:
    """A random game to its end; ``check(state)`` before every move."""
    state = game.new_initial_state()
    seen = {"draws": 0, "reshuffles": 0, "four": 0, "owed": 0}
    while not state.is_terminal():
        if check is not None:
            check(state)
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state, seen


@pytest.mark.parametrize("params", CONFIGS, ids=config_id)
def test_openspiel_random_simulation_test(params: dict[str, Any]) -> None:
    # OpenSpiel's own: legal actions sorted and unique, chance outcomes summing to one,
    # clones equal, every tensor of the declared size and finite, returns within bounds,
    # and every state serialized and rebuilt with its game from the game's own string.
    game = pyspiel.load_game(ospiel.SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("params", CONFIGS, ids=config_id)
def test_games_and_states_pickle_and_rebuild_from_their_string(params: dict[str, Any]) -> None:
    """As OpenSpiel's tic_tac_toe_test does. The edition was a string parameter that
    ``ono99(edition=2022,…)`` read back as an int, so both failed."""
    game = pyspiel.load_game(ospiel.SHORT_NAME, params)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.get_parameters() == game.get_parameters()
    assert again.new_initial_state().rules == game.new_initial_state().rules
    assert str(pyspiel.load_game(str(game))) == str(game)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(60):  # the deal and some moves
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    for copy in (
        pickle.loads(pickle.dumps(state)),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
    ):
        assert str(copy) == str(state) and copy.history() == state.history()
        for seat in range(game.num_players()):
            assert copy.information_state_string(seat) == state.information_state_string(seat)
        assert copy.legal_actions() == state.legal_actions()


class TestOpenSpielApiOnSampledStates(api_test.EnforceAPIOnPartialTreeBase):  # type: ignore[misc]
    """OpenSpiel's API checks (open_spiel/integration_tests/api_test.py) on 400 sampled
    states: observations refuse bad players, legal actions are empty for the other seats,
    private and public observations are what they claim."""

    game_name = ospiel.SHORT_NAME
    game = pyspiel.load_game(ospiel.SHORT_NAME, {"players": 3})


def test_parameters_make_the_engine_rules_and_bad_ones_are_refused() -> None:
    game = pyspiel.load_game("ono99", {"players": 4, "edition": 1980})
    assert game.num_players() == 4
    assert game.num_distinct_actions() == len(ALL_ACTIONS) == 18
    assert game.new_initial_state().rules.edition == "1980"
    assert game.new_initial_state().rules.match == "single"  # M1: one deal
    assert game.min_utility() == pytest.approx(-1 / 3)
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("ono99", {"players": 7})


@pytest.mark.parametrize("params", CONFIGS, ids=config_id)
def test_chance_outcomes_are_the_cards_the_engine_deals_and_draws(params: dict[str, Any]) -> None:
    """S1: each seat is dealt exactly the cards chance dealt it; T2/K7/X2: every draw puts the
    chosen card in the drawer's hand; T3: a draw from an emptied pile picks from the discard
    pile reshuffled. Chance's probabilities are the unseen cards' shares."""
    game = pyspiel.load_game("ono99", params)
    rng = random.Random(7)
    tally = {"draws": 0, "reshuffles": 0, "games": 0}
    for _ in range(4 if params["players"] > 4 else 8):
        state = game.new_initial_state()
        dealer = None
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                card, _ = rng.choice(outcomes)
                engine_before = state.engine
                pending = state._pending
                state.apply_action(card)
                if dealer is None:
                    dealer = card
                    continue
                if engine_before is None:
                    if state.engine is not None:  # the deal is complete
                        n = state.rules.players
                        order = [(dealer + i) % n for i in range(1, n + 1)]
                        for k, seat in enumerate(order):
                            assert state.engine.hands[seat] == tuple(sorted(state.dealt[k::n])), (
                                "S1"
                            )
                        assert state.engine.dealer == dealer
                    continue
                assert pending is not None
                if state._pending is None:  # the last card this action draws
                    hand = counts(state.engine.hands[pending.seat])
                    for c in set(pending.chosen):
                        assert hand[c] >= pending.chosen.count(c), "the drawn card is in hand"
                    tally["draws"] += len(pending.chosen)
                    if pending.after is not None:
                        tally["reshuffles"] += 1
                        assert state.engine.reshuffle_count == engine_before.reshuffle_count + 1
            else:
                seat = state.current_player()
                assert seat == to_act(state.engine)
                legal = [a.index for a in legal_actions(state.engine, seat)]
                assert state.legal_actions() == sorted(legal)
                state.apply_action(rng.choice(state.legal_actions()))
        tally["games"] += 1
        assert state.engine.over
        returns = state.returns()
        assert sum(returns) == pytest.approx(0.0)
        assert max(returns) > 0 and {i for i, r in enumerate(returns) if r > 0} == set(
            state.engine.winners
        )
    assert tally["draws"] > 0


@pytest.mark.parametrize("draw_penalty", [False, True])
def test_a_draw_from_an_empty_pile_is_chosen_from_the_reshuffled_discard_pile(
    draw_penalty: bool,
) -> None:
    # T3: the draw pile is empty, so the draw after this play reshuffles the discard pile;
    # chance picks among exactly the cards reshuffled, and the engine's new pile starts with
    # the card it picked. (X2: with the draw penalty the draw is an action of its own.)
    game = pyspiel.load_game("ono99", {"players": 2, "draw_penalty": draw_penalty})
    rules = game.new_initial_state().rules
    hands = [["2", "3", "4", "5"], ["6", "7", "8", "9"]]
    position = make_position(
        rules, hands=hands, pile=[], discard=rest_of_deck(rules, hands), total=20, to_play=0
    )
    for pick in ("1", "10", "reverse", "2"):
        state = game.new_state_at(position)
        state.apply_action(parse_action("play 2").index)
        if draw_penalty:
            assert state.current_player() == 0 and state.legal_actions() == [DRAW.index]
            state.apply_action(DRAW.index)
        assert state.is_chance_node()
        outcomes = dict(state.chance_outcomes())
        pool = state._pending.pool()
        assert sum(pool) == sum(counts(position.discard)) + 1  # the 2 just played, too
        assert outcomes == {c: k / sum(pool) for c, k in enumerate(pool) if k}
        state.apply_action(card_id(pick))
        assert not state.is_chance_node()
        engine = state.engine
        assert engine.reshuffle_count == 1
        assert engine.reshuffles_used[-1][0] == card_id(pick)
        assert counts(engine.reshuffles_used[-1]) == pool
        assert card_id(pick) in engine.hands[0]
        assert engine.total == 22


def test_four_ono99s_laid_down_draw_four_cards_chosen_by_chance() -> None:
    # K7 (2022): laying down four ONO 99s draws four new cards at once: four chance nodes.
    game = pyspiel.load_game("ono99", {"players": 2})
    rules = game.new_initial_state().rules
    hands = [["ono99"] * 4, ["6", "7", "8", "9"]]
    position = make_position(
        rules, hands=hands, pile=rest_of_deck(rules, hands), total=20, to_play=0
    )
    state = game.new_state_at(position)
    assert DISCARD.index in state.legal_actions()
    state.apply_action(DISCARD.index)
    picks = ["10", "5", "1", "5"]
    for k, pick in enumerate(picks):
        assert state.is_chance_node(), k
        state.apply_action(card_id(pick))
    assert not state.is_chance_node()
    assert sorted(state.engine.hands[0]) == sorted(card_id(c) for c in picks)
    assert "drew 10" in state.information_state_string(0)
    assert "drew 10" not in state.information_state_string(1)


def rest_of_deck(rules: Any, hands: list[list[str]]) -> list[int]:
    left = counts(rules.deck)
    for hand in hands:
        for card in hand:
            left[card_id(card)] -= 1
    return [c for c, k in enumerate(left) for _ in range(k)]


def _decisions(game: pyspiel.Game, rng: random.Random, every: int = 3) -> list[pyspiel.State]:
    found = []

    def keep(state: pyspiel.State) -> None:
        if not state.is_chance_node() and rng.randrange(every) == 0:
            found.append(state.clone())

    for _ in range(6):
        play(game, rng, keep)
    return found


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 4, "edition": 1980}])
def test_resampled_states_keep_the_information_state_and_vary_the_hidden_cards(
    params: dict[str, Any],
) -> None:
    game = pyspiel.load_game("ono99", params)
    rng = random.Random(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    varied = 0
    states = _decisions(game, rng)
    assert states
    for state in states:
        player = state.current_player()
        for _ in range(3):
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            np.testing.assert_array_equal(
                other.information_state_tensor(player), state.information_state_tensor(player)
            )
            np.testing.assert_array_equal(
                other.observation_tensor(player), state.observation_tensor(player)
            )
            assert other.legal_actions() == state.legal_actions()
            assert other.current_player() == player
            hidden = [s for s in range(game.num_players()) if s != player]
            if any(other.engine.hands[s] != state.engine.hands[s] for s in hidden) or (
                other.engine.pile[other.engine.pile_pos :]
                != state.engine.pile[state.engine.pile_pos :]
            ):
                varied += 1
            # The sampled world plays on to an end under the same rules.
            clone = other.clone()
            while not clone.is_terminal():
                if clone.is_chance_node():
                    outcomes, probs = zip(*clone.chance_outcomes(), strict=True)
                    clone.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    clone.apply_action(rng.choice(clone.legal_actions()))
    assert varied > len(states)  # hidden cards are really sampled anew


def test_the_observer_shows_nothing_the_seat_cannot_see() -> None:
    """V1: the observation and information state of a seat are the same whatever the cards it
    cannot see (here: the other hands and the pile dealt anew), and differ with its own."""
    game = pyspiel.load_game("ono99", {"players": 3})
    rng = random.Random(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for state in _decisions(game, rng, every=2)[:60]:
        for seat in range(game.num_players()):
            other = state.resample_from_infostate(seat, sampler)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            np.testing.assert_array_equal(
                other.information_state_tensor(seat), state.information_state_tensor(seat)
            )
            assert other.observation_string(seat) == state.observation_string(seat)
            # Another seat's dealt cards are a "?" in this seat's history; its own are named.
            history = state.information_state_string(seat).split(" · ")
            n = game.num_players()
            assert history.count("?") >= 4 * (n - 1)
            hand = view(state.engine, seat).hand
            assert hand is not None and encode_hand(state.observation_tensor(seat)) == counts(hand)


def encode_hand(tensor: list[float]) -> list[int]:
    return [round(x * 4) for x in tensor[:16]]  # the hand block: count / 4


def test_public_observer_hides_the_own_hand_too() -> None:
    game = pyspiel.load_game("ono99", {"players": 2})
    rng = random.Random(5)
    public = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    from open_spiel.python.observation import make_observation

    observer = make_observation(game, public)
    for state in _decisions(game, rng)[:20]:
        a = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        b = a.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        observer.set_from(state, 0)
        seen = observer.tensor.copy()
        observer.set_from(b, 0)
        np.testing.assert_array_equal(seen, observer.tensor)
        assert "hand ?" in observer.string_from(state, 0)


def test_ismcts_plays_whole_games_on_it() -> None:
    # OpenSpiel's IS-MCTS (python), which resamples from the information state at every
    # simulation, plays a two-player game to its end with legal moves only.
    game = pyspiel.load_game("ono99", {"players": 2})
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=rs)
    rng = random.Random(2)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
    assert moves > 0 and sorted(state.returns()) == [-1.0, 1.0]


def test_bad_actions_are_one_line_and_change_nothing() -> None:
    game = pyspiel.load_game("ono99", {"players": 2})
    state = game.new_initial_state()
    with pytest.raises(ValueError, match=r"^the dealer is a seat from 0 to 1, not 9$"):
        state.apply_action(9)
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    before, history = str(state), state.history()
    illegal = next(i for i in range(18) if i not in state.legal_actions())
    for action, message in [(99, r"^actions are 0 to 17, not 99$"), (illegal, "tried")]:
        with pytest.raises(Exception, match=message) as info:
            state.apply_action(action)
        assert "\n" not in str(info.value)
        assert str(state) == before and state.history() == history
