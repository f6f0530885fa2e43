"""Playing games between bots: who acts next, and a whole game from a seed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..bots import Bot
from ..engine import Rules, State, apply, new_game, view


def next_actor(state: State) -> int:
    """The seat to ask for an action: a seat still owing a draw (X2) is asked before the
    next card is played; otherwise the seat to play. A seat owing a draw that is also the
    seat to play (its second owed card) may choose to play first and lose the draw."""
    if state.owes_draw:
        return state.owes_draw[0]
    assert state.to_play is not None
    return state.to_play


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int,
    *,
    dealer: int | None = None,
    on_state: Callable[[State], None] | None = None,
) -> State:
    """Play one game between ``bots`` (one per seat) and return the final state."""
    if len(bots) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} bots, not {len(bots)}")
    state = new_game(rules, seed, dealer=dealer)
    if on_state:
        on_state(state)
    while not state.over:
        seat = next_actor(state)
        bot = bots[seat]
        if getattr(bot, "omniscient", False):
            # Only the oracle, which measures the ceiling of skill, sees the whole state.
            action = bot.choose_state(state, seat)  # type: ignore[attr-defined]
        else:
            action = bot.choose(view(state, seat))
        state = apply(state, seat, action)
        if on_state:
            on_state(state)
    return state
