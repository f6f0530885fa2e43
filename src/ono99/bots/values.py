"""What a rollout is worth: the chance a seat wins the match from where a rollout stopped
(RULES.md §7), and, per candidate action, the values of the worlds a search tried it in.

The expert's search (``expert.py``), its ISMCTS (``ismcts.py``), the oracle and the network
rollouts all score with these, so they live apart from any one search.

- **single** game: 1 for a win (a shared win counts its share), else 0; unfinished, an even
  share among the seats still in.
- **tokens**: a chance of winning the match from the tokens, with an exact small model in
  which each later round is lost by a player chosen uniformly among those still in.
- **points**: a chance of winning from the room each player has left below the target (room²
  shares).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..engine import OUT, Action, Rules, State, Status
from ..fast.playout import Playout


def value_of(state: State, seat: int) -> float:
    """The chance ``seat`` wins the match, judged at the end of a rollout (see module doc)."""
    winners = state.winners if state.over else ()
    return match_value(state.rules, winners, state.status, state.tokens, state.scores, seat)


def rollout_value(playout: Playout, state: State, seat: int, action: Action) -> float:
    """The value of ``action`` by ``seat`` in ``state``: ``value_of`` where the rollout
    from there ends, played on a ``Playout``."""
    playout.load(state)
    if not playout.act(seat, action):
        playout.run()
    return playout_value(playout, seat)


def playout_value(playout: Playout, seat: int) -> float:
    """``match_value`` where a playout stands (at its horizon)."""
    return match_value(
        playout.rules, playout.winners, playout.status, playout.tokens, playout.scores, seat
    )


def match_value(
    rules: Rules,
    winners: Sequence[int],
    status: Sequence[Status],
    tokens: Sequence[int] | None,
    scores: Sequence[int] | None,
    seat: int,
) -> float:
    """The chance ``seat`` wins the match from where a rollout ended: its share of the win
    once the match is over; else from the tokens (``tokens_value``) or the scores
    (``points_value``) of the seats still in the game; in a single game, an even share."""
    if winners:
        return 1.0 / len(winners) if seat in winners else 0.0
    if status[seat] == OUT:
        return 0.0
    if tokens is not None:
        return tokens_value(tuple(tokens), tuple(status), seat)
    if scores is not None:
        return points_value(tuple(scores), tuple(status), seat, rules.target)
    return 1.0 / sum(1 for st in status if st != OUT)


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
