"""``ono99 analyze``: the experiments' numbers add up, the report is written, runs repeat.

Game counts are tiny: these tests check shapes, definitions and plumbing, not findings.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ono99.bots import BOTS
from ono99.engine import Event
from ono99.engine.cards import MINUS_TEN, PLAY2, REVERSE, parse_card
from ono99.sim.experiments import (
    EXPERIMENTS,
    Analysis,
    Estimate,
    Run,
    build_bot,
    card_effects,
    chi_square_sf,
    count_turns,
    danger_outcomes,
    game_counts,
    game_length,
    house_rule_sets,
    house_rules,
    paired_difference,
    proportion,
    seat_order,
    strong_default,
    to_plain,
)
from ono99.sim.report import write_report
from ono99.sim.report.markdown import SECTIONS
from tiers import slow

PNGS = (
    "seat_order.png",
    "length_by_players.png",
    "game_length.png",
    "card_saves.png",
    "card_attacks.png",
    "card_knockouts.png",
    "house_rules_length.png",
    "house_rules_edge.png",
)


def contains(e: Estimate) -> bool:
    return e.low <= e.value <= e.high


# --------------------------------------------------------------------------- statistics


def test_chi_square_tail_matches_tables() -> None:
    # The 5% critical values of the chi-square distribution for 1 to 5 degrees of freedom.
    for x, dof in ((3.841, 1), (5.991, 2), (7.815, 3), (9.488, 4), (11.070, 5)):
        assert chi_square_sf(x, dof) == pytest.approx(0.05, abs=2e-4)
    assert chi_square_sf(0.0, 3) == 1.0
    assert chi_square_sf(40.0, 2) < 1e-8


def test_proportion_and_paired_difference() -> None:
    assert contains(proportion(10, 10)) and proportion(10, 10).value == 1.0
    assert contains(proportion(0, 7)) and proportion(0, 7).high > 0
    empty = proportion(0, 0)
    assert math.isnan(empty.value) and (empty.low, empty.high) == (0.0, 1.0)
    same = paired_difference([3, 5, 8], [3, 5, 8])
    assert (same.value, same.low, same.high) == (0.0, 0.0, 0.0)
    d = paired_difference([4, 6, 9, 12], [3, 5, 8, 10])
    assert d.value == pytest.approx(1.25) and d.low < 1.25 < d.high
    assert to_plain({"x": empty}) == {"x": {"value": None, "low": 0.0, "high": 1.0, "n": 0}}


# --------------------------------------------------------------------------- definitions


def play(seat: int, card: str, total: int, data: str | None = None) -> Event:
    return Event("play", seat, parse_card(card), total, data)


DEAL = Event("deal", 0, None, 0, 1)


def test_turns_count_a_play2_pair_once() -> None:
    events = [DEAL, play(1, "5", 5), play(2, "play2", 5), play(3, "3", 8), play(3, "4", 12)]
    events += [play(0, "1", 13), Event("eliminated", 1, None, 13, ()), play(2, "0", 13)]
    assert count_turns(events) == 5  # seat 3 laid two cards in one turn
    # A new round starts new turns even for the seat that played last.
    assert count_turns([DEAL, play(1, "5", 5), DEAL, play(1, "6", 6)]) == 2


def test_danger_outcomes_follow_the_definitions() -> None:
    # Only cards laid on a total of at least 88 count: not the first 10 (laid on 0).
    events = [DEAL, play(0, "10", 88), play(1, "5", 93), play(0, "0", 93)]
    events += [play(1, "-10", 83), play(0, "2", 85)]
    assert danger_outcomes(events, 88) == [
        # Seat 1's 5: seat 0 got through, and so did seat 1 on its next turn.
        (parse_card("5"), True, False),
        # Seat 0's 0 (laid on 93): it got through its next turn (the 2, laid on 83).
        (parse_card("0"), True, False),
        # Seat 1's −10 (laid on 93): the game's record ends first, which counts as through.
        (MINUS_TEN, True, False),
    ]
    # Seat 1 lays a 9 on 89 and seat 2 is knocked out at once: the 9 knocked out the next
    # player, and seat 1 is knocked out itself before its next turn.
    events = [DEAL, play(0, "10", 89), play(1, "9", 98)]
    events += [Event("eliminated", 2, None, 98, (10, 10, 10, 15)), play(3, "0", 98)]
    events += [play(0, "0", 98), Event("eliminated", 1, None, 98, (9, 9, 15, 15))]
    events += [Event("over", None, None, None, (0, 3))]
    assert danger_outcomes(events, 88) == [
        (parse_card("9"), False, True),
        # Seat 3's 0: seat 0 got through it; seat 1's knock-out after seat 0 is seat 0's.
        (parse_card("0"), True, False),
        # Seat 0's 0: seat 1, next, was knocked out without laying a card.
        (parse_card("0"), True, True),
    ]
    # A bust is a knock-out, not a card laid to get through.
    events = [DEAL, play(0, "10", 95), play(1, "10", 95, "bust")]
    events += [Event("out_of_round", 1, None, 95, None)]
    assert danger_outcomes(events, 88) == []


# --------------------------------------------------------------------------- experiments


def test_seat_order_rates_add_up() -> None:
    cells = seat_order(24, seed=11, players=(2, 4))
    assert [(c.edition, c.players) for c in cells] == [
        ("2022", 2),
        ("2022", 4),
        ("1980", 2),
        ("1980", 4),
    ]
    for c in cells:
        assert c.games == 24 and len(c.wins) == len(c.rates) == c.players
        assert sum(c.wins) == pytest.approx(24)
        assert sum(e.value for e in c.rates) == pytest.approx(1.0)
        assert all(contains(e) and e.n == 24 for e in c.rates)
        assert c.fair == pytest.approx(1 / c.players)
        assert 0.0 <= c.p_value <= 1.0 and c.chi2 >= 0
        assert contains(c.turns) and c.turns.value > 0
    assert [c.match for c in cells] == ["single", "single", "tokens", "tokens"]


def test_game_length_distributions() -> None:
    cells = game_length(10, seed=5)
    assert [(c.edition, c.match) for c in cells] == [
        (ed, m) for ed in ("2022", "1980") for m in ("single", "tokens", "points")
    ]
    for c in cells:
        for dist in (c.actions, c.turns, c.rounds):
            assert sum(k for _, k in dist.counts) == 10
            assert dist.low <= dist.p10 <= dist.median <= dist.p90 <= dist.high
            assert contains(dist.mean) and dist.low <= dist.mean.value <= dist.high
        # Every turn lays at least one card, and every card laid is an action.
        assert c.actions.mean.value >= c.turns.mean.value >= 1
        if c.match == "single":
            assert [v for v, _ in c.rounds.counts] == [1]
        else:
            assert c.rounds.low >= 2


def test_card_effects_shapes_and_what_can_never_be_stuck() -> None:
    effects = card_effects(30, seed=2)
    assert [e.edition for e in effects] == ["2022", "1980"]
    for eff in effects:
        assert eff.threshold == 88
        assert eff.danger_plays == sum(r.played for r in eff.cards) > 0
        assert contains(eff.survived) and contains(eff.knocked_next)
        assert eff.knockouts > 0 and eff.danger_hands > 0
        by_card = {parse_card(r.card): r for r in eff.cards}
        for row in eff.cards:
            assert row.survived.n == row.knocked_next.n == row.played
            assert row.held_at_knockout.n == eff.knockouts
            assert row.held_in_danger.n == eff.danger_hands
            for e in (row.held_at_knockout, row.held_in_danger):
                assert contains(e)
        # −10 and Reverse are always legal in both editions (K2, K3), so no hand holding one
        # is ever stuck; an ONO 99 can never be laid, so it is never counted as laid.
        assert by_card[MINUS_TEN].held_at_knockout.value == 0.0
        assert by_card[REVERSE].held_at_knockout.value == 0.0
        assert by_card[parse_card("ono99")].played == 0
        assert by_card[parse_card("ono99")].held_at_knockout.value > 0
    # A Play 2 is always legal in 2022 (a Play 2 may answer a Play 2 there).
    assert {r.card: r for r in effects[0].cards}["play2"].held_at_knockout.value == 0.0
    assert PLAY2 in [parse_card(r.card) for r in effects[1].cards]  # Double Play, 1980


def test_house_rules_against_the_defaults() -> None:
    rows = house_rules(8, seed=4, strong_games=6, strong="greedy", editions=("2022",))
    assert [r.rule for r in rows] == [label for label, _ in house_rule_sets("2022")]
    assert [r.rule for r in rows] == [
        "defaults",
        "max_total=99",
        "play2_deflects_play2=off",
        "ono99_on_tens=on",
        "negative_totals=on",
    ]
    base = rows[0]
    assert base.turns_vs_default.value == 0.0 and base.edge_vs_default.value == 0.0
    for r in rows:
        assert r.games == 8 and r.strong_games == 6 and r.strong == "greedy"
        assert contains(r.turns) and contains(r.win_rate) and contains(r.edge)
        assert r.edge.value == pytest.approx(r.win_rate.value - 0.25)
        assert r.turns_vs_default.value == pytest.approx(r.turns.value - base.turns.value)
        assert r.edge_vs_default.value == pytest.approx(r.edge.value - base.edge.value)
        assert contains(r.turns_vs_default) and contains(r.edge_vs_default)
    assert [label for label, _ in house_rule_sets("1980")][2:] == [
        "play2_deflects_play2=on",
        "ono99_on_tens=on",
        "negative_totals=off",
    ]


def test_strong_bot_resolution_and_options() -> None:
    assert strong_default() in BOTS
    assert strong_default() == next(n for n in ("expert", "heuristic", "greedy") if n in BOTS)
    with pytest.raises(ValueError, match="does not take the options"):
        build_bot("greedy", 1, {"worlds": 2})
    with pytest.raises(ValueError, match="unknown bot"):
        build_bot("nobody", 1)


@slow
def test_a_seed_repeats_a_run_and_workers_do_not_change_it() -> None:
    one = to_plain(game_length(6, seed=8, editions=("2022",), matches=("single", "points")))
    assert one == to_plain(game_length(6, seed=8, editions=("2022",), matches=("single", "points")))
    other = to_plain(game_length(6, seed=9, editions=("2022",), matches=("single", "points")))
    assert one != other
    two = game_length(6, seed=8, editions=("2022",), matches=("single", "points"), workers=2)
    assert to_plain(two) == one


# --------------------------------------------------------------------------- the report


@pytest.fixture(scope="module")
def small_run() -> Analysis:
    ticks: list[int] = []
    run = Run(4, seed=21, strong_games=3, strong="greedy")
    result = run.run(on_game=lambda: ticks.append(1))
    assert len(ticks) == game_counts(4, 3)
    return result


@slow
def test_report_and_every_plot_are_written(small_run: Analysis, tmp_path: Path) -> None:
    command = "ono99 analyze --games 4 --strong-games 3 --seed 21 --strong greedy"
    paths = write_report(small_run, tmp_path, command, runtime=1.5)
    assert {p.name for p in paths} == {"report.md", "results.json", *PNGS}
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert command in report
    assert "a seed hashed from 21 and *i*" in report
    for name in PNGS:
        assert f"]({name})" in report
        data = (tmp_path / name).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5_000
    for heading in ("order of play", "How long", "save players", "house rules"):
        assert heading in report
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["command"] == command
    assert results["seed"] == 21 and results["games"] == 4 and results["strong_games"] == 3
    assert len(results["seat_order"]) == 10 and len(results["house_rules"]) == 10


def test_the_report_has_a_section_per_experiment_in_their_order() -> None:
    assert [section.field for section in SECTIONS] == list(EXPERIMENTS)


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["MPLCONFIGDIR"] = str(cwd / "mpl")
    return subprocess.run(
        [sys.executable, "-m", "ono99", "analyze", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=env,
        timeout=300,
    )


@slow
def test_cli_end_to_end(tmp_path: Path) -> None:
    # The strong bot with a tiny search budget, passed through to its constructor.
    args = ["--games", "3", "--strong-games", "2", "--seed", "13", "--strong", "expert"]
    args += ["--strong-option", "worlds=2", "--strong-option", "max_rollouts=4"]
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "ono99-report"  # the default directory
    assert "wrote" in done.stdout and str(out.name) in done.stdout
    assert "\x1b" not in done.stdout + done.stderr  # no progress bar through a pipe
    for name in ("report.md", "results.json", *PNGS):
        assert (out / name).stat().st_size > 0, name
    report = (out / "report.md").read_text(encoding="utf-8")
    command = (
        "ono99 analyze --games 3 --strong-games 2 --seed 13 --strong expert "
        "--strong-option worlds=2 --strong-option max_rollouts=4 --out ono99-report"
    )
    assert command in report
    assert "Strong bot: expert (worlds=2, max_rollouts=4)" in report
    # The command in the report repeats the run exactly.
    again = run_cli(*args, "--out", "again", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    first = json.loads((out / "results.json").read_text(encoding="utf-8"))
    second = json.loads((tmp_path / "again" / "results.json").read_text(encoding="utf-8"))
    assert first.pop("command") != second.pop("command")
    assert first == second
    assert first["strong"] == "expert"
    assert first["strong_options"] == {"worlds": 2, "max_rollouts": 4}


@slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "--games must be at least 1"),
        (["--strong", "nobody"], "unknown bot 'nobody'"),
        (["--strong-option", "worlds"], "KEY=VALUE"),
        (["--strong", "greedy", "--strong-option", "worlds=2"], "does not take the options"),
    ],
)
def test_cli_bad_options(args: list[str], message: str, tmp_path: Path) -> None:
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "ono99-report").exists()
