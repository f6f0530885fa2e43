"""The ONO 99 rules engine: pure, standard-library only, no I/O.

The vocabulary: ``make_rules`` → ``new_game`` → ``to_act`` / ``next_seat`` / ``legal_actions`` /
``why_illegal`` / ``apply`` → ``view``, ``summarize``, ``record_of`` / ``load_record`` /
``replay``; ``total_after`` a card and ``must_bust`` (M3), asked of a state or a view;
a position's text form, ``position_text`` / ``parse_position`` (like FEN), and
``make_position`` from its parts; ``state_from_view``, a full state from a seat's view and the
cards it hides.
"""

from .actions import ALL_ACTIONS, DISCARD, DRAW, PLAY, Action, parse_action
from .cards import CARD_NAMES, card_name, parse_card
from .errors import (
    IllegalActionError,
    NotationError,
    Ono99Error,
    PositionError,
    RecordError,
    RulesError,
    SetupError,
)
from .finish import finishing_order
from .game import (
    HAND_SIZE,
    apply,
    apply_unchecked,
    is_bust,
    legal_actions,
    must_bust,
    new_game,
    next_seat,
    to_act,
    total_after,
    why_illegal,
)
from .position import make_position, parse_position, position_text
from .reasons import REASONS, Reason
from .record import FORMAT, Record, load_record, record_of, replay, replay_states
from .rules import EDITIONS, OPTIONS, OptionSpec, Rules, defaults, make_rules
from .state import CCW, CW, IN, OUT, OUT_OF_ROUND, Event, Setup, State, Status
from .summary import summarize
from .view import View, cards_drawn, state_from_view, view

__all__ = [
    "ALL_ACTIONS",
    "CARD_NAMES",
    "CCW",
    "CW",
    "DISCARD",
    "DRAW",
    "EDITIONS",
    "FORMAT",
    "HAND_SIZE",
    "IN",
    "OPTIONS",
    "OUT",
    "OUT_OF_ROUND",
    "PLAY",
    "REASONS",
    "Action",
    "Event",
    "IllegalActionError",
    "NotationError",
    "Ono99Error",
    "OptionSpec",
    "PositionError",
    "Reason",
    "Record",
    "RecordError",
    "Rules",
    "RulesError",
    "Setup",
    "SetupError",
    "State",
    "Status",
    "View",
    "apply",
    "apply_unchecked",
    "card_name",
    "cards_drawn",
    "defaults",
    "finishing_order",
    "is_bust",
    "legal_actions",
    "load_record",
    "make_position",
    "make_rules",
    "must_bust",
    "new_game",
    "next_seat",
    "parse_action",
    "parse_card",
    "parse_position",
    "position_text",
    "record_of",
    "replay",
    "replay_states",
    "state_from_view",
    "summarize",
    "to_act",
    "total_after",
    "view",
    "why_illegal",
]  # fmt: skip
