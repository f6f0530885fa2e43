"""Why an action is refused: every reason the engine gives, as data (STYLE.md principle 12).

A refusal (``IllegalActionError``, or ``why_illegal`` without raising) is a stable ``code``,
the RULES.md rule it rests on, and ``params``: the public facts an interface needs to word it
in its reader's language (the ``illegal.<code>`` messages of the i18n catalogs). The English
below is the engine's own one-line message, for logs and developers; ``{tried}`` is who tried
what ("seat 0 tried 'play 10'"), the other placeholders are the params.
"""

from __future__ import annotations

from typing import NamedTuple


class Reason(NamedTuple):
    rule: str  # the RULES.md ID
    english: str  # the message, a str.format template
    params: tuple[str, ...] = ()  # the names of its params, in the order of the message


REASONS: dict[str, Reason] = {
    "game_over": Reason("E2", "{tried}, but the game is over"),
    "no_such_seat": Reason(
        "C3", "{seat!r} tried {action!r}, but seats are numbered 0 to {last_seat}", ("last_seat",)
    ),
    # A draw is an action only under the draw penalty; without it every draw is automatic.
    "draw_automatic": Reason("T2", "{tried}, but owes no draw"),
    "no_draw_owed": Reason("X2", "{tried}, but owes no draw"),
    "not_your_turn": Reason("T4", "{tried}, but it is seat {to_play}'s turn", ("to_play",)),
    "no_discard_rule": Reason("K7", "{tried}, but these rules have no four-ONO-99 discard (K7)"),
    "discard_needs_four": Reason(
        "K7", "{tried}, but holds {ono99s} ONO 99 cards, not four (K7)", ("ono99s",)
    ),
    "not_in_hand": Reason("T1", "{tried}, but has no {card!r} in hand", ("card",)),
    "must_discard": Reason(
        "K7", "{tried}, but with four ONO 99s the only legal action is 'discard ono99' (K7)"
    ),
    "must_draw": Reason(
        "X2", "{tried}, but no card is playable at total {total}: draw first (X2)", ("total",)
    ),
    "ono99_no_bust": Reason("M3", "{tried}: an ONO 99 cannot be played, even as a bust (M3)"),
    "ono99_never": Reason("K6", "{tried}, but an ONO 99 can never be played (K6)"),
    "one_ono99_per_turn": Reason("X3", "{tried}, but only one ONO 99 may be played per turn (X3)"),
    "ono99_needs_tens": Reason(
        "X3",
        "{tried}, but an ONO 99 needs a total ending in 0, and the total is {total} (X3)",
        ("total",),
    ),
    "play2_not_first": Reason(
        "P4", "{tried}, but it may not be the first of two owed cards (P4)", ("card",)
    ),
    # The card would take the total above max_total ...
    "too_high": Reason(
        "T1",
        "{tried} at total {total}, but that makes {after}, above {max_total} (T1)",
        ("card", "total", "after", "max_total"),
    ),
    # ... or leaves it where it is, already above max_total (after a bust under bust_total
    # "keep", M3).
    "already_over": Reason(
        "T1",
        "{tried} at total {total}, but that makes {after}, above {max_total} (T1)",
        ("card", "total", "after", "max_total"),
    ),
}


def english(seat: object, action: str, code: str, params: dict[str, object]) -> str:
    """The engine's one-line message for a refusal."""
    tried = f"seat {seat} tried {action!r}"
    return REASONS[code].english.format(tried=tried, seat=seat, action=action, **params)
