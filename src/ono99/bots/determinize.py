"""Determinization: full ``State``s consistent with everything one seat has seen.

A search bot cannot look at hidden cards, so it imagines them. From a ``View`` it computes the
*unseen* multiset — the edition's deck minus the seat's own hand, the discard pile and the hands
laid down by eliminated players (every other card is in a hidden hand or the draw pile) — and
deals it at random to the other seats' hands (their sizes are public) and the draw pile. Each
sample gets a fresh random ``Setup`` seed, so the future reshuffles of the imagined world are
unknown too. Fields of ``State`` that a view lacks get neutral values (no deck orders, no
reshuffle orders); every field a view *does* show is copied from it, so the sampled state's
view for the seat equals the real one.

Nothing hidden is ever read: the input is a ``View``, and the ``State`` is built with the
public ``State(...)`` constructor.

No inference is drawn from how the others played: not playing a card never proves not holding
it (a player may keep a safe card for later), so every deal of the unseen cards consistent with
the public record is treated as equally likely.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine import DISCARD, DRAW, PLAY, Action, Event, Setup, State, View
from ..engine.cards import NUM_CARD_KINDS, counts
from ..engine.state import EMPTY_CHAIN, STATUS_NAMES, Chain, chain_append

_STATUS_CODE = {name: code for code, name in enumerate(STATUS_NAMES)}


def unseen_counts(v: View) -> list[int]:
    """How many of each card kind the seat cannot see: the deck minus its own hand, the
    discard pile and the laid-down hands. They are in the other hands and the draw pile."""
    left = counts(v.rules.deck)
    laid = [h for s, h in enumerate(v.laid_down) if s != v.seat]  # own hand: counted once
    seen: list[Sequence[int]] = [v.hand or (), v.discard_pile, *laid]
    for cards in seen:
        for card in cards:
            left[card] -= 1
    return left


def hidden_seats(v: View) -> list[int]:
    """The seats whose hands ``v.seat`` cannot see (laid-down hands are public)."""
    return [
        s
        for s in range(v.players)
        if s != v.seat and v.hand_sizes[s] > 0 and not (v.status[s] == "out" and v.laid_down[s])
    ]


class Determinizer:
    """Samples full states consistent with one view. The work that depends on the view only
    (the unseen multiset, the rebuilt public history) is done once, in the constructor;
    ``sample`` then costs one shuffle."""

    def __init__(self, v: View) -> None:
        if v.seat is None:
            raise ValueError("a spectator's view has no hand to determinize around")
        self.view = v
        self.seat = v.seat
        left = unseen_counts(v)
        if any(k < 0 for k in left):
            raise ValueError("the view shows more cards of some kind than the deck holds")
        self.unseen: list[int] = [c for c in range(NUM_CARD_KINDS) for _ in range(left[c])]
        self.hidden = hidden_seats(v)
        self.sizes = [v.hand_sizes[s] for s in self.hidden]
        need = sum(self.sizes) + v.draw_pile
        if need != len(self.unseen):
            raise ValueError(
                f"the view does not add up: {len(self.unseen)} unseen cards for "
                f"{need} places in hidden hands and the draw pile"
            )
        events = v.events
        deals = [e.seat for e in events if e.kind == "deal" and e.seat is not None]
        self.first_dealer = deals[0] if deals else v.dealer
        self.reshuffles = sum(1 for e in events if e.kind == "reshuffle")
        self.history, self.moves = _history(events)
        self.known_hands: list[tuple[int, ...]] = [
            v.hand if s == v.seat and v.hand is not None else v.laid_down[s]
            for s in range(v.players)
        ]
        self.status = tuple(_STATUS_CODE[name] for name in v.status)

    def deal(self, rng: random.Random) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
        """A random deal of the unseen cards: every seat's hand, and the draw pile (top
        first)."""
        cards = self.unseen[:]
        rng.shuffle(cards)
        hands = self.known_hands[:]
        pos = 0
        for s, k in zip(self.hidden, self.sizes, strict=True):
            hands[s] = tuple(sorted(cards[pos : pos + k]))
            pos += k
        return hands, tuple(cards[pos:])

    def sample(self, rng: random.Random) -> State:
        """One full state consistent with the view, with a fresh seed for future shuffles."""
        hands, pile = self.deal(rng)
        return self.state(hands, pile, rng.getrandbits(62))

    def state(self, hands: Sequence[tuple[int, ...]], pile: tuple[int, ...], seed: int) -> State:
        """The view's public state with these hidden cards and this seed for the shuffles."""
        v = self.view
        return State(
            rules=v.rules,
            setup=Setup(seed, self.first_dealer),
            round=v.round,
            dealer=v.dealer,
            total=v.total,
            direction=v.direction,
            to_play=v.to_play,
            owed=v.owed,
            ono99_played=v.ono99_played,
            hands=tuple(hands),
            pile=pile,
            pile_pos=0,
            discard=v.discard_pile,
            status=self.status,
            out=v.out,
            out_of_round=v.out_of_round,
            tokens=v.tokens,
            scores=v.scores,
            owes_draw=v.owes_draw,
            over=v.over,
            winners=v.winners,
            reshuffle_count=self.reshuffles,
            decks_used=(),  # neutral: the deck orders are hidden
            reshuffles_used=(),
            log=v.log,  # the public event log, shared as it is (it holds no hidden card)
            history=self.history,
            moves=self.moves,
        )


def determinize(v: View, rng: random.Random) -> State:
    """One full state consistent with everything ``v.seat`` has seen (see the module doc)."""
    return Determinizer(v).sample(rng)


def _history(events: Sequence[Event]) -> tuple[Chain, int]:
    """The (seat, action) pairs of the game, rebuilt from the public events: every action
    leaves exactly one event (a card played, a four-ONO-99 discard, a draw taken)."""
    chain = EMPTY_CHAIN
    moves = 0
    for e in events:
        action: Action | None = None
        if e.kind == "play" and e.card is not None:
            action = PLAY[e.card]
        elif e.kind == "discard":
            action = DISCARD
        elif e.kind == "draw":
            action = DRAW
        if action is not None:
            chain = chain_append(chain, (e.seat, action))
            moves += 1
    return chain, moves
