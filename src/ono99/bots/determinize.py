"""Determinization: full ``State``s consistent with everything one seat has seen.

A search bot cannot look at hidden cards, so it imagines them. From a ``View`` it computes the
*unseen* multiset — the edition's deck minus the seat's own hand, the discard pile and the hands
laid down by eliminated players (every other card is in a hidden hand or the draw pile) — and
deals it at random to the other seats' hands (their sizes are public) and the draw pile. The
engine's ``state_from_view`` makes the full state of each deal, with a fresh random seed, so the
future reshuffles of the imagined world are unknown too: every field the view shows is copied
from it, so the sampled state's view for the seat equals the real one.

Nothing hidden is ever read: the input is a ``View``.

**After a reshuffle** (T3) the draw pile is made of cards everyone saw played, and nothing
else: the pile can only hold what the reshuffled discard pile held. So an unseen card of a kind
beyond what the reshuffle put back must be in a hidden hand — at the moment of a reshuffle the
pile is empty, so every unseen card was in a hand. ``reshuffled_counts`` reads that pile from
the public log; the sampler puts those *forced* cards in the hidden hands and deals the rest at
random. (Cards the seat itself drew since are not told apart, so the bound is slightly loose,
never wrong.)

No inference is drawn from how the others played: not playing a card never proves not holding
it (a player may keep a safe card for later), so every deal of the unseen cards consistent with
the public record is treated as equally likely (uniform over the unforced cards, which
approximates that).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine import OUT, Event, State, View, state_from_view
from ..engine.cards import NUM_CARD_KINDS, counts


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


def reshuffled_counts(events: Sequence[Event]) -> list[int] | None:
    """How many of each kind the last reshuffle of the current round put in the draw pile
    (the discard pile at that moment, rebuilt from the public events), or None when the
    round has had no reshuffle."""
    discard = [0] * NUM_CARD_KINDS
    pile: list[int] | None = None
    for e in events:
        if e.kind == "deal":  # a new round: a fresh deck
            discard = [0] * NUM_CARD_KINDS
            pile = None
        elif e.kind == "play" and e.card is not None:
            discard[e.card] += 1
        elif e.kind == "discard" and e.card is not None:
            discard[e.card] += 4
        elif e.kind == "reshuffle":
            pile = discard
            discard = [0] * NUM_CARD_KINDS
    return pile


def hidden_seats(v: View) -> list[int]:
    """The seats whose hands ``v.seat`` cannot see (laid-down hands are public)."""
    return [
        s
        for s in range(v.players)
        if s != v.seat and v.hand_sizes[s] > 0 and not (v.status[s] == OUT and v.laid_down[s])
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
        unseen = sum(left)
        self.hidden = hidden_seats(v)
        self.sizes = [v.hand_sizes[s] for s in self.hidden]
        need = sum(self.sizes) + v.draw_pile
        if need != unseen:
            raise ValueError(
                f"the view does not add up: {unseen} unseen cards for "
                f"{need} places in hidden hands and the draw pile"
            )
        events = v.events
        # Cards that cannot be in the draw pile (see the module doc), and the rest.
        pile = reshuffled_counts(events)
        forced = (
            [0] * NUM_CARD_KINDS
            if pile is None
            else [max(0, k - p) for k, p in zip(left, pile, strict=True)]
        )
        self.forced: list[int] = [c for c in range(NUM_CARD_KINDS) for _ in range(forced[c])]
        self.free: list[int] = [
            c for c in range(NUM_CARD_KINDS) for _ in range(left[c] - forced[c])
        ]
        if len(self.forced) > sum(self.sizes):
            raise ValueError(
                f"the view does not add up: {len(self.forced)} unseen cards were never "
                f"reshuffled into the draw pile, but the hidden hands hold {sum(self.sizes)}"
            )
        self.known_hands: list[tuple[int, ...]] = [
            v.hand if s == v.seat and v.hand is not None else v.laid_down[s]
            for s in range(v.players)
        ]

    def deal(self, rng: random.Random) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
        """A random deal of the unseen cards: every seat's hand, and the draw pile (top
        first). Forced cards (see the module doc) go to the hidden hands."""
        cards = self.free[:]
        rng.shuffle(cards)
        if self.forced:
            held = sum(self.sizes) - len(self.forced)
            in_hands = self.forced + cards[:held]
            rng.shuffle(in_hands)
            cards = in_hands + cards[held:]
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
        """The view's public state with these hidden cards and this seed for the shuffles
        (the engine's ``state_from_view``)."""
        return state_from_view(self.view, {s: hands[s] for s in self.hidden}, pile, seed=seed)


def determinize(v: View, rng: random.Random) -> State:
    """One full state consistent with everything ``v.seat`` has seen (see the module doc)."""
    return Determinizer(v).sample(rng)
