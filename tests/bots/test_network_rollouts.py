"""The network as the expert's rollout policy (``bots/network_rollouts.py``,
``ExpertBot(rollout="neural" | "neural-all")``).

The rollouts of a decision are played in lockstep on ``Playout``s, the network asked for the
whole batch at once; they must end exactly as the engine ends when ``NeuralBot`` plays the same
seats from their views and greedy the others (``rollouts.engine_rollout``).
"""

from __future__ import annotations

import sys

import pytest

from invariants import config_id, sweep_configs
from ono99.bots import ExpertBot, OracleBot
from ono99.bots.network_rollouts import NetworkRollouts
from ono99.bots.neural import NeuralBot
from ono99.bots.values import playout_value, value_of
from ono99.engine import Rules, apply_unchecked, legal_actions, make_rules, view
from ono99.fast.contract import Facts, RoundEnd, facts, round_end
from ono99.fast.playout import Playout
from ono99.features import encode
from rollouts import engine_rollout
from searches import SETTINGS, TINY, assert_searches_from_the_view_alone, decisions
from tiers import sampled

CONFIGS = sweep_configs()[1::6]  # both editions, every match format, 2 to 6 players


def ending(f: Facts, rules: Rules) -> Facts | RoundEnd:
    """What a rollout's end must agree on: everything at a single game's end, what the round
    decided at a round's end (the playout deals no next round)."""
    return f if rules.match == "single" else round_end(f)


@pytest.mark.parametrize("every_seat", [False, True], ids=["searcher", "every-seat"])
@pytest.mark.parametrize(
    ("index", "rules"), sampled(list(enumerate(CONFIGS)), 3, ids=lambda c: config_id(c[1]))
)
def test_lockstep_rollouts_end_as_the_engine_played_by_the_network(
    index: int, rules: Rules, every_seat: bool
) -> None:
    """Every rollout of a batch (all the legal moves of several positions at once) ends in the
    position, and with the value, that the engine reaches when ``NeuralBot`` plays the
    network's seats from their own views and greedy plays the rest."""
    bot = NeuralBot()
    checked = 0
    for state in decisions(rules, 700 + index)[:8]:
        me = state.to_play
        assert me is not None
        seats = range(rules.players) if every_seat else (me,)
        network = NetworkRollouts(rules, me, state.dealer, playout_value, every_seat=every_seat)
        batch: list[Playout] = []
        wanted: list[float] = []
        ends: list[Facts | RoundEnd] = []
        for action in legal_actions(state, me):
            after = apply_unchecked(state, me, action)
            end, _ = engine_rollout(after, state.round, me, None, network=bot, network_seats=seats)
            playout = network.playout()
            playout.load(state)
            if playout.act(me, action):
                assert playout_value(playout, me) == value_of(end, me)
                continue
            batch.append(playout)
            wanted.append(value_of(end, me))
            ends.append(ending(facts(end), rules))
        got = network.finish(batch)
        where = f"{config_id(rules)} seed {state.setup.seed} move {state.moves}"
        assert got == wanted, where
        assert [ending(p.facts(), rules) for p in batch] == ends, where
        checked += len(batch)
    assert checked, "no rollout went past the searched move"


@pytest.mark.parametrize("rules", SETTINGS, ids=config_id)
@pytest.mark.parametrize("turns", [1, 2])
def test_a_cutoff_takes_the_value_of_the_seat_s_view_there(rules: Rules, turns: int) -> None:
    """With ``cutoff=k`` a network rollout stops at the searcher's ``k``-th decision, and its
    value is the network's value of the seat's view of the engine played the same way."""
    bot = NeuralBot()
    stopped = 0
    for state in decisions(rules, 80)[:6]:
        me = state.to_play
        assert me is not None
        network = NetworkRollouts(rules, me, state.dealer, playout_value, cutoff=turns)
        batch, wanted = [], []
        for action in legal_actions(state, me):
            after = apply_unchecked(state, me, action)
            end, horizon = engine_rollout(
                after, state.round, me, None, stop=me, turns=turns, network=bot, network_seats=(me,)
            )
            playout = network.playout()
            playout.load(state)
            if playout.act(me, action):
                assert horizon
                continue
            batch.append(playout)
            if horizon:
                wanted.append(value_of(end, me))
            else:
                stopped += 1
                value = float(bot.net.forward(encode(view(end, me)))[1])
                wanted.append(min(1.0, max(0.0, (value + 1) / 2)))
        for got, want in zip(network.finish(batch), wanted, strict=True):
            assert got == pytest.approx(want, abs=1e-5)
    assert stopped, "no rollout stopped at the cut-off"


@pytest.mark.parametrize("rollout", ["neural", "neural-all"])
@pytest.mark.parametrize(
    "rules",
    [make_rules("2022", players=2), make_rules("1980", players=4, match="tokens")],
    ids=config_id,
)
def test_network_rollouts_choose_from_the_view_alone(rules: Rules, rollout: str) -> None:
    """V1 for the search with network rollouts."""
    assert_searches_from_the_view_alone(rules, 8, rollout=rollout)


def test_an_unknown_rollout_is_refused() -> None:
    with pytest.raises(ValueError, match="rollout must be one of heuristic, neural, neural-all"):
        ExpertBot(rollout="self")


def test_the_oracle_searches_with_network_rollouts_too() -> None:
    """The hands-known bound of the new search (benchmarks/bench_bound.py --rollout) needs
    the oracle's search to take the same option: legal moves, the same for the same seed."""
    rules = make_rules("2022", players=2)
    for state in decisions(rules, 43, every=6)[:4]:
        seat = state.to_play
        assert seat is not None
        move = OracleBot(3, rollout="neural", **TINY).choose_state(state, seat)
        assert move in legal_actions(state, seat)
        assert move is OracleBot(3, rollout="neural", **TINY).choose_state(state, seat)
    with pytest.raises(ValueError, match="rollout must be one of"):
        OracleBot(rollout="greedy")


@pytest.mark.parametrize(
    "options", [{"rollout": "neural"}, {"cutoff": 1}, {"prior": "neural"}], ids=str
)
def test_without_numpy_the_network_options_say_which_extra(
    options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core install has no NumPy: an expert asked to search with the network says so when
    it is built, naming the extra, not with a traceback at its first move."""
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ImportError, match=r"needs the learned extra: .*pip install"):
        ExpertBot(1, **options)
    ExpertBot(1)  # the plain search needs nothing more
