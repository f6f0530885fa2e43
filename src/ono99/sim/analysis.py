"""The experiments behind ``ono99 analyze``: many bot games, reduced to plain numbers.

Each experiment is a function that plays games and returns frozen dataclasses of numbers
(``to_dict()`` gives JSON-ready data); ``report.py`` turns them into Markdown and plots.
Every estimate carries a 95% interval: Wilson for proportions, the normal approximation
for means and for paired differences (two rule sets played on the same seeds).

Reproducibility: game ``i`` of every cell uses seed ``SEED + i`` and the first dealer drawn
from that seed; bot ``s`` of that game gets seed ``(SEED + i) * 10 + s``. Work is split into
chunks of games that can run in other processes (``workers``); chunks are merged in order,
so the results do not depend on the number of workers.

Words used throughout (the report defines them the same way):

- **knocked out**: the moment a player must play and cannot — eliminated in a single game
  (E1), losing the round in a tokens match (M2), out of the round in a points match (M3,
  a bust included).
- **turn**: one player's go — one card, or two when they owe a Play 2 (P1).
- **dangerous total**: a total of at least ``max_total - DANGER_MARGIN`` before the card.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, cast

from ..bots import BOTS, Bot
from ..engine import Event, State, defaults, make_rules, to_act
from ..engine.cards import CARD_NAMES, DECK_COUNTS
from . import costs
from .costs import game_seconds
from .driver import play_game
from .stats import mean_interval, wilson_interval
from .workers import context as workers_context
from .workers import ignore_sigint, sigint_held

DANGER_MARGIN = 10
EDITIONS = ("2022", "1980")
PLAYER_COUNTS = (2, 3, 4, 5, 6)  # seat order is measured at every table size
PLAYERS = 4  # the table of every other experiment
BOT = "greedy"  # the bot of self-play, and the strong bot's opponents
MATCHES = ("single", "tokens", "points")
STRONG_PREFERENCE = ("expert", "heuristic", "greedy")
# By default the strong bot plays one game per rule set for every STRONG_SHARE games of a
# greedy cell: a game with the expert costs a few hundred greedy ones (see costs.py), so as many
# strong games as greedy ones would turn minutes of greedy games into hours.
STRONG_SHARE = 100
# The house rules compared with each edition's defaults: option -> value, None = the
# opposite of the edition's default (a boolean option).
HOUSE_RULES: tuple[tuple[str, Any], ...] = (
    ("max_total", 99),
    ("play2_deflects_play2", None),
    ("ono99_on_tens", True),
    ("negative_totals", None),
)

OnGame = Callable[[], None]
Cell = tuple[Any, ...]  # (edition, players, options, bot, ...): what one job plays


# --------------------------------------------------------------------------- estimates


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% interval, from ``n`` observations."""

    value: float
    low: float
    high: float
    n: int

    def shifted(self, by: float) -> Estimate:
        return Estimate(self.value + by, self.low + by, self.high + by, self.n)

    def excludes(self, x: float) -> bool:
        return x < self.low or x > self.high


def proportion(successes: float, trials: int) -> Estimate:
    """A proportion with its Wilson interval; 0 trials give NaN with the interval [0, 1]."""
    if trials <= 0:
        return Estimate(math.nan, 0.0, 1.0, 0)
    p = successes / trials
    low, high = wilson_interval(successes, trials)
    # Wilson bounds sit on the estimate at 0 and 1 only up to rounding.
    return Estimate(p, min(low, p), max(high, p), trials)


def mean_of(values: Sequence[float]) -> Estimate:
    mean, low, high = mean_interval(list(values))
    return Estimate(mean, low, high, len(values))


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """The mean of ``a[i] - b[i]`` with its interval: the difference of two means measured
    on the same seeds, which cancels what the seeds share."""
    return mean_of([x - y for x, y in zip(a, b, strict=True)])


def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable with ``dof`` degrees of freedom (closed forms for
    whole ``dof``, enough for testing that n seats win equally often)."""
    if dof < 1:
        return math.nan
    if x <= 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(x) * math.exp(-half) * math.sqrt(2 / math.pi)
    for i in range(1, (dof + 1) // 2):
        total += term
        term *= x / (2 * i + 1)
    return min(1.0, total)


@dataclass(frozen=True)
class Distribution:
    """Values per game: their counts, mean (with interval) and quantiles."""

    counts: tuple[tuple[int, int], ...]  # (value, games), by value
    mean: Estimate
    median: float
    p10: float
    p90: float
    low: int
    high: int

    @staticmethod
    def of(counter: Counter[int]) -> Distribution:
        values = sorted(counter.elements())
        if not values:
            nan = math.nan
            return Distribution((), Estimate(nan, nan, nan, 0), nan, nan, nan, 0, 0)
        return Distribution(
            tuple(sorted(counter.items())),
            mean_of(values),
            _quantile(values, 0.5),
            _quantile(values, 0.1),
            _quantile(values, 0.9),
            values[0],
            values[-1],
        )


def _quantile(values: Sequence[int], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    pos = (len(values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def to_plain(value: Any) -> Any:
    """Dataclasses, tuples and dicts as JSON-ready data (NaN becomes None)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


# --------------------------------------------------------------------------- one game


def strong_default() -> str:
    """The strongest registered bot: ``expert``, else ``heuristic``, else ``greedy``."""
    return next(name for name in STRONG_PREFERENCE if name in BOTS)


def build_bot(name: str, seed: int, options: dict[str, Any] | None = None) -> Bot:
    """A bot from the registry, with constructor options such as a search budget."""
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}")
    if not options:
        return factory(seed)
    try:
        return cast(Any, factory)(seed, **options)
    except TypeError as exc:
        raise ValueError(f"bot {name!r} does not take the options {options}: {exc}") from None


def position_of(seat: int, dealer: int, players: int) -> int:
    """0 for the seat that plays first in round 1 (left of the dealer), players - 1 for the
    dealer."""
    return (seat - dealer - 1) % players


def is_knockout(e: Event) -> bool:
    return e.kind in ("eliminated", "out_of_round") or (
        e.kind == "round_end" and e.seat is not None
    )


def count_turns(events: Iterable[Event]) -> int:
    """Turns in a game: a card played (or four ONO 99s laid down) starts a turn unless the
    same player laid the card before it in the same round (their second owed card)."""
    turns = 0
    last: int | None = None
    for e in events:
        if e.kind in ("play", "discard"):
            if e.seat != last:
                turns += 1
            last = e.seat
        elif e.kind == "deal" or is_knockout(e):
            last = None
    return turns


@dataclass
class _Pending:
    """A card played at a dangerous total, waiting for what it led to."""

    seat: int
    card: int
    next_turn: bool = False  # the player's next turn has started
    survived: bool | None = None
    victim: int | None = None  # the first other player to play after it
    hit: bool | None = None  # a player other than ``seat`` was knocked out before the turn


def danger_outcomes(events: Iterable[Event], threshold: int) -> list[tuple[int, bool, bool]]:
    """For every card played (not a bust) at a total of at least ``threshold``:
    ``(card, survived, knocked_next)``.

    *survived*: the player was not knocked out before the end of their next turn (the end
    of the round or game counts as getting through). *knocked_next*: another player was
    knocked out before the turn after the card ended, i.e. the next player (or, when they
    were knocked out without playing, the one after them) did not get through.
    """
    out: list[tuple[int, bool, bool]] = []
    pending: list[_Pending] = []
    total = 0
    last: int | None = None

    def settle() -> None:
        for p in pending:
            out.append((p.card, p.survived is not False, bool(p.hit)))
        pending.clear()

    for e in events:
        kind = e.kind
        if kind in ("deal", "over"):
            settle()
            total = 0
            last = None
        elif kind in ("play", "discard"):
            s = e.seat
            assert s is not None
            new_turn = s != last
            last = s
            for p in pending:
                if p.survived is None:
                    if s == p.seat:
                        p.next_turn = p.next_turn or new_turn
                    elif p.next_turn:
                        p.survived = True
                if p.hit is None:
                    if s != p.seat:
                        if p.victim is None:
                            p.victim = s
                        elif s != p.victim:
                            p.hit = False
                    elif p.victim is not None:
                        p.hit = False
            before = total
            if kind == "play":
                assert e.total is not None
                total = e.total
                if e.data != "bust" and before >= threshold:
                    assert e.card is not None
                    pending.append(_Pending(s, e.card))
            for p in pending:
                if p.survived is not None and p.hit is not None:
                    out.append((p.card, p.survived, p.hit))
            pending[:] = [p for p in pending if p.survived is None or p.hit is None]
        elif is_knockout(e):
            last = None
            for p in pending:
                if p.survived is None and e.seat == p.seat:
                    p.survived = False
                if p.hit is None:
                    # A knock-out during the next player's turn, or of the next player
                    # before they laid anything, is the card's doing; once the next player
                    # has played, a later knock-out is theirs.
                    p.hit = e.seat != p.seat and (p.victim is None or e.seat == p.victim)
    settle()
    return out


# --------------------------------------------------------------------------- cells
# What each experiment plays, cell by cell in the order it plays them: the experiments run
# these lists and ``plan`` counts and prices them, so the two cannot disagree.


def _seat_cells(editions: Sequence[str], players: Sequence[int], bot: str) -> list[Cell]:
    return [(ed, n, {}, bot) for ed in editions for n in players]


def _length_cells(
    editions: Sequence[str], matches: Sequence[str], players: int, bot: str
) -> list[Cell]:
    return [(ed, players, {"match": m}, bot) for ed in editions for m in matches]


def _card_cells(editions: Sequence[str], players: int, bot: str) -> list[Cell]:
    return [(ed, players, {}, bot) for ed in editions]


def _house_sets(editions: Sequence[str]) -> list[tuple[str, str, dict[str, Any]]]:
    """(edition, rule label, options) for every rule set of the house-rules experiment."""
    return [(ed, label, opts) for ed in editions for label, opts in house_rule_sets(ed)]


def _house_length_cells(editions: Sequence[str], players: int, bot: str) -> list[Cell]:
    return [(ed, players, opts, bot) for ed, _, opts in _house_sets(editions)]


def _edge_cells(
    editions: Sequence[str], players: int, bot: str, strong: str, strong_options: dict[str, Any]
) -> list[Cell]:
    return [
        (ed, players, opts, bot, strong, strong_options) for ed, _, opts in _house_sets(editions)
    ]


# --------------------------------------------------------------------------- chunked running


def _run_chunks(
    job: Callable[..., Any],
    cells: Sequence[tuple[Any, ...]],
    games: int,
    seed: int,
    workers: int,
    on_game: OnGame | None,
) -> list[list[Any]]:
    """Run ``job(*cell, seed, start, count, on_game)`` over every cell's games; return, per
    cell, the chunk results in game order. With one worker the games run here, ticking
    ``on_game`` after each; with more, chunks run in processes and tick when they finish."""
    if workers <= 1:
        return [[job(*cell, seed, 0, games, on_game)] for cell in cells]
    size = max(1, min(250, math.ceil(games / (4 * workers))))
    starts = list(range(0, games, size))
    pool = None
    try:
        with sigint_held():
            pool = workers_context().Pool(workers, initializer=ignore_sigint)
        pending = [
            [
                pool.apply_async(job, (*cell, seed, start, min(size, games - start), None))
                for start in starts
            ]
            for cell in cells
        ]
        results: list[list[Any]] = []
        for row in pending:
            chunk_results = []
            for start, result in zip(starts, row, strict=True):
                chunk_results.append(result.get())
                if on_game:
                    for _ in range(min(size, games - start)):
                        on_game()
            results.append(chunk_results)
    finally:
        if pool is not None:
            pool.terminate()  # at once: a Ctrl-C does not wait for the chunks under way
    return results


def _self_play(
    edition: str,
    players: int,
    options: dict[str, Any],
    bot: str,
    game_seed: int,
    on_state: Callable[[State], None] | None = None,
) -> State:
    rules = make_rules(edition, players=players, **options)
    bots = [build_bot(bot, game_seed * 10 + s) for s in range(players)]
    return play_game(rules, bots, game_seed, on_state=on_state)


# --------------------------------------------------------------------------- seat order


@dataclass(frozen=True)
class SeatOrderCell:
    """Win rates by position at the table, with the same bot in every seat."""

    edition: str
    players: int
    match: str
    bot: str
    games: int
    wins: tuple[float, ...]  # by position: 0 plays first in round 1, players - 1 dealt
    rates: tuple[Estimate, ...]
    fair: float
    chi2: float  # against equal shares
    p_value: float
    turns: Estimate  # mean turns per game


def _seat_chunk(
    edition: str,
    players: int,
    options: dict[str, Any],
    bot: str,
    seed: int,
    start: int,
    count: int,
    on_game: OnGame | None,
) -> tuple[list[float], Counter[int]]:
    wins = [0.0] * players
    turns: Counter[int] = Counter()
    for i in range(start, start + count):
        final = _self_play(edition, players, options, bot, seed + i)
        dealer = final.setup.dealer
        for w in final.winners:
            wins[position_of(w, dealer, players)] += 1 / len(final.winners)
        turns[count_turns(final.events())] += 1
        if on_game:
            on_game()
    return wins, turns


def seat_order(
    games: int,
    seed: int,
    *,
    editions: Sequence[str] = EDITIONS,
    players: Sequence[int] = PLAYER_COUNTS,
    bot: str = BOT,
    workers: int = 1,
    on_game: OnGame | None = None,
) -> list[SeatOrderCell]:
    """Does the order of play decide games? ``bot`` in every seat, each edition's default
    rules, a random first dealer; win rates by position relative to that dealer."""
    cells = _seat_cells(editions, players, bot)
    out = []
    for (ed, n, _, _), chunks in zip(
        cells, _run_chunks(_seat_chunk, cells, games, seed, workers, on_game), strict=True
    ):
        wins = [0.0] * n
        turns: Counter[int] = Counter()
        for w, t in chunks:
            wins = [a + b for a, b in zip(wins, w, strict=True)]
            turns.update(t)
        expected = games / n
        chi2 = sum((w - expected) ** 2 / expected for w in wins)
        out.append(
            SeatOrderCell(
                edition=ed,
                players=n,
                match=defaults(ed)["match"],
                bot=bot,
                games=games,
                wins=tuple(wins),
                rates=tuple(proportion(w, games) for w in wins),
                fair=1 / n,
                chi2=chi2,
                p_value=chi_square_sf(chi2, n - 1),
                turns=Distribution.of(turns).mean,
            )
        )
    return out


# --------------------------------------------------------------------------- game length


@dataclass(frozen=True)
class LengthCell:
    """How long games last under one edition and match format."""

    edition: str
    match: str
    players: int
    bot: str
    games: int
    actions: Distribution
    turns: Distribution
    rounds: Distribution


_Length = tuple[int, int, int]  # actions, turns, rounds of one game


def _length_chunk(
    edition: str,
    players: int,
    options: dict[str, Any],
    bot: str,
    seed: int,
    start: int,
    count: int,
    on_game: OnGame | None,
) -> list[_Length]:
    out = []
    for i in range(start, start + count):
        final = _self_play(edition, players, options, bot, seed + i)
        out.append((final.moves, count_turns(final.events()), final.round))
        if on_game:
            on_game()
    return out


def _lengths(chunks: Iterable[list[_Length]]) -> tuple[list[int], list[int], list[int]]:
    """Per-game actions, turns and rounds, in game order."""
    games = [g for chunk in chunks for g in chunk]
    return [g[0] for g in games], [g[1] for g in games], [g[2] for g in games]


def game_length(
    games: int,
    seed: int,
    *,
    editions: Sequence[str] = EDITIONS,
    matches: Sequence[str] = MATCHES,
    players: int = PLAYERS,
    bot: str = BOT,
    workers: int = 1,
    on_game: OnGame | None = None,
) -> list[LengthCell]:
    """Actions, turns and rounds per game for each edition and match format (other options
    at the edition's defaults)."""
    cells = _length_cells(editions, matches, players, bot)
    out = []
    for (ed, n, opts, _), chunks in zip(
        cells, _run_chunks(_length_chunk, cells, games, seed, workers, on_game), strict=True
    ):
        actions, turns, rounds = _lengths(chunks)
        out.append(
            LengthCell(
                edition=ed,
                match=opts["match"],
                players=n,
                bot=bot,
                games=games,
                actions=Distribution.of(Counter(actions)),
                turns=Distribution.of(Counter(turns)),
                rounds=Distribution.of(Counter(rounds)),
            )
        )
    return out


# --------------------------------------------------------------------------- card effects


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


def _card_chunk(
    edition: str,
    players: int,
    options: dict[str, Any],
    bot: str,
    seed: int,
    start: int,
    count: int,
    on_game: OnGame | None,
) -> _CardCounts:
    counts = _CardCounts()
    threshold = make_rules(edition, players=players, **options).max_total - DANGER_MARGIN
    for i in range(start, start + count):
        watcher = _HandWatcher(counts, threshold)
        final = _self_play(edition, players, options, bot, seed + i, on_state=watcher)
        for card, survived, knocked in danger_outcomes(final.events(), threshold):
            counts.played[card] += 1
            counts.survived[card] += survived
            counts.knocked[card] += knocked
        if on_game:
            on_game()
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
    cells = _card_cells(editions, players, bot)
    out = []
    for (ed, n, opts, _), chunks in zip(
        cells, _run_chunks(_card_chunk, cells, games, seed, workers, on_game), strict=True
    ):
        c = _CardCounts()
        for chunk in chunks:
            c.merge(chunk)
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


# --------------------------------------------------------------------------- house rules


@dataclass(frozen=True)
class HouseRuleCell:
    """Game length (all ``bot``) and the strong bot's edge (one strong bot against
    ``bot`` opponents, rotating seats) under one rule set."""

    edition: str
    rule: str  # "defaults" or "option=value"
    options: dict[str, Any]
    players: int
    bot: str
    games: int
    actions: Estimate
    turns: Estimate
    rounds: Estimate
    turns_vs_default: Estimate  # difference of mean turns from the defaults
    strong: str
    strong_options: dict[str, Any]
    strong_games: int
    strong_wins: float
    win_rate: Estimate
    fair: float
    edge: Estimate  # win rate - fair share
    edge_vs_default: Estimate  # difference of edges from the defaults


def house_rule_sets(edition: str) -> list[tuple[str, dict[str, Any]]]:
    """``("defaults", {})`` and one ``("option=value", {option: value})`` per house rule."""
    base = defaults(edition)
    sets: list[tuple[str, dict[str, Any]]] = [("defaults", {})]
    for option, value in HOUSE_RULES:
        if value is None:
            value = not base[option]
        text = ("on" if value else "off") if isinstance(value, bool) else str(value)
        sets.append((f"{option}={text}", {option: value}))
    return sets


def _edge_chunk(
    edition: str,
    players: int,
    options: dict[str, Any],
    bot: str,
    strong: str,
    strong_options: dict[str, Any],
    seed: int,
    start: int,
    count: int,
    on_game: OnGame | None,
) -> list[float]:
    """The strong bot's share of the win in each game (a tie shares it)."""
    rules = make_rules(edition, players=players, **options)
    wins = []
    for i in range(start, start + count):
        game_seed = seed + i
        seat = i % players  # the strong bot takes every seat in turn
        bots = [
            build_bot(strong, game_seed * 10 + s, strong_options)
            if s == seat
            else build_bot(bot, game_seed * 10 + s)
            for s in range(players)
        ]
        final = play_game(rules, bots, game_seed)
        wins.append(1 / len(final.winners) if seat in final.winners else 0.0)
        if on_game:
            on_game()
    return wins


def house_rules(
    games: int,
    seed: int,
    *,
    strong_games: int | None = None,
    strong: str | None = None,
    strong_options: dict[str, Any] | None = None,
    editions: Sequence[str] = EDITIONS,
    players: int = PLAYERS,
    bot: str = BOT,
    workers: int = 1,
    on_game: OnGame | None = None,
    on_edges: Callable[[], None] | None = None,
) -> list[HouseRuleCell]:
    """Each house rule against the edition's defaults: mean length of ``games`` games of
    ``bot`` self-play, and the win rate of ``strong`` (default: ``strong_default()``) over
    ``strong_games`` (default: ``default_strong_games(games)``) games against
    ``players - 1`` ``bot`` opponents, in every seat in turn. ``on_edges()`` is called
    between the two: the length games are done, the strong bot's begin."""
    strong = strong or strong_default()
    strong_options = dict(strong_options or {})
    n_strong = default_strong_games(games) if strong_games is None else strong_games
    sets = _house_sets(editions)
    length_cells = _house_length_cells(editions, players, bot)
    edge_cells = _edge_cells(editions, players, bot, strong, strong_options)
    lengths = _run_chunks(_length_chunk, length_cells, games, seed, workers, on_game)
    if on_edges:
        on_edges()
    edges = _run_chunks(_edge_chunk, edge_cells, n_strong, seed, workers, on_game)
    rows: list[HouseRuleCell] = []
    # Cells share their seeds, so the same game index deals the same first hands under
    # every rule set: differences from the defaults are paired, game by game.
    base_turns: list[int] = []
    base_wins: list[float] = []
    for (ed, label, opts), length_chunks, edge_chunks in zip(sets, lengths, edges, strict=True):
        actions, turns, rounds = _lengths(length_chunks)
        wins = [w for chunk in edge_chunks for w in chunk]
        if label == "defaults":
            base_turns, base_wins = turns, wins
        rate = proportion(sum(wins), n_strong)
        rows.append(
            HouseRuleCell(
                edition=ed,
                rule=label,
                options=opts,
                players=players,
                bot=bot,
                games=games,
                actions=mean_of(actions),
                turns=mean_of(turns),
                rounds=mean_of(rounds),
                turns_vs_default=paired_difference(turns, base_turns),
                strong=strong,
                strong_options=strong_options,
                strong_games=n_strong,
                strong_wins=sum(wins),
                win_rate=rate,
                fair=1 / players,
                edge=rate.shifted(-1 / players),
                edge_vs_default=paired_difference(wins, base_wins),
            )
        )
    return rows


# --------------------------------------------------------------------------- everything


@dataclass(frozen=True)
class Analysis:
    """Every experiment of one run, and what it takes to repeat it.

    A run stopped early keeps the experiments it finished; the others are empty and
    ``stopped_during`` names the phase it was in."""

    games: int
    strong_games: int
    seed: int
    strong: str
    strong_options: dict[str, Any]
    seat_order: tuple[SeatOrderCell, ...]
    game_length: tuple[LengthCell, ...]
    card_effects: tuple[CardEffects, ...]
    house_rules: tuple[HouseRuleCell, ...]
    stopped_during: str | None = None

    @property
    def partial(self) -> bool:
        return self.stopped_during is not None

    def to_dict(self) -> dict[str, Any]:
        return cast(dict[str, Any], to_plain(self))


EXPERIMENTS = ("seat_order", "game_length", "card_effects", "house_rules")  # Analysis fields


@dataclass(frozen=True)
class Phase:
    """One stretch of a run: games of one kind, cell after cell.

    ``cells`` holds, in the order they are played, each cell's games and the seconds one of
    them is expected to take in one process (``costs.py``); ``known`` is False when those
    seconds are only right relative to each other (a strong bot with options, or one not
    measured). ``experiment`` is the ``Analysis`` field the phase feeds: the house rules
    take two phases, the greedy games and then the strong bot's."""

    name: str
    experiment: str
    bots: str  # who plays, in words
    cells: tuple[tuple[int, float], ...]
    known: bool = True

    @property
    def games(self) -> int:
        return sum(n for n, _ in self.cells)

    def prior_seconds(self, start: int = 0, stop: int | None = None) -> float:
        """The expected seconds of games ``start`` to ``stop`` of the phase."""
        stop = self.games if stop is None else stop
        total, first = 0.0, 0
        for n, cost in self.cells:
            overlap = min(stop, first + n) - max(start, first)
            if overlap > 0:
                total += overlap * cost
            first += n
        return total


def default_strong_games(games: int) -> int:
    """The strong bot's games per rule set when not given: one per ``STRONG_SHARE`` games."""
    return max(1, math.ceil(games / STRONG_SHARE))


def _phase(
    name: str, experiment: str, cells: Sequence[Cell], games: int, bot_options: bool = False
) -> Phase:
    """A phase playing ``games`` games of each cell (``bot_options``: its strong bot has
    options, which change what its games cost)."""
    priced: list[tuple[int, float]] = []
    lineups = []
    for ed, players, opts, bot, *strong in cells:
        lineup = [strong[0], *[bot] * (players - 1)] if strong else [bot] * players
        match = opts.get("match", defaults(ed)["match"])
        priced.append((games, game_seconds(ed, match, lineup)))
        lineups.append(lineup)
    bots = " vs ".join(dict.fromkeys(lineups[0]))
    known = not bot_options and all(costs.known(lineup) for lineup in lineups)
    return Phase(name, experiment, bots, tuple(priced), known)


def plan(
    games: int,
    strong_games: int | None = None,
    strong: str | None = None,
    strong_options: dict[str, Any] | None = None,
) -> tuple[Phase, ...]:
    """The phases ``run_all`` goes through with these settings, in order."""
    strong = strong or strong_default()
    n_strong = default_strong_games(games) if strong_games is None else strong_games
    opts = dict(strong_options or {})
    e, n, b = EDITIONS, PLAYERS, BOT
    return (
        _phase("seat order", "seat_order", _seat_cells(e, PLAYER_COUNTS, b), games),
        _phase("game length", "game_length", _length_cells(e, MATCHES, n, b), games),
        _phase("card effects", "card_effects", _card_cells(e, n, b), games),
        _phase("house rules", "house_rules", _house_length_cells(e, n, b), games),
        _phase(
            "strong bot's edge",
            "house_rules",
            _edge_cells(e, n, b, strong, opts),
            n_strong,
            bot_options=bool(opts),
        ),
    )


def game_counts(games: int, strong_games: int) -> int:
    """How many games ``run_all`` plays."""
    return sum(p.games for p in plan(games, strong_games))


class Run:
    """One run of every experiment, phase by phase: ``phases`` says what it will play,
    ``run()`` plays it, and after an interruption ``partial()`` gives what it finished."""

    def __init__(
        self,
        games: int,
        seed: int,
        *,
        strong_games: int | None = None,
        strong: str | None = None,
        strong_options: dict[str, Any] | None = None,
        workers: int = 1,
    ) -> None:
        self.games = games
        self.seed = seed
        self.strong = strong or strong_default()
        self.strong_games = default_strong_games(games) if strong_games is None else strong_games
        self.strong_options = dict(strong_options or {})
        self.workers = workers
        self.phases = plan(games, self.strong_games, self.strong, self.strong_options)
        self.current: Phase | None = None  # the phase being played
        self.finished: dict[str, tuple[Any, ...]] = {}  # experiments done, by Analysis field

    def run(
        self, on_game: OnGame | None = None, on_phase: Callable[[Phase], None] | None = None
    ) -> Analysis:
        """Play every phase: ``on_phase(phase)`` as each begins, ``on_game()`` after each
        game (see ``_run_chunks`` for several workers)."""

        def begin(name: str) -> None:
            self.current = next(p for p in self.phases if p.name == name)
            if on_phase:
                on_phase(self.current)

        common: dict[str, Any] = {"workers": self.workers, "on_game": on_game}
        g, seed = self.games, self.seed
        begin("seat order")
        self.finished["seat_order"] = tuple(seat_order(g, seed, **common))
        begin("game length")
        self.finished["game_length"] = tuple(game_length(g, seed, **common))
        begin("card effects")
        self.finished["card_effects"] = tuple(card_effects(g, seed, **common))
        begin("house rules")
        house = house_rules(
            g,
            seed,
            strong_games=self.strong_games,
            strong=self.strong,
            strong_options=self.strong_options,
            on_edges=lambda: begin("strong bot's edge"),
            **common,
        )
        self.finished["house_rules"] = tuple(house)
        self.current = None
        return self._analysis()

    def partial(self) -> Analysis | None:
        """The experiments finished so far, marked as stopped during the current phase;
        None when none finished."""
        if not self.finished:
            return None
        return self._analysis()

    def _analysis(self) -> Analysis:
        return Analysis(
            games=self.games,
            strong_games=self.strong_games,
            seed=self.seed,
            strong=self.strong,
            strong_options=dict(self.strong_options),
            **{name: self.finished.get(name, ()) for name in EXPERIMENTS},
            stopped_during=None if self.current is None else self.current.name,
        )


def run_all(
    games: int,
    seed: int,
    *,
    strong_games: int | None = None,
    strong: str | None = None,
    strong_options: dict[str, Any] | None = None,
    workers: int = 1,
    on_game: OnGame | None = None,
    on_phase: Callable[[Phase], None] | None = None,
) -> Analysis:
    """All four experiments with ``games`` games per cell and ``strong_games`` (default:
    ``default_strong_games(games)``) for the strong bot's games."""
    return Run(
        games,
        seed,
        strong_games=strong_games,
        strong=strong,
        strong_options=strong_options,
        workers=workers,
    ).run(on_game, on_phase)


__all__ = [
    "DANGER_MARGIN",
    "EXPERIMENTS",
    "Analysis",
    "CardEffects",
    "CardRow",
    "Distribution",
    "Estimate",
    "HouseRuleCell",
    "LengthCell",
    "Phase",
    "Run",
    "SeatOrderCell",
    "build_bot",
    "card_effects",
    "chi_square_sf",
    "count_turns",
    "danger_outcomes",
    "default_strong_games",
    "game_counts",
    "game_length",
    "house_rule_sets",
    "house_rules",
    "mean_of",
    "paired_difference",
    "plan",
    "proportion",
    "run_all",
    "seat_order",
    "strong_default",
    "to_plain",
]
