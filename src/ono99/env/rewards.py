"""The rewards every environment pays: a share of a win, a loss, an illegal action."""

from __future__ import annotations

from ..engine import OUT, State

WIN = 1.0  # shared among tied winners: each of k winners gets WIN / k
LOSS = -1.0
ILLEGAL = -1.0  # the default penalty for an illegal action, which ends the episode


def final_reward(state: State, seat: int) -> float:
    """The reward a seat's episode ends with: WIN / k for each of k winners, LOSS for a seat
    out of the game (no seat that leaves before the end can win), 0 while still playing."""
    if state.over:
        return WIN / len(state.winners) if seat in state.winners else LOSS
    return LOSS if state.status[seat] == OUT else 0.0
