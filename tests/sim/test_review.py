"""A game review (``ono99.sim.review``): every decision of one seat, its legal actions' chances
from the seat's view at the time (the fair lens) or with every hand known, the move played,
its cost, the mistakes called out, the win-chance line."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from tests.hidden import differs, hide
from tests.tiers import slow

from ono99.bots.determinize import Determinizer
from ono99.bots.expert import ExpertBot, compiled_available
from ono99.engine import DRAW, PLAY, Action, View, load_record, replay_states, view
from ono99.sim.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Decision,
    decisions_of,
    fair_chances,
    review_game,
)

DATA = Path(__file__).parent.parent / "data"
SMALL = 24  # worlds per decision: the tests check the plumbing, not the estimates


def record(name: str = "2022-single-4p"):
    return load_record((DATA / f"{name}.record.json").read_text())


def test_every_decision_of_the_seat_is_listed_with_every_legal_action() -> None:
    rec = record()
    review = review_game(rec, 1, seed=3, worlds=SMALL, compiled=False)
    assert [d.move for d in review.decisions] == [
        m for m, (s, _) in enumerate(rec.actions) if s == 1
    ]
    states = list(replay_states(rec))
    for d in review.decisions:
        legal = view(states[d.move], 1).legal
        assert d.played == rec.actions[d.move][1]
        if d.forced:
            assert d.chances == () and d.cost == 0 and d.judgement is None
            assert len(legal) == 1 or DRAW in legal
        else:
            assert [a for a, _ in d.chances] == list(legal)
            assert all(0.0 <= p <= 1.0 for _, p in d.chances)
            assert d.cost == pytest.approx(max(p for _, p in d.chances) - d.played_chance)
    assert review.line == [(d.move, d.played_chance) for d in review.decisions if not d.forced]
    data = review.to_dict()
    assert data["seat"] == 1 and data["lens"] == "fair"
    assert len(data["decisions"]) == len(review.decisions)


def test_the_same_record_and_seed_give_the_same_review_and_another_seed_may_not() -> None:
    rec = record("2022-single-2p-midgame")
    one = review_game(rec, 0, seed=11, worlds=SMALL, compiled=False).to_dict()
    assert review_game(rec, 0, seed=11, worlds=SMALL, compiled=False).to_dict() == one
    assert review_game(rec, 0, seed=12, worlds=SMALL, compiled=False).to_dict() != one


def test_a_decision_is_judged_on_the_game_up_to_it_only() -> None:
    """A shorter record (the same game stopped earlier) gives its decisions the same review:
    no later move reaches an earlier decision."""
    rec = record()
    whole = review_game(rec, 2, seed=5, worlds=SMALL, compiled=False)
    cut = whole.decisions[len(whole.decisions) // 2].move
    short = dataclasses.replace(rec, actions=rec.actions[:cut])
    part = review_game(short, 2, seed=5, worlds=SMALL, compiled=False)
    assert part.decisions == whole.decisions[: len(part.decisions)]
    assert len(part.decisions) == len(whole.decisions) // 2


def test_the_fair_lens_sees_the_view_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fair lens's search is handed the seat's view and nothing else; and a different
    world behind the same view (other hidden hands, another draw pile, other reshuffles)
    gets the same chances."""
    rec = record()
    seen: list[object] = []
    evaluate = ExpertBot.evaluate

    def spy(self: ExpertBot, v: View) -> list[tuple[Action, float]]:
        seen.append(v)
        return evaluate(self, v)

    monkeypatch.setattr(ExpertBot, "evaluate", spy)
    review = review_game(rec, 0, seed=1, worlds=SMALL, compiled=False)
    states = list(replay_states(rec))
    searched = [d for d in review.decisions if not d.forced]
    assert len(seen) == len(searched) > 0
    for v, d in zip(seen, searched, strict=True):
        assert type(v) is View and v == view(states[d.move], 0)
    monkeypatch.undo()
    rng = random.Random(9)
    for d in searched[:4]:
        real = states[d.move]
        other = Determinizer(view(real, 0)).sample(rng)
        assert other != real and view(other, 0) == view(real, 0)
        assert fair_chances(other, 0, 77, worlds=SMALL) == fair_chances(real, 0, 77, worlds=SMALL)


@pytest.mark.parametrize(
    "compiled",
    [
        False,
        pytest.param(
            True,
            marks=[
                slow,
                pytest.mark.skipif(not compiled_available(), reason="numba is not installed"),
            ],
        ),
    ],
)
def test_the_fair_lens_is_the_same_whatever_the_seat_cannot_see(compiled: bool) -> None:
    """The leak tests' own tool (``tests/hidden.py``): every decision's state changed in all
    that the seat cannot see (the other hands, the draw pile, the seed of the reshuffles to
    come, the decks and reshuffles so far) gets the same chances, in Python and compiled."""
    rng = random.Random(4)
    for name, seat in (("2022-single-4p", 3), ("1980-draw-penalty-3p-midgame", 1)):
        rec = record(name)
        for move, state, _ in list(decisions_of(rec, seat))[:6]:
            other = hide(state, seat, rng)
            assert differs(state, other, seat) or not any(
                state.hands[t] for t in range(rec.rules.players) if t != seat
            )
            seed = 1000 + move
            assert fair_chances(other, seat, seed, worlds=SMALL, compiled=compiled) == (
                fair_chances(state, seat, seed, worlds=SMALL, compiled=compiled)
            )


def test_the_known_lens_sees_every_hand() -> None:
    rec = record("2022-single-2p-midgame")
    review = review_game(rec, 0, lens="known", seed=2, worlds=4)
    assert review.lens == "known"
    assert any(not d.forced for d in review.decisions)
    for d in review.decisions:
        assert d.forced or {a for a, _ in d.chances} == set(
            view(list(replay_states(rec))[d.move], 0).legal
        )


def test_mistakes_are_named_by_the_chance_they_lose() -> None:
    def decision(move: int, played: float, best: float) -> Decision:
        a, b = PLAY[0], PLAY[1]
        return Decision(move, 1, 50, (0, 1), a, ((a, played), (b, best)), forced=False)

    assert decision(0, 0.50, 0.54).judgement is None
    assert decision(0, 0.50, 0.50 + INACCURACY).judgement == "inaccuracy"
    assert decision(0, 0.50, 0.50 + MISTAKE).judgement == "mistake"
    assert decision(0, 0.30, 0.30 + BLUNDER).judgement == "blunder"
    best_played = decision(0, 0.6, 0.4)
    assert best_played.cost == 0 and best_played.best == best_played.played
    assert decision(3, 0.2, 0.6).best == PLAY[1]


def test_the_costliest_mistakes_are_called_out_first() -> None:
    rec = record("1980-tokens-3p")
    review = review_game(rec, 0, seed=0, worlds=SMALL, compiled=False)
    called = review.mistakes
    assert 0 < len(called) <= 3
    assert [d.cost for d in called] == sorted((d.cost for d in called), reverse=True)
    named = [d for d in review.decisions if d.judgement]
    assert min(d.cost for d in called) >= max(
        (d.cost for d in named if d not in called), default=0.0
    )


def test_bad_lens_or_seat_is_refused() -> None:
    rec = record()
    with pytest.raises(ValueError, match="lens"):
        review_game(rec, 0, lens="future")
    with pytest.raises(ValueError, match="seat"):
        review_game(rec, 4)
    assert list(decisions_of(rec, 0))


@slow
@pytest.mark.skipif(not compiled_available(), reason="the fast extra (numba) is not installed")
def test_the_compiled_search_reviews_the_same_way() -> None:
    rec = record("2022-single-2p-midgame")
    one = review_game(rec, 0, seed=4, worlds=SMALL, compiled=True)
    assert one == review_game(rec, 0, seed=4, worlds=SMALL, compiled=True)
    python = review_game(rec, 0, seed=4, worlds=SMALL, compiled=False)
    assert [d.move for d in one.decisions] == [d.move for d in python.decisions]
