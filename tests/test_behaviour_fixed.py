"""The engine and the bots still play exactly as they did: same seeds, same records, same
summaries, same moves (tests/behaviour.py; regenerate data/behaviour.json only for a change of
behaviour that is meant, and say so in the commit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from behaviour import fingerprint
from tiers import slow

EXPECTED = json.loads((Path(__file__).parent / "data" / "behaviour.json").read_text())


BOTS = sorted({key.split("/")[0] for key in EXPECTED})
SEARCHING = {"expert", "oracle"}  # seconds each: the full tier's


@pytest.mark.parametrize(
    "bot", [pytest.param(b, marks=slow) if b in SEARCHING else b for b in BOTS]
)
def test_every_bot_plays_as_it_did(bot: str) -> None:
    wanted = {k: v for k, v in EXPECTED.items() if k.startswith(f"{bot}/")}
    assert fingerprint([bot], 2) == wanted
