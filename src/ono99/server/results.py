"""A finished game's results and ratings, written by the process that finished it, in the
transaction that stores its record (``saving.save``): one writer per table, so each game is
counted once, on every process's profiles and leaderboards as soon as it commits.

Every seat with someone to count it for (a profile, or a bot as "bot:<name>": people and bots
on one scale) gets a result; a rated game (``TableConfig.rating``) also moves their ratings
(``ono99.ratings``). A game only bots played is not rated: anyone may fill a public table
with bots, and the leaderboard should not be theirs to move."""

from __future__ import annotations

import json
import time

from ..ratings import model, ordinal, rate
from ..session.effects import GameFinished
from ..storage import Result, Store

BOT = "bot:"


def write_results(store: Store, code: str, done: GameFinished) -> None:
    if not any(done.who):
        return
    record = json.loads(done.record)
    edition, players = str(record["rules"]["edition"]), int(record["rules"]["players"])
    winners = set(record.get("meta", {}).get("winners", done.finish[0] if done.finish else ()))
    place = {seat: k for k, group in enumerate(done.finish) for seat in group}
    people = any(w is not None and not w.startswith(BOT) for w in done.who)
    rated = done.rated and people
    after: dict[str, float] = {}
    if rated:
        names = sorted({w for w in done.who if w is not None})
        before = store.ratings(names, edition)
        new = rate(model(), {w: (r[0], r[1]) for w, r in before.items()}, done.who, done.finish)
        for who, (mu, sigma) in new.items():
            store.put_rating(who, edition, mu, sigma, before.get(who, (0, 0, 0))[2] + 1)
            after[who] = ordinal(mu, sigma)
    now = time.time()
    store.add_results(
        [
            Result(
                code,
                done.game,
                seat,
                who,
                edition,
                players,
                place.get(seat, len(done.finish)),
                seat in winners,
                rated,
                after.get(who),
                now,
            )
            for seat, who in enumerate(done.who)
            if who is not None
        ]
    )
