"""``heuristic``: a rule-based player that counts cards and manages its hand.

Every choice is a plan for the turn, scored by what it leaves behind:

- **Card counting.** The cards it has not seen — the deck minus its own hand, the discard pile
  and any hands laid down (``determinize.unseen_counts``) — are what the others and the draw
  pile hold. From them it knows how likely a hidden card is to be playable at any total, and so
  how likely the next player is to be stuck.
- **Safe cards.** −10, Play 2, 0, Reverse and Hold can be played at any total; each card in hand
  has a keep value. Tuned in games against ``greedy``, the order is −10 and Play 2 (worth most:
  the only ways to lower the total or to attack), then 0, Reverse, Hold; a second copy of a
  kind is worth less than the first. A number is worth a little for being low and a little more
  while it still fits under the limit. The plan that keeps the most value wins, other things
  equal, so high numbers go first and safe cards last.
- **A dangerous total.** Each plan scores the chance that whoever plays next — after a Reverse,
  the previous player — cannot play at the total it leaves, from the counts and that player's
  hand size. So it likes to leave a total near the limit.
- **Play 2.** Laying one, or passing one on, scores the chance that its target cannot play two
  cards. Owing two, it compares sending the obligation forward (Play 2) or back (Reverse),
  aimed by the targets' hand sizes, with playing both cards itself, planned as a pair (a −10
  first at 98 keeps the 0 for later).

The ``Planner`` works on plain values (hand, total, owed cards, neighbours' hand sizes), so the
expert's rollouts play its own seat with the same plans.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..engine import DISCARD, DRAW, IN, PLAY, Action, Rules, View
from ..engine.cards import CARD_POINTS, HOLD, MINUS_TEN, NUM_CARD_KINDS, ONO99, PLAY2, REVERSE
from ..engine.game import playable_cards
from ..fast.playout import neighbours
from .determinize import unseen_counts

DISCARD_CARD = -2  # the planner's answer for "lay down four ONO 99s"
STUCK = -1  # nothing playable
_KINDS = tuple(range(NUM_CARD_KINDS))

# Keep values and weights (see the module doc), tuned by playing thousands of games against
# greedy: 2 and 4 players in the 2022 edition, and 1980 tokens matches.
KEEP_ZERO = 7.98
KEEP_REVERSE = 6.0
KEEP_PLAY2 = 10.0
KEEP_HOLD = 3.5
KEEP_MINUS_TEN = 10.5
KEEP_REPEAT = 0.75  # a second copy of a kind is worth this much of the first
KEEP_FITS = 0.375  # a number that still fits under the limit
KEEP_SMALL = 2.16  # a number's worth for being small: KEEP_SMALL × (10 − n) / 10
PRESSURE = 11.5  # weight of the next player's chance of being stuck
PLAY2_BAIT = 0.3  # laying a Play 2 draws out a deflector even when it fails nobody
SECOND_STEP = 3  # what a first owed card typically adds before the second
BUST = -100.0
# Two refinements the heuristic leaves off (no-ops at these values) and the expert's tuned
# planners set (tuned.py): the others hold more safe cards than a uniform hand would, as
# ``greedy`` keeps its own for emergencies; and two owed cards sent on may come back.
HOARD = 1.0  # a hidden hand's chances of a card always playable, a deflector or a −10: × this
COME_BACK = 0.0  # sending two on costs this × the chance that their target can deflect


class Constants(NamedTuple):
    """The planner's keep values and weights: the heuristic's are the module's constants
    (``DEFAULT``); the expert takes a table per setting (``bots/tuned.py``)."""

    keep_zero: float = KEEP_ZERO
    keep_reverse: float = KEEP_REVERSE
    keep_play2: float = KEEP_PLAY2
    keep_hold: float = KEEP_HOLD
    keep_minus_ten: float = KEEP_MINUS_TEN
    keep_repeat: float = KEEP_REPEAT
    keep_fits: float = KEEP_FITS
    keep_small: float = KEEP_SMALL
    pressure: float = PRESSURE
    play2_bait: float = PLAY2_BAIT
    second_step: int = SECOND_STEP
    bust: float = BUST
    hoard: float = HOARD
    come_back: float = COME_BACK


DEFAULT = Constants()


class Planner:
    """One decision's knowledge: the rules, and the chances that a hidden card is playable,
    computed once from the unseen counts; and the ``constants`` it plans with."""

    def __init__(self, rules: Rules, unseen: Sequence[int], constants: Constants = DEFAULT) -> None:
        self.rules = rules
        self.constants = constants
        self.max_total = rules.max_total
        self.negative = rules.negative_totals
        self.deflectors = rules.deflectors
        self.p2_first = rules.play2_deflects_play2
        self.ono_tens = rules.ono99_on_tens
        total = sum(unseen) or 1
        # A hidden card's chance of being: always playable (owing one), a deflector, a −10.
        always = unseen[MINUS_TEN] + unseen[REVERSE] + unseen[PLAY2] + unseen[HOLD]
        self.p_always = always / total
        self.p_number = [unseen[n] / total for n in range(11)]
        self.p_deflect = sum(unseen[c] for c in self.deflectors) / total
        self.p_minus = unseen[MINUS_TEN] / total
        self._fail1: dict[tuple[int, int], float] = {}
        self._playable: dict[tuple[int, int, bool], frozenset[int]] = {}

    # ------------------------------------------------------------ the other players

    def fail_one(self, total: int, size: int) -> float:
        """The chance a hand of ``size`` hidden cards has nothing to play at ``total``."""
        key = (total, size)
        cached = self._fail1.get(key)
        if cached is not None:
            return cached
        room = self.max_total - total
        p = self.p_always * self.constants.hoard if room >= 0 else 0.0
        p += sum(self.p_number[n] for n in range(min(10, room) + 1)) if room >= 0 else 0.0
        value = (1.0 - min(1.0, p)) ** size
        self._fail1[key] = value
        return value

    def fail_two(self, total: int, size: int) -> float:
        """The chance a hand of ``size`` hidden cards cannot answer a Play 2 at ``total``:
        stuck at once, or without a deflector or a −10 and stuck for the second card after
        a first one that adds a little (roughly)."""
        if size <= 0:
            return 1.0
        stuck = self.fail_one(total, size)
        hoard = self.constants.hoard
        plain = (1.0 - self.p_deflect * hoard - self.p_minus * hoard) ** size
        later = self.fail_one(
            min(self.max_total, total + int(self.constants.second_step)), size - 1
        )
        return stuck + (1.0 - stuck) * plain * later

    # ------------------------------------------------------------ cards

    def after(self, total: int, card: int) -> int:
        if card <= 10:
            return total + card
        if card == MINUS_TEN:
            t = total - 10
            return 0 if t < 0 and not self.negative else t
        return total

    def playable(self, card: int, total: int, owed: int, ono_played: bool) -> bool:
        """Whether ``card`` may be played now (the engine's rule, ``playable_kinds``)."""
        return card in self.playable_kinds(total, owed, ono_played)

    def playable_kinds(self, total: int, owed: int, ono_played: bool) -> frozenset[int]:
        """The card kinds that may be played now: the engine's ``playable_cards`` (T1, X3),
        asked once per situation of the decision."""
        key = (total, owed, ono_played)
        kinds = self._playable.get(key)
        if kinds is None:
            kinds = frozenset(playable_cards(self.rules, _KINDS, total, owed, ono_played))
            self._playable[key] = kinds
        return kinds

    def keep(self, hand: Sequence[int], total: int) -> float:
        """What the cards left in hand are worth at ``total`` (see the module doc)."""
        k = self.constants
        room = self.max_total - total
        value = 0.0
        seen = [0] * NUM_CARD_KINDS
        for c in sorted(hand):  # in card order, so the sum never depends on hand order
            j = seen[c]
            seen[c] = j + 1
            if c <= 10:
                v = k.keep_zero if c == 0 else k.keep_small * (10 - c) / 10
                if 0 < c <= room:
                    v += k.keep_fits
            elif c == MINUS_TEN:
                v = k.keep_minus_ten
            elif c == REVERSE:
                v = k.keep_reverse
            elif c == PLAY2:
                v = k.keep_play2
            elif c == HOLD:
                v = k.keep_hold
            else:
                continue  # an ONO 99 is worth nothing either way
            value += v * k.keep_repeat**j
        return value

    # ------------------------------------------------------------ planning

    def choose(
        self,
        hand: Sequence[int],
        total: int,
        owed: int,
        ono_played: bool,
        sizes: Sequence[int],
        *,
        players_in: int,
        points: bool = False,
    ) -> int:
        """The card to play (or ``DISCARD_CARD``, or ``STUCK``). ``sizes`` are the hand sizes
        of the next seat and of the previous one (the next after a Reverse)."""
        rules = self.rules
        if rules.four_ono99_discard and sum(1 for c in hand if c == ONO99) >= 4:
            return DISCARD_CARD
        distinct = sorted(set(hand))
        kinds = self.playable_kinds(total, owed, ono_played)
        legal = [c for c in distinct if c in kinds]
        if not legal:
            if points:
                shed = [c for c in distinct if c != ONO99]
                if shed:
                    return max(shed, key=lambda c: (CARD_POINTS[c], c))
            return STUCK
        if len(legal) == 1:
            return legal[0]
        if ONO99 in legal:
            return ONO99  # X3: a dead card turned into a free play
        best, best_value = legal[0], -1e9
        for c in legal:
            rest = list(hand)
            rest.remove(c)
            t = self.after(total, c)
            if owed == 2 and c in self.deflectors:
                value = self.keep(rest, t) + self.attack(c, t, sizes, players_in)
            elif owed == 2:
                value = self.second(rest, t, sizes, players_in)
            else:
                value = self.keep(rest, t) + self.ending(c, t, sizes, players_in)
            if value > best_value:
                best, best_value = c, value
        return best

    def second(self, rest: list[int], total: int, sizes: Sequence[int], players_in: int) -> float:
        """The best value of a second owed card from ``rest`` (the draw comes first and may
        rescue a hand with nothing playable)."""
        bust = self.constants.bust
        best = bust
        kinds = self.playable_kinds(total, 1, False)
        for c in sorted(set(rest)):
            if c not in kinds or c == ONO99:
                continue
            left = list(rest)
            left.remove(c)
            t = self.after(total, c)
            best = max(best, self.keep(left, t) + self.ending(c, t, sizes, players_in))
        if best == bust:
            # Everything hangs on the card drawn after the first one.
            return bust * self.fail_one(total, 1)
        return best

    def ending(self, card: int, total: int, sizes: Sequence[int], players_in: int) -> float:
        """The pressure a last card of the turn leaves on whoever plays next."""
        if card == PLAY2:
            return self.attack(card, total, sizes, players_in)
        target = sizes[1] if card == REVERSE and players_in > 2 else sizes[0]
        return self.constants.pressure * self.fail_one(total, target)

    def attack(self, card: int, total: int, sizes: Sequence[int], players_in: int) -> float:
        """Two owed cards sent on: to the next seat, or back when a Reverse deflects."""
        target = sizes[1] if card == REVERSE and players_in > 2 else sizes[0]
        k = self.constants
        value = k.pressure * self.fail_two(total, target) + k.play2_bait
        if k.come_back:  # its target's chance of a deflector, to send them on again
            value -= k.come_back * (1.0 - max(0.0, 1.0 - self.p_deflect * k.hoard) ** target)
        return value


class HeuristicBot:
    """Card counting and hand management (see the module doc). Deterministic."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, *, constants: Constants = DEFAULT) -> None:
        del seed  # deterministic
        self.constants = constants  # what it plans with (the expert's tuned ones: tuned.py)

    def choose(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if DRAW in legal:
            return DRAW  # drawing first only adds a card to choose from (X2)
        if DISCARD in legal:
            return DISCARD
        assert view.seat is not None and view.hand is not None
        planner = Planner(view.rules, unseen_counts(view), self.constants)
        card = planner.choose(
            view.hand,
            view.total,
            view.owed,
            view.ono99_played,
            neighbour_sizes(view),
            players_in=sum(1 for st in view.status if st == IN),
            points=view.rules.match == "points",
        )
        action = PLAY[card] if card >= 0 else legal[0]
        return action if action in legal else legal[0]


def neighbour_sizes(view: View) -> tuple[int, int]:
    """Hand sizes of the next seat still in and of the previous one (``playout.neighbours``,
    on a view)."""
    assert view.seat is not None
    return neighbours(view.status, view.direction, view.hand_sizes, view.seat)[0]
