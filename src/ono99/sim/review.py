"""A game review: a finished game explained decision by decision for one seat, as Lichess's
analysis board explains a chess game (``ono99 review``, the browser's replay page).

For each decision of the seat, every legal action gets a chance of winning the match; the
review names the move played, what it cost (the best action's chance minus the played one's),
calls out the largest mistakes with the better move, and draws the line of the played moves'
chances over the game. It looks through one of two lenses:

- **fair** (the default): the expert's search (``ExpertBot.evaluate``) from the seat's *view*
  at the time of the decision, ``view(state, seat)`` and nothing else: the cards the seat held
  and everything public so far. Never the other hands, the draw pile's order or any later
  move. A mistake in this lens is one the player could have seen.
- **known**: the same search with every hand known (``OracleBot.evaluate_state``), only the
  reshuffles still to come unknown. Fair only once the game is over (a finished record is
  public anyway); it shows what the cards really allowed, luck included.

A decision with one sensible action (one legal action, or an owed draw: drawing only adds a
card to choose from) is *forced*: it is listed, not searched, and never a mistake.

**How a mistake is named.** By the chance lost, in points of probability, as Lichess names
moves by the winning chance they lose (on its scale of -1..1, 0.1/0.2/0.3; here 0..1): an
*inaccuracy* loses at least ``INACCURACY`` (5 points), a *mistake* ``MISTAKE`` (10), a
*blunder* ``BLUNDER`` (15). The search's estimates carry noise of a few points at the default
budget, which is why nothing smaller is named.

**Determinism.** Decision ``k`` (the ``k``-th action of the record) is searched with the seed
``derived_seed(seed, "review", k)``: the same record and seed give the same review, and a
decision's chances depend on nothing but the game up to it, so a longer record never changes
an earlier decision's review.

**Cost.** The search runs in Numba when the ``fast`` extra is installed (``compiled``), in
Python otherwise; ``DEFAULT_WORLDS`` worlds per decision (each scoring every legal action, at
most ``DEFAULT_MAX_ROLLOUTS`` rollouts). docs/review.md gives the time of a whole review.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..bots.expert import ExpertBot, candidates, compiled_available
from ..bots.oracle import OracleBot
from ..engine import Action, Record, State, legal_actions, replay_states, view
from .seeding import derived_seed

LENSES = ("fair", "known")
INACCURACY = 0.05  # chance lost (0..1) from which a move is called an inaccuracy
MISTAKE = 0.10  # … a mistake
BLUNDER = 0.15  # … a blunder
JUDGEMENTS = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))
DEFAULT_WORLDS = 200  # worlds per decision in the fair lens (the expert's own budget)
DEFAULT_MAX_ROLLOUTS = 800  # cap on worlds × actions per decision (the expert's own)
KNOWN_WORLDS = 16  # with every hand known only the reshuffles to come vary (the oracle's own)
CALLED_OUT = 3  # the largest mistakes a review calls out


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: the ``move``-th action of the record (0-based; the
    state before it is the ``move``-th of ``replay_states``)."""

    move: int
    round: int
    total: int  # the running total the seat faced
    hand: tuple[int, ...]  # the seat's hand (card ids) before the move
    played: Action
    chances: tuple[tuple[Action, float], ...]  # every legal action, in legal order; () if forced
    forced: bool

    @property
    def best(self) -> Action:
        """The action with the highest chance (the played one when it ties)."""
        if self.forced:
            return self.played
        top = max(p for _, p in self.chances)
        if self.played_chance >= top:
            return self.played
        return next(a for a, p in self.chances if p == top)

    @property
    def best_chance(self) -> float | None:
        return None if self.forced else max(p for _, p in self.chances)

    @property
    def played_chance(self) -> float:
        return dict(self.chances).get(self.played, 0.0)

    @property
    def cost(self) -> float:
        """The chance of winning the played move gave away against the best one (0 if none)."""
        if self.forced:
            return 0.0
        return max(0.0, max(p for _, p in self.chances) - self.played_chance)

    @property
    def judgement(self) -> str | None:
        """``blunder``, ``mistake``, ``inaccuracy``, or None (see the module doc), by the cost
        as it is shown (to 3 places: 0.6 - 0.5 is a mistake, not 0.0999… an inaccuracy)."""
        cost = round(self.cost, 3)
        return next((name for name, low in JUDGEMENTS if cost >= low), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "round": self.round,
            "total": self.total,
            "played": str(self.played),
            "forced": self.forced,
            "chances": [{"action": str(a), "chance": round(p, 3)} for a, p in self.chances],
            "best": str(self.best),
            "played_chance": None if self.forced else round(self.played_chance, 3),
            "best_chance": None if self.best_chance is None else round(self.best_chance, 3),
            "cost": round(self.cost, 3),
            "judgement": self.judgement,
        }


@dataclass(frozen=True)
class Review:
    """A seat's review of one game through one lens (see the module doc)."""

    seat: int
    lens: str
    seed: int
    decisions: tuple[Decision, ...]

    @property
    def searched(self) -> list[Decision]:
        return [d for d in self.decisions if not d.forced]

    @property
    def line(self) -> list[tuple[int, float]]:
        """The win-chance line: (move, chance of the move played) at each searched decision."""
        return [(d.move, d.played_chance) for d in self.searched]

    @property
    def mistakes(self) -> list[Decision]:
        """The largest mistakes called out: up to ``CALLED_OUT`` named decisions, the costliest
        first (the earlier of two equal ones first)."""
        named = [d for d in self.decisions if d.judgement is not None]
        return sorted(named, key=lambda d: (-d.cost, d.move))[:CALLED_OUT]

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON: what ``ono99 review --json`` prints and the browser reads."""
        return {
            "seat": self.seat,
            "lens": self.lens,
            "seed": self.seed,
            "thresholds": {name: low for name, low in JUDGEMENTS},
            "decisions": [d.to_dict() for d in self.decisions],
            "line": [{"move": m, "chance": round(p, 3)} for m, p in self.line],
            "mistakes": [d.move for d in self.mistakes],
        }


def fair_chances(
    state: State,
    seat: int,
    seed: int,
    *,
    worlds: int = DEFAULT_WORLDS,
    max_rollouts: int = DEFAULT_MAX_ROLLOUTS,
    compiled: bool = False,
) -> list[tuple[Action, float]]:
    """Every legal action of ``seat`` with the expert's chance of winning, searched from the
    seat's view of ``state`` alone: the state goes no further than ``view``."""
    bot = ExpertBot(seed, worlds=worlds, max_rollouts=max_rollouts, compiled=compiled)
    return bot.evaluate(view(state, seat))


def known_chances(
    state: State, seat: int, seed: int, *, worlds: int = KNOWN_WORLDS
) -> list[tuple[Action, float]]:
    """Every legal action of ``seat`` with its chance of winning, every hand known."""
    return OracleBot(seed, worlds=worlds).evaluate_state(state, seat)


def decisions_of(record: Record, seat: int) -> Iterator[tuple[int, State, Action]]:
    """The seat's decisions in ``record``: (move, the state before it, the action played)."""
    for move, (state, (who, action)) in enumerate(
        zip(replay_states(record), record.actions, strict=False)
    ):
        if who == seat:
            yield move, state, action


def review_game(
    record: Record,
    seat: int,
    *,
    lens: str = "fair",
    seed: int = 0,
    worlds: int | None = None,
    compiled: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of ``seat``'s decisions in ``record`` through ``lens`` (see the module doc).
    ``worlds`` is the search's budget per decision (None: the lens's default); ``compiled``
    None uses Numba when it is installed; ``progress(done, total)`` is told after each
    decision."""
    if lens not in LENSES:
        raise ValueError(f"lens must be one of {', '.join(LENSES)}, not {lens!r}")
    if not 0 <= seat < record.rules.players:
        raise ValueError(f"seat must be 0 to {record.rules.players - 1}, not {seat}")
    use_numba = compiled_available() if compiled is None else compiled
    found = list(decisions_of(record, seat))
    decisions = []
    for done, (move, state, played) in enumerate(found, 1):
        legal = legal_actions(state, seat)
        forced = len(candidates(legal)) == 1
        chances: list[tuple[Action, float]] = []
        if not forced:
            decision_seed = derived_seed(seed, "review", move)
            if lens == "fair":
                chances = fair_chances(
                    state,
                    seat,
                    decision_seed,
                    worlds=worlds or DEFAULT_WORLDS,
                    compiled=use_numba,
                )
            else:
                chances = known_chances(state, seat, decision_seed, worlds=worlds or KNOWN_WORLDS)
        decisions.append(
            Decision(
                move=move,
                round=state.round,
                total=state.total,
                hand=tuple(state.hands[seat]),
                played=played,
                chances=tuple(chances),
                forced=forced,
            )
        )
        if progress is not None:
            progress(done, len(found))
    return Review(seat=seat, lens=lens, seed=seed, decisions=tuple(decisions))
