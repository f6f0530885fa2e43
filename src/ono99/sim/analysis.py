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
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, cast

from ..bots import BOTS, Bot
from ..engine import Event, State, defaults, make_rules, to_act
from ..engine.cards import CARD_NAMES, DECK_COUNTS
from .driver import play_game
from .stats import mean_interval, wilson_interval

DANGER_MARGIN = 10
EDITIONS = ("2022", "1980")
PLAYER_COUNTS = (2, 3, 4, 5, 6)
MATCHES = ("single", "tokens", "points")
STRONG_PREFERENCE = ("expert", "heuristic", "greedy")
# The house rules compared with each edition's defaults: option -> value, None = the
# opposite of the edition's default (a boolean option).
HOUSE_RULES: tuple[tuple[str, Any], ...] = (
    ("max_total", 99),
    ("play2_deflects_play2", None),
    ("ono99_on_tens", True),
    ("negative_totals", None),
)

OnGame = Callable[[], None]


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
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [
            [
                pool.submit(job, *cell, seed, start, min(size, games - start), None)
                for start in starts
            ]
            for cell in cells
        ]
        results: list[list[Any]] = []
        for row in futures:
            chunk_results = []
            for start, fut in zip(starts, row, strict=True):
                chunk_results.append(fut.result())
                if on_game:
                    for _ in range(min(size, games - start)):
                        on_game()
            results.append(chunk_results)
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
    edition: str, players: int, bot: str, seed: int, start: int, count: int, on_game: OnGame | None
) -> tuple[list[float], Counter[int]]:
    wins = [0.0] * players
    turns: Counter[int] = Counter()
    for i in range(start, start + count):
        final = _self_play(edition, players, {}, bot, seed + i)
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
    bot: str = "greedy",
    workers: int = 1,
    on_game: OnGame | None = None,
) -> list[SeatOrderCell]:
    """Does the order of play decide games? ``bot`` in every seat, each edition's default
    rules, a random first dealer; win rates by position relative to that dealer."""
    cells = [(ed, n, bot) for ed in editions for n in players]
    out = []
    for (ed, n, _), chunks in zip(
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
    players: int = 4,
    bot: str = "greedy",
    workers: int = 1,
    on_game: OnGame | None = None,
) -> list[LengthCell]:
    """Actions, turns and rounds per game for each edition and match format (other options
    at the edition's defaults)."""
    cells = [(ed, players, {"match": m}, bot) for ed in editions for m in matches]
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
    players: int = 4,
    bot: str = "greedy",
    workers: int = 1,
    on_game: OnGame | None = None,
) -> list[CardEffects]:
    """Which cards save players and which sink them, per edition (default rules).

    For each card kind: how often a player who laid it at a dangerous total got through
    their next turn, and how often the next player did not; how often it was in a
    knocked-out hand, against how often it was in the hand of a player to play at a
    dangerous total (who, after the settling of every transition, has a card to play)."""
    cells: list[tuple[str, int, dict[str, Any], str]] = [(ed, players, {}, bot) for ed in editions]
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
    players: int = 4,
    bot: str = "greedy",
    workers: int = 1,
    on_game: OnGame | None = None,
) -> list[HouseRuleCell]:
    """Each house rule against the edition's defaults: mean length of ``games`` games of
    ``bot`` self-play, and the win rate of ``strong`` (default: ``strong_default()``) over
    ``strong_games`` games against ``players - 1`` ``bot`` opponents, in every seat in turn."""
    strong = strong or strong_default()
    strong_options = dict(strong_options or {})
    n_strong = games if strong_games is None else strong_games
    sets = [(ed, label, opts) for ed in editions for label, opts in house_rule_sets(ed)]
    length_cells = [(ed, players, opts, bot) for ed, _, opts in sets]
    edge_cells = [(ed, players, opts, bot, strong, strong_options) for ed, _, opts in sets]
    lengths = _run_chunks(_length_chunk, length_cells, games, seed, workers, on_game)
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
    """Every experiment of one run, and what it takes to repeat it."""

    games: int
    strong_games: int
    seed: int
    strong: str
    strong_options: dict[str, Any]
    seat_order: tuple[SeatOrderCell, ...]
    game_length: tuple[LengthCell, ...]
    card_effects: tuple[CardEffects, ...]
    house_rules: tuple[HouseRuleCell, ...]

    def to_dict(self) -> dict[str, Any]:
        return cast(dict[str, Any], to_plain(self))


def game_counts(games: int, strong_games: int, editions: Sequence[str] = EDITIONS) -> int:
    """How many games ``run_all`` plays (for a progress bar)."""
    e = len(editions)
    sets = 1 + len(HOUSE_RULES)
    return games * (e * len(PLAYER_COUNTS) + e * len(MATCHES) + e + e * sets) + (
        strong_games * e * sets
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
    on_stage: Callable[[str], None] | None = None,
) -> Analysis:
    """All four experiments with ``games`` games per cell (``strong_games`` for the strong
    bot's games, by default the same)."""
    strong = strong or strong_default()
    n_strong = games if strong_games is None else strong_games

    def stage(text: str) -> None:
        if on_stage:
            on_stage(text)

    stage("seat order")
    seats = seat_order(games, seed, workers=workers, on_game=on_game)
    stage("game length")
    lengths = game_length(games, seed, workers=workers, on_game=on_game)
    stage("card effects")
    cards = card_effects(games, seed, workers=workers, on_game=on_game)
    stage("house rules")
    house = house_rules(
        games,
        seed,
        strong_games=n_strong,
        strong=strong,
        strong_options=strong_options,
        workers=workers,
        on_game=on_game,
    )
    return Analysis(
        games=games,
        strong_games=n_strong,
        seed=seed,
        strong=strong,
        strong_options=dict(strong_options or {}),
        seat_order=tuple(seats),
        game_length=tuple(lengths),
        card_effects=tuple(cards),
        house_rules=tuple(house),
    )


__all__ = [
    "DANGER_MARGIN",
    "Analysis",
    "CardEffects",
    "CardRow",
    "Distribution",
    "Estimate",
    "HouseRuleCell",
    "LengthCell",
    "SeatOrderCell",
    "build_bot",
    "card_effects",
    "chi_square_sf",
    "count_turns",
    "danger_outcomes",
    "game_counts",
    "game_length",
    "house_rule_sets",
    "house_rules",
    "mean_of",
    "paired_difference",
    "proportion",
    "run_all",
    "seat_order",
    "strong_default",
    "to_plain",
]
