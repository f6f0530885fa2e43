"""Which cards save players and which sink them, per edition (default rules), ``bot`` in every
seat: for each card kind laid at a dangerous total (``DANGER_MARGIN`` below ``max_total`` or
higher), how often its player got through their next turn and how often the next player did
not; how often it was in a knocked-out hand against how often in a hand to play at a dangerous
total. (The figures of a published run: docs/analysis/report.md, section 3.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine import State, make_rules, to_act
from ...engine.cards import CARD_NAMES, DECK_COUNTS
from .cells import BOT, DANGER_MARGIN, EDITIONS, PLAYERS, Cell, OnGame, run_cells, self_play
from .estimates import Estimate, proportion
from .events import danger_outcomes, is_knockout


@dataclass(frozen=True)
class CardRow:
    """One card kind's record at dangerous totals."""

    card: str  # N1 name
    played: int  # times played at a dangerous total
    survived: Estimate  # the player got through their next turn
    knocked_next: Estimate  # the next player did not get through
    held_at_knockout: Estimate  # share of knocked-out hands holding at least one
    held_in_danger: Estimate  # share of hands to play at a dangerous total holding one


@dataclass(frozen=True)
class CardEffects:
    edition: str
    match: str
    players: int
    bot: str
    games: int
    threshold: int  # a total at or above this is dangerous
    danger_plays: int
    survived: Estimate  # base rate over every card played at a dangerous total
    knocked_next: Estimate
    knockouts: int  # knocked-out hands seen
    danger_hands: int  # hands seen at a dangerous total with a card to play
    cards: tuple[CardRow, ...]


@dataclass
class _CardCounts:
    played: list[int] = field(default_factory=lambda: [0] * len(CARD_NAMES))
    survived: list[int] = field(default_factory=lambda: [0] * len(CARD_NAMES))
    knocked: list[int] = field(default_factory=lambda: [0] * len(CARD_NAMES))
    knockouts: int = 0
    held_out: list[int] = field(default_factory=lambda: [0] * len(CARD_NAMES))
    danger_hands: int = 0
    held_danger: list[int] = field(default_factory=lambda: [0] * len(CARD_NAMES))

    def merge(self, other: _CardCounts) -> None:
        for name in ("played", "survived", "knocked", "held_out", "held_danger"):
            mine: list[int] = getattr(self, name)
            for k, v in enumerate(getattr(other, name)):
                mine[k] += v
        self.knockouts += other.knockouts
        self.danger_hands += other.danger_hands


class _HandWatcher:
    """Follows a game state by state: the hands of players knocked out, and the hands of
    players to play at a dangerous total."""

    def __init__(self, counts: _CardCounts, threshold: int) -> None:
        self.counts = counts
        self.threshold = threshold
        self.prev: State | None = None
        self.seen = 0

    def __call__(self, state: State) -> None:
        c = self.counts
        events = state.events(self.seen)
        self.seen += len(events)
        dealt = False
        for e in events:
            if e.kind == "deal":
                dealt = True
            elif is_knockout(e):
                assert e.seat is not None
                if e.kind == "eliminated":
                    hand = e.data
                elif self.prev is not None and not dealt:
                    hand = self.prev.hands[e.seat]
                else:
                    continue  # stuck in the deal itself: the hand was never seen in a state
                c.knockouts += 1
                for card in set(hand):
                    c.held_out[card] += 1
        if not state.over and state.total >= self.threshold:
            seat = to_act(state)
            if seat is not None and seat == state.to_play:
                c.danger_hands += 1
                for card in set(state.hands[seat]):
                    c.held_danger[card] += 1
        self.prev = state


def cells(editions: Sequence[str], players: int, bot: str) -> list[Cell]:
    return [(ed, players, {}, bot) for ed in editions]


def _card_game(
    edition: str, players: int, options: dict[str, Any], bot: str, seed: int, index: int
) -> _CardCounts:
    counts = _CardCounts()
    threshold = make_rules(edition, players=players, **options).max_total - DANGER_MARGIN
    watcher = _HandWatcher(counts, threshold)
    final = self_play(edition, players, options, bot, seed, index, on_state=watcher)
    for card, survived, knocked in danger_outcomes(final.events(), threshold):
        counts.played[card] += 1
        counts.survived[card] += survived
        counts.knocked[card] += knocked
    return counts


def card_effects(
    games: int,
    seed: int,
    *,
    editions: Sequence[str] = EDITIONS,
    players: int = PLAYERS,
    bot: str = BOT,
    workers: int = 1,
    on_game: OnGame | None = None,
) -> list[CardEffects]:
    """Which cards save players and which sink them, per edition (default rules).

    For each card kind: how often a player who laid it at a dangerous total got through
    their next turn, and how often the next player did not; how often it was in a
    knocked-out hand, against how often it was in the hand of a player to play at a
    dangerous total (who, after the settling of every transition, has a card to play)."""
    played = cells(editions, players, bot)
    out = []
    for (ed, n, opts, _), results in zip(
        played, run_cells(_card_game, played, games, seed, workers, on_game), strict=True
    ):
        c = _CardCounts()
        for game in results:
            c.merge(game)
        rules = make_rules(ed, players=n, **opts)
        in_deck = [k for k, num in enumerate(DECK_COUNTS[ed]) if num]
        rows = tuple(
            CardRow(
                card=CARD_NAMES[k],
                played=c.played[k],
                survived=proportion(c.survived[k], c.played[k]),
                knocked_next=proportion(c.knocked[k], c.played[k]),
                held_at_knockout=proportion(c.held_out[k], c.knockouts),
                held_in_danger=proportion(c.held_danger[k], c.danger_hands),
            )
            for k in in_deck
        )
        plays = sum(c.played)
        out.append(
            CardEffects(
                edition=ed,
                match=rules.match,
                players=n,
                bot=bot,
                games=games,
                threshold=rules.max_total - DANGER_MARGIN,
                danger_plays=plays,
                survived=proportion(sum(c.survived), plays),
                knocked_next=proportion(sum(c.knocked), plays),
                knockouts=c.knockouts,
                danger_hands=c.danger_hands,
                cards=rows,
            )
        )
    return out
