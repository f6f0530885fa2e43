"""The observation encoder: one seat's ``View`` as a flat float32 vector (RULES.md V1).

It sits below both its users — the ``learned`` bot and the RL environments (``ono99.env``) —
and imports only the engine and NumPy, so a bot can encode a view without loading the
environments (docs/architecture.md).

The layout is defined once, as data: ``FEATURES`` lists every block of the vector — its name,
size, meaning, scaling and bounds — with the function that computes it. The same table builds
the vectors of a batch (``encode_public``), the observation space's bounds
(``observation_bounds``) and the table in ``docs/rl.md`` (``feature_table_markdown``), so the
three cannot drift apart. ``encode``, for one view, is a declared second implementation of the
table (about 20 times faster on a single view), checked bit for bit against the first.

Seats are relative to the observer: index 0 is the observer, 1 the next seat clockwise, and so
on, padded to six seats (absent seats read as zeros), so one policy network serves every seat and
every table size from two to six players.

The features are computed from ``Public``: a *batch* of observers' public facts as NumPy arrays,
seats already relative. ``public_of`` fills it from views; a vectorized environment over the batch
simulator (``ono99.sim.fast``) only has to fill the same arrays from its game records (a gather of
its per-seat arrays by ``(observer + k) % players``) to get identical observations.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .engine import ALL_ACTIONS, HAND_SIZE, Rules, View
from .engine.cards import CARD_NAMES, DECK_COUNTS, NUM_CARD_KINDS
from .engine.state import IN, OUT, OUT_OF_ROUND

SEATS = 6  # the most players (C3): every per-seat block is padded to this
NUM_ACTIONS = len(ALL_ACTIONS)  # 18: plays by card id, discard ono99, draw
HEADROOM = 11  # one-hot size: 0…9 points left, or 10 and more
ABSENT = -1  # status of a padding seat

_KIND_IDS = np.arange(NUM_CARD_KINDS)
_MATCHES = ("single", "tokens", "points")
_BUST_TOTALS = ("unchanged", "keep", "reset")


class Public(NamedTuple):
    """What B observers may see, as arrays; seat axes are relative to each observer (index 0 is
    the observer, then the next seats clockwise; padding seats have status ``ABSENT``)."""

    hand: np.ndarray  # (B, 16) the observer's hand: count per card kind
    legal: np.ndarray  # (B, 18) the observer's legal actions (0/1)
    total: np.ndarray  # (B,) the running total
    direction: np.ndarray  # (B,) +1 clockwise, -1 counter-clockwise
    owed: np.ndarray  # (B,) cards the seat to play still owes (1 or 2; 0 once over)
    ono99_played: np.ndarray  # (B,) an ONO 99 was played this turn (X3)
    to_play: np.ndarray  # (B,) relative seat to play, -1 once over
    dealer: np.ndarray  # (B,) relative seat of the current round's dealer
    status: np.ndarray  # (B, 6) IN, OUT, OUT_OF_ROUND, or ABSENT for padding
    hand_sizes: np.ndarray  # (B, 6)
    owes_draw: np.ndarray  # (B, 6) 0/1 (X2)
    tokens: np.ndarray  # (B, 6) tokens left (0 unless a tokens match)
    scores: np.ndarray  # (B, 6) scores (0 unless a points match)
    discard: np.ndarray  # (B, 16) the face-up discard pile: count per card kind
    laid_down: np.ndarray  # (B, 16) hands laid down by other eliminated players, per kind
    draw_pile: np.ndarray  # (B,) cards in the draw pile

    @property
    def batch(self) -> int:
        return int(self.total.shape[0])


Compute = Callable[[Public, Rules], np.ndarray]


@dataclass(frozen=True)
class Feature:
    """One block of the observation vector."""

    name: str
    size: int
    meaning: str
    scaling: str
    low: float
    high: float
    compute: Compute  # (Public, Rules) -> array of shape (B, size)


# --------------------------------------------------------------------------- helpers


def _col(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)[:, None]


def _const(p: Public, values: Sequence[float]) -> np.ndarray:
    return np.broadcast_to(np.asarray(values, dtype=np.float64), (p.batch, len(values)))


def _one_hot(index: np.ndarray, size: int) -> np.ndarray:
    """Rows of ``np.eye(size)``; a negative index gives a row of zeros."""
    index = np.asarray(index)
    out = np.zeros((index.shape[0], size))
    rows = np.nonzero(index >= 0)[0]
    out[rows, index[rows]] = 1.0
    return out


def _deck(rules: Rules) -> np.ndarray:
    return np.asarray(DECK_COUNTS[rules.edition], dtype=np.float64)


def _per_kind(counts: np.ndarray, rules: Rules) -> np.ndarray:
    """Counts per card kind as a fraction of how many the edition's deck holds."""
    deck = _deck(rules)
    return np.asarray(counts, dtype=np.float64) / np.maximum(deck, 1.0)


def _unseen(p: Public, rules: Rules) -> np.ndarray:
    return _per_kind(_deck(rules) - p.hand - p.discard - p.laid_down, rules)


def _headroom(p: Public, rules: Rules) -> np.ndarray:
    left = np.clip(rules.max_total - p.total, 0, HEADROOM - 1)
    return _one_hot(left.astype(np.int64), HEADROOM)


def _status_is(code: int) -> Compute:
    return lambda p, r: (p.status == code).astype(np.float64)


def _flag(name: str) -> Compute:
    return lambda p, r: _const(p, [float(getattr(r, name))])


def _choice(name: str, choices: tuple[str, ...]) -> Compute:
    return lambda p, r: _const(p, [float(getattr(r, name) == c) for c in choices])


_KINDS = ", ".join(CARD_NAMES)
_SEAT_ORDER = "6 seats, relative"

# --------------------------------------------------------------------------- the table

FEATURES: tuple[Feature, ...] = (
    Feature("hand", NUM_CARD_KINDS, f"own hand: how many of each card kind ({_KINDS})",
            "count / 4", 0, 1, lambda p, r: p.hand / HAND_SIZE),
    Feature("legal", NUM_ACTIONS,
            "own legal actions (the engine's legal_actions for this seat), by action index",
            "1 legal, 0 not", 0, 1, lambda p, r: p.legal.astype(np.float64)),
    Feature("total", 1, "the running total",
            "total / max_total, clipped to [-1, 2]", -1, 2,
            lambda p, r: _col(np.clip(p.total / r.max_total, -1.0, 2.0))),
    Feature("headroom", HEADROOM,
            "points left below max_total: 0, 1, …, 9, or 10 and more (every number fits); "
            "a total above max_total (a kept bust, M3) counts as 0",
            "one-hot", 0, 1, _headroom),
    Feature("total_ends_in_zero", 1, "the total is a multiple of 10 (ONO 99 on tens, X3)",
            "1 yes, 0 no", 0, 1, lambda p, r: _col(p.total % 10 == 0)),
    Feature("clockwise", 1, "direction of play", "1 clockwise, 0 counter-clockwise", 0, 1,
            lambda p, r: _col(p.direction > 0)),
    Feature("owed_two", 1, "the seat to play owes two cards (Play 2 / Double Play, P1)",
            "1 yes, 0 no", 0, 1, lambda p, r: _col(p.owed == 2)),
    Feature("ono99_played", 1, "an ONO 99 was already played this turn (X3)",
            "1 yes, 0 no", 0, 1, lambda p, r: _col(p.ono99_played)),
    Feature("to_play", SEATS, f"the seat to play ({_SEAT_ORDER}); all 0 once over",
            "one-hot", 0, 1, lambda p, r: _one_hot(p.to_play, SEATS)),
    Feature("dealer", SEATS, f"the current round's dealer ({_SEAT_ORDER})",
            "one-hot", 0, 1, lambda p, r: _one_hot(p.dealer, SEATS)),
    Feature("seat_present", SEATS, f"the seat exists at this table ({_SEAT_ORDER})",
            "1 yes, 0 no", 0, 1, lambda p, r: (p.status != ABSENT).astype(np.float64)),
    Feature("seat_in", SEATS, f"the seat is in the game and the round ({_SEAT_ORDER})",
            "1 yes, 0 no", 0, 1, _status_is(IN.code)),
    Feature("seat_out", SEATS, f"the seat is out of the game (E1, M2, M3) ({_SEAT_ORDER})",
            "1 yes, 0 no", 0, 1, _status_is(OUT.code)),
    Feature("seat_out_of_round", SEATS,
            f"the seat is out of the current round only (points, M3) ({_SEAT_ORDER})",
            "1 yes, 0 no", 0, 1, _status_is(OUT_OF_ROUND.code)),
    Feature("seat_hand_size", SEATS, f"cards in hand ({_SEAT_ORDER})",
            "count / 4", 0, 1, lambda p, r: p.hand_sizes / HAND_SIZE),
    Feature("seat_owes_draw", SEATS, f"the seat still owes a draw (X2) ({_SEAT_ORDER})",
            "1 yes, 0 no", 0, 1, lambda p, r: p.owes_draw.astype(np.float64)),
    Feature("seat_tokens", SEATS, f"tokens left, tokens match (M2) ({_SEAT_ORDER})",
            "tokens / starting tokens (0 when the match has no tokens)", 0, 1,
            lambda p, r: p.tokens / max(r.tokens, 1)),
    Feature("seat_score", SEATS, f"score, points match (M3) ({_SEAT_ORDER})",
            "score / target, clipped to [0, 2]", 0, 2,
            lambda p, r: np.clip(p.scores / r.target, 0.0, 2.0)),
    Feature("discard_pile", NUM_CARD_KINDS,
            "the face-up discard pile since the last reshuffle or deal, per card kind",
            "count / copies in the deck (0 for kinds the edition lacks)", 0, 1,
            lambda p, r: _per_kind(p.discard, r)),
    Feature("laid_down", NUM_CARD_KINDS,
            "hands laid face up by the other eliminated players (single game, E1), per card kind",
            "count / copies in the deck", 0, 1, lambda p, r: _per_kind(p.laid_down, r)),
    Feature("unseen", NUM_CARD_KINDS,
            "cards this seat cannot see (other hands and the draw pile): the deck minus own "
            "hand, discard pile and laid-down hands, per card kind",
            "count / copies in the deck", 0, 1, _unseen),
    Feature("draw_pile", 1, "cards in the draw pile", "count / deck size", 0, 1,
            lambda p, r: _col(p.draw_pile / len(r.deck))),
    Feature("match", 3, "match format: single, tokens, points (M1–M3)", "one-hot", 0, 1,
            _choice("match", _MATCHES)),
    Feature("variant_lowest_score", 1, "points variant is lowest_score (else last_standing)",
            "1 yes, 0 no", 0, 1, _choice("variant", ("lowest_score",))),
    Feature("bust_total", 3, "what a bust does to the total: unchanged, keep, reset (M3)",
            "one-hot", 0, 1, _choice("bust_total", _BUST_TOTALS)),
    Feature("edition_1980", 1, "the 1980 edition's deck and cards (else 2022)", "1 yes, 0 no",
            0, 1, _choice("edition", ("1980",))),
    Feature("negative_totals", 1, "rule option negative_totals (K2)", "1 on, 0 off", 0, 1,
            _flag("negative_totals")),
    Feature("four_ono99_discard", 1, "rule option four_ono99_discard (K7)", "1 on, 0 off", 0, 1,
            _flag("four_ono99_discard")),
    Feature("play2_deflects_play2", 1, "rule option play2_deflects_play2 (P2, P4)",
            "1 on, 0 off", 0, 1, _flag("play2_deflects_play2")),
    Feature("ono99_on_tens", 1, "rule option ono99_on_tens (X3)", "1 on, 0 off", 0, 1,
            _flag("ono99_on_tens")),
    Feature("draw_penalty", 1, "rule option draw_penalty (X2)", "1 on, 0 off", 0, 1,
            _flag("draw_penalty")),
    Feature("max_total", 1, "rule option max_total (T1)", "max_total / 100, clipped to [0, 2]",
            0, 2, lambda p, r: _const(p, [min(r.max_total / 100, 2.0)])),
)  # fmt: skip


def _slices() -> dict[str, slice]:
    out = {}
    start = 0
    for f in FEATURES:
        out[f.name] = slice(start, start + f.size)
        start += f.size
    return out


SLICES: dict[str, slice] = _slices()
OBS_SIZE: int = sum(f.size for f in FEATURES)


def observation_bounds() -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest value of every entry of the vector (for a ``Box`` space)."""
    low = np.concatenate([np.full(f.size, f.low, dtype=np.float32) for f in FEATURES])
    high = np.concatenate([np.full(f.size, f.high, dtype=np.float32) for f in FEATURES])
    return low, high


# --------------------------------------------------------------------------- encoding


def public_of(views: Sequence[View]) -> Public:
    """The public arrays of a batch of seat views (all under the same rules)."""
    b = len(views)
    hand = np.zeros((b, NUM_CARD_KINDS), dtype=np.int64)
    legal = np.zeros((b, NUM_ACTIONS), dtype=np.int64)
    discard = np.zeros((b, NUM_CARD_KINDS), dtype=np.int64)
    laid = np.zeros((b, NUM_CARD_KINDS), dtype=np.int64)
    status = np.full((b, SEATS), ABSENT, dtype=np.int64)
    sizes = np.zeros((b, SEATS), dtype=np.int64)
    owes = np.zeros((b, SEATS), dtype=np.int64)
    tokens = np.zeros((b, SEATS), dtype=np.int64)
    scores = np.zeros((b, SEATS), dtype=np.int64)
    scalars = np.zeros((6, b), dtype=np.int64)
    for i, v in enumerate(views):
        seat = v.seat
        if seat is None:
            raise ValueError("an observation is one seat's: a spectator view has no hand")
        n = v.rules.players
        for card in v.hand or ():
            hand[i, card] += 1
        for action in v.legal:
            legal[i, action.index] = 1
        for card in v.discard_pile:
            discard[i, card] += 1
        for t, cards in enumerate(v.laid_down):
            if t != seat:  # an eliminated observer's own hand is already in ``hand``
                for card in cards:
                    laid[i, card] += 1
        for k in range(n):
            t = (seat + k) % n
            status[i, k] = v.status[t].code
            sizes[i, k] = v.hand_sizes[t]
            owes[i, k] = t in v.owes_draw
            if v.tokens is not None:
                tokens[i, k] = v.tokens[t]
            if v.scores is not None:
                scores[i, k] = v.scores[t]
        scalars[:, i] = (
            v.total,
            v.direction,
            v.owed,
            v.ono99_played,
            -1 if v.to_play is None else (v.to_play - seat) % n,
            (v.dealer - seat) % n,
        )
    total, direction, owed, ono99_played, to_play, dealer = scalars
    draw_pile = np.array([v.draw_pile for v in views], dtype=np.int64)
    return Public(hand, legal, total, direction, owed, ono99_played, to_play, dealer, status,
                  sizes, owes, tokens, scores, discard, laid, draw_pile)  # fmt: skip


def public_of_records(
    games: np.ndarray, rules: Rules, observers: np.ndarray, mask: np.ndarray
) -> Public:
    """The ``Public`` arrays of observer ``observers[i]`` in the batch simulator's game record
    ``games[i]`` (``ono99.fast.layout``; ``mask``: the legal actions, as ``FastBatch.legal_mask``
    gives them), exactly as ``public_of`` fills them from the views ``view(state, observers[i])``
    of the same engine games. The vector environment and the compiled rollouts' network seats
    read their records through it."""
    b = games.shape[0]
    n = rules.players
    obs = np.asarray(observers, dtype=np.int64)
    rows = np.arange(b)
    seats = (obs[:, None] + np.arange(n)[None, :]) % n  # (B, n): absolute seat of relative k
    hands = games["hands"]  # (B, 6, 4), -1 for a free slot
    counts = (hands[:, :n, :, None] == _KIND_IDS).sum(axis=2)  # (B, n, 16) per seat
    to_play = games["to_play"].astype(np.int64)
    legal = np.where((to_play == obs)[:, None], mask, False).astype(np.int64)

    def rel(values: np.ndarray, fill: int = 0) -> np.ndarray:
        out = np.full((b, SEATS), fill, dtype=np.int64)
        out[:, :n] = np.take_along_axis(values[:, :n].astype(np.int64), seats, axis=1)
        return out

    status_abs = games["status"][:, :n].astype(np.int64)
    sizes_abs = (hands[:, :n, :] >= 0).sum(axis=2)
    laid = np.zeros((b, NUM_CARD_KINDS), dtype=np.int64)
    if rules.match == "single":
        others_out = (status_abs == OUT.code) & (np.arange(n)[None, :] != obs[:, None])
        laid = (counts * others_out[:, :, None]).sum(axis=1)
    zeros = np.zeros((b, SEATS), dtype=np.int64)
    return Public(
        hand=counts[rows, obs].astype(np.int64),
        legal=legal,
        total=games["total"].astype(np.int64),
        direction=games["direction"].astype(np.int64),
        owed=games["owed"].astype(np.int64),
        ono99_played=games["ono99_played"].astype(np.int64),
        to_play=np.where(to_play >= 0, (to_play - obs) % n, -1),
        dealer=(games["dealer"].astype(np.int64) - obs) % n,
        status=rel(status_abs, ABSENT),
        hand_sizes=rel(sizes_abs),
        owes_draw=zeros,  # none at a choice: the batch has no draw penalty, a rollout draws at once
        tokens=rel(games["tokens"]) if rules.match == "tokens" else zeros.copy(),
        scores=rel(games["scores"]) if rules.match == "points" else zeros.copy(),
        discard=games["discard"].astype(np.int64),
        laid_down=laid,
        draw_pile=(games["pile_len"].astype(np.int64) - games["pile_pos"]),
    )


def encode_public(public: Public, rules: Rules) -> np.ndarray:
    """The observation vectors of a batch, shape (B, OBS_SIZE), float32."""
    out = np.empty((public.batch, OBS_SIZE), dtype=np.float32)
    for f in FEATURES:
        block = f.compute(public, rules)
        if block.shape != (public.batch, f.size):
            raise AssertionError(f"feature {f.name}: shape {block.shape}, not {f.size} wide")
        out[:, SLICES[f.name]] = block
    return out


def legal_mask(v: View) -> np.ndarray:
    """The int8 mask of the 18 actions (``ALL_ACTIONS``), 1 where the view's seat may play
    it: the mask beside every observation of the RL environments and of ``evaluate``."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in v.legal:
        mask[action.index] = 1
    return mask


def encode(v: View) -> np.ndarray:
    """The observation vector of one seat's view, shape (OBS_SIZE,), float32: bit for bit
    ``encode_public(public_of([v]), v.rules)[0]``, computed without the batch arrays."""
    seat = v.seat
    if seat is None:
        raise ValueError("an observation is one seat's: a spectator view has no hand")
    c = _context(v.rules)
    n = c.players
    out = c.template.copy()
    hand = [0] * NUM_CARD_KINDS
    for card in v.hand or ():
        hand[card] += 1
    for action in v.legal:
        out[_LEGAL + action.index] = 1.0
    total = v.total
    x = total / c.max_total
    out[_TOTAL] = -1.0 if x < -1.0 else 2.0 if x > 2.0 else x
    left = c.max_total - total
    out[_HEADROOM + (0 if left < 0 else HEADROOM - 1 if left > HEADROOM - 1 else left)] = 1.0
    if total % 10 == 0:
        out[_ENDS_IN_ZERO] = 1.0
    if v.direction > 0:
        out[_CLOCKWISE] = 1.0
    if v.owed == 2:
        out[_OWED_TWO] = 1.0
    if v.ono99_played:
        out[_ONO99_PLAYED] = 1.0
    if v.to_play is not None:
        out[_TO_PLAY + (v.to_play - seat) % n] = 1.0
    out[_DEALER + (v.dealer - seat) % n] = 1.0
    status, sizes, owes, tokens, scores = v.status, v.hand_sizes, v.owes_draw, v.tokens, v.scores
    for k in range(n):
        t = (seat + k) % n
        out[_STATUS_BLOCK[status[t]] + k] = 1.0
        out[_HAND_SIZE + k] = sizes[t] / HAND_SIZE
        if t in owes:
            out[_OWES_DRAW + k] = 1.0
        if tokens is not None:
            out[_TOKENS + k] = tokens[t] / c.tokens
        if scores is not None:
            x = scores[t] / c.target
            out[_SCORE + k] = 0.0 if x < 0.0 else 2.0 if x > 2.0 else x
    discard = [0] * NUM_CARD_KINDS
    for card in v.discard_pile:
        discard[card] += 1
    laid = [0] * NUM_CARD_KINDS
    for t, cards in enumerate(v.laid_down):
        if cards and t != seat:  # an eliminated observer's own hand is already in ``hand``
            for card in cards:
                laid[card] += 1
    deck, per = c.deck, c.per_kind
    for kind in range(NUM_CARD_KINDS):
        h, d, lay = hand[kind], discard[kind], laid[kind]
        if h or d or lay:  # else the template holds the values: 0, 0, 0 and all unseen
            m = per[kind]
            out[_HAND + kind] = h / HAND_SIZE
            out[_DISCARD + kind] = d / m
            out[_LAID + kind] = lay / m
            out[_UNSEEN + kind] = (deck[kind] - h - d - lay) / m
    out[_DRAW_PILE] = v.draw_pile / c.deck_size
    # float64 to float32 as NumPy's cast rounds (to nearest); packing is faster than np.array
    return np.frombuffer(bytearray(_PACK(*out)), dtype=np.float32)


# --------------------------------------------------------------------------- one view, fast
#
# ``encode`` is a second implementation of the table, for the single environments and the
# bots, which encode one view at a time: the batch formulas on a batch of one spent almost all
# their time in NumPy's per-call overhead (70% of an AEC step). It does each block's float64
# arithmetic on Python floats, in the same order, and casts to float32 once, so it agrees with
# ``encode_public`` bit for bit; tests/test_features.py checks that over random views of every
# edition, option set and player count. The blocks that depend on the rules alone are taken
# from the table itself, once per rule set.

_RULES_ONLY = ("match", "variant_lowest_score", "bust_total", "edition_1980", "negative_totals",
               "four_ono99_discard", "play2_deflects_play2", "ono99_on_tens", "draw_penalty",
               "max_total")  # fmt: skip
_HAND, _LEGAL, _TOTAL, _HEADROOM = (SLICES[k].start for k in ("hand", "legal", "total", "headroom"))
_ENDS_IN_ZERO, _CLOCKWISE, _OWED_TWO, _ONO99_PLAYED, _TO_PLAY, _DEALER = (
    SLICES[k].start
    for k in ("total_ends_in_zero", "clockwise", "owed_two", "ono99_played", "to_play", "dealer")
)
_PRESENT, _HAND_SIZE, _OWES_DRAW, _TOKENS, _SCORE = (
    SLICES[k].start
    for k in ("seat_present", "seat_hand_size", "seat_owes_draw", "seat_tokens", "seat_score")
)
_DISCARD, _LAID, _UNSEEN, _DRAW_PILE = (
    SLICES[k].start for k in ("discard_pile", "laid_down", "unseen", "draw_pile")
)
_STATUS_BLOCK = {IN: SLICES["seat_in"].start, OUT: SLICES["seat_out"].start,
                 OUT_OF_ROUND: SLICES["seat_out_of_round"].start}  # fmt: skip


class _Context(NamedTuple):
    """What ``encode`` needs of a rule set, worked out once per rule set."""

    template: list[float]  # before the view: the rules-only blocks, seats present, all unseen
    players: int
    max_total: int
    tokens: int  # the divisor of seat_tokens
    target: int
    deck: tuple[float, ...]  # copies of each card kind in the deck
    per_kind: tuple[float, ...]  # the divisor of the per-kind blocks
    deck_size: int


_CONTEXTS: dict[Rules, _Context] = {}
_PACK = struct.Struct(f"{OBS_SIZE}f").pack


def _context(rules: Rules) -> _Context:
    found = _CONTEXTS.get(rules)
    if found is not None:
        return found
    blank = public_of([])._replace(total=np.zeros(1, dtype=np.int64))  # a batch of one
    template = [0.0] * OBS_SIZE
    for name in _RULES_ONLY:
        f = FEATURES[[g.name for g in FEATURES].index(name)]
        template[SLICES[name]] = f.compute(blank, rules)[0].tolist()
    template[_PRESENT : _PRESENT + rules.players] = [1.0] * rules.players
    deck = _deck(rules)
    unseen = FEATURES[[g.name for g in FEATURES].index("unseen")]
    template[SLICES["unseen"]] = unseen.compute(blank._replace(
        hand=np.zeros((1, NUM_CARD_KINDS)), discard=np.zeros((1, NUM_CARD_KINDS)),
        laid_down=np.zeros((1, NUM_CARD_KINDS))), rules)[0].tolist()  # fmt: skip
    found = _Context(
        template=template,
        players=rules.players,
        max_total=rules.max_total,
        tokens=max(rules.tokens, 1),
        target=rules.target,
        deck=tuple(deck.tolist()),
        per_kind=tuple(np.maximum(deck, 1.0).tolist()),
        deck_size=len(rules.deck),
    )
    if len(_CONTEXTS) >= 256:  # rule sets are few; bound the cache anyway
        _CONTEXTS.clear()
    _CONTEXTS[rules] = found
    return found


def decode(vector: np.ndarray) -> dict[str, np.ndarray]:
    """The vector cut into its named blocks (for debugging and tests)."""
    return {f.name: np.asarray(vector)[..., SLICES[f.name]] for f in FEATURES}


# --------------------------------------------------------------------------- documentation


def feature_table_markdown() -> str:
    """The observation layout as a Markdown table (it is pasted into ``docs/rl.md``)."""
    lines = [
        f"Observation vector: {OBS_SIZE} float32 entries. Blocks marked *6 seats, relative* hold "
        "one entry per seat: the observer first, then the next seats clockwise; entries beyond "
        "the table's player count are 0.",
        "",
        "| feature | slice | size | meaning | scaling | bounds |",
        "|---|---|---|---|---|---|",
    ]
    for f in FEATURES:
        s = SLICES[f.name]
        lines.append(
            f"| `{f.name}` | {s.start}:{s.stop} | {f.size} | {f.meaning} | {f.scaling} "
            f"| [{f.low:g}, {f.high:g}] |"
        )
    return "\n".join(lines) + "\n"


__all__ = [
    "FEATURES",
    "OBS_SIZE",
    "SEATS",
    "SLICES",
    "Feature",
    "Public",
    "decode",
    "encode",
    "encode_public",
    "feature_table_markdown",
    "legal_mask",
    "observation_bounds",
    "public_of",
    "public_of_records",
]
