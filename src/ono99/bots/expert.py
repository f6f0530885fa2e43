"""``expert``: information-set Monte Carlo search over determinized rollouts.

At a decision with more than one sensible action, the expert repeats, ``worlds`` times:
sample a full state consistent with its view (``determinize.py``: the cards it has not seen
dealt at random to the other hands and the draw pile, a fresh seed for future shuffles), then,
for *every* candidate action, apply it and play the imagined game on. All candidates are
scored on the same worlds (common random numbers), so their comparison is paired and far less
noisy than the raw estimates. Wide choices get fewer worlds (``max_rollouts`` caps worlds ×
candidates), so the time per move stays bounded.

The heuristic's choice is the default: another action is played only when its paired mean
beats it by more than ``z`` standard errors. Searching "from" a good policy this way keeps the
heuristic's judgement where the samples cannot tell the actions apart, and overrules it where
they clearly can.

Rollouts run on ``Playout``, the rules again on plain lists (the tests check it against the
engine, state by state): the expert's own seat plays the heuristic's ``Planner``, every other
seat plays ``greedy``'s rules of thumb — a fast, reasonable model of an opponent. This is the
expert's own imagined world, so nothing real is revealed. Owed draws (X2) are always taken at
once, as the bots and the driver do.

What a rollout plays to, and what it scores (RULES.md §7):

- **single** game: to the end of the game; 1 for a win (a shared win counts its share), else 0.
- **tokens**: to the end of the *round* (whole matches are too long to roll out many times).
  The tokens after it become a chance of winning the match with an exact small model in which
  each later round is lost by a player chosen uniformly among those still in: losing a round
  costs most when it costs the last token.
- **points**: to the end of the round. The scores after it (and who leaves or wins, M3) become
  a chance of winning from the room each player has left below the target (room² shares).

Those chances are the estimates ``evaluate`` returns for hints. Instant answers: a single legal
action, and an owed draw (drawing first only adds a card to choose from; a lost draw leaves the
hand short for the round).

``infer=True`` samples the worlds with ``inference.InferringSampler``, which leans each
opponent's hand towards what its recent plays suggest (under a greedy model of play). It is
off by default: against ``greedy``, 2,000 paired games showed no significant gain (2 players:
+1.7 ± 2.3 points; 4 players, 1,500 games: −1.1 ± 2.3; docs/bots.md).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from functools import lru_cache

from ..engine import (
    DISCARD,
    DRAW,
    IN,
    OUT,
    OUT_OF_ROUND,
    PLAY,
    Action,
    Rules,
    State,
    Status,
    View,
    apply_unchecked,
    is_bust,
    legal_actions,
)
from ..engine.cards import CARD_POINTS, HOLD, MINUS_TEN, ONO99, PLAY2, REVERSE
from .determinize import Determinizer, unseen_counts
from .heuristic import HeuristicBot, Planner
from .inference import DEFAULT_ERROR, Inference, InferringSampler

_HEURISTIC = HeuristicBot()

DEFAULT_WORLDS = 200  # worlds sampled per decision, each scoring every candidate action
DEFAULT_MAX_ROLLOUTS = 800  # cap on worlds × candidates, so wide choices stay fast
DEFAULT_Z = 1.25  # standard errors by which an action must beat the heuristic's choice

Policy = Callable[[State, int, list[Action]], Action]

_EMERGENCY = (ONO99, PLAY2, HOLD, REVERSE, MINUS_TEN)


def greedy_policy(state: State, seat: int, legal: list[Action]) -> Action:
    """The rules of ``greedy`` (greedy.py), read straight off a state for speed. (One
    difference: a bust is recognised exactly, where greedy takes any hand with a −10 for
    playable even when a bust kept the total above ``max_total`` + 10.)"""
    if len(legal) == 1:
        return legal[0]
    if DRAW in legal:
        return DRAW
    if DISCARD in legal:
        return DISCARD
    rules = state.rules
    total = state.total
    cards = [a.card for a in legal if a.card is not None]
    if rules.match == "points" and is_bust(state, legal[0]):
        return PLAY[max(cards, key=lambda c: (CARD_POINTS[c], c))]  # shed the costliest
    if ONO99 in cards:
        return PLAY[ONO99]
    if state.owed == 2:
        for card in (REVERSE, HOLD, PLAY2):
            if card in cards and card in rules.deflectors:
                return PLAY[card]
    if total >= rules.max_total - 10 and PLAY2 in cards:
        return PLAY[PLAY2]
    best = -1
    for c in cards:
        if c <= 10 and c > best:
            best = c
    if best >= 0:
        return PLAY[best]
    for card in _EMERGENCY:
        if card in cards:
            return PLAY[card]
    return legal[0]


def planned_policy(planner: Planner, me: int) -> Policy:
    """The planner at seat ``me``, greedy elsewhere (the engine twin of ``Playout``'s own-seat
    planning, for the tests)."""

    def policy(state: State, seat: int, legal: list[Action]) -> Action:
        if seat != me or len(legal) == 1 or DRAW in legal or DISCARD in legal:
            return greedy_policy(state, seat, legal)
        if state.rules.match == "points" and is_bust(state, legal[0]):
            return greedy_policy(state, seat, legal)
        sizes, players_in = neighbours(state.status, state.direction, state.hands, seat)
        card = planner.choose(
            state.hands[seat],
            state.total,
            state.owed,
            state.ono99_played,
            sizes,
            players_in=players_in,
        )
        return PLAY[card]

    return policy


def neighbours(
    status: Sequence[Status], direction: int, hands: Sequence[Sequence[int]], seat: int
) -> tuple[tuple[int, int], int]:
    """Hand sizes of the next seat still in and of the previous one; and how many seats are
    in (``heuristic.neighbour_sizes`` on a state)."""
    n = len(status)
    ahead = [s for s in ((seat + direction * i) % n for i in range(1, n)) if status[s] == IN]
    if not ahead:
        return (4, 4), 1
    behind = next(s for s in ((seat - direction * i) % n for i in range(1, n)) if status[s] == IN)
    return (len(hands[ahead[0]]), len(hands[behind])), len(ahead) + 1


def rollout(state: State, policy: Policy = greedy_policy, start: int | None = None) -> State:
    """Play ``state`` on with ``policy`` at every seat, to the end of the game (single) or of
    round ``start`` (default: the current round) in tokens and points matches. Owed draws are
    taken at once."""
    single = state.rules.match == "single"
    if start is None:
        start = state.round
    while not state.over and (single or state.round == start):
        if state.owes_draw:
            state = apply_unchecked(state, state.owes_draw[0], DRAW)
            continue
        seat = state.to_play
        assert seat is not None
        legal = legal_actions(state)
        action = legal[0] if len(legal) == 1 else policy(state, seat, legal)
        state = apply_unchecked(state, seat, action)
    return state


# --------------------------------------------------------------------------- fast rollouts


class Playout:
    """The rules of ``engine.game`` again, on plain mutable lists, for rollouts only.

    A rollout from a state with ``greedy_policy`` at every seat gives exactly what
    ``rollout`` gives through the engine (the tests check it, state by state), several times
    faster: no frozen states, events or history are built. It shuffles as the engine does
    (the state's seed and reshuffle count), so the two agree card for card.
    """

    __slots__ = (
        "deflectors",
        "direction",
        "discard",
        "explicit",
        "four",
        "hands",
        "match",
        "max_total",
        "me",
        "mode",
        "negative",
        "ono_played",
        "ono_tens",
        "owed",
        "p2_first",
        "penalty",
        "pending",
        "pile",
        "planner",
        "reshuffles",
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
    planner: Planner | None
    me: int
    max_total: int
    negative: bool
    four: bool
    p2_first: bool
    ono_tens: bool
    penalty: bool
    match: str
    mode: str
    deflectors: frozenset[int]
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
    winners: tuple[int, ...]

    def __init__(self, rules: Rules, planner: Planner | None = None, me: int = -1) -> None:
        self.rules = rules
        self.planner = planner  # plays seat ``me``, when given; greedy plays everyone else
        self.me = me
        self.max_total = rules.max_total
        self.negative = rules.negative_totals
        self.four = rules.four_ono99_discard
        self.p2_first = rules.play2_deflects_play2
        self.ono_tens = rules.ono99_on_tens
        self.penalty = rules.draw_penalty
        self.match = rules.match
        self.mode = rules.bust_total
        self.deflectors = rules.deflectors

    def value_after(self, state: State, seat: int, action: Action) -> float:
        """``value_of(rollout(apply_unchecked(state, seat, action)), seat)``."""
        self.load(state)
        if not self.act(seat, action):
            self.run()
        return self.value(seat)

    def act(self, seat: int, action: Action) -> bool:
        """Apply one legal action of ``seat``; True when that ended the rollout."""
        if action is DRAW:
            self.pending.remove(seat)
            self.draw(seat, 1)
            return seat == self.to_play and self.settle()
        self.pending = []  # X2: a card played makes any owed draw lost
        if action is DISCARD:
            return self.discard_four(seat)
        card = action.card
        assert card is not None
        if self.match == "points" and self.pick(self.hands[seat]) < 0:
            return self.bust(seat, card)
        return self.play(seat, card)

    def load(self, state: State) -> None:
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

    # ------------------------------------------------------------ the loop

    def run(self) -> None:
        """Play on with the greedy rules at every seat to the end of the game (single) or
        of the round (tokens, points)."""
        if self.winners:
            return
        hands = self.hands
        while True:
            if self.pending:
                seat = self.pending.pop(0)
                self.draw(seat, 1)
                if seat == self.to_play and self.settle():
                    return
                continue
            seat = self.to_play
            hand = hands[seat]
            if self.four and hand.count(ONO99) >= 4:
                if self.discard_four(seat):
                    return
                continue
            card = self.pick(hand)
            if card >= 0 and seat == self.me and self.planner is not None:
                card = self.plan(seat, hand)
            if card < 0:  # a bust (M3): shed the costliest card
                card = max((c for c in hand if c != ONO99), key=lambda c: (CARD_POINTS[c], c))
                if self.bust(seat, card):
                    return
                continue
            if self.play(seat, card):
                return

    def pick(self, hand: list[int]) -> int:
        """``greedy_policy``'s card for this hand, or -1 when nothing is playable."""
        total = self.total
        room = self.max_total - total
        best = -1
        m10 = rev = p2 = hold = ono = False
        for c in hand:
            if c <= 10:
                if c <= room and c > best:
                    best = c
            elif c == MINUS_TEN:
                after = total - 10
                if after < 0 and not self.negative:
                    after = 0
                m10 = m10 or after <= self.max_total
            elif room < 0:
                continue
            elif c == REVERSE:
                rev = True
            elif c == HOLD:
                hold = True
            elif c == PLAY2:
                p2 = p2 or self.owed == 1 or self.p2_first
            elif self.ono_tens and not self.ono_played and total % 10 == 0:
                ono = True
        if ono:
            return ONO99
        if self.owed == 2:
            if rev:
                return REVERSE
            if hold:
                return HOLD
            if p2 and PLAY2 in self.deflectors:
                return PLAY2
        if p2 and room <= 10:
            return PLAY2
        if best >= 0:
            return best
        if p2:
            return PLAY2
        if hold:
            return HOLD
        if rev:
            return REVERSE
        if m10:
            return MINUS_TEN
        return -1

    def plan(self, seat: int, hand: list[int]) -> int:
        """The planner's card for ``seat`` (which has something playable)."""
        assert self.planner is not None
        sizes, players_in = neighbours(self.status, self.direction, self.hands, seat)
        return self.planner.choose(
            hand, self.total, self.owed, self.ono_played, sizes, players_in=players_in
        )

    def can_act(self, seat: int) -> bool:
        """Whether ``seat``, to play, has a legal action (engine ``_to_play_actions``)."""
        hand = self.hands[seat]
        if self.four and hand.count(ONO99) >= 4:
            return True
        if seat in self.pending:
            return True
        if self.pick(hand) >= 0:
            return True
        return self.match == "points" and any(c != ONO99 for c in hand)

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
        """Resolve the seat to play being stuck; True when the rollout is over (the game,
        or the round outside single games)."""
        while True:
            seat = self.to_play
            if self.can_act(seat):
                return False
            if self.match == "single":
                self.status[seat] = OUT
                if seat in self.pending:
                    self.pending.remove(seat)
                remaining = [s for s, st in enumerate(self.status) if st == IN]
                if len(remaining) == 1:
                    self.winners = (remaining[0],)
                    return True
            elif self.match == "tokens":
                tokens = self.tokens
                assert tokens is not None
                if tokens[seat] > 0:
                    tokens[seat] -= 1
                else:
                    self.status[seat] = OUT
                return True
            elif self.out_of_round(seat, advance=False):
                return True
            self.to_play = self.next_seat(seat)
            self.owed = 1
            self.ono_played = False

    def out_of_round(self, seat: int, *, advance: bool = True) -> bool:
        self.status[seat] = OUT_OF_ROUND
        if sum(1 for st in self.status if st == IN) == 1:
            self.score_round()
            return True
        return self.advance(seat, 1) if advance else False

    def score_round(self) -> None:
        scores = self.scores
        assert scores is not None
        for s, st in enumerate(self.status):
            if st == OUT:
                continue
            hand = self.hands[s]
            points = sum(CARD_POINTS[c] for c in hand) + 15 * max(0, 4 - len(hand))
            if st == OUT_OF_ROUND:
                points += 25
            scores[s] += points

    # ------------------------------------------------------------ the result

    def value(self, seat: int) -> float:
        """``value_of`` of the position the rollout ended in."""
        if self.winners:
            return 1.0 / len(self.winners) if seat in self.winners else 0.0
        status = [OUT if st == OUT else IN for st in self.status]
        if self.tokens is not None:
            remaining = [s for s, st in enumerate(status) if st != OUT]
            if len(remaining) == 1:
                return 1.0 if remaining[0] == seat else 0.0
            if status[seat] == OUT:
                return 0.0
            return tokens_value(tuple(self.tokens), tuple(status), seat)
        if self.scores is not None:
            return _points_round_value(self.rules, self.scores, status, seat)
        return 1.0 / sum(1 for st in status if st != OUT)


def _points_round_value(rules: Rules, scores: list[int], status: list[Status], seat: int) -> float:
    """After a points round: who leaves or wins (M3), then ``points_value``."""
    in_game = [s for s, st in enumerate(status) if st != OUT]
    target = rules.target
    winners: list[int] = []
    if rules.variant == "lowest_score":
        if any(scores[s] >= target for s in in_game):
            below = [s for s in in_game if scores[s] < target]
            winners = _lowest(scores, below or in_game)
    else:
        leaving = [s for s in in_game if scores[s] >= target]
        for s in leaving:
            status[s] = OUT
        if leaving and len(leaving) == len(in_game):
            winners = _lowest(scores, leaving)
        else:
            rest = [s for s in in_game if s not in leaving]
            if len(rest) == 1:
                winners = rest
    if winners:
        return 1.0 / len(winners) if seat in winners else 0.0
    if status[seat] == OUT:
        return 0.0
    return points_value(tuple(scores), tuple(status), seat, target)


def _lowest(scores: list[int], seats: list[int]) -> list[int]:
    best = min(scores[s] for s in seats)
    return [s for s in seats if scores[s] == best]


# --------------------------------------------------------------------------- values


def value_of(state: State, seat: int) -> float:
    """The chance ``seat`` wins the match, judged at the end of a rollout (see module doc)."""
    if state.over:
        return 1.0 / len(state.winners) if seat in state.winners else 0.0
    if state.status[seat] == OUT:
        return 0.0
    rules = state.rules
    if state.tokens is not None:
        return tokens_value(state.tokens, state.status, seat)
    if state.scores is not None:
        return points_value(state.scores, state.status, seat, rules.target)
    return 1.0 / sum(1 for st in state.status if st != OUT)


def tokens_value(tokens: tuple[int, ...], status: tuple[Status, ...], seat: int) -> float:
    """The chance ``seat`` wins a tokens match from these tokens, if every round is lost by
    a player chosen uniformly among those still in (M2)."""
    others = tuple(sorted(t for s, t in enumerate(tokens) if s != seat and status[s] != OUT))
    if max(others + (tokens[seat],)) > 12:  # too many states for the exact model
        weights = [t + 1 for t in others]
        return (tokens[seat] + 1) / (tokens[seat] + 1 + sum(weights))
    return _tokens_win(tokens[seat], others)


@lru_cache(maxsize=100_000)
def _tokens_win(mine: int, others: tuple[int, ...]) -> float:
    if not others:
        return 1.0
    n = len(others) + 1
    value = 0.0 if mine == 0 else _tokens_win(mine - 1, others)  # this seat loses the round
    for i, t in enumerate(others):
        rest = others[:i] + others[i + 1 :]
        if t > 0:
            rest = tuple(sorted(rest + (t - 1,)))
        value += _tokens_win(mine, rest)
    return value / n


def points_value(
    scores: tuple[int, ...], status: tuple[Status, ...], seat: int, target: int
) -> float:
    """A chance of winning a points match from the scores: shares by the square of the room
    left below the target."""
    weights = {
        s: float(max(1, target - score)) ** 2 for s, score in enumerate(scores) if status[s] != OUT
    }
    return weights[seat] / sum(weights.values())


# --------------------------------------------------------------------------- search


def candidates(legal: tuple[Action, ...] | list[Action]) -> list[Action]:
    """The actions worth searching. Drawing when owed is always right (it only adds a card)."""
    if DRAW in legal:
        return [DRAW]
    return list(legal)


class SearchResult:
    """Per candidate action, the value of every world it was tried in (the same worlds for
    all candidates, in the same order)."""

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions
        self.values: list[list[float]] = [[] for _ in actions]

    def means(self) -> list[float]:
        return [sum(v) / len(v) if v else 0.0 for v in self.values]

    def best(self, z: float = 1.0) -> Action:
        """The first candidate (the caller's preferred one) unless another beats it by more
        than ``z`` standard errors of the paired difference; then the best such one."""
        means = self.means()
        base = self.values[0]
        n = len(base)
        choice, top = 0, means[0]
        for i in range(1, len(self.actions)):
            if means[i] <= top:
                continue
            diffs = [a - b for a, b in zip(self.values[i], base, strict=True)]
            d = sum(diffs) / n
            var = sum((x - d) ** 2 for x in diffs) / max(1, n - 1)
            if d > z * (var / n) ** 0.5:
                choice, top = i, means[i]
        return self.actions[choice]


def search(
    sample: Callable[[random.Random], State],
    seat: int,
    actions: list[Action],
    rng: random.Random,
    playout: Playout,
    *,
    worlds: int,
    max_rollouts: int,
    time_limit: float | None = None,
) -> SearchResult:
    """Score each of ``actions`` by rollouts from the same sampled worlds."""
    result = SearchResult(actions)
    n_worlds = max(1, min(worlds, max_rollouts // max(1, len(actions))))
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    for _ in range(n_worlds):
        world = sample(rng)
        for i, action in enumerate(actions):
            result.values[i].append(playout.value_after(world, seat, action))
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return result


class ExpertBot:
    """Determinized Monte Carlo search from the seat's view (see the module doc)."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        *,
        worlds: int = DEFAULT_WORLDS,
        max_rollouts: int = DEFAULT_MAX_ROLLOUTS,
        time_limit: float | None = None,
        plan: bool = True,
        z: float = DEFAULT_Z,
        infer: bool = False,
        error: float = DEFAULT_ERROR,
    ) -> None:
        self._rng = random.Random(seed)
        self.worlds = worlds
        self.max_rollouts = max_rollouts
        self.time_limit = time_limit
        self.plan = plan  # rollouts play the expert's own seat with the heuristic's planner
        self.z = z  # how sure the search must be to overrule the heuristic (standard errors)
        self.infer = infer  # lean the sampled hands towards what the opponents' play suggests
        self.error = error

    def choose(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        actions = candidates(legal)
        if len(actions) == 1:
            return actions[0]
        # The heuristic's choice first: ties and near-ties keep it.
        prior = _HEURISTIC.choose(view)
        actions.sort(key=lambda a: a is not prior)
        return self._search(view, actions).best(self.z)

    def evaluate(self, view: View) -> list[tuple[Action, float]]:
        """Every legal action with its estimated chance of winning the match, computed from
        the view only (for hints), in the order of ``view.legal``."""
        return self.advise(view)[1]

    def advise(self, view: View) -> tuple[Action | None, list[tuple[Action, float]]]:
        """The move ``choose`` would make, found by one search over *every* legal action, and
        each action's estimated chance of winning (in the order of ``view.legal``)."""
        legal = list(view.legal)
        if not legal:
            return None, []
        prior = DRAW if DRAW in legal else _HEURISTIC.choose(view)
        actions = sorted(legal, key=lambda a: a is not prior)
        result = self._search(view, actions)
        choice = prior if prior is DRAW else result.best(self.z)
        scores = dict(zip(result.actions, result.means(), strict=True))
        return choice, [(a, scores[a]) for a in legal]

    def _search(self, view: View, actions: list[Action]) -> SearchResult:
        seat = view.seat
        assert seat is not None
        plain = Determinizer(view)
        sampler = (
            InferringSampler(plain, Inference(view, error=self.error)) if self.infer else plain
        )
        planner = Planner(view.rules, unseen_counts(view)) if self.plan else None
        return search(
            sampler.sample,
            seat,
            actions,
            self._rng,
            Playout(view.rules, planner, seat),
            worlds=self.worlds,
            max_rollouts=self.max_rollouts,
            time_limit=self.time_limit,
        )
