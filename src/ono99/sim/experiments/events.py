"""Reading a finished game's events: positions at the table, knock-outs, turns, and what
followed each card played at a dangerous total."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...engine import Event


def position_of(seat: int, dealer: int, players: int) -> int:
    """0 for the seat that plays first in round 1 (left of the dealer), players - 1 for the
    dealer."""
    return (seat - dealer - 1) % players


def is_knockout(e: Event) -> bool:
    return e.kind in ("eliminated", "out_of_round") or (
        e.kind == "round_end" and e.seat is not None
    )


def count_turns(events: Iterable[Event]) -> int:
    """Turns in a game: a card played (or four ONO 99s laid down) starts a turn unless the
    same player laid the card before it in the same round (their second owed card)."""
    turns = 0
    last: int | None = None
    for e in events:
        if e.kind in ("play", "discard"):
            if e.seat != last:
                turns += 1
            last = e.seat
        elif e.kind == "deal" or is_knockout(e):
            last = None
    return turns


@dataclass
class _Pending:
    """A card played at a dangerous total, waiting for what it led to."""

    seat: int
    card: int
    next_turn: bool = False  # the player's next turn has started
    survived: bool | None = None
    victim: int | None = None  # the first other player to play after it
    hit: bool | None = None  # a player other than ``seat`` was knocked out before the turn


def danger_outcomes(events: Iterable[Event], threshold: int) -> list[tuple[int, bool, bool]]:
    """For every card played (not a bust) at a total of at least ``threshold``:
    ``(card, survived, knocked_next)``.

    *survived*: the player was not knocked out before the end of their next turn (the end
    of the round or game counts as getting through). *knocked_next*: another player was
    knocked out before the turn after the card ended, i.e. the next player (or, when they
    were knocked out without playing, the one after them) did not get through.
    """
    out: list[tuple[int, bool, bool]] = []
    pending: list[_Pending] = []
    total = 0
    last: int | None = None

    def settle() -> None:
        for p in pending:
            out.append((p.card, p.survived is not False, bool(p.hit)))
        pending.clear()

    for e in events:
        kind = e.kind
        if kind in ("deal", "over"):
            settle()
            total = 0
            last = None
        elif kind in ("play", "discard"):
            s = e.seat
            assert s is not None
            new_turn = s != last
            last = s
            for p in pending:
                if p.survived is None:
                    if s == p.seat:
                        p.next_turn = p.next_turn or new_turn
                    elif p.next_turn:
                        p.survived = True
                if p.hit is None:
                    if s != p.seat:
                        if p.victim is None:
                            p.victim = s
                        elif s != p.victim:
                            p.hit = False
                    elif p.victim is not None:
                        p.hit = False
            before = total
            if kind == "play":
                assert e.total is not None
                total = e.total
                if e.data != "bust" and before >= threshold:
                    assert e.card is not None
                    pending.append(_Pending(s, e.card))
            for p in pending:
                if p.survived is not None and p.hit is not None:
                    out.append((p.card, p.survived, p.hit))
            pending[:] = [p for p in pending if p.survived is None or p.hit is None]
        elif is_knockout(e):
            last = None
            for p in pending:
                if p.survived is None and e.seat == p.seat:
                    p.survived = False
                if p.hit is None:
                    # A knock-out during the next player's turn, or of the next player
                    # before they laid anything, is the card's doing; once the next player
                    # has played, a later knock-out is theirs.
                    p.hit = e.seat != p.seat and (p.victim is None or e.seat == p.victim)
    settle()
    return out
