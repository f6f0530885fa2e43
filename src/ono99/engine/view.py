"""What one seat, or a spectator, may see (RULES.md V1).

``view(state, seat)`` is the only way hidden information leaves the engine: bots, the
terminal game, servers and RL encoders all work from views. A view holds the seat's own
hand and public facts only — never another hand, the draw pile order, or the seed.
``cards_drawn`` tells a seat which cards it drew, from two of its own views.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .actions import Action
from .cards import ONO99
from .errors import SetupError
from .game import legal_actions, playable_cards
from .rules import Rules
from .state import EMPTY_CHAIN, OUT, Chain, Event, State, Status, chain_items


@dataclass(frozen=True)
class View:
    seat: int | None  # None for a spectator
    rules: Rules
    round: int
    dealer: int
    total: int
    direction: int  # 1 clockwise, -1 counter-clockwise
    to_play: int | None
    owed: int
    ono99_played: bool
    hand: tuple[int, ...] | None  # the seat's own hand; None for a spectator
    hand_sizes: tuple[int, ...]
    status: tuple[Status, ...]  # per seat, as in the state
    laid_down: tuple[tuple[int, ...], ...]  # hands laid face up by eliminated players (E1)
    tokens: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    out: tuple[int, ...]
    out_of_round: tuple[int, ...]
    owes_draw: tuple[int, ...]
    draw_pile: int  # its size only
    discard_pile: tuple[int, ...]  # face-up cards since the last reshuffle, oldest first
    over: bool
    winners: tuple[int, ...]
    legal: tuple[Action, ...]  # this seat's legal actions now
    _log: Chain = EMPTY_CHAIN  # public events

    @property
    def events(self) -> list[Event]:
        """Every public event so far, oldest first: each card played, by whom, and the
        total after it; eliminations, deals, reshuffles, round ends."""
        return chain_items(self._log)

    @property
    def log(self) -> Chain:
        """The public event log as the engine keeps it (shared, never copied); ``events``
        lists it. Samplers that rebuild a state from a view pass this on unchanged."""
        return self._log

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def must_bust(self) -> bool:
        """Whether every card this seat may play is a bust (M3): points scoring, its turn,
        and no card keeps the total at most max_total."""
        if self.hand is None or self.over or self.to_play != self.seat:
            return False
        if self.rules.match != "points" or self.seat in self.owes_draw:
            return False
        if self.rules.four_ono99_discard and self.hand.count(ONO99) >= 4:
            return False
        return not playable_cards(self.rules, self.hand, self.total, self.owed, self.ono99_played)


def view(state: State, seat: int | None = None) -> View:
    """The view of ``seat``, or of a spectator when ``seat`` is None."""
    n = state.rules.players
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise SetupError("seat", f"no seat {seat!r}; seats are numbered 0 to {n - 1}")
    laid = state.rules.match == "single"
    return View(
        seat=seat,
        rules=state.rules,
        round=state.round,
        dealer=state.dealer,
        total=state.total,
        direction=state.direction,
        to_play=state.to_play,
        owed=state.owed,
        ono99_played=state.ono99_played,
        hand=None if seat is None else state.hands[seat],
        hand_sizes=tuple(len(h) for h in state.hands),
        status=state.status,
        laid_down=tuple(
            h if laid and st == OUT else () for h, st in zip(state.hands, state.status, strict=True)
        ),
        tokens=state.tokens,
        scores=state.scores,
        out=state.out,
        out_of_round=state.out_of_round,
        owes_draw=state.owes_draw,
        draw_pile=state.draw_pile_size,
        discard_pile=state.discard,
        over=state.over,
        winners=state.winners,
        legal=() if seat is None else tuple(legal_actions(state, seat)),
        _log=state.log,
    )


def cards_drawn(before: View, after: View) -> tuple[int, ...]:
    """The cards a seat drew between two of its views (T2's draw after a card, K7's four,
    X2's owed draw), in hand order: its hand now, less what it held and has played since.
    Only the seat's own hand and public events go in, so nobody learns another's draw.
    Empty when a deal came between, for a new hand is dealt, not drawn."""
    seat = before.seat
    if seat is None or after.seat != seat:
        raise SetupError(
            "seat", f"views of seats {seat!r} and {after.seat!r}: one seat's are needed"
        )
    assert before.hand is not None and after.hand is not None
    came = Counter(after.hand)  # the hand now, plus what it played since, less what it held
    for e in after.events[len(before.events) :]:
        if e.kind == "deal":
            return ()
        if e.seat == seat and e.kind == "play" and e.card is not None:
            came[e.card] += 1
        elif e.seat == seat and e.kind == "discard":
            came[ONO99] += 4
    came.subtract(before.hand)
    return tuple(sorted((+came).elements()))
