"""A fingerprint of what the engine and every bot do, to prove a refactoring changed nothing.

Each bot plays whole games in several rule sets, one bot per seat in turn against ``greedy``
and ``random``; the fingerprint is a SHA-256 of every game record (RULES.md N3: shuffles and
moves spelled out) and every state summary (N4). The same code gives the same fingerprint; any
change to a rule, a shuffle, a bot's choice or a record's format changes it.

    .venv/bin/python tests/behaviour.py --games 200     # before and after, in two checkouts

``tests/test_behaviour_fixed.py`` checks a small fingerprint against ``data/behaviour.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterator

from ono99.bots import BOT_INFO, ORACLE_INFO, make_bot
from ono99.engine import make_rules, record_of, summarize
from ono99.sim import play_game

SETTINGS = {
    "2022-4p": ("2022", {"players": 4}),
    "2022-2p": ("2022", {"players": 2}),
    "1980-3p-tokens": ("1980", {"players": 3}),
    "2022-3p-points-penalty": ("2022", {"players": 3, "match": "points", "draw_penalty": True}),
}


def games(bot: str, setting: str, count: int) -> Iterator[str]:
    """The record and summary of each game, as JSON text."""
    edition, options = SETTINGS[setting]
    rules = make_rules(edition, **options)
    for game in range(count):
        seed = 1_000 * game + 7
        names = [bot, *(["greedy", "random"] * 3)][: rules.players]
        shift = game % rules.players  # the bot sits at every seat in turn
        names = names[-shift:] + names[:-shift] if shift else names
        bots = [make_bot(name, seed * 10 + seat) for seat, name in enumerate(names)]
        final = play_game(rules, bots, seed=seed)
        yield record_of(final).to_json()
        yield json.dumps(summarize(final), sort_keys=True)


def fingerprint(bots: list[str], count: int) -> dict[str, str]:
    """``bot/setting`` → SHA-256 of its games."""
    prints = {}
    for bot in bots:
        for setting in SETTINGS:
            digest = hashlib.sha256()
            for text in games(bot, setting, count):
                digest.update(text.encode("utf-8"))
            prints[f"{bot}/{setting}"] = digest.hexdigest()
    return prints


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per bot and rule set")
    parser.add_argument("--bots", default=",".join([*BOT_INFO, *ORACLE_INFO]))
    args = parser.parse_args()
    print(json.dumps(fingerprint(args.bots.split(","), args.games), indent=2))


if __name__ == "__main__":
    main()
