"""The batch simulator's own API (``ono99.sim.fast``): errors, no-ops, auto-reset, seeding,
the random playout, the example records, and card conservation in its own shuffles. Its
agreement with the engine, action by action, is tests/fast/test_fast_differential.py."""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ono99.engine import (
    ALL_ACTIONS,
    IllegalActionError,
    Rules,
    RulesError,
    SetupError,
    apply,
    legal_actions,
    load_record,
    make_rules,
    new_game,
    parse_card,
    summarize,
    view,
)
from ono99.sim.fast import GAME, NUM_ACTIONS, Deal, FastBatch
from tiers import slow

DATA = Path(__file__).parents[1] / "data"

# A spread of rule sets whose games take every path: formats, bust modes, options, 2–6 players.
VARIETY = [
    make_rules("2022", players=4),
    make_rules("2022", players=2, max_total=30, ono99_on_tens=True),
    make_rules("2022", players=6, match="points", target=80, bust_total="keep"),
    make_rules("2022", players=3, match="tokens", tokens=1, max_total=10),
    make_rules("1980", players=4),
    make_rules("1980", players=5, match="points", variant="lowest_score", bust_total="reset"),
    make_rules("1980", players=2, match="single", four_ono99_discard=True, negative_totals=False),
    make_rules("1980", players=3, match="points", target=60, play2_deflects_play2=True),
    # Long rounds, so the draw pile runs out and is reshuffled (T3) again and again.
    make_rules("2022", players=3, max_total=600),
    make_rules("1980", players=4, max_total=300, match="points", target=300),
]


def test_the_draw_penalty_is_refused_with_a_clear_error() -> None:
    with pytest.raises(RulesError, match="draw penalty") as info:
        FastBatch(make_rules("1980", draw_penalty=True), 4)
    assert info.value.option == "draw_penalty"


@pytest.mark.parametrize("size", [0, -1, True, 2.5])
def test_a_batch_needs_a_positive_whole_size(size: object) -> None:
    with pytest.raises(ValueError, match="batch_size"):
        FastBatch(make_rules(), size)  # type: ignore[arg-type]


def test_shapes_and_the_action_space() -> None:
    batch = FastBatch(make_rules("2022", players=3), 5, seed=3)
    mask = batch.legal_mask()
    assert mask.shape == (5, NUM_ACTIONS) == (5, len(ALL_ACTIONS))
    assert mask.dtype == np.bool_
    assert mask.any(axis=1).all()  # every live game has a legal action
    assert not mask[:, 17].any()  # "draw" exists only under the draw penalty
    assert batch.bytes_per_game() == GAME.itemsize < 300
    assert batch.to_play.tolist() == [s["to_play"] for s in batch.summaries()]
    with pytest.raises(ValueError, match="5 actions"):
        batch.step([0, 1])
    with pytest.raises(IndexError):
        batch.summary(5)


def test_an_illegal_action_is_refused_and_nothing_changes() -> None:
    batch = FastBatch(make_rules("2022"), 6, seed=11)
    before = batch.summaries()
    mask = batch.legal_mask()
    actions = batch.random_actions()
    bad = int(np.flatnonzero(~mask[3])[0])
    actions[3] = bad
    with pytest.raises(IllegalActionError, match=f"game 3: action {bad} .* is not legal"):
        batch.step(actions)
    with pytest.raises(IllegalActionError, match="not an action"):
        batch.step([99, -1, -1, -1, -1, -1])
    assert batch.summaries() == before


def test_minus_one_leaves_a_game_alone() -> None:
    batch = FastBatch(make_rules("1980", players=3), 4, seed=5)
    before = batch.summaries()
    actions = batch.random_actions()
    actions[[0, 2]] = -1
    batch.step(actions)
    after = batch.summaries()
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1] != before[1] and after[3] != before[3]


def test_auto_reset_starts_a_new_match_and_keeps_the_result() -> None:
    batch = FastBatch(make_rules("2022", players=3), 16, seed=2)
    finished = 0
    for _ in range(400):
        done = batch.step(batch.random_actions())
        for i in np.flatnonzero(done):
            finished += 1
            s = batch.summary(int(i))
            assert not s["over"] and s["round"] == 1 and s["discard_pile"] == 0
            result = batch.games["result"][i][:3]
            assert result.sum() == 1  # a single game has one winner
        assert not batch.over.any()
    assert finished > 50
    assert batch.games["finished"].sum() == finished


def test_without_auto_reset_a_finished_match_stays_over() -> None:
    batch = FastBatch(make_rules("2022", players=2), 3, seed=8, auto_reset=False)
    for _ in range(2000):
        if batch.over.all():
            break
        batch.step(batch.random_actions())  # -1 for the finished ones
    assert batch.over.all()
    for s in batch.summaries():
        assert s["to_play"] is None and s["legal"] == [] and len(s["winners"]) == 1
    with pytest.raises(IllegalActionError, match="match is over"):
        batch.step([0, 0, 0])


@slow
def test_the_same_seed_gives_the_same_games() -> None:
    rules = make_rules("1980", players=4, match="points")
    one, two, other = (FastBatch(rules, 8, seed=s) for s in (7, 7, 8))
    for batch in (one, two, other):
        batch.random_playout(150)
    assert one.games.tobytes() == two.games.tobytes()
    assert one.summaries() != other.summaries()
    one.reset(7)
    two.reset(7)
    assert one.summaries() == two.summaries()


@pytest.mark.parametrize("rules", VARIETY, ids=lambda r: f"{r.edition}-{r.players}p-{r.match}")
def test_the_random_playout_is_step_fed_with_random_actions(rules: Rules) -> None:
    """``random_playout`` takes the choices ``random_actions`` would, from the same generators,
    so it reaches the very states that ``step`` reaches (which the differential test checks)."""
    fast, slow = FastBatch(rules, 8, seed=21), FastBatch(rules, 8, seed=21)
    stats = fast.random_playout(300)
    finished = 0
    for _ in range(300):
        finished += int(slow.step(slow.random_actions()).sum())
    assert fast.games.tobytes() == slow.games.tobytes()
    assert stats.actions == 8 * 300
    assert stats.games == finished == int(fast.games["finished"].sum())


def expand(counts: np.ndarray) -> list[int]:
    return [c for c, k in enumerate(counts.tolist()) for _ in range(k)]


@pytest.mark.parametrize("rules", VARIETY, ids=lambda r: f"{r.edition}-{r.players}p-{r.match}")
def test_cards_are_conserved_through_its_own_deals_and_reshuffles(rules: Rules) -> None:
    """C1/C2, T3, E1 under the simulator's own shuffles: hands (laid-down ones included), draw
    pile and discard pile always hold the edition's deck, once each."""
    deck = Counter(rules.deck)
    n = rules.players
    batch = FastBatch(rules, 32, seed=1)
    reshuffled = 0
    for _ in range(40):
        batch.random_playout(7)
        for rec, s in zip(batch.games, batch.summaries(), strict=True):
            cards = [int(c) for c in rec["hands"][:n].ravel() if c >= 0]
            cards += rec["pile"][rec["pile_pos"] : rec["pile_len"]].tolist()
            cards += expand(rec["discard"])
            assert Counter(cards) == deck
            assert s["draw_pile"] + s["discard_pile"] + sum(map(len, s["hands"])) == len(rules.deck)
            assert s["legal"] and s["to_play"] in range(n)
            assert all(len(h) <= 4 for h in s["hands"])
        reshuffled += int(batch.games["reshuffles"].sum())
    if rules.max_total > 98:
        assert reshuffled > 0


@slow
@pytest.mark.parametrize(
    "rules",
    [make_rules("2022", players=4), make_rules("2022", players=2), make_rules("1980", players=4)],
    ids=["2022-4p", "2022-2p", "1980-4p-tokens"],
)
def test_matches_last_as_long_as_the_engine_s(rules: Rules) -> None:
    """Under uniformly random legal play, the mean number of actions per match agrees with the
    engine's within four standard errors (fixed seeds, so the outcome is deterministic)."""
    rng = random.Random(1)
    lengths = []
    for seed in range(300 if rules.match == "tokens" else 1500):
        state = new_game(rules, seed)
        while not state.over:
            state = apply(state, state.to_play, rng.choice(legal_actions(state)))
        lengths.append(state.moves)
    engine_mean = statistics.fmean(lengths)
    spread = statistics.stdev(lengths)
    batch = FastBatch(rules, 256, seed=1)
    stats = batch.random_playout(20 * round(engine_mean))
    error = spread * (1 / len(lengths) + 1 / stats.games) ** 0.5
    assert abs(stats.actions_per_game - engine_mean) < 4 * error, (
        f"fast {stats.actions_per_game:.2f} over {stats.games} matches, "
        f"engine {engine_mean:.2f} ± {error:.2f}"
    )


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(DATA.glob("*.record.json")) if "draw-penalty" not in p.name],
    ids=lambda p: p.name.removesuffix(".record.json"),
)
def test_example_records_reach_their_summaries_byte_for_byte(path: Path) -> None:
    record = load_record(path.read_text(encoding="utf-8"))
    dealer = record.start().setup.dealer  # chosen from the seed when the record has none
    batch = FastBatch(record.rules, 1, auto_reset=False)
    batch.load([Deal(dealer, record.decks, record.reshuffles)])  # cards as N1 names
    for seat, action in record.actions:
        assert batch.summary(0)["to_play"] == seat
        batch.step([action.index])
    expected = path.with_name(path.name.replace(".record", ".summary")).read_text("utf-8")
    assert json.dumps(batch.summary(0), indent=1) == expected.rstrip()


def ids(names: list[str]) -> list[int]:
    return [parse_card(n) for n in names]


def test_a_match_decided_at_its_first_deal() -> None:
    """1980 single game, two players: seat 1 plays first holding four ONO 99s and is out (E1,
    K6) before anyone acts. Without auto-reset the simulator shows it as the engine does; with
    it, the slot has already moved on to a new match."""
    rules = make_rules("1980", players=2, match="single")
    deck = list(rules.deck)
    for c in ids(["ono99"] * 4):
        deck.remove(c)
    # Dealing from seat 1 alternates 1, 0, 1, 0, ...: seat 1 gets positions 0, 2, 4, 6.
    order = [parse_card("ono99") if i % 2 == 0 else deck.pop() for i in range(8)] + deck
    engine = new_game(rules, 0, dealer=0, decks=[order])
    assert engine.over and engine.winners == (0,)
    still = FastBatch(rules, 1, auto_reset=False)
    still.load([Deal(0, [order])])
    assert still.summary(0) == summarize(engine)
    moving = FastBatch(rules, 1)
    moving.load([Deal(0, [order])])
    assert not moving.summary(0)["over"]
    assert moving.games["finished"][0] == 1 and moving.games["result"][0][:2].tolist() == [1, 0]


def test_load_checks_the_deals() -> None:
    rules = make_rules("2022", players=3)
    batch = FastBatch(rules, 2, auto_reset=False)
    good = Deal(0, [list(rules.deck)])
    with pytest.raises(ValueError, match="one deal per game"):
        batch.load([good])
    with pytest.raises(SetupError, match="dealer") as info:
        batch.load([good, Deal(3, [list(rules.deck)])])
    assert info.value.where == "dealer"
    with pytest.raises(SetupError, match="permutation of the deck") as info:
        batch.load([good, Deal(1, [list(rules.deck)[1:] + [15]])])
    assert info.value.where == "decks[0]"
    with pytest.raises(SetupError, match="unknown card 'eleven'") as info:
        batch.load([good, Deal(1, [list(rules.deck)], [["7", "eleven"]])])
    assert info.value.where == "reshuffles[0]"


def test_a_reshuffle_order_that_is_not_the_discard_pile_is_refused_when_used() -> None:
    rules = make_rules("2022", players=2, max_total=999)
    engine = new_game(rules, 4)
    rng = random.Random(4)
    while engine.reshuffle_count == 0:
        engine = apply(engine, engine.to_play, rng.choice(legal_actions(engine)))
    actions = [a.index for _, a in engine.actions()]
    wrong = list(engine.reshuffles_used[0])
    wrong[0] = 15 if wrong[0] != 15 else 0
    batch = FastBatch(rules, 1, auto_reset=False)
    batch.load([Deal(engine.setup.dealer, engine.decks_used, [wrong])])
    with pytest.raises(SetupError, match="not a permutation of the discard pile") as info:
        for action in actions:
            batch.step([action])
    assert info.value.where == "reshuffles[0]"


@pytest.mark.parametrize("rules", [r for r in VARIETY if r.match == "points"], ids=str)
def test_must_bust_is_the_view_s(rules: Rules) -> None:
    """``must_bust()`` answers as ``View.must_bust`` does, on the engine's games replayed."""
    rng = random.Random(5)
    games = []
    for seed in range(6):
        states = [new_game(rules, seed)]
        while not states[-1].over:
            state = states[-1]
            states.append(apply(state, state.to_play, rng.choice(legal_actions(state))))
        games.append(states)
    batch = FastBatch(rules, len(games), auto_reset=False)
    batch.load([Deal.of(states[-1]) for states in games])
    moves = [[a.index for _, a in states[-1].actions()] for states in games]
    busts = 0
    for t in range(max(map(len, moves)) + 1):
        if t:
            batch.step([m[t - 1] if t <= len(m) else -1 for m in moves])
        got = batch.must_bust()
        for i, states in enumerate(games):
            state = states[min(t, len(states) - 1)]
            want = not state.over and view(state, state.to_play).must_bust
            assert got[i] == want, (i, t)
            busts += want
    assert busts
