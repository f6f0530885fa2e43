"""The two narrators are twins held to one table: the terminal's (``ono99.cli.render``) and the
browser's (``static/js/log.js``, run in Node) must tell every public event alike, in every
language (STYLE.md principle 9).

Games are played with random legal actions, by every seat that may act (so owed draws are
taken late and lost), in rule sets that between them make every kind of event the engine
declares (``Event``'s docstring) in every shape of ``SHAPES``. Each event goes to the terminal's
narrator as the engine gives it and to the browser's as the server sends it
(``session.encode.encode_event``); for each, the two must give the same text, the same tone
and look up the same catalog keys. A key missing from a catalog fails in both: the browser
warns (and the test fails on any warning), the terminal shows the bare key.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ono99.cli.render import Narrator
from ono99.engine import Event, Rules, State, apply, legal_actions, make_rules, new_game
from ono99.engine.cards import PLAY2, REVERSE
from ono99.i18n import LANGUAGES, Translator
from ono99.i18n.export import browser_catalog
from ono99.session.encode import encode_event

NODE = shutil.which("node")
STATIC = Path(__file__).parents[1] / "src" / "ono99" / "server" / "static"
SCRIPT = Path(__file__).parent / "narrate.mjs"
NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay")

# Every shape of event a narrator must tell: the kind, and what changes its sentence.
SHAPES = {
    "deal": {""},
    "play": {"", "deflect", "bust", "reverse", "play2"},
    "discard": {""},
    "draw": {""},
    "lost_draw": {""},
    "reshuffle": {""},
    "eliminated": {""},
    "out_of_round": {""},
    "round_end": {"tokens", "points"},
    "lost_token": {""},
    "left": {"tokens", "points"},
    "over": {"one", "many"},
}
RULE_SETS = [  # each with the seed of its first game
    (make_rules("2022", players=4), 0),
    (make_rules("2022", players=3, max_total=300, four_ono99_discard=True), 0),  # reshuffles
    (make_rules("2022", players=3, draw_penalty=True), 0),
    (make_rules("1980", players=4, match="tokens"), 0),
    (make_rules("2022", players=4, match="points", bust_total="keep", max_total=60), 0),
    (make_rules("2022", players=3, match="points", target=20), 15),  # seed 15: a shared win
]
GAMES_EACH = 3


def shape(event: Event, rules: Rules) -> str:
    if event.kind == "play":
        if event.data:
            return str(event.data)
        return {REVERSE: "reverse", PLAY2: "play2"}.get(event.card or 0, "")
    if event.kind == "round_end":
        return "tokens" if event.data[1] is None else "points"
    if event.kind == "left":
        return "points" if rules.match == "points" else "tokens"
    if event.kind == "over":
        return "one" if len(event.data) == 1 else "many"
    return ""


def random_game(rules: Rules, seed: int) -> State:
    """A game in which, at each step, a random seat of those that may act takes a random
    legal action: an owed draw is sometimes taken late, sometimes lost (X2)."""
    rng = random.Random(seed)
    state = new_game(rules, seed)
    while not state.over:
        seat = rng.choice([s for s in range(rules.players) if legal_actions(state, s)])
        state = apply(state, seat, rng.choice(legal_actions(state, seat)))
    return state


class Game:
    def __init__(self, rules: Rules, seed: int, me: int | None) -> None:
        self.rules, self.me = rules, me
        self.names = list(NAMES[: rules.players])
        self.events = random_game(rules, seed).events()

    def wire(self) -> dict[str, Any]:
        """The game as the browser's narrator gets it."""
        r = self.rules
        rules = {"edition": r.edition, "match": r.match, "target": r.target, "players": r.players}
        events = [encode_event(e) for e in self.events]
        return {"names": self.names, "me": self.me, "rules": rules, "events": events}


@pytest.fixture(scope="module")
def games() -> list[Game]:
    out = []
    for k, (rules, first) in enumerate(RULE_SETS):
        for g in range(GAMES_EACH):
            me = None if g == 2 else (k + g) % rules.players  # a player, and an onlooker
            out.append(Game(rules, first + g, me))
    return out


def test_the_table_holds_every_kind_of_event_the_engine_declares() -> None:
    declared = set(re.findall(r"``(\w+)``", Event.__doc__ or ""))
    assert declared == set(SHAPES)


def test_the_games_make_every_shape_of_event(games: list[Game]) -> None:
    seen: dict[str, set[str]] = {kind: set() for kind in SHAPES}
    for game in games:
        for event in game.events:
            seen[event.kind].add(shape(event, game.rules))
    assert seen == SHAPES


class Recording(Translator):
    """A translator that notes every key it is asked for."""

    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        self.keys: list[str] = []
        self.plurals: set[str] = set()

    def __call__(self, key: str, /, **params: object) -> str:
        self.keys.append(key)
        return super().__call__(key, **params)

    def plural(self, key: str, count: int, /, **params: object) -> str:
        self.keys.append(key)
        self.plurals.add(key)
        return super().plural(key, count, **params)


def browser(lang: str, games: list[Game]) -> dict[str, Any]:
    assert NODE is not None
    document = {
        "static": str(STATIC),
        "lang": lang,
        "catalog": browser_catalog(lang),
        "games": [g.wire() for g in games],
    }
    done = subprocess.run(
        [NODE, str(SCRIPT)],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(NODE is None, reason="the browser's narrator runs in Node, not installed")
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_both_narrators_tell_every_event_alike(lang: str, games: list[Game]) -> None:
    told = browser(lang, games)
    assert told["warnings"] == []
    differences: Counter[str] = Counter()
    compared = 0
    for game, lines in zip(games, told["games"], strict=True):
        tr = Recording(lang)
        terminal = Narrator(game.names, game.rules, tr, me=game.me)
        for event, js in zip(game.events, lines, strict=True):
            tr.keys.clear()
            line = terminal.line(event)
            # The browser looks a plural up by its category ("log.reshuffle.other").
            js_keys = [
                k.rsplit(".", 1)[0] if k.rsplit(".", 1)[0] in tr.plurals else k for k in js["keys"]
            ]
            mine = (line.text, line.tone, sorted(tr.keys))
            theirs = (js["text"], js["tone"], sorted(js_keys))
            if mine != theirs:
                differences[f"{event.kind}: terminal {mine!r} / browser {theirs!r}"] += 1
            compared += 1
    assert compared > 1000
    assert not differences, "\n".join(f"{n}× {d}" for d, n in differences.most_common(8))
