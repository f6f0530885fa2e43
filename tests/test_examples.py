"""The example game records (RULES.md N3) replay to their N4 summaries byte for byte, and the
record written back from the replayed state replays to the same summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ono99.engine import load_record, record_of, replay, replay_states, summarize

DATA = Path(__file__).parent / "data"
RECORDS = sorted(DATA.glob("*.record.json"))


def summary_path(record: Path) -> Path:
    return record.with_name(record.name.replace(".record.json", ".summary.json"))


def test_there_are_examples_and_each_has_a_summary() -> None:
    assert len(RECORDS) >= 5
    for record in RECORDS:
        assert summary_path(record).exists(), record.name
    summaries = sorted(DATA.glob("*.summary.json"))
    assert [summary_path(r) for r in RECORDS] == summaries


@pytest.mark.parametrize(
    "path", RECORDS, ids=[p.name.removesuffix(".record.json") for p in RECORDS]
)
def test_example_replays_to_its_summary(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    state = replay(text)
    expected = summary_path(path).read_text(encoding="utf-8").rstrip()
    assert json.dumps(summarize(state), indent=1) == expected
    # Written back with every shuffle spelled out, the record replays to the same summary.
    again = replay(record_of(state).to_json())
    assert summarize(again) == summarize(state)
    assert again.actions() == state.actions()
    record = load_record(text)
    assert record_of(state).actions == record.actions
    assert len(list(replay_states(record))) == len(record.actions) + 1
