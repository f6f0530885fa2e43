"""What a second implementation of the rules must agree with the engine on (STYLE.md 9, 12).

``ono99.engine.game`` is the reference. Every implementation in ``IMPLEMENTATIONS`` is loaded
with the engine's position (the same cards and shuffles: RULES.md N3 defines agreement on
explicit deals) and given the engine's actions, and after every action its ``Facts`` must equal
``facts(state)`` of the engine state after the same action: the legal actions of the seat to
play, the total, direction and cards owed, every hand, every seat's status, tokens and scores,
the owed draws, the sizes of the draw and discard piles, and the end of the match with its
winners. An implementation whose ``horizon`` is the round stops at the end of each round in
tokens and points matches; there only ``round_end`` must agree (who is out of the game, the
tokens and scores, the match over or not and its winners), and it is loaded again for the next
round. ``leaves_out`` names the options of RULES.md §8 it does not implement; the rule sets
that switch one of them on are not its to play.

``tests/fast/test_fast_differential.py`` runs this contract over every implementation, in every
edition, player count, match format and option set each supports.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine import OUT, Rules, State, Status, legal_actions


class Facts(NamedTuple):
    """A position as every implementation must report it, in the engine's values: card ids,
    ``ALL_ACTIONS`` indices, seats, ``IN``/``OUT``/``OUT_OF_ROUND``."""

    over: bool
    winners: tuple[int, ...]  # in seat order, once over
    total: int
    direction: int  # 1 clockwise, -1 counter-clockwise
    to_play: int | None  # None once over
    owed: int  # 1 or 2; 0 once over
    ono99_played: bool
    legal: tuple[int, ...]  # the seat to play's legal actions, in canonical order (N4)
    hands: tuple[tuple[int, ...], ...]  # sorted; a laid-down hand stays with its seat (E1)
    status: tuple[Status, ...]
    tokens: tuple[int, ...] | None  # tokens matches only
    scores: tuple[int, ...] | None  # points matches only
    owes_draw: tuple[int, ...]  # X2
    draw_pile: int
    discard_pile: int


class RoundEnd(NamedTuple):
    """What a round's end leaves, for an implementation that stops there."""

    over: bool
    winners: tuple[int, ...]
    out_of_game: tuple[int, ...]  # in seat order
    tokens: tuple[int, ...] | None
    scores: tuple[int, ...] | None


def facts(state: State) -> Facts:
    """The engine's answer."""
    return Facts(
        over=state.over,
        winners=state.winners,
        total=state.total,
        direction=state.direction,
        to_play=state.to_play,
        owed=state.owed,
        ono99_played=state.ono99_played,
        legal=tuple(a.index for a in legal_actions(state)),
        hands=state.hands,
        status=state.status,
        tokens=state.tokens,
        scores=state.scores,
        owes_draw=state.owes_draw,
        draw_pile=state.draw_pile_size,
        discard_pile=len(state.discard),
    )


def round_end(f: Facts) -> RoundEnd:
    """The part of ``f`` that a round's end decides."""
    out = tuple(s for s, st in enumerate(f.status) if st == OUT)
    return RoundEnd(f.over, f.winners, out, f.tokens, f.scores)


class Implementation(NamedTuple):
    """A declared implementation of the rules."""

    name: str
    home: str  # the module that holds it
    horizon: str  # "match", or "round": it stops at a round's end (tokens, points)
    leaves_out: tuple[str, ...] = ()  # options (RULES.md §8) it does not implement
    extra: str | None = None  # the extra it needs beyond the core install

    def plays(self, rules: Rules) -> bool:
        """Whether ``rules`` are within what it implements."""
        return not any(getattr(rules, option) for option in self.leaves_out)


ENGINE = Implementation("engine", "ono99.engine.game", "match")
BATCH = Implementation("batch", "ono99.fast.batch", "match", ("draw_penalty",), "fast")
PLAYOUT = Implementation("playout", "ono99.fast.playout", "round")
IMPLEMENTATIONS = (ENGINE, BATCH, PLAYOUT)
