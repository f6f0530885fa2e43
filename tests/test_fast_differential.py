"""The batch simulator against the engine, action by action (STYLE.md principle 9).

For every configuration — the conformance sweep's editions × match formats × option profiles
× player counts (tests/invariants.py, with the draw penalty switched off: the simulator leaves it
out), plus every edition × format × 2–6 players at the default options — the engine plays random
games (uniformly random among its legal actions). Their deals (first dealer, every deck order,
every reshuffle order) are loaded into one ``FastBatch`` and the same actions are stepped there;
after EVERY action the simulator's N4 summary must equal the engine's ``summarize``, its legal
mask the engine's ``legal_actions``, and its ``done`` flag the end of the engine's match.

A failure names the configuration and the seed; ``engine_game(rules, seed)`` reproduces it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from invariants import config_id, sweep_configs
from ono99.engine import (
    ALL_ACTIONS,
    Rules,
    State,
    apply,
    legal_actions,
    make_rules,
    new_game,
    summarize,
)
from ono99.engine.cards import ONO99, PLAY2
from ono99.sim.fast import Deal, FastBatch

GAMES = {"single": 40, "tokens": 10, "points": 10}  # games per configuration (singles are short)
INDEX = {str(a): a.index for a in ALL_ACTIONS}


def differential_configs() -> list[Rules]:
    out: dict[str, Rules] = {}
    for rules in sweep_configs():
        if rules.draw_penalty:
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
    return list(out.values())


CONFIGS = differential_configs()
SEEN: Counter[str] = Counter()  # what the games played so far have exercised
VISITED: set[int] = set()


class EngineGame:
    """One engine game: its deal, its actions, and the summary after each of them."""

    def __init__(self, rules: Rules, seed: int) -> None:
        rng = random.Random(f"fast-differential:{seed}")
        state = new_game(rules, seed)
        self.seed = seed
        self.summaries = [summarize(state)]
        self.actions: list[int] = []
        while not state.over:
            action = rng.choice(legal_actions(state))
            state = apply(state, state.to_play, action)
            self.actions.append(action.index)
            self.summaries.append(summarize(state))
        self.final: State = state
        self.deal = Deal.of(state)


def engine_game(rules: Rules, seed: int) -> EngineGame:
    return EngineGame(rules, seed)


def note_coverage(game: EngineGame) -> None:
    state = game.final
    SEEN["reshuffle (scripted)"] += state.reshuffle_count
    SEEN[f"match {state.rules.match}"] += 1
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


def mismatch(rules: Rules, game: EngineGame, t: int, want: Any, got: Any, what: str) -> str:
    if isinstance(want, dict) and isinstance(got, dict):
        diff = {k: (want.get(k), got.get(k)) for k in want.keys() | got.keys()}
        detail = {k: v for k, v in diff.items() if v[0] != v[1]}
        shown = f"(engine, fast) differ at {detail}"
    else:
        shown = f"engine {want}, fast {got}"
    return (
        f"{config_id(rules)} seed {game.seed}: {what} after {t} of {len(game.actions)} actions "
        f"{game.actions[:t]}: {shown}"
    )


def legal_indices(summary: dict[str, Any]) -> list[int]:
    return [INDEX[text] for text in summary["legal"]]


def run_differential(rules: Rules, seeds: list[int]) -> int:
    """Play ``seeds`` through the engine and the simulator side by side; return the actions."""
    games = [EngineGame(rules, seed) for seed in seeds]
    batch = FastBatch(rules, len(games), auto_reset=False)
    batch.load([g.deal for g in games])
    longest = max(len(g.actions) for g in games)
    for t in range(longest + 1):
        if t > 0:
            acts = [g.actions[t - 1] if t <= len(g.actions) else -1 for g in games]
            done = batch.step(acts)
            for i, g in enumerate(games):
                ended = t == len(g.actions)
                if bool(done[i]) != ended:
                    pytest.fail(mismatch(rules, g, t, ended, bool(done[i]), "match over"))
        live = [i for i, g in enumerate(games) if t <= len(g.actions)]
        mask = batch.legal_mask()
        for i, got in zip(live, batch.summaries(live), strict=True):
            g = games[i]
            want = g.summaries[t]
            if got != want or list(got) != list(want):  # keys in N4 order, too
                pytest.fail(mismatch(rules, g, t, want, got, "N4 summary"))
            legal = np.flatnonzero(mask[i]).tolist()
            if legal != legal_indices(want):
                pytest.fail(mismatch(rules, g, t, legal_indices(want), legal, "legal mask"))
    # Games that ended earlier were stepped with -1 since: still their final state.
    for g, got in zip(games, batch.summaries(), strict=True):
        if got != g.summaries[-1]:
            pytest.fail(mismatch(rules, g, len(g.actions), g.summaries[-1], got, "final state"))
    for g in games:
        note_coverage(g)
    actions = sum(len(g.actions) for g in games)
    SEEN["actions"] += actions
    return actions


@pytest.mark.parametrize(
    ("index", "rules"), list(enumerate(CONFIGS)), ids=[config_id(r) for r in CONFIGS]
)
def test_fast_batch_agrees_with_the_engine(index: int, rules: Rules) -> None:
    games = GAMES[rules.match]
    actions = run_differential(rules, [10_000 * index + k for k in range(games)])
    VISITED.add(index)
    assert actions >= games  # every game has at least one action


def test_the_differential_games_reach_every_rule() -> None:
    """The comparison is only as good as the situations it meets: between them, the games
    must show every kind of event and every card behaviour the simulated rules have."""
    for index, rules in enumerate(CONFIGS):
        if index not in VISITED:  # this test run alone: play the games, engine side only
            for k in range(GAMES[rules.match]):
                note_coverage(EngineGame(rules, 10_000 * index + k))
            VISITED.add(index)
    wanted = [
        "deal", "play", "discard", "reshuffle", "reshuffle (scripted)", "eliminated",
        "out_of_round", "round_end", "lost_token", "left", "over", "play:deflect",
        "play:bust", "play ono99 (X3)", "play2 deflects play2", "negative total (K2)",
        "total above max after a kept bust (M3)", "shared win (M3)", "match single",
        "match tokens", "match points",
    ]  # fmt: skip
    missing = [w for w in wanted if SEEN[w] == 0]
    assert not missing, f"no differential game reached {missing}"
    assert SEEN["match single"] + SEEN["match tokens"] + SEEN["match points"] >= 5000
    assert SEEN["reshuffle (scripted)"] >= 1000
