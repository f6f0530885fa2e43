"""Every implementation of the rules against the engine, action by action (STYLE.md 9 and 12).

One contract (``ono99.fast.contract``), one suite, every implementation it declares: the engine
itself, the Numba batch simulator and the bots' pure-Python playout. For every configuration —
the conformance sweep's editions × match formats × option profiles × player counts
(tests/invariants.py), every edition × format × 2–6 players at the default options, and long
rounds that reshuffle again and again — the engine plays random games: uniformly random among
its legal actions, and under the draw penalty (X2) an owed draw taken, or left to be lost, at
random. Then every implementation that plays those rules (``Implementation.plays``) replays them
from the same deals, and after EVERY action its ``Facts`` must equal the engine's (legal actions,
total, direction, cards owed, hands, statuses, tokens, scores, owed draws, pile sizes, the end
and the winners), and must pass checks that do not ask the engine at all (RULES.md's legal
actions as tests/invariants.py computes them, card conservation, whose turn it can be):

- **engine**: a new game from the deals alone, under another seed (RULES.md N3: agreement is on
  explicit shuffles), stepped through ``apply``.
- **batch**: the configuration's games loaded into one ``FastBatch`` and stepped together. It
  also keeps N4 summaries, so each must equal the engine's ``summarize``, keys in order; and its
  ``done`` flag must be the end of the engine's match.
- **playout**: loaded from the engine's first state, stepped with ``act``; its horizon is the
  round, so at a round's end of a tokens or points match only ``round_end`` must agree, and it
  is loaded again from the engine for the next round (and at random points besides, so that
  ``load`` meets owed cards, ONO 99s played and owed draws). Its own play, ``run``, is checked
  against the engine played by the same policies in ``test_playout_rollouts_agree``.

A failure names the implementation, the configuration, the seed and the step;
``EngineGame(rules, seed)`` reproduces the engine's side.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from invariants import config_id, legal_in, sweep_configs
from ono99.bots.determinize import unseen_counts
from ono99.bots.greedy import RANKED
from ono99.bots.heuristic import Planner
from ono99.bots.values import rollout_value, value_of
from ono99.engine import (
    ALL_ACTIONS,
    DRAW,
    IN,
    Action,
    Rules,
    State,
    apply,
    apply_unchecked,
    legal_actions,
    make_rules,
    new_game,
    summarize,
    view,
)
from ono99.engine.cards import ONO99, PLAY2
from ono99.engine.errors import RulesError
from ono99.fast.contract import (
    BATCH,
    ENGINE,
    IMPLEMENTATIONS,
    PLAYOUT,
    Facts,
    Implementation,
    facts,
    round_end,
)
from ono99.fast.playout import Playout
from ono99.sim.fast import Deal, FastBatch
from rollouts import engine_rollout
from tiers import sampled, slow

GAMES = {"single": 40, "tokens": 10, "points": 10}  # games per configuration (singles are short)
INDEX = {str(a): a.index for a in ALL_ACTIONS}
RELOAD = 0.1  # the playout is loaded again from the engine at about this share of steps


def differential_configs() -> list[Rules]:
    """Every configuration once: first those without the draw penalty (the sweep's own with it
    switched off among them), then the sweep's configurations with it."""
    out: dict[str, Rules] = {}
    penalty: dict[str, Rules] = {}
    for rules in sweep_configs():
        if rules.draw_penalty:
            penalty.setdefault(config_id(rules), rules)
            rules = Rules.from_dict({**rules.to_dict(), "draw_penalty": False})
        out.setdefault(config_id(rules), rules)
    for edition in ("2022", "1980"):
        for match in ("single", "tokens", "points"):
            for players in range(2, 7):
                rules = make_rules(edition, players=players, match=match)
                out.setdefault(config_id(rules), rules)
            # Long rounds: the draw pile runs out again and again (T3, scripted reshuffles).
            for players in (2, 5):
                rules = make_rules(edition, players=players, match=match, max_total=400)
                out.setdefault(config_id(rules), rules)
    return list(out.values()) + list(penalty.values())


CONFIGS = differential_configs()
SEEN: Counter[str] = Counter()  # what the games played so far have exercised
VISITED: set[int] = set()


class EngineGame:
    """One random engine game: its moves, the engine's facts after each, the states a playout
    is loaded from, and the steps that ended a round (or the match)."""

    def __init__(self, rules: Rules, seed: int) -> None:
        rng = random.Random(f"fast-differential:{seed}")
        reload = random.Random(f"fast-differential:reload:{seed}")  # leaves the moves alone
        p_draw = rng.choice((0.0, 0.5, 0.9)) if rules.draw_penalty else 0.0
        state = new_game(rules, seed)
        self.seed = seed
        self.moves: list[tuple[int, Action]] = []
        self.facts = [facts(state)]
        self.summaries = [summarize(state)]
        self.states: dict[int, State] = {0: state}
        self.round_ends: set[int] = set()
        while not state.over:
            seat, action = random_move(state, rng, p_draw)
            after = apply(state, seat, action)
            self.moves.append((seat, action))
            t = len(self.moves)
            self.facts.append(facts(after))
            self.summaries.append(summarize(after))
            if after.over or after.round != state.round:
                self.round_ends.add(t)
                self.states[t] = after
            elif reload.random() < RELOAD:
                self.states[t] = after
            state = after
        self.final = state
        self.deal = Deal.of(state)


def random_move(state: State, rng: random.Random, p_draw: float) -> tuple[int, Action]:
    """A uniformly random legal action of the seat to play; under the draw penalty, an owed
    draw first with probability ``p_draw`` (else the draw is lost to the next card)."""
    assert state.to_play is not None
    for seat in state.owes_draw:
        if seat != state.to_play and rng.random() < p_draw:
            return seat, DRAW
    legal = legal_actions(state)
    if DRAW in legal and len(legal) > 1 and rng.random() >= p_draw:
        legal = [a for a in legal if a is not DRAW]
    return state.to_play, rng.choice(legal)


def engine_games(index: int) -> tuple[EngineGame, ...]:
    rules = CONFIGS[index]
    games = tuple(EngineGame(rules, 10_000 * index + k) for k in range(GAMES[rules.match]))
    if index not in VISITED:
        VISITED.add(index)
        for game in games:
            note_coverage(game)
    return games


def note_coverage(game: EngineGame) -> None:
    state = game.final
    SEEN["reshuffle (scripted)"] += state.reshuffle_count
    SEEN[f"match {state.rules.match}"] += 1
    SEEN["actions"] += len(game.moves)
    for e in state.events():
        SEEN[e.kind] += 1
        if e.kind == "play":
            SEEN[f"play:{e.data}"] += 1
            if e.card == ONO99:
                SEEN["play ono99 (X3)"] += 1
            if e.card == PLAY2 and e.data == "deflect":
                SEEN["play2 deflects play2"] += 1
            if e.total is not None and e.total < 0:
                SEEN["negative total (K2)"] += 1
            if e.total is not None and e.total > state.rules.max_total:
                SEEN["total above max after a kept bust (M3)"] += 1
    if len(state.winners) > 1:
        SEEN["shared win (M3)"] += 1


# --------------------------------------------------------------------------- the checks


def mismatch(
    impl: Implementation, rules: Rules, game: EngineGame, t: int, want: Any, got: Any, what: str
) -> str:
    if hasattr(want, "_asdict") and hasattr(got, "_asdict"):  # Facts, RoundEnd
        want, got = want._asdict(), got._asdict()
    if isinstance(want, dict) and isinstance(got, dict):
        diff = {k: (want.get(k), got.get(k)) for k in want.keys() | got.keys()}
        detail = {k: v for k, v in diff.items() if v[0] != v[1]}
        shown = f"(engine, {impl.name}) differ at {detail}"
    else:
        shown = f"engine {want}, {impl.name} {got}"
    moves = [f"{seat}:{action}" for seat, action in game.moves[:t]]
    return (
        f"{impl.name}, {config_id(rules)} seed {game.seed}: {what} after {t} of "
        f"{len(game.moves)} actions {moves}: {shown}"
    )


def contract_violation(rules: Rules, f: Facts) -> str | None:
    """What is wrong with ``f`` without asking the engine: RULES.md's legal actions
    (tests/invariants.py), card conservation (C1/C2, T3, E1), and whose turn it can be."""
    if sum(len(h) for h in f.hands) + f.draw_pile + f.discard_pile != len(rules.deck):
        return "cards not conserved"
    if any(len(h) > 4 for h in f.hands):
        return "a hand of more than four cards (T2)"
    if f.over:
        if f.legal or f.to_play is not None or f.owed or not f.winners:
            return "over, yet a turn, a legal action or no winner"
        return None
    seat = f.to_play
    if seat is None or f.status[seat] != IN or f.owed not in (1, 2):
        return f"to_play {seat} owing {f.owed} with status {f.status}"
    want = legal_in(rules, f.hands[seat], f.total, f.owed, f.ono99_played, seat in f.owes_draw)
    if f.legal != tuple(a.index for a in want):
        return f"legal {f.legal}, RULES.md gives {[a.index for a in want]}"
    return None


def check(impl: Implementation, rules: Rules, game: EngineGame, t: int, got: Facts) -> None:
    want = game.facts[t]
    if got != want:
        pytest.fail(mismatch(impl, rules, game, t, want, got, "facts"))
    problem = contract_violation(rules, got)
    if problem:
        pytest.fail(mismatch(impl, rules, game, t, None, None, problem))


# --------------------------------------------------------------------------- the replays


def replay_engine(rules: Rules, games: tuple[EngineGame, ...]) -> None:
    for game in games:
        deal = game.deal
        state = new_game(
            rules, game.seed + 1, dealer=deal.dealer, decks=deal.decks, reshuffles=deal.reshuffles
        )
        check(ENGINE, rules, game, 0, facts(state))
        for t, (seat, action) in enumerate(game.moves, 1):
            state = apply(state, seat, action)
            check(ENGINE, rules, game, t, facts(state))


def replay_batch(rules: Rules, games: tuple[EngineGame, ...]) -> None:
    batch = FastBatch(rules, len(games), auto_reset=False)
    batch.load([g.deal for g in games])
    longest = max(len(g.moves) for g in games)
    for t in range(longest + 1):
        if t > 0:
            acts = [g.moves[t - 1][1].index if t <= len(g.moves) else -1 for g in games]
            done = batch.step(acts)
            for i, g in enumerate(games):
                ended = t == len(g.moves)
                if bool(done[i]) != ended:
                    pytest.fail(mismatch(BATCH, rules, g, t, ended, bool(done[i]), "match over"))
        live = [i for i, g in enumerate(games) if t <= len(g.moves)]
        for i, got in zip(live, batch.summaries(live), strict=True):
            g = games[i]
            want = g.summaries[t]
            if got != want or list(got) != list(want):  # keys in N4 order, too
                pytest.fail(mismatch(BATCH, rules, g, t, want, got, "N4 summary"))
            check(BATCH, rules, g, t, batch.facts(i))
    # Games that ended earlier were stepped with -1 since: still their final state.
    for i, g in enumerate(games):
        check(BATCH, rules, g, len(g.moves), batch.facts(i))


def replay_playout(rules: Rules, games: tuple[EngineGame, ...]) -> None:
    playout = Playout(rules, RANKED)
    for game in games:
        playout.load(game.states[0])
        check(PLAYOUT, rules, game, 0, playout.facts())
        for t, (seat, action) in enumerate(game.moves, 1):
            ended = playout.act(seat, action)
            horizon = t in game.round_ends
            if ended != horizon:
                pytest.fail(mismatch(PLAYOUT, rules, game, t, horizon, ended, "horizon"))
            got = playout.facts()
            if ended and not got.over:  # a round's end in a match that goes on
                want = round_end(game.facts[t])
                if round_end(got) != want:
                    pytest.fail(mismatch(PLAYOUT, rules, game, t, want, round_end(got), "end"))
            else:
                check(PLAYOUT, rules, game, t, got)
            if t in game.states:
                playout.load(game.states[t])
                check(PLAYOUT, rules, game, t, playout.facts())


REPLAY = {ENGINE: replay_engine, BATCH: replay_batch, PLAYOUT: replay_playout}


@pytest.mark.parametrize(
    ("index", "rules"), sampled(list(enumerate(CONFIGS)), 12, ids=lambda c: config_id(c[1]))
)
def test_every_implementation_agrees_with_the_engine(index: int, rules: Rules) -> None:
    """The engine's games of one configuration, replayed by every implementation that plays
    it (one test per configuration, so that the engine's games are played once for all)."""
    games = engine_games(index)
    assert all(g.moves for g in games)  # every game has at least one action
    replayed = [impl for impl in IMPLEMENTATIONS if impl.plays(rules)]
    assert ENGINE in replayed
    for impl in replayed:
        REPLAY[impl](rules, games)


def test_every_declared_implementation_is_replayed() -> None:
    assert set(REPLAY) == set(IMPLEMENTATIONS)
    for impl in IMPLEMENTATIONS:
        assert sum(1 for rules in CONFIGS if impl.plays(rules)) >= 400, impl.name


def test_the_batch_refuses_what_it_leaves_out() -> None:
    for option in BATCH.leaves_out:
        rules = make_rules("2022", **{option: True})
        assert not BATCH.plays(rules)
        with pytest.raises(RulesError, match=option):
            FastBatch(rules, 1)


@slow
def test_the_differential_games_reach_every_rule() -> None:
    """The comparison is only as good as the situations it meets: between them, the games
    must show every kind of event and every card behaviour the rules have."""
    for index in range(len(CONFIGS)):
        if index not in VISITED:  # this test run alone: play the games, engine side only
            engine_games(index)
    wanted = [
        "deal", "play", "discard", "draw", "lost_draw", "reshuffle", "reshuffle (scripted)",
        "eliminated", "out_of_round", "round_end", "lost_token", "left", "over", "play:deflect",
        "play:bust", "play ono99 (X3)", "play2 deflects play2", "negative total (K2)",
        "total above max after a kept bust (M3)", "shared win (M3)", "match single",
        "match tokens", "match points",
    ]  # fmt: skip
    missing = [w for w in wanted if SEEN[w] == 0]
    assert not missing, f"no differential game reached {missing}"
    assert SEEN["match single"] + SEEN["match tokens"] + SEEN["match points"] >= 5000
    assert SEEN["reshuffle (scripted)"] >= 1000


# --------------------------------------------------------------------------- the playout's own play

ROLLOUT_CONFIGS = sweep_configs()[2::11]  # both editions, every format, most profiles


@pytest.mark.parametrize(
    ("index", "rules"), sampled(list(enumerate(ROLLOUT_CONFIGS)), 3, ids=lambda c: config_id(c[1]))
)
def test_playout_rollouts_agree(index: int, rules: Rules) -> None:
    """``Playout.run`` plays on as the engine does when played by the same policies: from
    decision positions of random games, after every first action, with greedy at every seat,
    and with the heuristic's planner at the searching seat, it ends where the engine ends
    (``round_end``, or every fact once the match is over) and the expert values it alike."""
    checked = 0
    game = EngineGame(rules, 300 + index)
    state = game.states[0]
    for t, (seat, action) in enumerate(game.moves):
        if t % 3 == 0 and seat == state.to_play and len(legal_actions(state)) > 1:
            checked += _compare_rollouts(state, seat)
        state = apply(state, seat, action)
    assert checked


def _compare_rollouts(state: State, seat: int) -> int:
    rules = state.rules
    planner = Planner(rules, unseen_counts(view(state, seat)))
    checked = 0
    for action in legal_actions(state, seat):
        after = apply_unchecked(state, seat, action)
        for playout, plan in (
            (Playout(rules, RANKED), None),
            (Playout(rules, RANKED, planner, seat), planner),
        ):
            end, _ = engine_rollout(after, state.round, seat, plan)
            value = rollout_value(playout, state, seat, action)
            got, want = playout.facts(), facts(end)
            where = f"{config_id(rules)} seed {state.setup.seed} move {state.moves}, {action}"
            if not want.over:
                got, want = round_end(got), round_end(want)
            assert got == want, where
            assert value == value_of(end, seat), where
            checked += 1
    return checked
