"""Reading hands from play: what an opponent's recent plays say about the cards it holds.

Every player must play, so each play is a choice, and a choice says something about the hand
it was made from. The model here is ``greedy``'s way of choosing, read from greedy's own table
(``greedy.RANKS``): whatever greedy prefers to the card played, and could have played, was not
in hand. So a number played is the highest number that fitted; a special card played when no
Play 2 had to be answered means no number fitted; not answering an owed Play 2 with a deflector
means having none; and so on. Each recent play of an opponent becomes a **constraint**: a set of
card kinds the opponent held none of at that moment.

Cards drawn since may be of those kinds, so a constraint does not rule a hand out: a hand
with ``k`` cards of the kinds is as likely as the chance that those ``k`` cards are all among
the ones drawn since. Players are not all greedy, so each constraint is softened: it keeps a
floor weight ``error`` (a play that no greedy player would make costs a world that factor, not
its life), and a constraint that the opponent's own later plays contradict is dropped.

Everything here is read from the public event log of a ``View``; no hidden card is used.
``Inference.fit(seat, hand)`` scores a hand, and ``InferringSampler`` keeps each dealt hand
with that probability (rejection sampling), so the worlds a search imagines lean towards the
hands the opponents' play suggests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from math import comb

from ..engine import Rules, State, View
from ..engine.cards import NUM_CARD_KINDS, ONO99, PLAY2
from ..engine.game import playable_cards
from .determinize import Determinizer
from .greedy import ranks as greedy_ranks

DEFAULT_ERROR = 0.1  # the floor weight of a world that breaks one constraint
DEFAULT_DEPTH = 3  # constraints kept per opponent: its last plays


class Constraint:
    """At some past play the seat held no card of ``kinds``; ``drawn`` cards came in since
    (net of later plays of those kinds, which must have been drawn too)."""

    __slots__ = ("drawn", "kinds")

    def __init__(self, kinds: frozenset[int], drawn: int) -> None:
        self.kinds = kinds
        self.drawn = drawn

    def chance(self, hand: Sequence[int]) -> float:
        """How likely ``hand`` is under the constraint: the chance its cards of ``kinds`` are
        all among the ``drawn`` newest, if which cards are the newest is uniform."""
        return self.chance_of(sum(1 for c in hand if c in self.kinds), len(hand))

    def chance_of(self, k: int, n: int) -> float:
        """``chance`` of a hand of ``n`` cards with ``k`` of ``kinds``."""
        if k == 0:
            return 1.0
        new = min(self.drawn, n)
        if k > new:
            return 0.0
        return comb(n - k, new - k) / comb(n, new)


def kinds_not_held(
    rules: Rules, total: int, owed: int, card: int, deflected: bool
) -> frozenset[int]:
    """The card kinds a greedy player did not hold when it played ``card`` at ``total``
    owing ``owed`` cards (empty when the play says nothing): every kind greedy ranks above
    ``card`` there (its one table, ``greedy.RANKS``) that it could have played. ONO 99s are
    left out: whether one could have been played hangs on whether one already was that turn."""
    if card == ONO99 or deflected:
        return frozenset()
    rank = greedy_ranks(False, owed, total, rules.max_total)  # a bust says nothing: not asked
    better = tuple(k for k in range(NUM_CARD_KINDS) if k != ONO99 and rank[k] < rank[card])
    return frozenset(playable_cards(rules, better, total, owed, False)) & _kinds_in_deck(rules)


@lru_cache(maxsize=64)
def _kinds_in_deck(rules: Rules) -> frozenset[int]:
    return frozenset(rules.deck)


class Inference:
    """The constraints on every opponent's hand, read from one view's public log."""

    def __init__(self, v: View, *, depth: int = DEFAULT_DEPTH, error: float = DEFAULT_ERROR):
        self.error = error
        self.constraints: dict[int, list[Constraint]] = {}
        if v.rules.draw_penalty:
            return  # hands may run short at will: too loose a model to lean on
        plays = plays_of(v, whole_game=False)
        for seat in range(v.players):
            if seat == v.seat:
                continue
            mine = [p for p in plays if p[0] == seat]
            found: list[Constraint] = []
            for i in range(len(mine) - 1, -1, -1):
                if len(found) >= depth:
                    break
                _, total, owed, card, data = mine[i]
                if data == "bust":
                    continue
                kinds = kinds_not_held(v.rules, total, owed, card, data == "deflect")
                if not kinds:
                    continue
                later = mine[i + 1 :]
                drawn = len(later) + 1 - sum(1 for p in later if p[3] in kinds)
                if drawn < 0:
                    continue  # its own later plays contradict the model
                found.append(Constraint(kinds, drawn))
            if found:
                self.constraints[seat] = found

    def fit(self, seat: int, hand: Sequence[int]) -> float:
        """How well ``hand`` fits ``seat``'s play, from ``error``**m (m constraints broken
        outright) up to 1."""
        w = 1.0
        error = self.error
        for c in self.constraints.get(seat, ()):
            w *= error + (1.0 - error) * c.chance(hand)
        return w

    def weight(self, hands: Sequence[Sequence[int]]) -> float:
        """How well a deal of every hand fits the opponents' play (the product of ``fit``)."""
        w = 1.0
        for seat in self.constraints:
            w *= self.fit(seat, hands[seat])
        return w


Play = tuple[int, int, int, int, str | None]  # seat, total before, owed before, card, data


def plays_of(v: View, *, whole_game: bool) -> list[Play]:
    """The plays of the public log, each (seat, total before, cards owed before, card,
    data): the current round's (a seat's plays before its four-ONO-99 discard dropped, as
    they say nothing of the hand after it), or, ``whole_game``, every round's."""
    plays: list[Play] = []
    total, owed = 0, 1
    for e in v.events:
        kind = e.kind
        if kind == "deal":
            if not whole_game:
                plays = []
            total, owed = 0, 1
        elif kind == "play" and e.seat is not None and e.card is not None:
            plays.append((e.seat, total, owed, e.card, e.data))
            if e.total is not None:
                total = e.total
            if e.data == "bust":
                owed = 1
            elif e.data == "deflect" or e.card == PLAY2:
                owed = 2
            else:
                owed = 1
        elif kind == "discard":
            if not whole_game:
                plays = [p for p in plays if p[0] != e.seat]
            owed = 1
        elif kind in ("eliminated", "out_of_round"):
            owed = 1  # P6: the obligation lapses
    return plays


MAX_TRIES = 20  # hands tried per seat before the last one is taken as it is


class InferringSampler:
    """``Determinizer.sample``, leaning on the inference: the hidden hands are dealt one seat
    at a time from the unseen cards left, and a seat's hand is kept with probability
    ``Inference.fit`` (at most ``MAX_TRIES`` tries); the cards left make the draw pile, in
    random order. After a reshuffle, whose forced cards tie the seats together, the whole
    deal is accepted or rejected at once."""

    def __init__(self, sampler: Determinizer, inference: Inference) -> None:
        self.sampler = sampler
        self.inference = inference

    def sample(self, rng: random.Random) -> State:
        sampler = self.sampler
        inference = self.inference
        if not inference.constraints:
            return sampler.sample(rng)
        if sampler.forced:
            for _ in range(MAX_TRIES):
                hands, pile = sampler.deal(rng)
                if rng.random() < inference.weight(hands):
                    break
            return sampler.state(hands, pile, rng.getrandbits(62))
        pool = sampler.free[:]
        dealt = sampler.known_hands[:]
        for seat, size in zip(sampler.hidden, sampler.sizes, strict=True):
            n = len(pool)
            picked = rng.sample(range(n), size)
            for _ in range(MAX_TRIES - 1):
                if rng.random() < inference.fit(seat, [pool[i] for i in picked]):
                    break
                picked = rng.sample(range(n), size)
            taken = set(picked)
            dealt[seat] = tuple(sorted(pool[i] for i in picked))
            pool = [c for i, c in enumerate(pool) if i not in taken]
        rng.shuffle(pool)
        return sampler.state(dealt, tuple(pool), rng.getrandbits(62))
