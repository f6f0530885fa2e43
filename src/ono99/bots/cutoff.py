"""The learned value at a cut-off, for the expert's search (``ExpertBot(cutoff=k)``).

A rollout played to the end of the game spends most of its moves far from the decision, and
its one outcome, won or lost, is mostly the luck of the draws. With a cut-off the rollout stops
when the searching seat is about to choose for the ``k``-th time after the move searched (the
other seats having played greedy's moves in between, and the seat itself its planner's), and
the ``neural`` network's value head judges the position from the seat's observation instead.
The value is the expected reward of the seat to play, −1 … +1 (a win is +1, a loss −1, a
shared win its share), so the chance of winning it stands for is (v + 1) / 2, on the same scale
as the outcomes of the rollouts that reach the end first.

With ``mix`` below 1, each stopped rollout is also played on to its end, and its value is
``mix`` times the network's plus the rest times the outcome: the blend AlphaGo made of its value
network and its rollouts (there half and half), less noisy than the outcome alone and less
biased than the network alone.

The observations come from the search's own imagined worlds (the seat's determinizations), so
nothing real is revealed. They are built by filling ``features.Public`` from the stopped
playouts and encoding the whole batch at once with ``features.encode_public``: the observation
table's own implementation, the one the network was trained on. ``tests/bots/test_cutoff.py``
checks them bit for bit against ``features.encode`` of the engine's view of the same position,
and the batch makes one forward pass per decision, not one per rollout.
"""

from __future__ import annotations

from typing import Any

from ..engine import OUT, Rules
from ..fast.playout import Playout
from .network import numpy_for

DEFAULT_TURNS = 1  # the seat's next decision: one round of the table played by the rollout


class Snapshot:
    """What the seat may see of a stopped playout, copied out of it (the playout is reused).
    Card kinds and action indices are below 256, so the card lists are kept as bytes: cheap to
    copy, and the batch counts them all in one pass."""

    __slots__ = ("dealer", "discard", "draw_pile", "hand", "laid", "legal", "scalars", "seats")

    def __init__(self, playout: Playout, seat: int, dealer: int) -> None:
        n = len(playout.status)
        order = [(seat + k) % n for k in range(n)]
        self.dealer = (dealer - seat) % n  # as the seat sees it: relative to itself
        self.hand = bytes(playout.hands[seat])
        self.legal = bytes(playout.legal())
        self.discard = bytes(playout.discard)
        self.laid = (
            bytes([c for s in order[1:] if playout.status[s] == OUT for c in playout.hands[s]])
            if playout.match == "single"
            else b""
        )
        pending = playout.pending
        tokens, scores = playout.tokens, playout.scores
        self.scalars = (
            playout.total,
            playout.direction,
            playout.owed,
            playout.ono_played,
            (playout.to_play - seat) % n,
        )
        self.seats = (  # per seat, from the seat itself on
            [playout.status[s].code for s in order],
            [len(playout.hands[s]) for s in order],
            [int(s in pending) for s in order],
            [tokens[s] for s in order] if tokens is not None else [0] * n,
            [scores[s] for s in order] if scores is not None else [0] * n,
        )
        self.draw_pile = len(playout.pile)


def public_of_snapshots(snapshots: list[Snapshot]) -> Any:
    """``features.Public`` of a batch of snapshots (of one seat or of several)."""
    np = numpy_for("the expert's cut-off")
    from ..engine.cards import NUM_CARD_KINDS
    from ..features import ABSENT, NUM_ACTIONS, SEATS, Public

    b = len(snapshots)

    def counts(rows: list[bytes], width: int) -> Any:
        lengths = [len(x) for x in rows]
        flat = np.frombuffer(b"".join(rows), dtype=np.uint8).astype(np.int64)
        starts = np.repeat(np.arange(b, dtype=np.int64) * width, lengths)
        return np.bincount(starts + flat, minlength=b * width).reshape(b, width)

    hand = counts([s.hand for s in snapshots], NUM_CARD_KINDS)
    legal = counts([s.legal for s in snapshots], NUM_ACTIONS)
    discard = counts([s.discard for s in snapshots], NUM_CARD_KINDS)
    laid = counts([s.laid for s in snapshots], NUM_CARD_KINDS)
    n = len(snapshots[0].seats[0]) if snapshots else 0
    per_seat = np.full((5, b, SEATS), 0, dtype=np.int64)
    per_seat[0] = ABSENT
    if b:
        per_seat[:, :, :n] = np.array([s.seats for s in snapshots], dtype=np.int64).transpose(
            1, 0, 2
        )
    scalars = np.array([s.scalars for s in snapshots], dtype=np.int64).reshape(b, 5).T
    total, direction, owed, ono99_played, to_play = scalars
    status, sizes, owes, tokens, scores = per_seat
    dealers = np.array([s.dealer for s in snapshots], dtype=np.int64)
    draw_pile = np.array([s.draw_pile for s in snapshots], dtype=np.int64)
    return Public(hand, legal, total, direction, owed, ono99_played, to_play, dealers, status,
                  sizes, owes, tokens, scores, discard, laid, draw_pile)  # fmt: skip


class Cutoff:
    """Collects the positions where a search's rollouts stopped, then values them all at once
    with the network (see the module doc). One per decision: ``seat`` is the searcher."""

    def __init__(
        self,
        rules: Rules,
        seat: int,
        dealer: int,
        turns: int = DEFAULT_TURNS,
        weights: str | None = None,
        mix: float = 1.0,
    ) -> None:
        from .neural import NeuralBot

        if turns < 1:
            raise ValueError(f"a cut-off is at the seat's 1st decision or later, not {turns}")
        self.rules = rules
        self.seat = seat
        self.dealer = dealer
        self.turns = turns
        self.mix = mix  # the value's share; the rest is the rollout played on to its end
        self.net = NeuralBot(weights=weights).net  # loaded once per process, then shared
        self.snapshots: list[Snapshot] = []

    def rollout(self, playout: Playout) -> bool:
        """Play ``playout`` on to the cut-off; True if it reached its horizon first, else the
        position is kept, to be valued by ``values``."""
        if playout.run(self.seat, self.turns):
            return True
        self.snapshots.append(Snapshot(playout, self.seat, self.dealer))
        return False

    def values(self) -> list[float]:
        """The chance of winning of every position kept, in order; then forgets them."""
        if not self.snapshots:
            return []
        from ..features import encode_public

        obs = encode_public(public_of_snapshots(self.snapshots), self.rules)
        self.snapshots = []
        value = self.net.forward(obs)[1]
        return [min(1.0, max(0.0, (float(v) + 1.0) / 2.0)) for v in value]
