"""The batch simulator's memory layout: one packed, fixed-size record per game.

``games`` is a NumPy structured array of shape (B,) and dtype ``GAME``; ``games["total"]`` is a
(B,) view of every game's running total, ``games["hands"]`` a (B, 6, 4) view of the hands, and
so on, so NumPy code reads it like a struct of arrays while a kernel works on one game's 281
contiguous bytes (``games[g]`` is a record, which Numba passes as a pointer; a tuple of many
arrays would be copied into every call). The shapes are the largest any rule set needs (6 seats,
a 112-card pile), so one compiled kernel serves every edition, option set and player count:
seats from ``players`` on are unused. Read it, never write it: the kernels keep derived fields
(``legal``) in step with the rest.

===============  ======  ======  ===============================================================
field            shape   dtype   meaning
===============  ======  ======  ===============================================================
rng              ()      uint64  the game's own random generator (splitmix64 state)
finished         ()      int64   matches this slot has finished
total            ()      int32   the running total
round            ()      int32   the current round, from 1
reshuffles       ()      int32   reshuffles so far in the match
moves            ()      int32   actions applied so far in the match
error_at         ()      int32   index of a scripted reshuffle that was not a permutation
n_resh           ()      int32   scripted reshuffle orders loaded for this match
legal            ()      int32   the legal actions of the seat to play as a bitmask of
                                 ALL_ACTIONS indices (0 once over), kept by every transition
scores           (6,)    int32   scores (points match)
tokens           (6,)    int16   tokens left (tokens match)
pile_pos         ()      int16   next card to draw from ``pile``
pile_len         ()      int16   cards in ``pile`` (the whole deck after a deal, fewer after a
                                 reshuffle)
discard_size     ()      int16   cards on the discard pile
n_decks          ()      int16   scripted deck orders loaded for this match
hands            (6, 4)  int8    card ids in four slots per seat, -1 for a free slot; unsorted
                                 (a played card's slot takes the card drawn). A seat eliminated
                                 from a single game keeps its laid-down hand (E1)
pile             (112,)  int8    the draw pile, top card at ``pile_pos``
discard          (16,)   int8    the discard pile as a count per card kind: its order is never
                                 needed, as a reshuffle takes an explicit order or shuffles
status           (6,)    int8    the engine's ``Status.code``: 0 in, 1 out, 2 out of round
out              (6,)    int8    seats out of the game, in the order they left (``n_out``)
oor              (6,)    int8    seats out of the current round, in order (``n_oor``; points)
winners          (6,)    int8    1 for each winning seat, once over
result           (6,)    int8    winners of the last match this slot finished (kept across
                                 auto-resets, for rewards)
direction        ()      int8    +1 clockwise, -1 counter-clockwise
to_play          ()      int8    the seat to play, -1 once over
owed             ()      int8    cards ``to_play`` still owes this turn (1 or 2; 0 once over)
ono99_played     ()      int8    an ONO 99 was played this turn (X3)
n_out, n_oor     ()      int8    lengths of ``out`` and ``oor``
over             ()      int8    the match is over
dealer           ()      int8    the current round's dealer
error            ()      int8    1: a scripted reshuffle was not a permutation of the discard
script_dealer    ()      int8    the scripted first dealer, -1 for a random one
owes             ()      int8    the seat owing a draw (X2; rollouts only), -1 for none
===============  ======  ======  ===============================================================

Scripted deals (``Deal``: first dealer, deck order of rounds 1, 2, … and the new draw pile at
each reshuffle, as the engine's ``new_game(..., dealer=, decks=, reshuffles=)`` takes them) are
kept apart, in one B × rows × 113 int8 array (``scripts``): game g's rows are its deck orders,
then its reshuffle orders, each as a card count followed by the cards, top first; ``rows`` is
the most any loaded game needs (0 when nothing is loaded). The counts and the dealer are in the
game's record. A slot drops its script when it starts a new match.

The rule set is a one-element structured array of dtype ``PARAMS`` (``params_of(rules)``).
"""

from __future__ import annotations

import numpy as np

from ..engine import ALL_ACTIONS, HAND_SIZE, Rules
from ..engine.cards import CARD_POINTS, DECK_COUNTS, NUM_CARD_KINDS

SEATS = 6  # the most players (C3)
HAND = HAND_SIZE  # hand slots (T2)
PILE = max(sum(c) for c in DECK_COUNTS.values())  # 112: the largest deck
EMPTY = -1  # a free hand slot
NUM_ACTIONS = len(ALL_ACTIONS)  # 18: 16 plays by card id, discard ono99, draw
DISCARD_ACTION = 16
DRAW_ACTION = 17  # legal only under the draw penalty (X2), which only rollouts play

# Editions, match formats, variants and bust modes as ints (Params).
EDITION_CODES = {"2022": 0, "1980": 1}
SINGLE, TOKENS, POINTS = 0, 1, 2
MATCH_CODES = {"single": SINGLE, "tokens": TOKENS, "points": POINTS}
VARIANT_CODES = {"last_standing": 0, "lowest_score": 1}
BUST_CODES = {"unchanged": 0, "keep": 1, "reset": 2}

ERROR_BAD_RESHUFFLE = 1

# Widest fields first, so every field is naturally aligned in the packed record.
GAME = np.dtype(
    [
        ("rng", np.uint64),
        ("finished", np.int64),
        ("total", np.int32),
        ("round", np.int32),
        ("reshuffles", np.int32),
        ("moves", np.int32),
        ("error_at", np.int32),
        ("n_resh", np.int32),
        ("legal", np.int32),
        ("scores", np.int32, (SEATS,)),
        ("tokens", np.int16, (SEATS,)),
        ("pile_pos", np.int16),
        ("pile_len", np.int16),
        ("discard_size", np.int16),
        ("n_decks", np.int16),
        ("hands", np.int8, (SEATS, HAND)),
        ("pile", np.int8, (PILE,)),
        ("discard", np.int8, (NUM_CARD_KINDS,)),
        ("status", np.int8, (SEATS,)),
        ("out", np.int8, (SEATS,)),
        ("oor", np.int8, (SEATS,)),
        ("winners", np.int8, (SEATS,)),
        ("result", np.int8, (SEATS,)),
        ("direction", np.int8),
        ("to_play", np.int8),
        ("owed", np.int8),
        ("ono99_played", np.int8),
        ("n_out", np.int8),
        ("n_oor", np.int8),
        ("over", np.int8),
        ("dealer", np.int8),
        ("error", np.int8),
        ("script_dealer", np.int8),
        ("owes", np.int8),
    ]
)


# A rule set as plain ints, so one compiled kernel serves every rule set. It is a one-element
# structured array: the kernels take its record, which Numba passes as a pointer.
PARAMS = np.dtype(
    [
        (name, np.int64)
        for name in (
            "edition",  # 0: 2022, 1: 1980 (the row of DECK_COUNTS_ARRAY)
            "players",
            "deck_size",
            "max_total",
            "negative_totals",
            "four_ono99_discard",
            "play2_deflects_play2",
            "ono99_on_tens",
            "match",  # SINGLE, TOKENS or POINTS
            "tokens",
            "target",
            "variant",  # VARIANT_CODES
            "bust_total",  # BUST_CODES
            "draw_penalty",  # X2: played by the rollouts only (the batch refuses it)
            "horizon",  # MATCH: play on to the match's end; ROUND: stop at a round's end
        )
    ]
)


MATCH, ROUND = 0, 1  # Params.horizon: where the kernels stop (rollouts stop at a round's end)


def params_of(rules: Rules, horizon: int = MATCH) -> np.ndarray:
    params = np.zeros(1, dtype=PARAMS)
    values = {
        "edition": EDITION_CODES[rules.edition],
        "players": rules.players,
        "deck_size": len(rules.deck),
        "max_total": rules.max_total,
        "negative_totals": rules.negative_totals,
        "four_ono99_discard": rules.four_ono99_discard,
        "play2_deflects_play2": rules.play2_deflects_play2,
        "ono99_on_tens": rules.ono99_on_tens,
        "match": MATCH_CODES[rules.match],
        "tokens": rules.tokens,
        "target": rules.target,
        "variant": VARIANT_CODES[rules.variant],
        "bust_total": BUST_CODES[rules.bust_total],
        "draw_penalty": rules.draw_penalty,
        "horizon": horizon,
    }
    for name, value in values.items():
        params[name] = int(value)
    return params


CARD_POINTS_ARRAY = np.array(CARD_POINTS, dtype=np.int32)
DECK_COUNTS_ARRAY = np.array(
    [DECK_COUNTS[e] for e in sorted(EDITION_CODES, key=EDITION_CODES.__getitem__)],
    dtype=np.int32,
)


def allocate(batch: int) -> np.ndarray:
    """``batch`` game records, not yet dealt."""
    games = np.zeros(batch, dtype=GAME)
    games["hands"] = EMPTY
    games["to_play"] = -1
    games["direction"] = 1
    games["script_dealer"] = -1
    games["owes"] = -1
    return games


def scripts(batch: int, rows: int = 0) -> np.ndarray:
    """Room for ``rows`` scripted card orders per game: a B × rows × (1 + 112) int8 array whose
    row holds the number of cards, then the cards, top first."""
    return np.zeros((batch, rows, 1 + PILE), dtype=np.int8)
