"""Issue 43: a table on one device (``session/device.py``), the offline app's game.

- A hundred offline games of random rule sets (both editions, every option, the three match
  formats), played in real Pyodide under Node (the npm package the browser's worker loads, and
  the package zip the server serves) by one to three people on the device and bots: each game's
  downloadable record replays in ``ono99 replay --json`` to the summary the device saw (N3/N4).
- The same under CPython: a kept game restored at any point goes on exactly as before.
- Refusals change nothing (the kept game is the same), damaged input gets a clear error, and
  the screen's seat is sent its own view only: no other hand, no seed, no draw pile order.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ono99.cli.main import main as cli
from ono99.engine import load_record, replay
from ono99.engine.summary import summarize
from ono99.session import SessionError
from ono99.session.device import Device, open_device, options_json
from tiers import slow

TESTS = Path(__file__).parents[1]
ROOT = TESTS.parent
sys.path.insert(0, str(TESTS))
from device_games import main as device_games  # noqa: E402

NODE = shutil.which("node")
PYODIDE = ROOT / "node_modules" / "pyodide"


def games_in_pyodide(tmp_path: Path, count: int, seed: int) -> list[dict]:
    if NODE is None or not (PYODIDE / "pyodide.mjs").exists():
        message = "Pyodide under Node is needed: install Node and run `npm ci` (./test does)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from ono99.server.offline import package_zip

    zipped = tmp_path / "ono99.zip"
    zipped.write_bytes(package_zip()[1])
    done = subprocess.run(
        [
            NODE,
            str(TESTS / "device_games.mjs"),
            str(zipped),
            str(TESTS / "device_games.py"),
            str(count),
            str(seed),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def replayed_summary(record: str, tmp_path: Path) -> dict:
    path = tmp_path / "record.json"
    path.write_text(record)
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@slow
def test_a_hundred_offline_games_in_pyodide_replay_to_what_the_device_saw(tmp_path: Path) -> None:
    games = games_in_pyodide(tmp_path, 100, 43)
    assert len(games) == 100
    for game in games:
        assert game["record"] is not None
        assert replayed_summary(game["record"], tmp_path) == game["summary"], game["rules"]
        assert game["summary"]["over"]
    # Every rule set: both editions, each match format, each option both ways, 2-6 players,
    # one to three people on the device.
    rules = [g["rules"] for g in games]
    assert {r["edition"] for r in rules} == {"2022", "1980"}
    assert {r.get("match") for r in rules} >= {"single", "tokens", "points"}
    for option in (
        "negative_totals",
        "four_ono99_discard",
        "play2_deflects_play2",
        "ono99_on_tens",
        "draw_penalty",
    ):
        assert {r.get(option) for r in rules} >= {True, False}, option
    assert {r.get("variant") for r in rules} >= {"last_standing", "lowest_score"}
    assert {r.get("bust_total") for r in rules} >= {"unchanged", "keep", "reset"}
    assert {g["players"] for g in games} == {2, 3, 4, 5, 6}
    assert {g["people"] for g in games} == {1, 2, 3}


def test_a_few_offline_games_in_pyodide_replay(tmp_path: Path) -> None:
    for game in games_in_pyodide(tmp_path, 4, 7):
        assert replayed_summary(game["record"], tmp_path) == game["summary"]


def test_offline_games_under_cpython_replay_to_what_the_device_saw(tmp_path: Path) -> None:
    for line in device_games(30, 5).splitlines():
        game = json.loads(line)
        assert summarize(replay(load_record(game["record"]))) == game["summary"]


# ------------------------------------------------------------------ one device, step by step


def two_people_and_a_bot(**extra: object) -> Device:
    request = {
        "table": {
            "rules": {"edition": "2022"},
            "turn_seconds": 0,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"}],
        },
        "people": ["Ana", "Leo"],
        "bot_delay": 0,
        **extra,
    }
    return Device.create(json.dumps(request), 0.0)


def messages(texts: list[str]) -> list[dict]:
    return [json.loads(t) for t in texts]


def play_some(device: Device, moves: int, rng: random.Random, now: float = 0.0) -> float:
    """``moves`` people's moves (the bots' in between), each by whoever holds the device."""
    mine = [p["seat"] for p in device.people()]
    for _ in range(moves):
        now += 0.01
        device.wake(now)
        state = device.table.state
        if state is None or state.over or state.to_play not in mine:
            continue
        view = messages(device.hello(state.to_play, now))[2]["view"]
        act = {"type": "act", "action": rng.choice(view["legal"]), "moves": state.moves}
        assert all(m["type"] != "error" for m in messages(device.handle(json.dumps(act), now)))
    return now


def test_the_screen_shows_one_seat_and_only_what_that_seat_may_see() -> None:
    device = two_people_and_a_bot()
    assert device.people() == [{"seat": 0, "name": "Ana"}, {"seat": 2, "name": "Leo"}]
    welcome, table, state = messages(device.hello(0, 0.0))
    assert welcome == {"type": "welcome", "protocol": 1, "code": "device", "seat": 0, "host": True}
    assert table["type"] == "table" and state["view"] is None  # the lobby
    started = messages(device.handle(json.dumps({"type": "start"}), 0.0))
    seed = str(device.kept["seed"])
    for seat in (0, 2):
        for m in started + messages(device.hello(seat, 0.1)):
            text = json.dumps(m)
            assert seed not in text  # nor the seed...
            if m.get("view"):
                view = m["view"]
                assert view["seat"] == seat and view["hand"] is not None
                assert "hands" not in view and "draw_pile" in view  # a count, not the cards
                assert isinstance(view["draw_pile"], int)
        started = []
    # Seat 1 is a bot's: nobody on the device holds it.
    with pytest.raises(SessionError) as refused:
        device.hello(1, 0.2)
    assert refused.value.code == "bad_token"


def test_a_refusal_gets_one_clear_error_and_changes_nothing() -> None:
    device = two_people_and_a_bot()
    device.hello(0, 0.0)
    device.handle(json.dumps({"type": "start"}), 0.0)
    kept = device.kept_json()
    seats = [(x.kind, x.name) for x in device.table.seats]
    for frame, code in (
        ("{not json", "bad_json"),
        (json.dumps({"type": "act", "action": "play 99", "moves": 0}), None),
        (json.dumps({"type": "act", "action": "draw", "moves": 12345}), None),
        (json.dumps({"type": "seat", "seat": 1, "kind": "human"}), "bad_request"),
        (json.dumps({"type": "leave"}), "bad_request"),
        (json.dumps({"type": "relink", "seat": 2}), "bad_request"),
        ("x" * 5000, "too_big"),
    ):
        answer = messages(device.handle(frame, 0.0))
        assert len(answer) == 1 and answer[0]["type"] == "error", (frame[:40], answer)
        if code is not None:
            assert answer[0]["code"] == code
        assert answer[0]["message"]
        assert device.kept_json() == kept
        assert [(x.kind, x.name) for x in device.table.seats] == seats  # nor the table held


def test_what_is_made_from_bad_input_is_nothing_but_an_error() -> None:
    for request in (
        "[]",
        "{",
        json.dumps({"people": []}),
        json.dumps({"people": ["Ana"], "table": {"seats": [{"kind": "human"}] * 2}}),
        json.dumps({"people": ["Ana", "ana"], "table": {"seats": [{"kind": "human"}] * 2}}),
        json.dumps(
            {
                "people": ["Ana"],
                "bot_delay": 60,
                "table": {"seats": [{"kind": "human"}, {"kind": "bot"}]},
            }
        ),
        json.dumps(
            {"people": ["A" * 200], "table": {"seats": [{"kind": "human"}, {"kind": "bot"}]}}
        ),
    ):
        device, error = open_device("create", request, 0.0)
        assert device is None and error is not None
        assert json.loads(error)["type"] == "error" and json.loads(error)["message"]
    for kept in ("{}", "nonsense", json.dumps({"version": 1, "seats": {"0": {}}})):
        device, error = open_device("restore", kept, 0.0)
        assert device is None and json.loads(error or "{}")["type"] == "error"


def test_a_kept_game_restored_goes_on_exactly_where_it_was() -> None:
    rng = random.Random(3)
    device = two_people_and_a_bot()
    device.hello(0, 0.0)
    device.handle(json.dumps({"type": "start"}), 0.0)
    now = play_some(device, 15, rng)
    again = Device.restore(device.kept_json(), now)
    assert summarize(again.table.state) == summarize(device.table.state)
    assert again.table.by == device.table.by and again.people() == device.people()
    assert again.kept_json() == device.kept_json()
    # ... and plays on to the end, where its record replays to the state it reached.
    for _ in range(3000):
        if again.table.phase == "over":
            break
        now = play_some(again, 1, rng, now)
    record = again.record_json()
    assert record is not None
    assert summarize(replay(load_record(record))) == summarize(again.table.state)


def test_the_bots_wait_as_long_as_they_are_told() -> None:
    device = Device.create(
        json.dumps(
            {
                "table": {
                    "rules": {"edition": "1980"},
                    "turn_seconds": 0,
                    "seats": [{"kind": "bot", "bot": "random"}, {"kind": "human"}],
                },
                "people": ["Ana"],
                "bot_delay": 0.5,
            }
        ),
        0.0,
    )
    device.hello(1, 0.0)
    device.handle(json.dumps({"type": "start"}), 0.0)
    if device.table.state.to_play != 0:  # the person starts: make a move first
        view = messages(device.hello(1, 0.0))[2]["view"]
        device.handle(json.dumps({"type": "act", "action": view["legal"][0], "moves": 0}), 0.0)
    moves = device.table.state.moves
    assert device.deadline() == pytest.approx(0.5)
    device.wake(0.4)
    assert device.table.state.moves == moves  # not yet
    device.wake(0.5)
    assert device.table.state.moves > moves
    assert Device.restore(device.kept_json(), 1.0).kept["bot_delay"] == 0.5


def test_the_bots_a_device_offers_are_those_this_install_can_run() -> None:
    options = json.loads(options_json())
    assert {"random", "greedy", "heuristic", "expert"} <= set(options["bots"])
    assert options["turn"]["default"] == 0 and set(options["editions"]) == {"2022", "1980"}


def test_a_hint_on_the_device_is_the_experts_for_the_seat_on_screen() -> None:
    device = two_people_and_a_bot()
    device.hello(0, 0.0)
    device.handle(json.dumps({"type": "start"}), 0.0)
    seat = device.table.state.to_play
    if seat not in (0, 2):
        device.wake(0.1)
        seat = device.table.state.to_play
    view = messages(device.hello(seat, 0.2))[2]["view"]
    (hint,) = messages(device.handle(json.dumps({"type": "hint", "id": "h"}), 0.2))
    assert hint["type"] == "hint" and hint["id"] == "h" and hint["seat"] == seat
    assert {a["action"] for a in hint["actions"]} == set(view["legal"])
    other = 2 if seat == 0 else 0
    device.hello(other, 0.3)  # not their turn: a clear refusal, nothing changed
    kept = device.kept_json()
    (refused,) = messages(device.handle(json.dumps({"type": "hint", "id": "h"}), 0.3))
    assert refused["type"] == "error" and refused["id"] == "h"
    assert device.kept_json() == kept
