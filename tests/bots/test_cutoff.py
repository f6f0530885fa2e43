"""The expert's learned value at a cut-off (``bots/cutoff.py``, ``ExpertBot(cutoff=k)``).

The positions where a rollout stops are encoded from the playout, not from an engine view;
they must be exactly the observations the network was trained on: ``features.encode`` of the
engine's view of the position the engine reaches when played the same way (``rollouts.py``).
"""

from __future__ import annotations

import numpy as np
import pytest

from invariants import config_id, sweep_configs
from ono99.bots import ExpertBot
from ono99.bots.cutoff import Cutoff, Snapshot, public_of_snapshots
from ono99.bots.determinize import unseen_counts
from ono99.bots.greedy import RANKED
from ono99.bots.heuristic import Planner
from ono99.bots.neural import NeuralBot
from ono99.engine import Rules, apply_unchecked, legal_actions, make_rules, view
from ono99.fast.playout import Playout
from ono99.features import encode, encode_public
from rollouts import engine_rollout
from searches import assert_searches_from_the_view_alone, decisions
from tiers import sampled

CONFIGS = sweep_configs()[1::6]  # both editions, every match format, 2 to 6 players


@pytest.mark.parametrize(
    ("index", "rules"), sampled(list(enumerate(CONFIGS)), 3, ids=lambda c: config_id(c[1]))
)
def test_the_cutoff_sees_what_the_engine_view_shows(index: int, rules: Rules) -> None:
    """A rollout stopped at the searching seat's 1st or 2nd next decision is encoded bit for
    bit as ``features.encode`` of the seat's view of the engine played the same way, and the
    batch is valued as the network values that view alone."""
    net = NeuralBot().net
    stopped = reached = 0
    for state in decisions(rules, 900 + index):
        me = state.to_play
        assert me is not None
        planner = Planner(rules, unseen_counts(view(state, me)))
        for turns in (1, 2):
            cutoff = Cutoff(rules, me, state.dealer, turns)
            playout = Playout(rules, RANKED, planner, me)
            wanted = []
            for action in legal_actions(state, me):
                after = apply_unchecked(state, me, action)
                end, horizon = engine_rollout(after, state.round, me, planner, stop=me, turns=turns)
                playout.load(state)
                got = playout.act(me, action) or cutoff.rollout(playout)
                where = f"{config_id(rules)} seed {state.setup.seed} move {state.moves} {action}"
                assert got == horizon, where
                if horizon:
                    reached += 1
                    continue
                stopped += 1
                snapshot = cutoff.snapshots[-1]
                want = encode(view(end, me))
                mine = encode_public(public_of_snapshots([snapshot]), rules)[0]
                assert mine.tobytes() == want.tobytes(), where
                wanted.append(want)
            values = cutoff.values()
            assert len(values) == len(wanted)
            for value, want in zip(values, wanted, strict=True):
                alone = (float(net.forward(want)[1]) + 1) / 2
                assert value == pytest.approx(alone, abs=1e-5)
                assert 0.0 <= value <= 1.0
            assert cutoff.snapshots == []
    assert stopped, "no rollout stopped at the cut-off"


def test_a_snapshot_is_a_copy() -> None:
    """The playout is reused for the next rollout: a snapshot must not change with it."""
    rules = make_rules("2022", players=3)
    state = decisions(rules, 3)[0]
    me = state.to_play
    assert me is not None
    playout = Playout(rules, RANKED)
    playout.load(state)
    snapshot = Snapshot(playout, me, state.dealer)
    before = encode_public(public_of_snapshots([snapshot]), rules)
    playout.run()
    after = encode_public(public_of_snapshots([snapshot]), rules)
    assert np.array_equal(before, after)


@pytest.mark.parametrize(
    "rules",
    [
        make_rules("2022", players=2),
        make_rules("2022", players=5),
        make_rules("1980", players=4, match="tokens"),
        make_rules("2022", players=3, match="points", target=60),
    ],
    ids=config_id,
)
def test_the_cutoff_expert_plays_legally_from_its_view_alone(rules: Rules) -> None:
    """V1 for the cut-off search."""
    assert_searches_from_the_view_alone(rules, 4, cutoff=2)


def test_a_negative_cutoff_is_refused() -> None:
    with pytest.raises(ValueError, match="cutoff"):
        ExpertBot(cutoff=-1)
    with pytest.raises(ValueError, match="1st decision"):
        Cutoff(make_rules("2022", players=2), 0, 0, 0)


@pytest.mark.parametrize(
    ("players", "rollout"), [(2, "heuristic"), (4, "heuristic"), (3, "neural"), (2, "neural-all")]
)
def test_mix_blends_the_value_with_the_rollout_played_on(players: int, rollout: str) -> None:
    """Stopping at the cut-off only pauses a rollout: with ``mix`` 0 the search's estimates are
    those of rollouts to the end; with ``mix`` ½ they lie halfway between those and the
    network's alone (``mix`` 1), world by world. So too when the network plays the rollouts
    (``bots/network_rollouts.py``), where the same forward pass gives the value."""
    rules = make_rules("2022", players=players)
    budget = {"worlds": 8, "max_rollouts": 40, "rollout": rollout}
    checked = 0
    for state in decisions(rules, 61, every=4)[:6]:
        v = view(state, state.to_play)
        plain = ExpertBot(5, **budget).evaluate(v)
        assert ExpertBot(5, cutoff=2, mix=0.0, **budget).evaluate(v) == plain
        network = ExpertBot(5, cutoff=2, mix=1.0, **budget).evaluate(v)
        half = ExpertBot(5, cutoff=2, mix=0.5, **budget).evaluate(v)
        for (a, p), (_, q), (_, h) in zip(plain, network, half, strict=True):
            # 1e-6: float32 sums may round apart when the batch a row is valued in differs
            assert h == pytest.approx((p + q) / 2, abs=1e-6), a
        checked += network != plain
    assert checked, "the network never changed an estimate"
    with pytest.raises(ValueError, match="mix"):
        ExpertBot(mix=1.5)
