"""What a table's command did (``Effects``): the changes the caller must store *before* it
announces anything, and what to announce — the table message, a full state, each action.

The changes are plain records (``Change``), written by ``server/saving.py`` and read back by
``Table.restore``; an action to announce is a ``Step``, shown to each audience as its view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..engine import State

# ------------------------------------------------------------------ what to store


class TableCreated(NamedTuple):
    code: str
    config: str  # TableConfig as JSON
    host_hash: str


class SeatChanged(NamedTuple):
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None
    left_name: str | None = None  # an open seat's last person, who left it (seats.Seat)
    player: str | None = None  # the profile of the person on it (seats.Seat.player)


class GameStarted(NamedTuple):
    game: int
    seed: int  # hidden until the game is over
    dealer: int


class ActionTaken(NamedTuple):
    game: int
    position: int  # 0-based position in the game's actions
    seat: int
    action: str  # N2 text
    by: str  # "seat", "bot", "timer" (the stand-in after the timer ran out) or "away"


class GameFinished(NamedTuple):
    game: int
    record: str  # the N3 record, JSON
    # What the players' results and ratings are written from (server/results.py): who played
    # each seat ("bot:<name>", a profile's id, or None: someone without one), the seats
    # grouped by where they finished (engine.finishing_order), and whether the game is rated.
    who: tuple[str | None, ...] = ()
    finish: tuple[tuple[int, ...], ...] = ()
    rated: bool = False


class TableClosed(NamedTuple):
    """Idle too long (the server's choice, docs/deploy.md): nobody plays or joins it again."""

    code: str


class ConfigChanged(NamedTuple):
    config: str  # TableConfig as JSON: the host's rules for the games to come


class ListingChanged(NamedTuple):
    """The table's line in the lobby (``session/quick.py``): ``entry`` (JSON) is what
    watchers see, None when it is not listed any more."""

    setting: str
    free: int
    entry: str | None


Change = (
    TableCreated
    | SeatChanged
    | GameStarted
    | ActionTaken
    | GameFinished
    | ConfigChanged
    | TableClosed
    | ListingChanged
)

# ------------------------------------------------------------------ what to announce


class Step(NamedTuple):
    """An accepted action, to announce."""

    seat: int
    action: str
    by: str
    first_event: int  # index of the first public event it caused
    state: State  # the game after it (each audience is shown its view of this)


@dataclass
class Effects:
    """What a command did: the changes to store, then what to announce."""

    changes: list[Change] = field(default_factory=list)
    table: bool = False  # seats, phase or timers changed: announce the table
    snapshot: bool = False  # a new game: send everyone a full state
    steps: list[Step] = field(default_factory=list)  # actions: an update each, in order

    @property
    def step(self) -> Step | None:
        """The last action taken, if any."""
        return self.steps[-1] if self.steps else None

    def merge(self, other: Effects) -> Effects:
        self.changes += other.changes
        self.table |= other.table
        self.snapshot |= other.snapshot
        self.steps += other.steps
        return self
