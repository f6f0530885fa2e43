"""``ono99 replay``: N4 summaries byte for byte, the readable play-by-play, bad records,
and the narrator that tells events as log lines."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ono99.cli.main import main
from ono99.cli.render import Narrator
from ono99.engine import Event, load_record, make_rules, replay_states
from ono99.engine.cards import ONO99, PLAY2, REVERSE

DATA = Path(__file__).parents[1] / "data"
RECORDS = sorted(DATA.glob("*.record.json"))


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, ["replay", *args])


def test_there_are_examples() -> None:
    assert len(RECORDS) >= 5


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.name.split(".")[0])
def test_json_matches_the_example_summary_byte_for_byte(record: Path) -> None:
    expected = record.with_name(record.name.replace(".record.", ".summary.")).read_text("utf-8")
    result = invoke(str(record), "--json")
    assert result.exit_code == 0, result.output
    assert result.stdout == expected.rstrip("\n") + "\n"


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.name.split(".")[0])
def test_readable_replay(record: Path) -> None:
    result = invoke(str(record))
    assert result.exit_code == 0, result.output
    out = result.stdout
    rec = load_record(record.read_text("utf-8"))
    final = list(replay_states(rec))[-1]
    assert out.startswith(f"ONO 99 · {rec.rules.edition} edition · {rec.rules.players} players")
    assert "\nRound 1 · seat " in out
    assert "hands · seat " in out
    last = len(rec.actions) - 1
    assert f"[{last}] seat {rec.actions[-1][0]} " in out  # every action is numbered
    assert f"→ {final.total}" in out or final.round > 1
    if final.over:
        assert "\nresult: " in out
        for w in final.winners:
            assert f"seat {w}" in out.split("\nresult: ")[1]
    else:
        assert f"\nnot finished: total {final.total}, seat {final.to_play} to play" in out
    if rec.rules.match == "tokens":
        assert "loses a token" in out
        assert "tokens left · seat 0: " in out
    if rec.rules.match == "points":
        assert "Round 1 scores: seat 0 +" in out


def test_readable_replay_uses_names_from_meta(tmp_path: Path) -> None:
    data = json.loads((DATA / "2022-single-4p.record.json").read_text("utf-8"))
    data["meta"] = {
        "names": ["You", "Ana", "Ben", "Chloé"],
        "bots": [None, "greedy", "greedy", "random"],
        "human": 0,
    }
    path = tmp_path / "named.json"
    path.write_text(json.dumps(data), "utf-8")
    result = invoke(str(path))
    assert result.exit_code == 0, result.output
    assert "players: 0 You · 1 Ana (greedy) · 2 Ben (greedy) · 3 Chloé (random)" in result.stdout
    assert "You play " in result.stdout
    assert "seat 1" not in result.stdout.split("players:")[1]


def _bad(tmp_path: Path, name: str, change: Any) -> Path:
    data = json.loads((DATA / "2022-single-4p.record.json").read_text("utf-8"))
    change(data)
    path = tmp_path / name
    path.write_text(json.dumps(data), "utf-8")
    return path


def _swap_first_card(data: dict[str, Any]) -> None:
    deck = data["decks"][0]
    deck[deck.index("ono99")] = "7"  # one 7 too many, one ONO 99 too few


def _illegal_at_12(data: dict[str, Any]) -> None:
    data["actions"][12][1] = "play ono99"


def _wrong_seat_at_5(data: dict[str, Any]) -> None:
    seat = data["actions"][5][0]
    data["actions"][5][0] = (seat + 1) % 4


BAD = {
    "unknown-option": (lambda d: d["rules"].update(colour="red"), "error: rules.colour: "),
    "bad-deck": (_swap_first_card, "error: decks[0]: not a permutation of the deck"),
    "illegal-action": (_illegal_at_12, "error: actions[12]: seat "),
    "wrong-seat": (_wrong_seat_at_5, "error: actions[5]: seat "),
    "bad-action-text": (lambda d: d["actions"][3].__setitem__(1, "fly"), "error: actions[3]: "),
    "bad-format": (lambda d: d.update(format="other/9"), "error: format: "),
}


@pytest.mark.parametrize("case", BAD)
@pytest.mark.parametrize("as_json", [False, True])
def test_a_bad_record_is_one_line_naming_the_entry(
    case: str, as_json: bool, tmp_path: Path
) -> None:
    change, message = BAD[case]
    path = _bad(tmp_path, f"{case}.json", change)
    result = invoke(str(path), *(["--json"] if as_json else []))
    assert result.exit_code == 1
    assert result.stdout == ""  # nothing half-replayed
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1


def test_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "ono99-record/1", "rules": {', "utf-8")
    result = invoke(str(path))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: record: not valid JSON")
    assert result.stderr.count("\n") == 1


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    result = invoke(str(path), "--json")
    assert result.exit_code == 1
    assert result.stderr == f"error: {path}: cannot read the record (No such file or directory)\n"


def test_record_from_stdin() -> None:
    text = (DATA / "2022-single-2p-midgame.record.json").read_text("utf-8")
    result = CliRunner().invoke(main, ["replay", "-", "--json"], input=text)
    assert result.exit_code == 0
    expected = (DATA / "2022-single-2p-midgame.summary.json").read_text("utf-8")
    assert result.stdout == expected.rstrip("\n") + "\n"


# --------------------------------------------------------------------------- narrator


class After:
    def __init__(self, to_play: int | None, owed: int) -> None:
        self.to_play = to_play
        self.owed = owed


def test_narrator_lines() -> None:
    n = Narrator(["You", "Ana", "Ben"], make_rules("2022", players=3), me=0)
    say = lambda ev, after=None: n.line(ev, after).text  # noqa: E731
    assert say(Event("deal", 2, None, 0, 1)) == "Round 1 · Ben deals"
    assert say(Event("play", 2, 7, 57)) == "Ben plays 7 → 57"
    assert say(Event("play", 0, 7, 64)) == "You play 7 → 64"
    assert (
        say(Event("play", 1, PLAY2, 64), After(0, 2))
        == "Ana plays Play 2 → 64 · the next player owes 2 cards"
    )
    assert say(Event("play", 0, REVERSE, 64, "deflect"), After(1, 2)) == (
        "You play Reverse → 64 · now counter-clockwise · Play 2 passed on"
    )
    assert say(Event("eliminated", 1, None, 97, (10, ONO99))) == (
        "Ana is out: nothing can be played at 97; laid down: 10, ONO 99"
    )
    assert say(Event("eliminated", 0, None, 97, ())).startswith("You are out: ")
    assert say(Event("reshuffle", data=40)) == (
        "The discard pile is shuffled into a new draw pile (40 cards)"
    )
    assert say(Event("lost_draw", 0)).startswith("You didn't draw in time")
    assert say(Event("over", data=(2,))) == "Game over: Ben wins"
    assert say(Event("over", data=(0,))) == "Game over: you win!"
    assert say(Event("over", data=(1, 2))) == "Game over: Ana and Ben share the win"


def test_narrator_names_only_the_readers_own_draws() -> None:
    """T2, X2, K7: the cards the reader drew (worked out from their views) follow their
    card, or are named by their ``draw``; another's draw is only "draws a card"."""
    n = Narrator(["You", "Ana"], make_rules("2022", players=2, draw_penalty=True), me=0)
    texts = lambda events, drawn=(): [x.text for x in n.lines(events, None, drawn)]  # noqa: E731
    assert texts([Event("play", 0, 7, 64)], (3,)) == ["You play 7 → 64", "You draw 3"]
    assert texts([Event("draw", 0), Event("play", 1, 2, 66)], (ONO99,)) == [
        "You draw ONO 99",
        "Ana plays 2 → 66",
    ]
    assert texts([Event("discard", 0, ONO99, 66)], (1, 2, 5, REVERSE)) == [
        "You lay down four ONO 99s and draw four new cards · total 66",
        "You draw 1, 2, 5, Reverse",
    ]
    assert texts([Event("draw", 1)]) == ["Ana draws a card"]
    assert texts([Event("draw", 0)]) == ["You draw a card"]  # drawn unknown (a deal came)
    onlooker = Narrator(["Ana", "Ben"], make_rules("2022", players=2))
    assert [x.text for x in onlooker.lines([Event("draw", 0)], None, (3,))] == ["Ana draws a card"]


def test_narrator_rounds_tokens_and_scores() -> None:
    tokens = Narrator(["Ana", "Ben"], make_rules("1980", players=2))
    tokens.line(Event("deal", 0, None, 0, 2))
    assert tokens.line(Event("round_end", 0, None, 95, (2, None))).text == (
        "Round 2 ends: Ana can't play at 95"
    )
    assert tokens.line(Event("lost_token", 0, data=2)).text == "Ana loses a token (2 left)"
    assert tokens.line(Event("left", 1)).text.startswith("Ben has no token left")
    points = Narrator(["Ana", "Ben", "You"], make_rules("2022", players=3, match="points"))
    assert points.line(Event("play", 0, 9, 95, "bust")).text == "Ana busts with 9 → 95"
    assert points.line(Event("round_end", None, None, 95, (1, (44, 25, 9)))).text == (
        "Round 1 scores: Ana +44 = 44, Ben +25 = 25, and You +9 = 9"
    )
    assert points.line(Event("round_end", None, None, 95, (2, (10, 200, 0)))).text == (
        "Round 2 scores: Ana +10 = 54, Ben +200 = 225, and You +0 = 9"
    )
    assert points.line(Event("left", 1)).text == (
        "Ben reaches 225 points (target 200) and leaves the game"
    )
    assert "Ben" not in points.line(Event("round_end", None, None, 9, (3, (1, 0, 2)))).text


@pytest.mark.parametrize("lang", ["el", "mr", "hy"])
@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.name.split(".")[0])
def test_replay_in_other_scripts_has_no_english(lang: str, record: Path) -> None:
    """The game's last line points players here, so it speaks their language too."""
    result = invoke(str(record), "--lang", lang)
    assert result.exit_code == 0, result.output
    text = result.stdout.replace("ONO 99", "")
    assert re.findall(r"[A-Za-z]{2,}", text) == []
