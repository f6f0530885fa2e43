"""The network as the rollout policy, for the expert's search (``ExpertBot(rollout=…)``).

The plain search plays every imagined game on with hand-written policies: the heuristic's
planner at the searching seat, greedy's table at the others. With ``rollout="neural"`` the
searching seat plays the ``neural`` network's favourite legal action at each of its turns in
the rollout instead; with ``rollout="neural-all"`` every seat does (self-play rollouts: the
model of the opponents is then the network, not greedy).

Asking the network once per move of every rollout would cost a forward pass each: hundreds of
rollouts, a dozen turns each. So the rollouts of one decision are played in lockstep: each
runs on (``Playout.run``, the rule-of-thumb seats playing inside it) until a seat the network
plays is about to choose; the positions where they all stand are encoded together
(``cutoff.Snapshot``, the observation table's own ``features.encode_public``) and valued by one
forward pass; each rollout takes its move and runs on to its next such turn. A turn with one
legal action is played without asking. The batch shrinks as rollouts reach their horizon.

The same forward pass gives the value head, so a cut-off (``cutoff=k``: stop at the searching
seat's ``k``-th decision after the searched move and take the network's value) costs nothing
more here; ``mix`` below 1 blends that value with the rollout played on to its end, as
``bots/cutoff.py`` does for the hand-written rollouts.

The positions are the searcher's own imagined worlds (its determinizations), so nothing real
is revealed. ``tests/bots/test_network_rollouts.py`` plays the same rollouts through the engine
with ``NeuralBot`` on each seat's view and checks they end alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine import ALL_ACTIONS, Rules
from ..fast.playout import EVERY_SEAT, Playout
from .cutoff import Snapshot, public_of_snapshots
from .greedy import RANKED
from .network import numpy_for

ROLLOUTS = ("heuristic", "neural", "neural-all")  # who plays the searcher's seat, and the rest


def check_rollout(rollout: str) -> str:
    """``rollout`` if it is one of ``ROLLOUTS``, else a ValueError naming them."""
    if rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
    return rollout


def network_rollouts(
    rollout: str,
    rules: Rules,
    seat: int,
    dealer: int,
    value: Callable[[Playout, int], float],
    **options: Any,
) -> NetworkRollouts | None:
    """The rollouts a search of ``seat`` plays with ``rollout`` (one of ``ROLLOUTS``): None for
    the hand-written ones (the search's own ``Playout``), else the network's, with
    ``NetworkRollouts``' ``options`` (weights, cutoff, mix)."""
    if check_rollout(rollout) == "heuristic":
        return None
    return NetworkRollouts(
        rules, seat, dealer, value, every_seat=rollout == "neural-all", **options
    )


class NetworkRollouts:
    """Plays a decision's rollouts to their horizon in lockstep, the network choosing at the
    searching ``seat`` (``every_seat``: at every seat). One per decision."""

    def __init__(
        self,
        rules: Rules,
        seat: int,
        dealer: int,
        value: Callable[[Playout, int], float],
        *,
        every_seat: bool = False,
        weights: str | None = None,
        cutoff: int = 0,
        mix: float = 1.0,
    ) -> None:
        numpy_for("the expert's network rollouts")  # first: its error names the extra
        from ..features import encode_public
        from .neural import NeuralBot

        self.rules = rules
        self.seat = seat
        self.dealer = dealer
        self.value = value  # a horizon's chance of winning for the searcher (``playout_value``)
        self.stop = EVERY_SEAT if every_seat else seat
        self.cutoff = cutoff  # value at the searcher's cutoff-th decision (0: play to the end)
        self.mix = mix
        self.net = NeuralBot(weights=weights).net  # loaded once per process, then shared
        self._encode = encode_public

    def playout(self) -> Playout:
        """A playout for one rollout (the network, not a planner, plays the searcher)."""
        return Playout(self.rules, RANKED, None, self.seat)

    def finish(self, playouts: list[Playout]) -> list[float]:
        """The searcher's chance of winning in each playout, played from where it stands (just
        after the searched move) as the module doc says."""
        np = numpy_for("the expert's network rollouts")
        seat, mix = self.seat, self.mix
        values = [0.0] * len(playouts)
        held: dict[int, float] = {}  # a cut-off's value, waiting for the rollout's outcome
        turns = [0] * len(playouts)  # the searcher's decisions so far, per rollout
        active = list(range(len(playouts)))

        def ended(k: int) -> None:
            outcome = self.value(playouts[k], seat)
            values[k] = mix * held[k] + (1.0 - mix) * outcome if k in held else outcome

        while active:
            asking: list[int] = []
            valued: list[bool] = []
            snapshots: list[Snapshot] = []
            for k in active:
                playout = playouts[k]
                while True:
                    if playout.run(self.stop, 1):
                        ended(k)
                        break
                    mover = playout.to_play
                    at_cutoff = False
                    if mover == seat:
                        turns[k] += 1
                        at_cutoff = turns[k] == self.cutoff
                    legal = playout.legal()
                    if len(legal) > 1 or at_cutoff:
                        asking.append(k)
                        valued.append(at_cutoff)
                        snapshots.append(Snapshot(playout, mover, self.dealer))
                        break
                    if playout.act(mover, ALL_ACTIONS[legal[0]]):
                        ended(k)
                        break
            if not asking:
                break
            public = public_of_snapshots(snapshots)
            scores, chances = self.net.forward(self._encode(public, self.rules))
            moves = np.argmax(np.where(public.legal > 0, scores, -np.inf), axis=1).tolist()
            active = []
            for row, k in enumerate(asking):
                if valued[row]:
                    chance = min(1.0, max(0.0, (float(chances[row]) + 1.0) / 2.0))
                    if mix >= 1.0:
                        values[k] = chance
                        continue
                    held[k] = chance
                playout = playouts[k]
                if playout.act(playout.to_play, ALL_ACTIONS[moves[row]]):
                    ended(k)
                else:
                    active.append(k)
        return values
