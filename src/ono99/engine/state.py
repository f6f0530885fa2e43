"""The game state: everything that changes during a match, and nothing that does not.

``State`` is an immutable named tuple; transitions (``game.apply``) return a new one and
never touch their input. It is the *full* state, hidden cards included: only the engine,
records and referees may hold it. Everyone else gets a ``View`` (``view.py``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from .actions import Action
from .rules import Rules


class Status(StrEnum):
    """A seat's status, the same value in the state, in every view and in JSON: its text
    ("in", "out", "out_of_round") is the public form, and ``code`` its number for arrays."""

    IN = "in"  # in the game and, under points scoring, in the current round
    OUT = "out"  # out of the game (eliminated, tokens lost, or over the target)
    OUT_OF_ROUND = "out_of_round"  # points scoring: out of the current round only

    @property
    def code(self) -> int:
        """0, 1 or 2, in the order above: the batch simulator's and the RL encoding's."""
        return _STATUS_CODES[self]


_STATUS_CODES = {status: code for code, status in enumerate(Status)}
IN, OUT, OUT_OF_ROUND = Status.IN, Status.OUT, Status.OUT_OF_ROUND

CW, CCW = 1, -1


class Setup(NamedTuple):
    """Where every shuffle comes from (N3). Hidden: it determines all unseen cards."""

    seed: int
    dealer: int  # the first round's dealer
    decks: tuple[tuple[int, ...], ...] = ()  # explicit deck order per round, top first
    reshuffles: tuple[tuple[int, ...], ...] = ()  # explicit new draw piles, in order


class Event(NamedTuple):
    """One public happening, for logs and views. Never holds a hidden card.

    kinds: ``deal`` (seat = dealer, data = round), ``play`` (data = None, "deflect" or
    "bust"), ``discard`` (four ONO 99s), ``draw``, ``lost_draw``, ``reshuffle`` (data = cards
    reshuffled), ``eliminated`` (data = the hand laid down), ``out_of_round``, ``lost_token``
    (data = tokens left), ``left`` (out of the game), ``round_end`` (data = round, and the
    points each seat scored, or None), ``over`` (data = winners).
    """

    kind: str
    seat: int | None = None
    card: int | None = None
    total: int | None = None
    data: Any = None


class State(NamedTuple):
    rules: Rules
    setup: Setup
    round: int
    dealer: int
    total: int
    direction: int  # CW or CCW
    to_play: int | None  # None once over
    owed: int  # cards to_play must still play this turn: 1 or 2 (0 once over)
    ono99_played: bool  # an ONO 99 was played this turn (X3 allows one)
    hands: tuple[tuple[int, ...], ...]  # sorted; laid-down hands stay with their seat
    pile: tuple[int, ...]  # the draw pile, top first, from index pile_pos
    pile_pos: int
    discard: tuple[int, ...]  # the discard pile, oldest first
    status: tuple[Status, ...]  # per seat
    out: tuple[int, ...]  # seats out of the game, in the order they left
    out_of_round: tuple[int, ...]
    tokens: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    owes_draw: tuple[int, ...]  # draw penalty: seats whose draw is still theirs to take
    over: bool
    winners: tuple[int, ...]
    reshuffle_count: int  # reshuffles so far in the game
    decks_used: tuple[tuple[int, ...], ...]  # the deck order of every round so far
    reshuffles_used: tuple[tuple[int, ...], ...]  # every reshuffled draw pile so far
    log: Chain  # public events, oldest first
    history: Chain  # (seat, Action) pairs applied, oldest first
    moves: int  # number of actions applied

    @property
    def draw_pile_size(self) -> int:
        return len(self.pile) - self.pile_pos

    @property
    def event_count(self) -> int:
        return chain_len(self.log)

    def events(self, start: int = 0) -> list[Event]:
        """The public events of the game so far, oldest first, from index ``start``."""
        return chain_items(self.log, start)

    def actions(self, start: int = 0) -> list[tuple[int, Action]]:
        """The ``(seat, action)`` pairs applied so far, oldest first, from index ``start``."""
        return chain_items(self.history, start)


# A Chain is a persistent append-only sequence: full chunks of CHUNK items and a tail.
# Appending copies at most one chunk, states share everything older, and the nesting is
# shallow, so comparing, hashing and pickling long games never recurses deeply.
Chain = tuple[tuple[tuple[Any, ...], ...], tuple[Any, ...]]
CHUNK = 32
EMPTY_CHAIN: Chain = ((), ())


def chain_append(chain: Chain, item: Any) -> Chain:
    chunks, tail = chain
    if len(tail) < CHUNK:
        return chunks, tail + (item,)
    return chunks + (tail,), (item,)


def chain_len(chain: Chain) -> int:
    return len(chain[0]) * CHUNK + len(chain[1])


def chain_items(chain: Chain, start: int = 0) -> list[Any]:
    chunks, tail = chain
    first = start // CHUNK
    out: list[Any] = []
    for chunk in chunks[first:]:
        out.extend(chunk)
    out.extend(tail)
    return out[start - first * CHUNK :]
