"""Stacked decks for scenario tests: choose every seat's hand and the draw pile.

``stacked_game`` computes the full deck order that the engine deals (S1: one card at a time,
starting with the seat left of the dealer, four each, clockwise; the rest is the draw pile, top
first) so that each seat holds exactly the hand asked for, then starts the game with
``new_game(rules, seed, dealer=..., decks=[deck, ...])``. Nothing is built by hand: the state
comes from the engine.

To start a scenario at a chosen running total, ``total=`` adds a *prelude* of real plays
(number cards, and −10s for a negative total) made by the players in turn, each drawing as
usual; the deck is arranged so that after the prelude every seat holds the hand asked for and
the draw pile starts with ``pile``. ``first=`` names the seat to play once the prelude is over
(the dealer is then derived from it). The prelude's plays stay in the event log and on the
discard pile, like any other plays; use ``events_since`` to look only at a scenario's own events.

Cards not asked for (the rest of a hand given fewer than four cards, and the draw pile after
``pile``) are the edition's remaining cards in canonical order (N1): predictable filler — in the
2022 edition mostly 0s, in the 1980 edition 2s and 3s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from ono99.engine import (
    CARD_NAMES,
    DRAW,
    Event,
    Rules,
    State,
    apply,
    legal_actions,
    new_game,
    parse_card,
)
from ono99.engine.cards import MINUS_TEN, counts

Cards = Sequence[int | str]


def ids(cards: Iterable[int | str]) -> list[int]:
    """Card ids for N1 names (ids pass through)."""
    return [c if isinstance(c, int) else parse_card(c) for c in cards]


def _take(remaining: list[int], card: int, what: str) -> None:
    if remaining[card] <= 0:
        raise ValueError(f"stacked deck: not enough {CARD_NAMES[card]!r} cards left for {what}")
    remaining[card] -= 1


def _rest(remaining: list[int]) -> list[int]:
    """The cards not asked for, in canonical order (predictable filler)."""
    return [card for card, k in enumerate(remaining) for _ in range(k)]


def deal_order(dealer: int, seats: Sequence[int], players: int) -> list[int]:
    """S1: the seats dealt to, in the order they receive cards, from the dealer's left."""
    return [s for s in ((dealer + i) % players for i in range(1, players + 1)) if s in seats]


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
    seats = list(range(n)) if seats is None else list(seats)
    order = deal_order(dealer, seats, n)
    remaining = counts(rules.deck)
    wanted: dict[int, list[int]] = {}
    for seat, cards in hands.items():
        if seat not in order:
            raise ValueError(f"stacked deck: seat {seat} is not dealt in")
        cards = ids(cards)
        if len(cards) > 4:
            raise ValueError(f"stacked deck: seat {seat} is given {len(cards)} cards")
        for c in cards:
            _take(remaining, c, f"seat {seat}'s hand")
        wanted[seat] = cards
    top = ids(pile)
    for c in top:
        _take(remaining, c, "the pile")
    filler = _rest(remaining)
    for seat in order:
        need = 4 - len(wanted.setdefault(seat, []))
        wanted[seat] += filler[:need]
        del filler[:need]
    deck = [wanted[seat][k] for k in range(4) for seat in order]
    deck += top + filler
    assert sorted(deck) == sorted(rules.deck)
    return deck


def _numbers_summing_to(need: int, avail: list[int]) -> list[int] | None:
    """Positive number cards (largest first, as few as possible) adding up to ``need``."""
    if need == 0:
        return []
    for c in range(min(10, need), 0, -1):
        if avail[c] > 0:
            avail[c] -= 1
            rest = _numbers_summing_to(need - c, avail)
            avail[c] += 1
            if rest is not None:
                return [c, *rest]
    return None


def _prelude_cards(rules: Rules, total: int, avoid: list[int]) -> list[int]:
    """Cards whose plays take the total from 0 to ``total``, drawn from the unused counts."""
    cards: list[int] = []
    now = 0
    if total < 0:
        if not rules.negative_totals:
            raise ValueError("stacked game: a negative total needs negative_totals")
        while now > total:
            _take(avoid, MINUS_TEN, "the prelude")
            cards.append(MINUS_TEN)
            now -= 10
    numbers = _numbers_summing_to(total - now, avoid)
    if numbers is None:
        raise ValueError(f"stacked game: no number cards left that add up to {total - now}")
    for c in numbers:
        avoid[c] -= 1
    cards += numbers
    return cards


def stacked_game(
    rules: Rules,
    hands: Mapping[int, Cards] | None = None,
    pile: Cards = (),
    *,
    dealer: int | None = None,
    first: int | None = None,
    total: int | None = None,
    seed: int = 0,
    reshuffles: Sequence[Cards] | None = None,
    later_decks: Sequence[Sequence[int]] = (),
) -> State:
    """A new game whose seats hold ``hands`` and whose draw pile starts with ``pile`` (top
    first) once any prelude reaching ``total`` has been played (see the module docstring).

    ``dealer`` defaults to the seat right of ``first`` (or to seat ``players − 1``, so that
    seat 0 plays first). ``later_decks`` gives the deck orders of rounds 2, 3, … (see
    ``stacked_deck``); ``reshuffles`` is passed on to ``new_game``.
    """
    n = rules.players
    hands = dict(hands or {})
    if dealer is not None and first is not None:
        raise ValueError("stacked game: give dealer or first, not both")
    remaining = counts(rules.deck)
    for cards in hands.values():
        for c in ids(cards):
            _take(remaining, c, "the hands")
    for c in ids(pile):
        _take(remaining, c, "the pile")
    prelude = _prelude_cards(rules, total or 0, remaining)
    k = len(prelude)
    if dealer is None:
        start = 0 if first is None else first
        dealer = (start - 1 - k) % n
    # Seat of each prelude play, in play order (clockwise from the dealer's left).
    players_of = [(dealer + 1 + i) % n for i in range(k)]
    streams: dict[int, list[int]] = {s: [] for s in range(n)}
    for seat, card in zip(players_of, prelude, strict=True):
        streams[seat].append(card)
    # Each seat's card stream: prelude cards, then its final hand (filled from the unused
    # cards). The dealt hand is the first four; the i-th draw is the stream's (4+i)-th card.
    filler = _rest(remaining)
    finals: dict[int, list[int]] = {}
    for seat in range(n):
        final = ids(hands.get(seat, ()))
        if len(final) > 4:
            raise ValueError(f"stacked game: seat {seat} is given {len(final)} cards")
        need = 4 - len(final)
        finals[seat] = final + filler[:need]
        del filler[:need]
    dealt = {s: (streams[s] + finals[s])[:4] for s in range(n)}
    draws_by_seat = {s: (streams[s] + finals[s])[4:] for s in range(n)}
    prelude_draws = []
    for seat in players_of:
        prelude_draws.append(draws_by_seat[seat].pop(0))
    order = deal_order(dealer, range(n), n)
    deck = [dealt[seat][j] for j in range(4) for seat in order]
    deck += prelude_draws + ids(pile) + filler
    assert sorted(deck) == sorted(rules.deck), "stacked game: deck is not a permutation"
    state = new_game(
        rules,
        seed,
        dealer=dealer,
        decks=[deck, *later_decks],
        reshuffles=[ids(r) for r in reshuffles] if reshuffles is not None else None,
    )
    for seat, card in zip(players_of, prelude, strict=True):
        assert state.to_play == seat, f"prelude: expected seat {seat}, got {state.to_play}"
        state = apply(state, seat, f"play {_name(card)}")
        if seat in state.owes_draw:
            state = apply(state, seat, DRAW)
    if total is not None:
        assert state.total == total
    return state


def _name(card: int) -> str:
    return CARD_NAMES[card]


def run(state: State, *steps: tuple[int, str]) -> State:
    """Apply ``(seat, action)`` steps in order through the checked ``apply``."""
    for seat, action in steps:
        state = apply(state, seat, action)
    return state


def events_since(before: State, after: State) -> list[Event]:
    """The public events that happened between two states of the same game."""
    old = len(before.events())
    return after.events()[old:]


def hand(state: State, seat: int) -> list[str]:
    """A seat's hand as N1 names, canonical order."""
    return [CARD_NAMES[c] for c in state.hands[seat]]


def names(cards: Iterable[int]) -> list[str]:
    """N1 names of card ids."""
    return [CARD_NAMES[c] for c in cards]


def drive(
    state: State,
    stop: Callable[[State], bool],
    *,
    max_steps: int = 2000,
) -> State:
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
