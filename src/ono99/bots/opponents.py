"""Who the opponents are: a mixture of models of play, weighed by each opponent's own plays.

The expert's rollouts need a model of how the others play. ``greedy`` is a fair guess at a
table of greedy bots, and a poor one at a table of people or of stronger bots. So each
opponent is read as one of ``MODELS``, with a weight per model that its plays update (Bayes'
rule, from ``PRIOR``):

- ``greedy``: greedy's rules of thumb (``greedy.RANKS``);
- ``heuristic``: the heuristic's planner (``heuristic.Planner``, its own constants);
- ``noisy``: greedy's choice, but a uniformly random legal one ``NOISE`` of the time — a
  player who does not think much about it;
- ``neural``: the ``neural`` bot's network (``bots/neural.py``), a player trained to win
  rather than written by hand.

Any model may make a play it would not choose (``SLIP``). A play's likelihood under a model
needs the hand it was made from, which is hidden; so it is the model's chance of making that
play from a hand of the played card and ``HAND_SIZE`` − 1 others dealt from the whole deck,
over ``SAMPLES`` such hands (``likelihoods``: a function of the position's public facts alone,
cached, so a game's plays cost nothing after the first time). Only the public log is read
(``inference.plays_of``): nothing hidden goes in.

``OpponentModels.draw`` gives each world of a search a model per opponent, in proportion to
its weights; the compiled rollouts then play each opponent's seat by its model
(``fast.rollout_policy``: ``GREEDY``, ``PLANNER``, ``NOISY``, ``NETWORK``; a rollout waits at a
``NETWORK`` seat, and the network chooses for all the rollouts waiting at once).

The network reads a whole position, not only the total: its likelihoods put each imagined hand
in a fresh round's position at the play's total (every seat in, four cards each, nothing
discarded), so that they too are a function of the key alone and cached.
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import exp, log

from ..engine import HAND_SIZE, PLAY, Rules, View, new_game, view
from ..engine.cards import ONO99, counts
from .determinize import unseen_counts
from .greedy import ranks
from .heuristic import DEFAULT, Planner
from .inference import plays_of

MODELS = ("greedy", "heuristic", "noisy", "neural")  # in fast.rollout_policy's codes' order
PRIOR = (1 / 4, 1 / 4, 1 / 4, 1 / 4)
NOISE = 0.8  # the noisy player's share of uniformly random plays
SLIP = 0.2  # any model's share of plays it would not choose (a uniformly random one)
SAMPLES = 64  # hands imagined per play


@lru_cache(maxsize=1 << 16)
def likelihoods(
    rules: Rules, total: int, owed: int, ono_played: bool, card: int
) -> tuple[float, ...]:
    """Each model's chance (``MODELS``' order) of playing ``card`` at ``total`` owing ``owed``
    cards, from a hand of that card and ``HAND_SIZE`` − 1 others dealt from the deck, over
    ``SAMPLES`` hands (the same ones every time: the generator is seeded by the position)."""
    pool = list(rules.deck)
    nothing = (1.0,) * len(MODELS)  # no evidence
    if card not in pool:  # not a card of this edition (cannot happen in a real play)
        return nothing
    pool.remove(card)
    rng = random.Random(f"{rules!r}|{total}|{owed}|{ono_played}|{card}")
    planner = Planner(rules, counts(pool), DEFAULT)
    kinds = planner.playable_kinds(total, owed, ono_played)
    rank = ranks(False, owed, total, rules.max_total)
    if card not in kinds:  # not playable here (cannot happen in a real play): no evidence
        return nothing
    hands = [sorted([card, *rng.sample(pool, HAND_SIZE - 1)]) for _ in range(SAMPLES)]
    trained = network_choices(rules, total, owed, ono_played, hands)
    sums = [0.0] * len(MODELS)
    for hand, neural in zip(hands, trained, strict=True):
        legal = sorted({c for c in hand if c in kinds})
        k = len(legal)
        if rules.four_ono99_discard and hand.count(ONO99) >= 4:
            greedy = heuristic = -1  # both would have laid the four down
        else:
            greedy = min(legal, key=lambda c: rank[PLAY[c].index])
            heuristic = planner.choose(
                hand, total, owed, ono_played, (HAND_SIZE, HAND_SIZE), players_in=rules.players
            )
        sums[0] += SLIP / k + (1.0 - SLIP) * (greedy == card)
        sums[1] += SLIP / k + (1.0 - SLIP) * (heuristic == card)
        sums[2] += NOISE / k + (1.0 - NOISE) * (greedy == card)
        sums[3] += SLIP / k + (1.0 - SLIP) * (neural == PLAY[card].index)
    return tuple(s / SAMPLES for s in sums)


def network_choices(
    rules: Rules, total: int, owed: int, ono_played: bool, hands: list[list[int]]
) -> list[int]:
    """The ``neural`` bot's action (an ``ALL_ACTIONS`` index) from each of ``hands``, in a
    fresh round's position of ``rules`` (the dealer's left to play, every seat in with a full
    hand, nothing discarded) at ``total``, owing ``owed``: one batch through the network."""
    import numpy as np  # the mixture is the compiled search's, which has NumPy

    from ..features import encode, legal_mask
    from .neural import NeuralBot

    net = NeuralBot().net
    start = new_game(rules, 0)
    seat = start.to_play
    assert seat is not None
    rows, masks = [], []
    for hand in hands:
        hands_now = tuple(tuple(hand) if s == seat else h for s, h in enumerate(start.hands))
        now = start._replace(hands=hands_now, total=total, owed=owed, ono99_played=ono_played)
        v = view(now, seat)
        rows.append(encode(v))
        masks.append(legal_mask(v))
    return [int(a) for a in net.policy(np.stack(rows), np.stack(masks))]


class OpponentModels:
    """Every opponent's weights over ``MODELS``, read from one view's public log: the whole
    game's plays (a player keeps its way of playing from round to round), busts left out
    (under points scoring a bust is forced, and says nothing of the player). With ``fixed``,
    every opponent is that model and the log is not read (``ExpertBot(opponents=
    "heuristic")``: a searching expert, heads up, plays much as its heuristic prior does)."""

    def __init__(self, v: View, *, fixed: str | None = None) -> None:
        self.players = v.players
        # How a ``heuristic`` opponent plans in the rollouts: its own constants, and the
        # chances from the cards this seat has not seen (the nearest it knows to theirs).
        self.planner = Planner(v.rules, unseen_counts(v), DEFAULT)
        self.weights: dict[int, tuple[float, ...]] = {}
        if fixed is not None:  # every opponent is that model outright, whatever it played
            if fixed not in MODELS:
                raise ValueError(f"a model is one of {', '.join(MODELS)}, not {fixed!r}")
            one = tuple(1.0 if m == fixed else 0.0 for m in MODELS)
            self.weights = {s: one for s in range(v.players) if s != v.seat}
            return
        logs = {s: [log(p) for p in PRIOR] for s in range(v.players) if s != v.seat}
        last: tuple[int, int] | None = None  # (seat, card) of the play before
        for seat, total, owed, card, data in plays_of(v, whole_game=True):
            ono = last is not None and last == (seat, ONO99)
            last = (seat, card)
            if seat not in logs or data == "bust":
                continue
            for i, p in enumerate(likelihoods(v.rules, total, owed, ono, card)):
                logs[seat][i] += log(p)
        for seat, ls in logs.items():
            top = max(ls)
            w = [exp(x - top) for x in ls]
            z = sum(w)
            self.weights[seat] = tuple(x / z for x in w)

    def draw(self, rng: random.Random, worlds: int) -> list[list[int]]:
        """A model (its index in ``MODELS``) for every seat of each of ``worlds`` worlds,
        each opponent's drawn in proportion to its weights (0, greedy, at the searcher's
        own seat, which the rollouts play by the planner)."""
        out = [[0] * self.players for _ in range(worlds)]
        for seat, w in self.weights.items():
            for row, model in zip(out, rng.choices(range(len(MODELS)), w, k=worlds), strict=True):
                row[seat] = model
        return out
