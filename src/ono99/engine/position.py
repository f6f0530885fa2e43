"""Positions: a state's present and future as one line of text, like FEN for chess.

``position_text(state)`` writes everything that decides the game from here on: the rules, every
hand, the draw pile in order, the discard pile, the total, direction and turn, the cards owed
(a Play 2, P1) and the draws owed (X2), each seat's status, tokens and scores, the round and its
dealer, the seed and how many reshuffles it has made (so every shuffle to come is the one the
game would have made), and any deck or reshuffle orders given for later. ``parse_position``
reads it back; ``make_position`` builds the same from its parts, for tests and puzzles. Either
way the result is checked the way the engine's own states are, or a one-line
``PositionError`` names the field that is wrong.

A position has no past, as a FEN has no move list: the event log and the actions are empty,
the cards already drawn, the deck orders already used and who dealt the first round are gone,
and it has no record (``record_of`` refuses it). Everything else is kept: the text of a parsed
position is the text it was read from, and play from it goes on exactly as from the state it
was written from.

The text is ``; ``-separated fields, each a name and a value, always all of them, in this order::

    rules 2022 players=3; round 1; dealer 0; total 57; direction cw; to_play 1; owed 1;
    ono99_played false; hands 3,10,ono99,ono99 / 0,7,reverse,play2 / -10,1,9,9;
    pile 5,0,…; discard 7,8; status in,in,in; out -; out_of_round -; tokens -; scores -;
    owes_draw -; winners -; seed 42; reshuffled 0; decks -; reshuffles -

(one line). Cards are N1 names, comma-separated; seats' hands and card lists are separated by
`` / ``; ``-`` is an empty list, or no tokens or scores in this match format. ``rules`` is the
edition, then the player count and every option that differs from the edition's defaults.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .cards import CARD_NAMES, card_ids, check_permutation
from .errors import PositionError, RulesError, SetupError
from .game import HAND_SIZE, legal_actions
from .rules import OPTIONS, Rules, make_rules
from .state import CCW, CW, EMPTY_CHAIN, IN, OUT, OUT_OF_ROUND, Setup, State, Status

FIELDS = (
    "rules", "round", "dealer", "total", "direction", "to_play", "owed", "ono99_played", "hands",
    "pile", "discard", "status", "out", "out_of_round", "tokens", "scores", "owes_draw", "winners",
    "seed", "reshuffled", "decks", "reshuffles",
)  # fmt: skip
_SPECS = {spec.name: spec for spec in OPTIONS}
_DIRECTIONS = {"cw": CW, "ccw": CCW}
_INT = re.compile(r"-?[0-9]+")
_STATUS = {status.value: status for status in Status}

Cards = Sequence[int | str]


# --------------------------------------------------------------------------- writing


def position_text(state: State) -> str:
    """The position of ``state`` as one line of text (see the module doc)."""
    rules = state.rules
    values = {
        "rules": _rules_text(rules),
        "round": str(state.round),
        "dealer": str(state.dealer),
        "total": str(state.total),
        "direction": "cw" if state.direction == CW else "ccw",
        "to_play": "-" if state.to_play is None else str(state.to_play),
        "owed": str(state.owed),
        "ono99_played": _bool(state.ono99_played),
        "hands": " / ".join(_cards(h) for h in state.hands),
        "pile": _cards(state.pile[state.pile_pos :]),
        "discard": _cards(state.discard),
        "status": ",".join(s.value for s in state.status),
        "out": _ints(state.out),
        "out_of_round": _ints(state.out_of_round),
        "tokens": _ints(state.tokens or ()),
        "scores": _ints(state.scores or ()),
        "owes_draw": _ints(state.owes_draw),
        "winners": _ints(state.winners),
        "seed": str(state.setup.seed),
        "reshuffled": str(state.reshuffle_count),
        "decks": _card_lists(state.setup.decks[state.round :]),
        "reshuffles": _card_lists(state.setup.reshuffles[state.reshuffle_count :]),
    }
    return "; ".join(f"{name} {values[name]}" for name in FIELDS)


def _rules_text(rules: Rules) -> str:
    options = rules.to_dict()
    edition = options.pop("edition")
    words = [f"{k}={_bool(v) if isinstance(v, bool) else v}" for k, v in options.items()]
    return " ".join([edition, *words])


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _cards(cards: Sequence[int]) -> str:
    return ",".join(CARD_NAMES[c] for c in cards) or "-"


def _ints(values: Sequence[int]) -> str:
    return ",".join(map(str, values)) or "-"


def _card_lists(lists: Sequence[Sequence[int]]) -> str:
    return " / ".join(_cards(cards) for cards in lists) or "-"


# --------------------------------------------------------------------------- reading


def parse_position(text: str) -> State:
    """The state of a position text (the inverse of ``position_text``). Raises
    ``PositionError`` naming the first field that is missing, malformed or impossible."""
    if not isinstance(text, str):
        raise PositionError("position", f"must be text, not {type(text).__name__}")
    parts = [p.strip() for p in text.strip().removesuffix(";").split(";")]
    raw: dict[str, str] = {}
    for i, part in enumerate(parts):
        name, _, value = part.partition(" ")
        if i >= len(FIELDS):
            raise PositionError("position", f"unexpected {name!r} after the last field")
        if name != FIELDS[i]:
            found = f"found {name!r}" if name else "found nothing"
            raise PositionError("position", f"expected field {FIELDS[i]!r} here, {found}")
        raw[name] = value.strip()
    if len(raw) < len(FIELDS):
        raise PositionError("position", f"field {FIELDS[len(raw)]!r} is missing")
    rules = _parse_rules(raw["rules"])
    n = rules.players
    tokens = _int_list(raw["tokens"], "tokens")
    scores = _int_list(raw["scores"], "scores")
    return make_position(
        rules,
        [_card_list(h) for h in _split(raw["hands"], n, "hands")],
        _card_list(raw["pile"]),
        _card_list(raw["discard"]),
        round=_int(raw["round"], "round"),
        dealer=_int(raw["dealer"], "dealer"),
        total=_int(raw["total"], "total"),
        direction=_choice(raw["direction"], "direction", _DIRECTIONS),
        to_play=None if raw["to_play"] == "-" else _int(raw["to_play"], "to_play"),
        owed=_int(raw["owed"], "owed"),
        ono99_played=_choice(raw["ono99_played"], "ono99_played", {"true": True, "false": False}),
        status=[_choice(s, "status", _STATUS) for s in raw["status"].split(",")],
        out=_int_list(raw["out"], "out"),
        out_of_round=_int_list(raw["out_of_round"], "out_of_round"),
        tokens=tokens or None,
        scores=scores or None,
        owes_draw=_int_list(raw["owes_draw"], "owes_draw"),
        winners=_int_list(raw["winners"], "winners"),
        seed=_int(raw["seed"], "seed"),
        reshuffled=_int(raw["reshuffled"], "reshuffled"),
        decks=_card_lists_of(raw["decks"]),
        reshuffles=_card_lists_of(raw["reshuffles"]),
    )


def _parse_rules(text: str) -> Rules:
    if not text:
        raise PositionError("rules", "must name the edition, then any options")
    edition, *words = text.split()
    options: dict[str, Any] = {}
    for word in words:
        name, eq, value = word.partition("=")
        spec = _SPECS.get(name)
        if not eq or spec is None:
            raise PositionError("rules", f"{word!r} is not option=value for a known option")
        if spec.type is bool:
            options[name] = {"true": True, "false": False}.get(value, value)
        elif spec.type is int:
            options[name] = _int(value, f"rules {name}")
        else:
            options[name] = value
    try:
        return make_rules(edition, **options)
    except RulesError as exc:
        raise PositionError("rules", str(exc)) from None


def _int(text: str, where: str) -> int:
    if not _INT.fullmatch(text):
        raise PositionError(where, f"must be a whole number, not {text!r}")
    return int(text)


def _int_list(text: str, where: str) -> list[int]:
    return [] if text == "-" else [_int(t.strip(), where) for t in text.split(",")]


def _choice(text: str, where: str, choices: dict[str, Any]) -> Any:
    if text not in choices:
        raise PositionError(where, f"must be one of {', '.join(choices)}, not {text!r}")
    return choices[text]


def _split(text: str, n: int, where: str) -> list[str]:
    parts = [p.strip() for p in text.split("/")]
    if len(parts) != n:
        raise PositionError(where, f"must give {n} seats' cards, ' / ' between, not {len(parts)}")
    return parts


def _card_list(text: str) -> list[str]:
    return [] if text == "-" else [c.strip() for c in text.split(",")]


def _card_lists_of(text: str) -> list[list[str]]:
    return [] if text == "-" else [_card_list(part.strip()) for part in text.split("/")]


# --------------------------------------------------------------------------- building


def make_position(
    rules: Rules,
    hands: Sequence[Cards],
    pile: Cards,
    discard: Cards = (),
    *,
    round: int = 1,
    dealer: int | None = None,
    total: int = 0,
    direction: int = CW,
    to_play: int | None = 0,
    owed: int = 1,
    ono99_played: bool = False,
    status: Sequence[Status | str] | None = None,
    out: Sequence[int] = (),
    out_of_round: Sequence[int] = (),
    tokens: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    owes_draw: Sequence[int] = (),
    winners: Sequence[int] = (),
    seed: int = 0,
    reshuffled: int = 0,
    decks: Sequence[Cards] = (),
    reshuffles: Sequence[Cards] = (),
) -> State:
    """A position from its parts (cards as ids or N1 names), checked as ``parse_position``
    checks a text. ``pile`` is the draw pile, top first; ``decks`` and ``reshuffles`` give the
    orders of the rounds and reshuffles still to come. Defaults: round 1, total 0, clockwise,
    one card owed, every seat in, the dealer the seat before ``to_play``, tokens and scores as a
    match starts, seed 0."""
    n = rules.players
    if len(hands) != n:
        raise PositionError("hands", f"must hold {n} hands, one per seat, not {len(hands)}")
    hand_ids = [
        tuple(sorted(card_ids(h, f"hands[{s}]", PositionError))) for s, h in enumerate(hands)
    ]
    for s, hand in enumerate(hand_ids):
        if len(hand) > HAND_SIZE:
            raise PositionError("hands", f"seat {s} holds {len(hand)} cards, at most {HAND_SIZE}")
    pile_ids = card_ids(pile, "pile", PositionError)
    discard_ids = card_ids(discard, "discard", PositionError)
    everywhere = [c for hand in hand_ids for c in hand] + list(pile_ids + discard_ids)
    try:
        check_permutation(tuple(everywhere), rules.deck, "cards", "the deck")
    except SetupError as exc:
        raise PositionError("cards", f"hands, pile and discard together are {exc.detail}") from None
    if dealer is None:
        dealer = 0 if to_play is None else (to_play - 1) % n
    _check(isinstance(round, int) and round >= 1, "round", f"must be 1 or more, not {round!r}")
    _seat(dealer, n, "dealer")
    _check(direction in (CW, CCW), "direction", f"must be cw or ccw, not {direction!r}")
    given = [IN] * n if status is None else list(status)
    _check(len(given) == n, "status", f"must give {n} seats, not {len(given)}")
    for code in given:
        _check(code in (IN, OUT, OUT_OF_ROUND), "status", f"{code!r} is not a status")
    status_codes = tuple(Status(code) for code in given)
    _seats(out, n, "out")
    _seats(out_of_round, n, "out_of_round")
    _seats(owes_draw, n, "owes_draw")
    _seats(winners, n, "winners")
    _check(
        set(out) == {s for s in range(n) if status_codes[s] == OUT},
        "out",
        f"must be the seats whose status is out, not {list(out)}",
    )
    over = to_play is None
    ok = isinstance(total, int) and not isinstance(total, bool)
    _check(ok, "total", f"must be a whole number, not {total!r}")
    if not rules.negative_totals:
        _check(total >= 0, "total", f"{total} is below 0 without negative_totals (K2)")
    if not (rules.match == "points" and rules.bust_total == "keep"):
        _check(total <= rules.max_total, "total", f"{total} is above max_total ({rules.max_total})")
    tokens = _per_seat(tokens, n, "tokens", rules.match == "tokens", rules.tokens, rules.tokens)
    scores = _per_seat(scores, n, "scores", rules.match == "points", 0, None)
    if rules.match != "points":
        _check(not out_of_round, "out_of_round", "only points scoring has seats out of a round")
    elif not over:
        _check(
            set(out_of_round) == {s for s in range(n) if status_codes[s] == OUT_OF_ROUND},
            "out_of_round",
            f"must be the seats whose status is out_of_round, not {list(out_of_round)}",
        )
    if owes_draw:
        _check(rules.draw_penalty, "owes_draw", "only the draw penalty (X2) leaves draws owed")
        _check(len(owes_draw) == 1, "owes_draw", "at most one seat owes a draw (X2)")
    _check(not ono99_played or rules.ono99_on_tens, "ono99_played", "needs ono99_on_tens (X3)")
    if over:
        _check(owed == 0, "owed", f"must be 0 once the game is over, not {owed}")
        _check(bool(winners), "winners", "a game that is over has winners")
        done = not owes_draw and not out_of_round and not ono99_played
        _check(done, "to_play", "a game that is over owes no draw, has no seat out of the round")
    else:
        _seat(to_play, n, "to_play")
        assert to_play is not None
        _check(status_codes[to_play] == IN, "to_play", f"seat {to_play} is not in")
        _check(owed in (1, 2), "owed", f"must be 1 or 2, not {owed!r}")
        _check(not winners, "winners", "only a game that is over has winners")
        _check(status_codes.count(IN) >= 2, "status", "two seats must be in while it goes on")
    ok = isinstance(reshuffled, int) and reshuffled >= 0
    _check(ok, "reshuffled", f"must be 0 or more, not {reshuffled!r}")
    ok = isinstance(seed, int) and not isinstance(seed, bool)
    _check(ok, "seed", f"must be a whole number, not {seed!r}")
    try:
        deck_list = tuple(
            check_permutation(
                card_ids(d, f"decks[{i}]", PositionError), rules.deck, f"decks[{i}]", "the deck"
            )
            for i, d in enumerate(decks)
        )
    except SetupError as exc:
        raise PositionError(exc.where, exc.detail) from None
    reshuffle_list = tuple(
        card_ids(r, f"reshuffles[{i}]", PositionError) for i, r in enumerate(reshuffles)
    )
    # The orders of rounds and reshuffles already past are not part of a position: () holds
    # their places, where the engine never looks again.
    setup = Setup(
        seed,
        dealer,
        ((),) * round + deck_list if deck_list else (),
        ((),) * reshuffled + reshuffle_list if reshuffle_list else (),
    )
    state = State(
        rules=rules, setup=setup, round=round, dealer=dealer, total=total, direction=direction,
        to_play=to_play, owed=owed, ono99_played=ono99_played, hands=tuple(hand_ids),
        pile=pile_ids, pile_pos=0, discard=discard_ids, status=status_codes, out=tuple(out),
        out_of_round=tuple(out_of_round), tokens=tokens, scores=scores,
        owes_draw=tuple(owes_draw), over=over, winners=tuple(winners), reshuffle_count=reshuffled,
        decks_used=(), reshuffles_used=(), log=EMPTY_CHAIN, history=EMPTY_CHAIN, moves=0,
    )  # fmt: skip
    if not over:
        legal = bool(legal_actions(state))
        _check(legal, "to_play", f"seat {to_play} has no legal action: the game would move on")
    return state


def _check(ok: bool, where: str, message: str) -> None:
    if not ok:
        raise PositionError(where, message)


def _seat(seat: object, n: int, where: str) -> None:
    ok = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n
    _check(ok, where, f"{seat!r} is not a seat from 0 to {n - 1}")


def _seats(seats: Sequence[int], n: int, where: str) -> None:
    for seat in seats:
        _seat(seat, n, where)
    _check(len(set(seats)) == len(seats), where, f"names a seat twice: {list(seats)}")


def _per_seat(
    values: Sequence[int] | None, n: int, where: str, wanted: bool, start: int, high: int | None
) -> tuple[int, ...] | None:
    """Tokens or scores: one per seat when the match format has them (default ``start``
    each), none otherwise."""
    if not wanted:
        _check(values is None, where, "this match format has none")
        return None
    out = tuple([start] * n if values is None else values)
    _check(len(out) == n, where, f"must give {n} seats, not {len(out)}")
    for v in out:
        _check(v >= 0 and (high is None or v <= high), where, f"{v} is out of range")
    return out


__all__ = ["FIELDS", "make_position", "parse_position", "position_text"]
