"""Tournaments: reproducible from a seed whoever plays the games (one process, two, a Dask
cluster), seats rotated evenly, finishing orders, Wilson intervals, pooled ratings, saved
records that replay, and the ``ono99 tournament`` command end to end."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from ono99.bots import ORACLE_INFO, BotInfo, OmniscientBot, make_bot
from ono99.cli.tournament import bots_table, rate_text
from ono99.engine import Action, State, legal_actions, load_record, make_rules, replay
from ono99.sim import play_game
from ono99.sim.batches import chunks, in_order
from ono99.sim.seeding import derived_seed
from ono99.sim.stats import wilson_interval
from ono99.sim.tournament import (
    GameResult,
    Ratings,
    Results,
    Tournament,
    finishing_order,
    play_games,
    play_one,
    run_tournament,
)
from tiers import slow

# A points match, so that some games end in shared wins and players leave several at once.
POINTS = ["--edition", "1980", "--match", "points", "--target", "60"]
LINEUP = "greedy,random,random"
GAMES = 48


def run_cli(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["ONO99_HOME"] = str(home)
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(
        [sys.executable, "-m", "ono99", "tournament", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def outcome(folder: Path) -> tuple[str, dict[str, Any]]:
    """games.jsonl, and the summary without its "run" entry (timing, workers)."""
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    run = summary.pop("run")
    assert run["complete"] is True
    return (folder / "games.jsonl").read_text(encoding="utf-8"), summary


@pytest.fixture(scope="module")
def serial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One serial run through the command, the reference the other executors must equal."""
    home = tmp_path_factory.mktemp("home")
    args = ["--bots", LINEUP, "--games", str(GAMES), "--seed", "11", "--workers", "1"]
    result = run_cli(*args, *POINTS, home=home)
    assert result.returncode == 0, result.stderr
    (folder,) = (home / "tournaments").iterdir()  # the default place, under ONO99_HOME
    return folder


# --------------------------------------------------------------------------- the command


def test_command_end_to_end(serial: Path) -> None:
    lines, summary = outcome(serial)
    records = lines.splitlines()
    assert len(records) == GAMES
    assert summary["config"] == {
        "bots": ["greedy", "random", "random"],
        "games": GAMES,
        "seed": 11,
        "rules": {"edition": "1980", "players": 3, "match": "points", "target": 60},
    }
    assert summary["games"] == GAMES
    assert sum(bot["wins"] for bot in summary["bots"]) == pytest.approx(GAMES)
    assert sum(seat["wins"] for seat in summary["seats"]) == pytest.approx(GAMES)
    assert summary["shared_wins"] > 0  # this seed has ties, so the fractions below matter
    # Every record replays to the winners it records; the summary adds up the records.
    wins: dict[str, float] = {"greedy": 0.0, "random": 0.0}
    for index, line in enumerate(records):
        record = load_record(line)
        meta = record.meta
        assert meta["tournament"] == {"seed": 11, "game": index}
        assert record.seed == derived_seed(11, index)
        final = replay(record)
        assert final.over
        assert list(final.winners) == meta["winners"]
        assert meta["finish"][0] == meta["winners"]
        assert sorted(s for group in meta["finish"] for s in group) == [0, 1, 2]
        for seat in final.winners:
            wins[meta["bots"][seat]] += 1 / len(final.winners)
    assert {bot["bot"]: bot["wins"] for bot in summary["bots"]} == pytest.approx(wins)


def test_command_output(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["--bots", "greedy,random", "-n", "10", "--seed", "2", "-j", "1", "--out", str(out)]
    result = run_cli(*args, home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "10 games · 2022 edition · 2 players · seed 2 · 1 worker"
    assert lines[1].split()[:8] == [
        "bot",
        "copies",
        "games",
        "wins",
        "win",
        "rate",
        "95%",
        "interval",
    ]
    assert lines[1].endswith("rating μ ± σ")
    assert [line.split()[:3] for line in lines[2:4]] == [
        ["greedy", "1", "10"],
        ["random", "1", "10"],
    ]
    assert f"games: {out / 'games.jsonl'}" in lines
    assert "\x1b" not in result.stdout + result.stderr
    # Not a terminal: plain progress lines on stderr instead of a bar.
    assert result.stderr.splitlines()[-1].startswith("games 10/10 · 100% · ")
    assert len((out / "games.jsonl").read_text().splitlines()) == 10
    again = run_cli(*args, home=tmp_path / "home")
    assert again.returncode == 1
    assert again.stderr == f"error: {out / 'games.jsonl'} already exists; choose another --out\n"


@slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_the_games_finished_and_says_so(workers: str, tmp_path: Path) -> None:
    out = tmp_path / "t"
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["PYTHONIOENCODING"] = "utf-8"
    args = ["--bots", "greedy,greedy", "-n", "1000000", "--seed", "3", "-j", workers]
    # Its own process group, so that the SIGINT reaches the workers too, as from a terminal.
    proc = subprocess.Popen(
        [sys.executable, "-m", "ono99", "tournament", *args, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=env,
        start_new_session=True,
    )
    games = out / "games.jsonl"
    while not (games.exists() and games.stat().st_size):  # written every 64 games
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    finished = summary["games"]
    assert summary["run"]["complete"] is False
    assert len(games.read_text(encoding="utf-8").splitlines()) == finished > 0
    assert err.splitlines()[-1] == (
        f"interrupted after {finished} of 1000000 games; kept their records in {games} and "
        f"their summary in {out / 'summary.json'}"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "greedy,wizard"], "error: unknown bot 'wizard'; the bots are "),
        (["--bots", "greedy"], "error: --bots: a game needs 2 to 6 players, not 1\n"),
        (["--games", "0"], "error: --games must be at least 1, not 0\n"),
        (["--workers", "0"], "error: --workers must be at least 1, not 0\n"),
        (["--match", "quick"], "error: option 'match': must be one of single, tokens, points, "),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    result = run_cli(*args, "--out", str(tmp_path / "t"), home=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "t").exists()


def test_a_bad_dask_address_is_one_line(tmp_path: Path) -> None:
    result = run_cli("--bots", "greedy,random", "-n", "4", "--address", "nowhere", home=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("error: cannot reach the Dask scheduler at nowhere: ")
    assert result.stderr.count("\n") == 1
    assert list((tmp_path / "tournaments").iterdir()) == []  # nothing left behind


# --------------------------------------------------------------------------- executors


@slow
def test_two_workers_give_the_same_files(serial: Path, tmp_path: Path) -> None:
    args = ["--bots", LINEUP, "--games", str(GAMES), "--seed", "11", "--workers", "2"]
    result = run_cli(*args, *POINTS, "--out", str(tmp_path / "t"), home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "· 2 workers" in result.stdout
    assert outcome(tmp_path / "t") == outcome(serial)


@slow
def test_dask_cluster_gives_the_same_files(serial: Path, tmp_path: Path) -> None:
    from dask.distributed import LocalCluster

    # A real scheduler and one worker *process* (it imports ono99 itself, as a remote
    # machine would), reached over TCP by the command in another process.
    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=True,
        protocol="tcp",
        dashboard_address=":0",
    ) as cluster:
        args = ["--bots", LINEUP, "--games", str(GAMES), "--seed", "11"]
        address = cluster.scheduler_address
        result = run_cli(
            *args, *POINTS, "--address", address, "--out", str(tmp_path / "t"), home=tmp_path
        )
    assert result.returncode == 0, result.stderr
    assert f"· Dask at {address}" in result.stdout
    assert outcome(tmp_path / "t") == outcome(serial)


def test_games_come_back_in_order_and_can_stop_early() -> None:
    rules = make_rules("2022", players=4)
    tournament = Tournament(rules, ("greedy", "random", "random", "random"), 500, seed=4)
    done: list[int] = []
    games = play_games(tournament, workers=2, on_done=done.append)
    first = [next(games) for _ in range(5)]
    games.close()  # stops the pool without playing the rest
    assert [g.index for g in first] == [0, 1, 2, 3, 4]
    assert first == [play_one(tournament, i) for i in range(5)]
    assert 5 <= sum(done) < 500


@pytest.mark.parametrize("workers", [1, 2])
def test_stop_ends_the_games_early_keeping_the_first(workers: int) -> None:
    rules = make_rules("2022", players=4)
    tournament = Tournament(rules, ("greedy", "random", "random", "random"), 5000, seed=4)
    seen: list[GameResult] = []
    results = run_tournament(
        tournament, workers=workers, on_game=seen.append, stop=lambda: len(seen) >= 100
    )
    assert 100 <= results.games < 5000
    assert [g.index for g in seen] == list(range(results.games))
    assert seen[99] == play_one(tournament, 99)


def test_chunks_arriving_out_of_order_come_out_in_order() -> None:
    rules = make_rules("2022", players=2)
    tournament = Tournament(rules, ("greedy", "random"), 7, seed=3)
    games = [play_one(tournament, i) for i in range(7)]
    arrivals = [(2, games[5:7]), (0, games[0:2]), (1, games[2:5])]
    done: list[int] = []
    out = in_order(arrivals, done.append)
    assert next(out) == games[0]  # chunk 0 is out once it arrives, chunk 2 waits for 1
    assert done == [2, 2]
    assert list(out) == games[1:]
    assert done == [2, 2, 3]


def test_chunks_cover_every_game_once() -> None:
    for games, workers in [(1, 2), (7, 2), (2000, 2), (2000, 64), (5, 1)]:
        ranges = chunks(games, workers)
        assert [i for a, b in ranges for i in range(a, b)] == list(range(games))
        assert max(b - a for a, b in ranges) <= 64


# --------------------------------------------------------------------------- seats and seeds


def test_seats_rotate_so_every_bot_sits_everywhere_equally() -> None:
    rules = make_rules("2022", players=4)
    tournament = Tournament(rules, ("greedy", "random", "greedy", "random"), 12, seed=0)
    assert tournament.seating(0) == ("greedy", "random", "greedy", "random")
    assert tournament.seating(1) == ("random", "greedy", "random", "greedy")
    for i in range(12):
        now, following = tournament.seating(i), tournament.seating(i + 1)
        assert following == now[1:] + now[:1]  # everyone moves one seat on
        assert tournament.seating(i + 4) == now
    results = run_tournament(tournament)
    assert results.seat_games == {"greedy": [6, 6, 6, 6], "random": [6, 6, 6, 6]}
    summary = results.summary()
    assert [bot["seat_games"] for bot in summary["bots"]] == [[6, 6, 6, 6]] * 2
    assert [bot["games"] for bot in summary["bots"]] == [24, 24]
    assert [bot["copies"] for bot in summary["bots"]] == [2, 2]


def test_game_seeds_depend_on_tournament_seed_and_index() -> None:
    seeds = {derived_seed(s, i) for s in range(3) for i in range(100)}
    assert len(seeds) == 300
    assert all(0 <= s < 2**53 for s in seeds)
    rules = make_rules("2022", players=3)
    tournament = Tournament(rules, ("random", "random", "greedy"), 3, seed=9)
    game = play_one(tournament, 2)
    assert game == play_one(tournament, 2)
    assert game.bots == ("greedy", "random", "random")
    assert game.seed == derived_seed(9, 2)
    assert play_one(Tournament(rules, tournament.bots, 3, seed=10), 2).record != game.record


def test_an_unknown_bot_fails_before_any_game() -> None:
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        Tournament(make_rules("2022", players=2), ("greedy", "wizard"), 10, seed=0)
    with pytest.raises(ValueError, match="3 players need 3 bots, not 2"):
        Tournament(make_rules("2022", players=3), ("greedy", "random"), 10, seed=0)


class Peeker(OmniscientBot):
    """An omniscient bot, as the oracle is: it is handed the whole state."""

    name = "peeker"
    hands_seen = 0

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def choose_state(self, state: State, seat: int) -> Action:
        assert isinstance(state, State)  # the full state, every hand in it, not a view
        Peeker.hands_seen += 1
        return legal_actions(state, seat)[-1]


def test_an_omniscient_bot_plays_from_the_state_and_is_marked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    info = BotInfo("peeker", 5, "ceiling", "sees every hand", Peeker, sees_all=True)
    monkeypatch.setitem(ORACLE_INFO, "peeker", info)  # the registry says it sees all
    tournament = Tournament(make_rules("2022", players=2), ("peeker", "greedy"), 6, seed=1)
    summary = run_tournament(tournament).summary()
    assert Peeker.hands_seen > 0
    assert [bot.get("omniscient", False) for bot in summary["bots"]] == [True, False]
    assert [bot["games"] for bot in summary["bots"]] == [6, 6]
    assert list(bots_table(summary).columns[0].cells) == ["peeker *", "greedy"]


# --------------------------------------------------------------------------- finishing order


def _random_game(seed: int, **options: Any) -> Any:
    rules = make_rules("2022", players=4, **options)
    return play_game(rules, [make_bot("random", seed * 10 + s) for s in range(4)], seed)


def test_finishing_order_single_game_is_reverse_elimination_order() -> None:
    for seed in range(5):
        state = _random_game(seed)
        finish = finishing_order(state)
        assert finish[0] == state.winners
        assert finish[1:] == tuple((seat,) for seat in reversed(state.out))


def test_finishing_order_points_ranks_a_round_s_leavers_by_score() -> None:
    # Seats 0 and 1 leave after round 1 (scores 94 and 60), seat 2 after round 2, seat 3 wins.
    state = _random_game(0, match="points", target=60)
    assert state.out == (0, 1, 2, 3)
    assert state.scores == (94, 60, 152, 111)
    assert state.winners == (3,)
    assert finishing_order(state) == ((3,), (2,), (1,), (0,))


def test_finishing_order_points_shares_places() -> None:
    # Everyone leaves after round 1; 61 and 61 share the win (M3), then 66, then 70.
    state = _random_game(3, match="points", target=60)
    assert state.scores == (70, 61, 61, 66)
    assert finishing_order(state) == ((1, 2), (3,), (0,))


def test_finishing_order_lowest_score_variant() -> None:
    # Nobody leaves the game: places follow the scores, the lowest winning (M3).
    state = _random_game(0, match="points", target=60, variant="lowest_score")
    assert state.out == ()
    assert state.scores == (94, 60, 59, 41)
    assert finishing_order(state) == ((3,), (2,), (1,), (0,))


# --------------------------------------------------------------------------- results


def _result(index: int, bots: tuple[str, ...], finish: tuple[tuple[int, ...], ...]) -> GameResult:
    return GameResult(index, 0, bots, finish[0], finish, actions=10, rounds=1, record="{}")


def test_wins_are_shared_and_intervals_are_wilson() -> None:
    tournament = Tournament(make_rules("2022", players=2), ("greedy", "random"), 100, seed=0)
    results = Results.start(tournament, ratings=False)
    for i in range(100):
        bots = tournament.seating(i)
        if i < 10:
            finish: tuple[tuple[int, ...], ...] = ((0, 1),)  # a shared win: half each
        else:
            winner = bots.index("greedy") if i % 9 else bots.index("random")
            finish = ((winner,), (1 - winner,))
        results.add(_result(i, bots, finish))
    summary = results.summary()
    greedy, random_bot = summary["bots"]
    assert greedy["wins"] == pytest.approx(5 + 80)  # 10 shared, 80 of the 90 others
    assert random_bot["wins"] == pytest.approx(5 + 10)
    assert greedy["win_rate"] == pytest.approx(0.85)
    assert greedy["ci95"] == pytest.approx(list(wilson_interval(85, 100)))
    assert summary["shared_wins"] == 10
    assert summary["ratings"] is None
    assert sum(seat["wins"] for seat in summary["seats"]) == pytest.approx(100)
    # Published values of the Wilson score interval.
    assert wilson_interval(85, 100) == pytest.approx((0.7672, 0.9069), abs=1e-4)
    assert wilson_interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)


# --------------------------------------------------------------------------- ratings


def test_ratings_pool_the_copies_of_a_bot() -> None:
    ratings = Ratings(["expert", "greedy"])
    ratings.update(("greedy", "expert", "greedy"), ((1,), (0,), (2,)))
    model = PlackettLuce(tau=0.0)
    rated = model.rate([[model.rating()] for _ in range(3)], ranks=[1.0, 0.0, 2.0])
    assert ratings.mu["expert"] == pytest.approx(rated[1][0].mu)
    assert ratings.mu["greedy"] == pytest.approx(rated[0][0].mu + rated[2][0].mu - 25.0)
    assert ratings.sigma["greedy"] == pytest.approx(
        rated[0][0].sigma * rated[2][0].sigma / model.sigma
    )
    assert ratings.mu["expert"] > 25 > ratings.mu["greedy"]


def test_a_mirror_match_moves_no_rating_and_a_better_bot_rates_higher() -> None:
    rules = make_rules("2022", players=3)
    mirror = run_tournament(Tournament(rules, ("greedy",) * 3, 30, seed=1))
    assert mirror.ratings is not None
    assert mirror.ratings.mu["greedy"] == pytest.approx(25.0)
    assert mirror.ratings.sigma["greedy"] < 25 / 3
    mixed = run_tournament(Tournament(rules, ("greedy", "random", "random"), 150, seed=1))
    assert mixed.ratings is not None
    assert mixed.ratings.mu["greedy"] > 25 > mixed.ratings.mu["random"]
    ratings = mixed.summary()["ratings"]
    assert [r["bot"] for r in ratings["bots"]] == ["greedy", "random"]
    assert ratings["params"]["tau"] == 0.0


SLOW_BOTS = '''
import time

from ono99.bots import GreedyBot


class Ponders:
    """greedy, after thinking over its first move of each game for 1.5 s"""

    def __init__(self, seed=None):
        self.greedy = GreedyBot(seed)

    def choose(self, view):
        if not any(e.kind == "play" and e.seat == view.seat for e in view.events):
            time.sleep(1.5)
        return self.greedy.choose(view)
'''


@slow
def test_a_slow_tournament_says_how_slow(tmp_path: Path) -> None:
    """Under a game a second the rate read "0 games/s" (0.44, rounded down)."""
    (tmp_path / "bots.py").write_text(SLOW_BOTS, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "ono99", "tournament", "--bots", "bots.py:Ponders,greedy"]
        + ["-n", "2", "-j", "1", "--seed", "3"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "ONO99_HOME": str(tmp_path / "home")},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "0 games/s" not in result.stdout + result.stderr
    assert re.search(r"^\d+\.\ds · \d\.\d s/game$", result.stdout, re.M), result.stdout
    assert re.search(r"^games 2/2 · 100% · \d\.\d s/game · done$", result.stderr, re.M)


@pytest.mark.parametrize(
    ("games", "seconds", "text"),
    [(1000, 0.8, "1,250 games/s"), (50, 2, "25 games/s"), (7, 3, "2.3 games/s"),
     (4, 9, "2.2 s/game"), (2, 60, "30 s/game")],
)  # fmt: skip
def test_rates_read_right_at_any_speed(games: int, seconds: float, text: str) -> None:
    assert rate_text(games, seconds) == text


BROKEN_BOTS = '''
from ono99.bots import GreedyBot
from ono99.engine import Action


class Crashes:
    """crashes on its third move"""

    def __init__(self, seed=None):
        self.greedy, self.moves = GreedyBot(seed), 0

    def choose(self, view):
        self.moves += 1
        if self.moves == 3:
            raise KeyError("hands")
        return self.greedy.choose(view)


class Cheats:
    """always tries to play a 9"""

    def choose(self, view):
        return Action.parse("play 9")
'''


@slow
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize(
    ("bot", "message"),
    [
        (
            "Crashes",
            r"error: bot 'bots.py:Crashes' at seat (\d) raised KeyError: 'hands' \(move \d+\)",
        ),
        (
            "Cheats",
            r"error: bot 'bots.py:Cheats' at seat (\d) chose an illegal action: seat \1 tried",
        ),
    ],
)
def test_an_outside_bot_that_fails_is_one_line(
    bot: str, message: str, workers: str, tmp_path: Path
) -> None:
    (tmp_path / "bots.py").write_text(BROKEN_BOTS, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "ono99", "tournament", "--bots", f"bots.py:{bot},greedy"]
        + ["-n", "6", "-j", workers, "--seed", "3"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "ONO99_HOME": str(tmp_path / "home")},
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert re.match(message, result.stderr), result.stderr  # games in parallel: any seat
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert list((tmp_path / "home" / "tournaments").iterdir()) == []  # nothing left behind
