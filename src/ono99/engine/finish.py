"""Where each seat of a finished game placed: the order ratings are computed from (the
tournaments' and the server's, ``ono99.ratings``)."""

from __future__ import annotations

from .state import State


def finishing_order(state: State) -> tuple[tuple[int, ...], ...]:
    """The seats of a finished game grouped by place, best first; seats in one group tie.

    The winners share first place. Everyone else placed by when they left the game — later
    is better — from ``state.out``. In a points match (M3) players leave at the end of a
    round, several at once, so those leaving after the same round are ordered by score,
    lower being better (equal scores tie); players never out (variant ``lowest_score``) are
    the last to leave."""
    n = state.rules.players
    winners = set(state.winners)
    points = state.scores is not None
    left: dict[int, int] = {}
    if points:
        round_ended = 0
        for event in state.events():
            if event.kind == "round_end":
                round_ended = event.data[0]
            elif event.kind == "left" and event.seat is not None:
                left[event.seat] = round_ended
    else:
        left = {seat: k for k, seat in enumerate(state.out)}
    never = max(left.values(), default=0) + 1

    def place(seat: int) -> tuple[int, int, int]:
        if seat in winners:
            return (0, 0, 0)
        score = state.scores[seat] if state.scores is not None else 0
        return (1, -left.get(seat, never), score)

    groups: dict[tuple[int, int, int], list[int]] = {}
    for seat in sorted(range(n), key=place):
        groups.setdefault(place(seat), []).append(seat)
    return tuple(tuple(group) for group in groups.values())
