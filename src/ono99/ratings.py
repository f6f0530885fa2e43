"""Ratings on one scale for everyone who plays: Weng–Lin Plackett–Luce (``openskill``).

A game rates every seat as a team of one, from the rating its player had before the game, with
ranks from the finishing order (``engine.finishing_order``; tied seats share a rank). Seats of
one name (three copies of a bot at a table) are pooled: the changes of their means add up and
their variance reductions multiply, as if each copy's result were separate evidence about it;
copies playing each other cancel out. The tournaments (``sim/tournament.py``) and the server's
player ratings (``server/results.py``) both rate through ``rate``.

A seat rated as None (someone without a profile) plays at the starting rating and is kept
nowhere. The ordinal, ``mu - 3 sigma``, is what leaderboards sort by: a rating that is high
because it is still uncertain does not lead."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any


def model(*, tau: float | None = None) -> Any:
    """The openskill model (``tau``: how far a rating may drift between games; None, the
    library's default, for people, whose skill changes; 0 for bots in a tournament)."""
    from openskill.models import PlackettLuce

    return PlackettLuce() if tau is None else PlackettLuce(tau=tau)


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate(
    m: Any,
    before: Mapping[str, tuple[float, float]],
    seats: Sequence[str | None],
    finish: Sequence[Sequence[int]],
) -> dict[str, tuple[float, float]]:
    """The new (mu, sigma) of every name in ``seats`` after one game. ``before``: the names'
    ratings (one missing starts at the model's); ``finish``: the seats grouped best first."""
    place = {seat: k for k, group in enumerate(finish) for seat in group}
    start = (m.mu, m.sigma)
    old = [start if who is None else before.get(who, start) for who in seats]
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in old]
    rated = m.rate(teams, ranks=[float(place[s]) for s in range(len(seats))])
    change: dict[str, float] = {}
    shrink: dict[str, float] = {}
    for seat, who in enumerate(seats):
        if who is None:
            continue
        mu, sigma = old[seat]
        change[who] = change.get(who, 0.0) + rated[seat][0].mu - mu
        shrink[who] = shrink.get(who, 1.0) * (rated[seat][0].sigma / sigma) ** 2
    after = {}
    for who in change:
        mu, sigma = before.get(who, start)
        after[who] = (mu + change[who], sigma * math.sqrt(shrink[who]))
    return after
