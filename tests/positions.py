"""Positions for scenario tests: say what matters — some seats' cards, the top of the draw pile,
the total, the seat to play — and get a real engine ``State`` (``make_position``, which checks
it as the engine's own states hold). Nothing is played to get there: the total is simply the
total, the discard pile is empty unless given, and the event log starts empty, so every event
a test sees is its scenario's.

Cards not asked for (the rest of a hand given fewer than four cards, and the draw pile after
``pile``) are the edition's remaining cards in canonical order (N1): predictable filler — in the
2022 edition mostly 0s, in the 1980 edition 2s and 3s.

For a later round, whose hands the engine deals from a deck (S1), ``stacked_deck`` gives the
deck order that deals the hands asked for; pass it in ``decks``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ono99.engine import (
    CARD_NAMES,
    Event,
    Rules,
    State,
    apply,
    legal_actions,
    make_position,
    parse_card,
)
from ono99.engine.cards import counts

Cards = Sequence[int | str]


def ids(cards: Iterable[int | str]) -> list[int]:
    """Card ids for N1 names (ids pass through)."""
    return [c if isinstance(c, int) else parse_card(c) for c in cards]


def _take(remaining: list[int], cards: Iterable[int], what: str) -> None:
    for card in cards:
        if remaining[card] <= 0:
            raise ValueError(f"not enough {CARD_NAMES[card]!r} cards left for {what}")
        remaining[card] -= 1


def _rest(remaining: list[int]) -> list[int]:
    """The cards not asked for, in canonical order (predictable filler)."""
    return [card for card, k in enumerate(remaining) for _ in range(k)]


def position(
    rules: Rules,
    hands: Mapping[int, Cards] | None = None,
    pile: Cards = (),
    *,
    to_play: int | None = None,
    dealer: int | None = None,
    discard: Cards = (),
    **parts: Any,
) -> State:
    """A position in which each seat holds ``hands[seat]`` (up to four cards, the rest filled
    in), the draw pile starts with ``pile`` (top first) and the discard pile is ``discard``.

    ``to_play`` defaults to the seat left of ``dealer`` (S1), and ``dealer`` to the seat right of
    ``to_play``; with neither, seat 0 plays and the last seat dealt. Any other part of a
    position — ``total``, ``owed``, ``direction``, ``status``, ``tokens``, ``scores``, ``seed``,
    ``decks`` (the deck orders of the rounds to come), ``reshuffles``, … — goes to
    ``make_position`` as it is."""
    n = rules.players
    remaining = counts(rules.deck)
    wanted = {}
    for seat, cards in (hands or {}).items():
        wanted[seat] = ids(cards)
        if len(wanted[seat]) > 4:
            raise ValueError(f"seat {seat} is given {len(wanted[seat])} cards")
        _take(remaining, wanted[seat], f"seat {seat}'s hand")
    top, face_up = ids(pile), ids(discard)
    _take(remaining, top, "the pile")
    _take(remaining, face_up, "the discard pile")
    filler = _rest(remaining)
    full = []
    for seat in range(n):
        need = 4 - len(wanted.get(seat, []))
        full.append(wanted.get(seat, []) + filler[:need])
        del filler[:need]
    if to_play is None and dealer is None:
        to_play, dealer = 0, n - 1
    elif to_play is None:
        assert dealer is not None
        to_play = (dealer + 1) % n
    elif dealer is None:
        dealer = (to_play - 1) % n
    given = {name: value for name, value in parts.items() if value is not None}  # None: default
    return make_position(
        rules, full, top + filler, face_up, to_play=to_play, dealer=dealer, **given
    )


def deal_order(dealer: int, seats: Iterable[int], players: int) -> list[int]:
    """S1: the seats dealt to, in the order they receive cards, from the dealer's left."""
    dealt = set(seats)
    return [s for s in ((dealer + i) % players for i in range(1, players + 1)) if s in dealt]


def stacked_deck(
    rules: Rules,
    hands: Mapping[int, Cards],
    pile: Cards = (),
    *,
    dealer: int,
    seats: Sequence[int] | None = None,
) -> list[int]:
    """A full deck order (top first) that deals ``hands`` (seat → up to four cards; the rest
    of a hand is filled from the unused cards) to ``seats`` (default: every seat) and leaves
    ``pile`` on top of the draw pile, then the unused cards in canonical order."""
    n = rules.players
    order = deal_order(dealer, range(n) if seats is None else seats, n)
    remaining = counts(rules.deck)
    wanted: dict[int, list[int]] = {}
    for seat, cards in hands.items():
        if seat not in order:
            raise ValueError(f"stacked deck: seat {seat} is not dealt in")
        wanted[seat] = ids(cards)
        _take(remaining, wanted[seat], f"seat {seat}'s hand")
    top = ids(pile)
    _take(remaining, top, "the pile")
    filler = _rest(remaining)
    for seat in order:
        need = 4 - len(wanted.setdefault(seat, []))
        wanted[seat] += filler[:need]
        del filler[:need]
    deck = [wanted[seat][k] for k in range(4) for seat in order] + top + filler
    assert sorted(deck) == sorted(rules.deck)
    return deck


def run(state: State, *steps: tuple[int, str]) -> State:
    """Apply ``(seat, action)`` steps in order through the checked ``apply``."""
    for seat, action in steps:
        state = apply(state, seat, action)
    return state


def events_since(before: State, after: State) -> list[Event]:
    """The public events that happened between two states of the same game."""
    return after.events()[len(before.events()) :]


def hand(state: State, seat: int) -> list[str]:
    """A seat's hand as N1 names, canonical order."""
    return [CARD_NAMES[c] for c in state.hands[seat]]


def names(cards: Iterable[int]) -> list[str]:
    """N1 names of card ids."""
    return [CARD_NAMES[c] for c in cards]


def drive(state: State, stop: Callable[[State], bool], *, max_steps: int = 2000) -> State:
    """Play real actions — always the first legal action of the seat to play — until
    ``stop(state)`` holds. Raises if the game ends or ``max_steps`` pass first."""
    for _ in range(max_steps):
        if stop(state):
            return state
        if state.over:
            raise AssertionError("drive: the game ended before the stop condition")
        seat = state.to_play
        assert seat is not None
        state = apply(state, seat, legal_actions(state)[0])
    raise AssertionError("drive: too many steps")
