"""Playing games between bots: a whole game from a seed (the engine's ``to_act`` says who
acts next)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..bots import Bot
from ..engine import Rules, State, apply, new_game, to_act, view


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
        seat = to_act(state)
        assert seat is not None
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
