"""A finished game's review as the browser reads it (docs/review.md): ``sim.review`` on the
stored record, for one seat through one lens. The server checks the request here, cheaply,
before it queues the search (``encode_review``, seconds of CPU) on a worker thread."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..engine import Record, RecordError, load_record
from ..sim.review import LENSES, review_game
from .errors import SessionError

SEED = 0  # the server's reviews are ``ono99 review --seed 0`` of the downloaded record


class ReviewRequest(NamedTuple):
    """A checked ask for a review: the stored record, the seat and the lens."""

    record: Record
    seat: int
    lens: str

    def compute(self) -> dict[str, Any]:
        """The review as JSON (``Review.to_dict``): a search per decision, off the event loop."""
        return review_game(self.record, self.seat, lens=self.lens, seed=SEED).to_dict()


def review_request(text: str, seat: str | None, lens: str | None) -> ReviewRequest:
    """The review a client asks of a finished game's stored record ``text``: ``seat`` a seat
    number of the game, ``lens`` one of ``LENSES`` (default ``fair``). Anything else is a
    ``bad_request``; a record that does not load a ``server_error`` (it is our own)."""
    try:
        record = load_record(text)
    except RecordError:
        raise SessionError("server_error", "the stored record is damaged") from None
    players = record.rules.players
    if seat is None or not seat.isdigit() or int(seat) >= players:
        raise SessionError("bad_request", f"seat must be a seat of the game, 0 to {players - 1}")
    lens = lens or "fair"
    if lens not in LENSES:
        raise SessionError("bad_request", f"lens must be one of {', '.join(LENSES)}")
    return ReviewRequest(record, int(seat), lens)
