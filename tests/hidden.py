"""A state changed in everything one seat cannot see: the tool of the leak tests (V1, STYLE.md
principle 7), shared by the engine's, the bots', the terminal game's and the encoder's."""

from __future__ import annotations

import random

from ono99.engine import OUT, Setup, State


def hide(state: State, seat: int | None, rng: random.Random) -> State:
    """``state`` with everything ``seat`` (None: a spectator) may not see changed."""
    rules = state.rules
    n = rules.players
    single = rules.match == "single"
    hidden = [t for t in range(n) if t != seat and not (single and state.status[t] == OUT)]
    cards = [c for t in hidden for c in state.hands[t]] + list(state.pile[state.pile_pos :])
    rng.shuffle(cards)
    hands = list(state.hands)
    pos = 0
    for t in hidden:
        k = len(state.hands[t])
        hands[t] = tuple(sorted(cards[pos : pos + k]))
        pos += k
    drawn = list(state.pile[: state.pile_pos])
    rng.shuffle(drawn)
    pile = (*drawn, *cards[pos:])

    def scramble(cards: tuple[int, ...]) -> tuple[int, ...]:
        out = list(cards)
        rng.shuffle(out)
        return tuple(out)

    return state._replace(
        hands=tuple(hands),
        pile=pile,
        setup=Setup(state.setup.seed + 1 + rng.randrange(10**6), state.setup.dealer),
        decks_used=tuple(scramble(d) for d in state.decks_used),
        reshuffles_used=tuple(scramble(r) for r in state.reshuffles_used),
    )


def differs(state: State, other: State, seat: int | None) -> bool:
    return (
        any(
            a != b
            for t, (a, b) in enumerate(zip(state.hands, other.hands, strict=True))
            if t != seat
        )
        or state.pile[state.pile_pos :] != other.pile[other.pile_pos :]
    )
