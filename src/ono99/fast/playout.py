"""``Playout``: the rules of ``ono99.engine.game`` again, on plain mutable lists, for rollouts.

The bots' searches (``expert``, ``oracle``) play thousands of imagined games on from each
position. Through the engine that is too slow: every action builds a frozen state, events and
history. A ``Playout`` is loaded from an engine state (``load``), takes single actions
(``act``) and plays on by itself (``run``). It shuffles as the engine does (the state's seed and
reshuffle count, or the state's explicit reshuffles), so the two agree card for card. Standard
library only: the bots of the core install use it.

It stops at its horizon: the end of the match in a single game, the end of the round in tokens
and points matches (whole matches are too long to roll out many times). A round's end is
played out as the engine plays it — the token lost or the game left (M2), the scores, who
leaves and who wins (M3) — but no new round is dealt; ``winners``, ``status``, ``tokens`` and
``scores`` then say where the match stands.

``run`` plays a rule-of-thumb policy compiled to ranks at every seat (greedy's,
``ono99.bots.greedy.RANKED``, written once there as data), and a planner at seat ``me`` if
given. Owed draws (X2) are taken at once, as greedy and the heuristic take theirs.

It is the one declared second game loop (``run``): ``ono99.sim.driver.advance`` is the loop
everything else steps through, but it moves frozen engine states through the checked
``apply``, which is the cost a rollout exists to avoid.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from ..engine import DISCARD, DRAW, IN, OUT, OUT_OF_ROUND, Action, Rules, State, Status
from ..engine.cards import CARD_POINTS, MINUS_TEN, NUM_CARD_KINDS, ONO99, PLAY2, REVERSE
from ..engine.game import HAND_SIZE, playable_cards
from .contract import Facts

_KINDS = tuple(range(NUM_CARD_KINDS))
_DRAW, _DISCARD = DRAW.index, DISCARD.index
UNPLAYABLE = 1 << 8  # a card kind's entry in ``Playout.row`` when it may not be played now
EVERY_SEAT = -2  # ``Playout.run``'s stop: pause at every seat's choice


class RankedPolicy(Protocol):
    """A rule-of-thumb policy compiled to ranks (``ono99.bots.greedy.RANKED``): the legal action
    of lowest rank in ``ranks[bust][owed_two][high]`` is played, where ``bust`` says nothing
    fits (M3), ``owed_two`` that two cards are owed, and ``high`` that the total is at least
    max_total − ``margin``. Ranks are indexed by ``ALL_ACTIONS`` index."""

    @property
    def ranks(self) -> Sequence[Sequence[Sequence[Sequence[int]]]]: ...

    @property
    def margin(self) -> int: ...

    def __hash__(self) -> int: ...  # playouts of the same rules and policy share their rows


class Planner(Protocol):
    """What plays the searching seat in a rollout (``ono99.bots.heuristic.Planner``): the card
    to play from plain values. Only asked when the seat has a card it may play."""

    def choose(
        self,
        hand: Sequence[int],
        total: int,
        owed: int,
        ono_played: bool,
        sizes: Sequence[int],
        *,
        players_in: int,
    ) -> int: ...


def neighbours(
    status: Sequence[Status], direction: int, sizes: Sequence[int], seat: int
) -> tuple[tuple[int, int], int]:
    """Hand sizes (from ``sizes``, per seat) of the next seat still in and of the previous
    one, and how many seats are in: what a ``Planner`` is told of its neighbours, in a
    rollout and (``heuristic.neighbour_sizes``) at the table. With nobody else in, both
    sizes are a full hand."""
    n = len(status)
    ahead = [s for s in ((seat + direction * i) % n for i in range(1, n)) if status[s] == IN]
    if not ahead:
        return (HAND_SIZE, HAND_SIZE), 1
    behind = next(s for s in ((seat - direction * i) % n for i in range(1, n)) if status[s] == IN)
    return (sizes[ahead[0]], sizes[behind]), len(ahead) + 1


class Playout:
    """The rules again, on plain lists, for rollouts only (see the module doc)."""

    __slots__ = (
        "deflectors",
        "direction",
        "discard",
        "explicit",
        "four",
        "hands",
        "high",
        "match",
        "me",
        "mode",
        "negative",
        "ono_played",
        "owed",
        "penalty",
        "pending",
        "pile",
        "planner",
        "points",
        "ranks",
        "reshuffles",
        "rows",
        "rules",
        "scores",
        "seed",
        "status",
        "to_play",
        "tokens",
        "total",
        "winners",
    )

    rules: Rules
    ranks: Sequence[Sequence[Sequence[Sequence[int]]]]
    high: int
    planner: Planner | None
    me: int
    negative: bool
    four: bool
    penalty: bool
    match: str
    mode: str
    deflectors: frozenset[int]
    rows: dict[int, tuple[int, ...]]  # the answers of ``row``, by ``row``'s key
    points: bool
    hands: list[list[int]]
    pile: list[int]  # the draw pile, top card last
    discard: list[int]
    total: int
    direction: int
    to_play: int
    owed: int
    ono_played: bool
    status: list[Status]
    tokens: list[int] | None
    scores: list[int] | None
    pending: list[int]  # seats owing a draw (X2), taken before anything else
    seed: int
    explicit: tuple[tuple[int, ...], ...]  # the state's given reshuffles, if any
    reshuffles: int
    winners: tuple[int, ...]  # once the match is over

    def __init__(
        self, rules: Rules, policy: RankedPolicy, planner: Planner | None = None, me: int = -1
    ) -> None:
        self.rules = rules
        self.ranks = policy.ranks  # plays every seat but ``me``
        self.high = rules.max_total - policy.margin
        self.planner = planner  # plays seat ``me``, when given
        self.me = me
        self.negative = rules.negative_totals
        self.four = rules.four_ono99_discard
        self.penalty = rules.draw_penalty
        self.match = rules.match
        self.mode = rules.bust_total
        self.deflectors = rules.deflectors
        self.points = rules.match == "points"
        self.rows = _rows(rules, policy)

    def load(self, state: State) -> None:
        """Take the position of an engine state (any state, of any round)."""
        self.hands = [list(h) for h in state.hands]
        pile = list(state.pile[state.pile_pos :])
        pile.reverse()  # pop() takes the top card
        self.pile = pile
        self.discard = list(state.discard)
        self.total = state.total
        self.direction = state.direction
        self.to_play = -1 if state.to_play is None else state.to_play
        self.owed = state.owed
        self.ono_played = state.ono99_played
        self.status = list(state.status)
        self.tokens = None if state.tokens is None else list(state.tokens)
        self.scores = None if state.scores is None else list(state.scores)
        self.pending = list(state.owes_draw)
        self.seed = state.setup.seed
        self.explicit = state.setup.reshuffles
        self.reshuffles = state.reshuffle_count
        self.winners = state.winners if state.over else ()

    def act(self, seat: int, action: Action) -> bool:
        """Apply one legal action of ``seat``; True when that reached the horizon."""
        if action is DRAW:
            self.pending.remove(seat)
            self.draw(seat, 1)
            return seat == self.to_play and self.settle()
        self.pending = []  # X2: a card played makes any owed draw lost
        if action is DISCARD:
            return self.discard_four(seat)
        card = action.card
        assert card is not None
        if self.points and not self.fits(self.hands[seat]):
            return self.bust(seat, card)
        return self.play(seat, card)

    # ------------------------------------------------------------ what may be played

    def row(self) -> tuple[int, ...]:
        """What the seat to play may play now, with the policy's ranks: for each card kind, its
        rank in the policy's situation if it may be played other than as a bust (T1, K2, K6, P4,
        X3: the engine's ``playable_cards``), else ``UNPLAYABLE``. Worked out once per total,
        cards owed and ONO 99 played, for all playouts of the same rules and policy."""
        key = self.total * 4 + 2 * (self.owed == 2) + self.ono_played
        row = self.rows.get(key)
        if row is None:
            kinds = playable_cards(self.rules, _KINDS, self.total, self.owed, self.ono_played)
            rank = self.ranks[0][self.owed == 2][self.total >= self.high]
            row = self.rows[key] = tuple(rank[c] if c in kinds else UNPLAYABLE for c in _KINDS)
        return row

    def legal(self) -> list[int]:
        """The seat to play's legal actions as ``ALL_ACTIONS`` indices in canonical order (the
        engine's ``legal_actions``); none once the match is over."""
        if self.winners:
            return []
        seat = self.to_play
        hand = self.hands[seat]
        draw = [_DRAW] if seat in self.pending else []
        if self.four and hand.count(ONO99) >= 4:
            return [_DISCARD, *draw]  # K7
        row = self.row()
        plays = sorted({c for c in hand if row[c] < UNPLAYABLE})
        if plays or draw:
            return plays + draw  # X2: never out while a draw is still yours
        if self.points:
            return sorted({c for c in hand if c != ONO99})  # M3: a bust
        return []

    def facts(self) -> Facts:
        """The position as ``contract.Facts``, what it must agree with the engine on; at a
        round's end (the horizon of a tokens or points match that goes on) only
        ``contract.round_end`` of them holds."""
        over = bool(self.winners)
        return Facts(
            over=over,
            winners=self.winners,
            total=self.total,
            direction=self.direction,
            to_play=None if over else self.to_play,
            owed=0 if over else self.owed,
            ono99_played=False if over else self.ono_played,
            legal=tuple(self.legal()),
            hands=tuple(tuple(sorted(h)) for h in self.hands),
            status=tuple(self.status),
            tokens=None if self.tokens is None else tuple(self.tokens),
            scores=None if self.scores is None else tuple(self.scores),
            owes_draw=() if over else tuple(self.pending),
            draw_pile=len(self.pile),
            discard_pile=len(self.discard),
        )

    # ------------------------------------------------------------ the loop

    def run(self, stop: int = -1, turns: int = 1) -> bool:
        """Play on to the horizon, every move as ``choice`` has it; True there. With a ``stop``
        seat, stop short (False) when that seat is about to choose for the ``turns``-th time
        (its owed draws taken): where a search puts a learned value in place of the rest, or a
        learned policy's move. ``EVERY_SEAT`` stops at whichever seat is about to choose."""
        if self.winners:
            return True
        while True:
            if self.pending:
                seat = self.pending.pop(0)
                self.draw(seat, 1)
                if seat == self.to_play and self.settle():
                    return True
                continue
            seat = self.to_play
            if seat == stop or stop == EVERY_SEAT:
                turns -= 1
                if turns <= 0:
                    return False
            action = self.choice()
            if action == _DISCARD:
                ended = self.discard_four(seat)
            elif self.points and self.row()[action] == UNPLAYABLE:
                ended = self.bust(seat, action)
            else:
                ended = self.play(seat, action)
            if ended:
                return True

    def choice(self) -> int:
        """The rollout's move for the seat to play, as an ``ALL_ACTIONS`` index: the policy's,
        or, at seat ``me`` when it has a card it may play, the planner's."""
        seat = self.to_play
        if seat in self.pending:
            return _DRAW
        hand = self.hands[seat]
        if self.four and hand.count(ONO99) >= 4:
            return _DISCARD  # K7: the only legal action
        # self.row(), its lookup inlined: this runs at every turn of every rollout
        row = self.rows.get(self.total * 4 + 2 * (self.owed == 2) + self.ono_played) or self.row()
        best, top = -1, UNPLAYABLE
        for c in hand:
            if row[c] < top:
                best, top = c, row[c]
        if best < 0:  # nothing fits: a bust (M3), whichever seat it is
            rank = self.ranks[1][self.owed == 2][self.total >= self.high]
            for c in hand:
                if c != ONO99 and rank[c] < top:
                    best, top = c, rank[c]
            return best
        if seat == self.me and self.planner is not None:
            return self.plan(seat, hand)
        return best

    def plan(self, seat: int, hand: list[int]) -> int:
        """The planner's card for ``seat`` (which has something playable)."""
        assert self.planner is not None
        hand_sizes = [len(h) for h in self.hands]
        sizes, players_in = neighbours(self.status, self.direction, hand_sizes, seat)
        return self.planner.choose(
            hand, self.total, self.owed, self.ono_played, sizes, players_in=players_in
        )

    # ------------------------------------------------------------ the rules

    def fits(self, hand: list[int]) -> bool:
        """Whether the seat to play, holding ``hand``, may play a card other than as a bust."""
        row = self.row()
        return any(row[c] < UNPLAYABLE for c in hand)

    def can_act(self, seat: int) -> bool:
        """Whether ``seat``, to play, has a legal action (engine ``_to_play_actions``)."""
        hand = self.hands[seat]
        if self.four and hand.count(ONO99) >= 4:
            return True
        if seat in self.pending:
            return True
        # self.fits(hand), inlined: this runs after every action of every rollout
        row = self.rows.get(self.total * 4 + 2 * (self.owed == 2) + self.ono_played) or self.row()
        for c in hand:
            if row[c] < UNPLAYABLE:
                return True
        return self.points and any(c != ONO99 for c in hand)

    def discard_four(self, seat: int) -> bool:
        hand = self.hands[seat]
        for _ in range(4):
            hand.remove(ONO99)
        self.discard += (ONO99, ONO99, ONO99, ONO99)
        self.draw(seat, 4)
        if self.owed == 2:
            self.owed = 1
            return self.settle()
        return self.advance(seat, 1)

    def play(self, seat: int, card: int) -> bool:
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        first_of_two = self.owed == 2
        deflect = first_of_two and card in self.deflectors
        if card <= 10:
            self.total += card
        elif card == MINUS_TEN:
            self.total -= 10
            if self.total < 0 and not self.negative:
                self.total = 0
        elif card == REVERSE:
            self.direction = -self.direction
        elif card == ONO99:
            self.ono_played = True
        self.after_play(seat)
        if first_of_two and not deflect:
            self.owed = 1
            return self.settle()
        return self.advance(seat, 2 if card == PLAY2 or deflect else 1)

    def bust(self, seat: int, card: int) -> bool:
        self.hands[seat].remove(card)
        self.discard.append(card)
        if self.mode == "reset":
            self.total = 0
        elif self.mode == "keep":
            if card <= 10:
                self.total += card
            elif card == MINUS_TEN:
                self.total -= 10
                if self.total < 0 and not self.negative:
                    self.total = 0
        self.after_play(seat)
        return self.out_of_round(seat)

    def after_play(self, seat: int) -> None:
        if self.penalty:
            self.pending = [seat]
        else:
            self.draw(seat, 1)

    def draw(self, seat: int, k: int) -> None:
        hand = self.hands[seat]
        pile = self.pile
        for _ in range(k):
            if not pile:
                if not self.discard:
                    break
                self.reshuffle()
                pile = self.pile
            hand.append(pile.pop())

    def reshuffle(self) -> None:
        k = self.reshuffles
        if k < len(self.explicit):
            cards = list(self.explicit[k])
        else:
            cards = sorted(self.discard)
            random.Random(f"ono99:{self.seed}:reshuffle:{k}").shuffle(cards)
        cards.reverse()
        self.pile = cards
        self.discard = []
        self.reshuffles = k + 1

    def next_seat(self, seat: int) -> int:
        n = len(self.status)
        status = self.status
        step = self.direction
        s = (seat + step) % n
        while status[s] != IN:
            s = (s + step) % n
        return s

    def advance(self, seat: int, owed: int) -> bool:
        self.to_play = self.next_seat(seat)
        self.owed = owed
        self.ono_played = False
        return self.settle()

    def settle(self) -> bool:
        """Resolve the seat to play being stuck; True at the horizon (the end of the game, or
        of the round outside single games)."""
        while True:
            seat = self.to_play
            if self.can_act(seat):
                return False
            if self.match == "single":
                self.status[seat] = OUT  # E1
                if seat in self.pending:
                    self.pending.remove(seat)
                remaining = [s for s, st in enumerate(self.status) if st == IN]
                if len(remaining) == 1:
                    self.winners = (remaining[0],)
                    return True
            elif self.match == "tokens":
                self.lose_round(seat)
                return True
            elif self.out_of_round(seat, advance=False):
                return True
            self.to_play = self.next_seat(seat)
            self.owed = 1
            self.ono_played = False

    def lose_round(self, seat: int) -> None:
        """M2: a token lost, or, holding none, the game; the last one in wins."""
        tokens = self.tokens
        assert tokens is not None
        if tokens[seat] > 0:
            tokens[seat] -= 1
        else:
            self.status[seat] = OUT
        remaining = [s for s, st in enumerate(self.status) if st != OUT]
        if len(remaining) == 1:
            self.winners = (remaining[0],)

    def out_of_round(self, seat: int, *, advance: bool = True) -> bool:
        self.status[seat] = OUT_OF_ROUND
        if sum(1 for st in self.status if st == IN) == 1:
            self.score_round()
            return True
        return self.advance(seat, 1) if advance else False

    def score_round(self) -> None:
        """M3: everyone still in the game scores what is left in hand; then who leaves the
        game, and whether the match is over (as the engine's ``_score_round``)."""
        scores = self.scores
        assert scores is not None
        status = self.status
        for s, st in enumerate(status):
            if st == OUT:
                continue
            hand = self.hands[s]
            points = sum(CARD_POINTS[c] for c in hand) + 15 * max(0, HAND_SIZE - len(hand))
            if st == OUT_OF_ROUND:
                points += 25
            scores[s] += points
        in_game = [s for s, st in enumerate(status) if st != OUT]
        target = self.rules.target
        if self.rules.variant == "lowest_score":
            if any(scores[s] >= target for s in in_game):
                below = [s for s in in_game if scores[s] < target]
                self.winners = _lowest(scores, below or in_game)
            return
        leaving = [s for s in in_game if scores[s] >= target]
        for s in leaving:
            status[s] = OUT
        if leaving and len(leaving) == len(in_game):
            self.winners = _lowest(scores, leaving)
        elif len(in_game) - len(leaving) == 1:
            self.winners = tuple(s for s in in_game if s not in leaving)


@lru_cache(maxsize=64)
def _rows(rules: Rules, policy: RankedPolicy) -> dict[int, tuple[int, ...]]:
    """``Playout.row``'s answers, shared by every playout of ``rules`` and ``policy``."""
    return {}


def _lowest(scores: list[int], seats: list[int]) -> tuple[int, ...]:
    best = min(scores[s] for s in seats)
    return tuple(s for s in seats if scores[s] == best)
