"""What one seat, or a spectator, may see (RULES.md V1).

``view(state, seat)`` is the only way hidden information leaves the engine: bots, the
terminal game, servers and RL encoders all work from views. A view holds the seat's own
hand and public facts only — never another hand, the draw pile order, or the seed.
``cards_drawn`` tells a seat which cards it drew, from two of its own views.

``state_from_view`` goes the other way: a view and an assignment of the cards it hides (the
other hands, the draw pile) make a full state whose view is the same view again — the worlds a
searching bot imagines are built by it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from .actions import DISCARD, DRAW, PLAY, Action
from .cards import CARD_NAMES, ONO99, card_ids, counts
from .errors import PositionError, SetupError
from .game import legal_actions, must_bust
from .rules import Rules
from .state import (
    EMPTY_CHAIN,
    OUT,
    Chain,
    Event,
    Setup,
    State,
    Status,
    chain_append,
    chain_items,
    chain_len,
)

_SECOND_CARD_WINDOW = 8


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

    @cached_property
    def _public(self) -> _Public:
        """What ``state_from_view`` needs besides the hidden cards, worked out once per view
        (a searching bot builds hundreds of states from the same view)."""
        seat = self.seat
        n = self.players
        known = tuple(
            self.hand if s == seat and self.hand is not None else self.laid_down[s]
            for s in range(n)
        )
        hidden = tuple(s for s in range(n) if s != seat and not self.laid_down[s])
        unseen = counts(self.rules.deck)  # less the shown hands and the discard pile
        for cards in (*known, self.discard_pile):
            for card in cards:
                unseen[card] -= 1
        history = EMPTY_CHAIN
        moves = 0
        reshuffles = 0
        first_dealer = None
        for e in self.events:  # every action leaves exactly one of these events
            action = None
            if e.kind == "play" and e.card is not None:
                action = PLAY[e.card]
            elif e.kind == "discard":
                action = DISCARD
            elif e.kind == "draw":
                action = DRAW
            elif e.kind == "reshuffle":
                reshuffles += 1
            elif e.kind == "deal" and first_dealer is None:
                first_dealer = e.seat
            if action is not None:
                history = chain_append(history, (e.seat, action))
                moves += 1
        return _Public(
            known=known,
            hidden=hidden,
            unseen=tuple(unseen),
            status=tuple(self.status),
            history=history,
            moves=moves,
            reshuffles=reshuffles,
            first_dealer=self.dealer if first_dealer is None else first_dealer,
        )

    @property
    def second_card(self) -> bool:
        """Whether ``to_play`` has laid the first of two owed cards and owes the second (P1).

        Public, and read off the public log: the last thing that happened (draws and
        reshuffles aside) is a card, or K7's discard, by ``to_play`` — after any other card
        the turn moves on (T4, P2) or the round ends, so only a first owed card leaves the
        turn where it was."""
        if self.over or self.to_play is None or self.owed != 1:
            return False
        # After the first card come at most its draw and two reshuffles.
        recent = chain_items(self._log, max(0, chain_len(self._log) - _SECOND_CARD_WINDOW))
        for event in reversed(recent):
            if event.kind not in ("draw", "lost_draw", "reshuffle"):
                return event.kind in ("play", "discard") and event.seat == self.to_play
        return False

    @property
    def must_bust(self) -> bool:
        """Whether every card this seat may play is a bust (M3): points scoring, its turn,
        and no card keeps the total at most max_total."""
        return must_bust(self)


class _Public(NamedTuple):
    known: tuple[tuple[int, ...], ...]  # per seat: its hand if the view shows it, else ()
    hidden: tuple[int, ...]  # the seats whose hands the view hides
    unseen: tuple[int, ...]  # how many of each card kind the view hides
    status: tuple[Status, ...]
    history: Chain  # the actions, rebuilt from the public events
    moves: int
    reshuffles: int
    first_dealer: int


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


def state_from_view(
    v: View,
    hands: Mapping[int, Sequence[int | str]],
    pile: Sequence[int | str],
    *,
    seed: int,
) -> State:
    """A full state the seat of ``v`` could be in: everything the view shows, with the cards it
    hides filled in — ``hands`` maps each seat whose hand is hidden (every other seat but those
    that laid theirs down; a seat holding no cards may be left out) to its cards, ``pile`` is
    the draw pile, top first — and ``seed`` for every shuffle to come. Cards are ids or N1
    names. ``view(state, v.seat) == v``.

    The public past comes along: the event log, the actions (each left an event), who dealt
    first and how many reshuffles there were. The deck orders already used were never shown,
    so the state has none, and no record. Cards that do not fit the view (a wrong count, a
    card the view accounts for elsewhere) raise a one-line ``PositionError``."""
    seat = v.seat
    if seat is None:
        raise PositionError("view", "a spectator's view has no seat to build a state around")
    public = v._public
    full = list(public.known)
    for s, cards in hands.items():
        if s not in public.hidden:
            raise PositionError("hands", f"seat {s!r}'s hand is not hidden from seat {seat}")
        full[s] = tuple(sorted(card_ids(cards, f"hands[{s}]", PositionError)))
    for s in public.hidden:
        if len(full[s]) != v.hand_sizes[s]:
            raise PositionError(
                "hands", f"seat {s} holds {v.hand_sizes[s]} cards, not {len(full[s])}"
            )
    pile_ids = card_ids(pile, "pile", PositionError)
    if len(pile_ids) != v.draw_pile:
        raise PositionError("pile", f"the draw pile holds {v.draw_pile} cards, not {len(pile_ids)}")
    given = counts(pile_ids)
    for s in public.hidden:
        for card in full[s]:
            given[card] += 1
    for card, (have, want) in enumerate(zip(given, public.unseen, strict=True)):
        if have != want:
            raise PositionError(
                "cards",
                f"seat {seat} cannot see {want} × {CARD_NAMES[card]!r}, but the hidden hands "
                f"and the draw pile hold {have}",
            )
    return State(
        rules=v.rules,
        setup=Setup(seed, public.first_dealer),
        round=v.round,
        dealer=v.dealer,
        total=v.total,
        direction=v.direction,
        to_play=v.to_play,
        owed=v.owed,
        ono99_played=v.ono99_played,
        hands=tuple(full),
        pile=pile_ids,
        pile_pos=0,
        discard=v.discard_pile,
        status=public.status,
        out=v.out,
        out_of_round=v.out_of_round,
        tokens=v.tokens,
        scores=v.scores,
        owes_draw=v.owes_draw,
        over=v.over,
        winners=v.winners,
        reshuffle_count=public.reshuffles,
        decks_used=(),  # never shown
        reshuffles_used=(),
        log=v.log,  # shared as it is: it holds no hidden card
        history=public.history,
        moves=public.moves,
    )
