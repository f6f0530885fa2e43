"""``FastBatch``: B games of one rule set stepped at once, over the game records of ``layout.py``.

Actions are the engine's ``ALL_ACTIONS`` indices (0–15 ``play <card id>``, 16 ``discard ono99``;
17, ``draw``, is never legal because the draw penalty is not simulated), and -1 leaves a game
alone for that step. ``legal_mask()`` gives a B × 18 bool mask (``must_bust()`` says where those
are busts); ``step(actions)`` checks the actions (unless ``check=False``), applies them, and
with ``auto_reset`` starts a new match in every slot whose match just ended.

Agreement with the engine is defined on explicit deals: ``load([Deal(...), ...])`` makes game i
play the given first dealer, deck orders and reshuffle orders, exactly as the engine's
``new_game(rules, seed, dealer=, decks=, reshuffles=)`` would, and ``summary(i)`` is then the
engine's ``summarize(state)`` (RULES.md N4) after the same actions. Seeded games shuffle with
each game's own generator, not Python's ``random``: the same seed gives the same games here, but
not the engine's games for that seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..engine import ALL_ACTIONS, CARD_NAMES, Rules, State, Status
from ..engine.cards import card_ids
from ..engine.errors import IllegalActionError, RulesError, SetupError
from ..invocation import pip_install
from .contract import Facts
from .layout import (
    EMPTY,
    MATCH_CODES,
    NUM_ACTIONS,
    PILE,
    POINTS,
    TOKENS,
    allocate,
    params_of,
    scripts,
)

try:
    from . import kernels
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(f"ono99.sim.fast needs numpy and numba: {pip_install('fast')}") from error

_STATUSES = tuple(Status)  # by Status.code, the order the kernels number them in
_GOLDEN = 0x9E3779B97F4A7C15
_ACTION_NAMES = tuple(str(a) for a in ALL_ACTIONS)


class Deal(NamedTuple):
    """Every shuffle of one match, as the engine's ``new_game`` takes them: the first round's
    dealer, the deck order (top first) of rounds 1, 2, … and the new draw pile (top first) at
    each reshuffle, in order. Cards are ids or N1 names. Rounds and reshuffles beyond the lists
    are shuffled by the game's own generator."""

    dealer: int
    decks: Sequence[Sequence[int | str]]
    reshuffles: Sequence[Sequence[int | str]] = ()

    @classmethod
    def of(cls, state: State) -> Deal:
        """The deal an engine game has used so far (its dealer, decks and reshuffles)."""
        return cls(state.setup.dealer, state.decks_used, state.reshuffles_used)


def _card_ids(cards: Sequence[int | str], where: str, game: int) -> np.ndarray:
    """The engine's parser of a card list (``card_ids``), its error naming the game too."""
    try:
        return np.array(card_ids(cards, where), np.int64)
    except SetupError as error:
        raise SetupError(where, f"game {game}: {error.detail}") from None


@dataclass(frozen=True)
class PlayoutStats:
    """What a ``random_playout`` did: actions applied, matches finished, and the actions of
    those matches (so ``game_actions / games`` is the mean length of a finished match)."""

    actions: int
    games: int
    game_actions: int

    @property
    def actions_per_game(self) -> float:
        return self.game_actions / self.games if self.games else float("nan")


class FastBatch:
    """``batch_size`` matches of ``rules``, stepped together (see the module docstring)."""

    def __init__(
        self, rules: Rules, batch_size: int, seed: int = 0, *, auto_reset: bool = True
    ) -> None:
        if rules.draw_penalty:
            raise RulesError(
                "draw_penalty",
                "the batch simulator does not simulate the real-time draw penalty (X2); "
                "use ono99.engine for it",
            )
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a whole number of at least 1, not {batch_size!r}")
        self.rules = rules
        self.params: np.ndarray = params_of(rules)
        self.batch_size = batch_size
        self.auto_reset = auto_reset
        self.games: np.ndarray = allocate(batch_size)
        self.scripts: np.ndarray = scripts(batch_size)
        self.reset(seed)

    # ------------------------------------------------------------------ starting

    def reset(self, seed: int | None = None) -> None:
        """A new random match in every slot (dropping loaded deals); ``seed`` reseeds every
        game's generator (game i gets a stream derived from ``seed`` and i)."""
        self.games["script_dealer"] = -1
        self.games["n_decks"] = 0
        self.games["n_resh"] = 0
        self.scripts = scripts(self.batch_size)
        if seed is not None:
            self._seed(seed)
        kernels.reset_games(self.games, self.params, self.scripts, self.auto_reset)

    def load(self, deals: Sequence[Deal], seed: int | None = None) -> None:
        """Start game i on ``deals[i]`` (one deal per game of the batch). Raises ``SetupError``
        for a dealer outside the seats or a deck that is not a permutation of the edition's;
        a reshuffle order that is not a permutation of the discard pile raises it when used."""
        b = self.batch_size
        if len(deals) != b:
            raise ValueError(f"load needs one deal per game: {b}, not {len(deals)}")
        n = self.rules.players
        size = len(self.rules.deck)
        kinds = len(CARD_NAMES)
        want = np.bincount(np.array(self.rules.deck), minlength=kinds)
        sc = scripts(b, max(len(d.decks) + len(d.reshuffles) for d in deals))
        dealers = np.empty(b, dtype=np.int8)
        for g, deal in enumerate(deals):
            if isinstance(deal.dealer, bool) or not 0 <= deal.dealer < n:
                raise SetupError("dealer", f"game {g}: must be a seat from 0 to {n - 1}")
            dealers[g] = deal.dealer
            for r, deck in enumerate(deal.decks):
                cards = _card_ids(deck, f"decks[{r}]", g)
                if cards.shape != (size,) or not np.array_equal(
                    np.bincount(cards.clip(0, kinds - 1), minlength=kinds), want
                ):
                    raise SetupError(f"decks[{r}]", f"game {g}: not a permutation of the deck")
                sc[g, r, 0] = size
                sc[g, r, 1 : 1 + size] = cards
            for k, pile in enumerate(deal.reshuffles):
                cards = _card_ids(pile, f"reshuffles[{k}]", g)
                if cards.ndim != 1 or len(cards) > PILE or ((cards < 0) | (cards >= kinds)).any():
                    raise SetupError(f"reshuffles[{k}]", f"game {g}: not a list of card ids")
                row = len(deal.decks) + k  # a game's reshuffle orders follow its deck orders
                sc[g, row, 0] = len(cards)
                sc[g, row, 1 : 1 + len(cards)] = cards
        self.games["script_dealer"] = dealers
        self.games["n_decks"] = [len(d.decks) for d in deals]
        self.games["n_resh"] = [len(d.reshuffles) for d in deals]
        self.scripts = sc
        if seed is not None:
            self._seed(seed)
        kernels.reset_games(self.games, self.params, self.scripts, self.auto_reset)

    def _seed(self, seed: int) -> None:
        # splitmix64 of seed + (i + 1) * golden, in wrapping uint64 array arithmetic.
        z = np.uint64(seed % 2**64) + np.arange(1, self.batch_size + 1, dtype=np.uint64) * (
            np.uint64(_GOLDEN)
        )
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        self.games["rng"] = z ^ (z >> np.uint64(31))

    # ------------------------------------------------------------------ playing

    def legal_mask(self) -> np.ndarray:
        """B × 18 bool: ``mask[i, a]`` says ``ALL_ACTIONS[a]`` is legal in game i (all False
        once game i's match is over; only without ``auto_reset`` does that last)."""
        mask = np.zeros((self.batch_size, NUM_ACTIONS), dtype=np.bool_)
        kernels.legal_masks(self.games, mask)
        return mask

    def must_bust(self) -> np.ndarray:
        """(B,) bool: every card the seat to play may play is a bust (M3; ``View.must_bust``)."""
        out = np.zeros(self.batch_size, dtype=np.bool_)
        kernels.must_bust(self.games, self.params, out)
        return out

    @property
    def to_play(self) -> np.ndarray:
        """The seat to play in each game (-1 once over), a view."""
        return self.games["to_play"]

    @property
    def over(self) -> np.ndarray:
        """Whether each game's match is over (only without ``auto_reset`` does that last)."""
        return self.games["over"] != 0

    def step(self, actions: Any, *, check: bool = True) -> np.ndarray:
        """Apply one action per game (an ALL_ACTIONS index, or -1 to leave the game alone) for
        each game's seat to play. Returns a bool array: the games whose match ended with this
        action (their winners are in ``games["result"]``; with ``auto_reset`` a new match has
        started there). With ``check`` (the default) nothing is applied if any action is
        illegal: ``IllegalActionError`` names the first such game. ``check=False`` saves the
        check for callers whose actions come from ``legal_mask`` or ``random_actions``; an
        illegal action then leaves that game in an undefined state."""
        acts = np.asarray(actions, dtype=np.int64)
        if acts.shape != (self.batch_size,):
            raise ValueError(f"step needs {self.batch_size} actions, got shape {acts.shape}")
        if check:
            bad = kernels.check_actions(self.games, acts)
            if bad >= 0:
                raise self._why_illegal(bad, int(acts[bad]))
        done = np.zeros(self.batch_size, dtype=np.bool_)
        bad = kernels.step_games(self.games, self.params, self.scripts, acts, self.auto_reset, done)
        if bad >= 0:
            k = int(self.games["error_at"][bad])
            raise SetupError(
                f"reshuffles[{k}]",
                f"game {bad}: not a permutation of the discard pile (the batch must be "
                "reset or loaded again)",
            )
        return done

    def _why_illegal(self, g: int, action: int) -> IllegalActionError:
        """The refusal of game ``g``'s action. The simulator does not say why an action is
        not legal: its codes are ``not_an_action`` (N2), ``game_over`` (E2), ``not_legal``."""
        r = self.games[g]
        name = _ACTION_NAMES[action] if 0 <= action < NUM_ACTIONS else None
        tried = f"game {g}: action {action}" + (f" ({name!r})" if name else "")
        seat = int(r["to_play"])
        if not 0 <= action < NUM_ACTIONS:
            message = f"{tried} is not an action: use 0 to {NUM_ACTIONS - 1}, or -1 for none"
            return IllegalActionError(
                message, seat=seat, action=None, code="not_an_action", rule="N2", params={"game": g}
            )
        if r["over"]:
            message = f"{tried}, but the match is over (-1 leaves it alone)"
            return IllegalActionError(
                message,
                seat=None,
                action=ALL_ACTIONS[action],
                code="game_over",
                rule="E2",
                params={"game": g},
            )
        legal = [_ACTION_NAMES[i] for i in np.flatnonzero(self.legal_mask()[g])]
        message = (
            f"{tried} by seat {seat} at total {int(r['total'])} is not legal; "
            f"legal: {', '.join(legal)}"
        )
        return IllegalActionError(
            message, seat=seat, action=ALL_ACTIONS[action], code="not_legal", params={"game": g}
        )

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action per game (-1 where the match is over), drawn from
        each game's own generator — the choices ``random_playout`` makes."""
        out = np.empty(self.batch_size, dtype=np.int64)
        kernels.random_actions(self.games, out)
        return out

    def random_playout(self, steps: int) -> PlayoutStats:
        """``steps`` uniformly random legal actions in every game, inside one compiled loop,
        starting a new match wherever one ends (whatever ``auto_reset`` says). It visits the
        same states as ``steps`` calls of ``step(random_actions())`` with ``auto_reset``."""
        stats = np.zeros(3, dtype=np.int64)
        bad = kernels.random_playout(self.games, self.params, self.scripts, steps, stats)
        if bad >= 0:
            k = int(self.games["error_at"][bad])
            raise SetupError(f"reshuffles[{k}]", f"game {bad}: not a permutation of the discard")
        return PlayoutStats(int(stats[0]), int(stats[1]), int(stats[2]))

    # ------------------------------------------------------------------ reading

    def summary(self, i: int) -> dict[str, Any]:
        """The N4 summary of game i, as the engine's ``summarize`` gives it."""
        if not 0 <= i < self.batch_size:
            raise IndexError(f"game {i} is not in a batch of {self.batch_size}")
        return self.summaries([i])[0]

    def summaries(self, games: Sequence[int] | None = None) -> list[dict[str, Any]]:
        """The N4 summaries of ``games`` (default: all), built from one read of each array."""
        idx = np.arange(self.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        n = self.rules.players
        match = MATCH_CODES[self.rules.match]
        mask = self.legal_mask()[idx].tolist()
        rec = self.games[idx]
        over = rec["over"].tolist()
        winners = rec["winners"][:, :n].tolist()
        round_ = rec["round"].tolist()
        total = rec["total"].tolist()
        direction = rec["direction"].tolist()
        to_play = rec["to_play"].tolist()
        owed = rec["owed"].tolist()
        hands = rec["hands"][:, :n].tolist()
        out, n_out = rec["out"].tolist(), rec["n_out"].tolist()
        oor, n_oor = rec["oor"].tolist(), rec["n_oor"].tolist()
        tokens = rec["tokens"][:, :n].tolist()
        scores = rec["scores"][:, :n].tolist()
        draw_pile = (rec["pile_len"] - rec["pile_pos"]).tolist()
        discard = rec["discard_size"].tolist()
        result = []
        for j in range(len(idx)):
            result.append(
                {
                    "over": bool(over[j]),
                    "winners": [s for s, w in enumerate(winners[j]) if w],
                    "round": round_[j],
                    "total": total[j],
                    "direction": "cw" if direction[j] == 1 else "ccw",
                    "to_play": to_play[j] if to_play[j] >= 0 else None,
                    "owed": owed[j],
                    "legal": [_ACTION_NAMES[k] for k, ok in enumerate(mask[j]) if ok],
                    "hands": [[CARD_NAMES[c] for c in sorted(h) if c != EMPTY] for h in hands[j]],
                    "out": out[j][: n_out[j]],
                    "out_of_round": oor[j][: n_oor[j]],
                    "tokens": tokens[j] if match == TOKENS else None,
                    "scores": scores[j] if match == POINTS else None,
                    "draw_pile": draw_pile[j],
                    "discard_pile": discard[j],
                }
            )
        return result

    def facts(self, i: int) -> Facts:
        """Game i's position as ``contract.Facts`` (what it must agree with the engine on)."""
        r = self.games[i]
        n = self.rules.players
        over = bool(r["over"])
        match = MATCH_CODES[self.rules.match]
        return Facts(
            over=over,
            winners=tuple(s for s in range(n) if r["winners"][s]),
            total=int(r["total"]),
            direction=int(r["direction"]),
            to_play=None if over else int(r["to_play"]),
            owed=int(r["owed"]),
            ono99_played=bool(r["ono99_played"]),
            legal=tuple(a for a in range(NUM_ACTIONS) if (int(r["legal"]) >> a) & 1),
            hands=tuple(tuple(sorted(int(c) for c in h if c != EMPTY)) for h in r["hands"][:n]),
            status=tuple(_STATUSES[int(st)] for st in r["status"][:n]),
            tokens=tuple(int(t) for t in r["tokens"][:n]) if match == TOKENS else None,
            scores=tuple(int(t) for t in r["scores"][:n]) if match == POINTS else None,
            owes_draw=(),  # the draw penalty (X2) is not simulated
            draw_pile=int(r["pile_len"] - r["pile_pos"]),
            discard_pile=int(r["discard_size"]),
        )

    def bytes_per_game(self) -> int:
        """Memory per game of the batch's state: one record (loaded deals not counted)."""
        return self.games.dtype.itemsize
