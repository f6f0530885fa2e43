"""Tournaments: many games between a lineup of bots, seats rotated, results with intervals.

A ``Tournament`` names the rules, the lineup (one bot per seat; a name may repeat), the number
of games and a seed. Game ``i`` is a pure function of those: its seed and its bots' seeds are
hashed from (tournament seed, ``i``), and it seats the lineup rotated by ``i mod n``, so over
any ``n`` consecutive games every lineup entry sits in every seat once. Games can therefore be
played anywhere, in any order, in any grouping — serially, in local processes, or on a Dask
cluster — and ``play_games`` hands them back in game order, so everything computed from them
(the ``games.jsonl`` file, the summary, the ratings) is the same whatever played them.

Results (``Results``) count a win shared by tied winners as a share (1/k each). Win rates come
with 95% Wilson intervals, per bot name and per seat. A name with several copies in the lineup
(``expert,greedy,greedy,greedy``) is counted per seat taken: its trials are its seat-games;
since at most one copy can take a whole win, the copies' results are negatively correlated
and the binomial interval is, if anything, conservative.

Ratings (``Ratings``, needs ``openskill``): Weng–Lin Plackett–Luce, one rating per bot *name*,
updated game by game in game order. In a game every seat is a separate team of one, rated with
its name's rating before the game; ranks come from the finishing order (``finishing_order``),
tied seats sharing a rank (openskill gives tied seats the same change). The updates of a
name's copies are then pooled: the changes of their means add up and their variance reductions
multiply, as if each copy's result were separate evidence about the one bot. Copies playing
each other cancel out (Plackett–Luce updates between equal ratings sum to zero), so a mirror
match moves nothing, and a bot with three copies is not rated three times over. ``tau`` is 0:
a bot's strength does not drift between games, so no extra uncertainty is added each game.
The copies' results within one game are not independent (they share the deal), so the pooled
sigma is somewhat optimistic; the win-rate intervals are the figures to quote.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from ..bots import bot_info, check_bot, make_bot
from ..engine import Rules, State, record_of
from .driver import play_game
from .stats import wilson_interval
from .workers import context as workers_context
from .workers import ignore_sigint

SUMMARY_FORMAT = "ono99-tournament/1"
MAX_CHUNK = 64  # games per task sent to a worker: few enough for a lively progress bar


@dataclass(frozen=True)
class Tournament:
    """What to play: ``games`` games of ``rules`` between ``bots`` (the lineup), from ``seed``."""

    rules: Rules
    bots: tuple[str, ...]
    games: int
    seed: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "bots", tuple(self.bots))
        if len(self.bots) != self.rules.players:
            raise ValueError(
                f"{self.rules.players} players need {self.rules.players} bots, not {len(self.bots)}"
            )
        if self.games < 0:
            raise ValueError(f"games must not be negative, not {self.games}")
        for name in dict.fromkeys(self.bots):
            check_bot(name)  # an unknown or missing bot raises UnknownBotError now, not in a worker

    def seating(self, index: int) -> tuple[str, ...]:
        """The bot at each seat in game ``index``: the lineup rotated by ``index mod n``."""
        r = index % len(self.bots)
        return self.bots[r:] + self.bots[:r]

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
        }


def derived_seed(*parts: object) -> int:
    """A seed hashed from ``parts``; below 2**53 so that any JSON reader keeps it exact."""
    text = ":".join(["ono99-tournament", *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 11


@dataclass(frozen=True)
class GameResult:
    """One game of a tournament: who sat where, who won, how everyone finished, its record."""

    index: int
    seed: int
    bots: tuple[str, ...]  # per seat
    winners: tuple[int, ...]
    finish: tuple[tuple[int, ...], ...]  # seats grouped best first; a group is a tie
    actions: int
    rounds: int
    record: str  # the game record (RULES.md N3), one line of JSON


def finishing_order(state: State) -> tuple[tuple[int, ...], ...]:
    """The seats of a finished game grouped by place, best first; seats in one group tie.

    The winners share first place. Everyone else placed by when they left the game — later
    is better — from ``state.out``. In a points match (M3) players leave at the end of a
    round, several at once, so those leaving after the same round are ordered by score,
    lower being better (equal scores tie); players never out (variant ``lowest_score``) are
    the last to leave."""
    n = state.rules.players
    winners = set(state.winners)
    points = state.scores is not None
    left: dict[int, int] = {}
    if points:
        round_ended = 0
        for event in state.events():
            if event.kind == "round_end":
                round_ended = event.data[0]
            elif event.kind == "left" and event.seat is not None:
                left[event.seat] = round_ended
    else:
        left = {seat: k for k, seat in enumerate(state.out)}
    never = max(left.values(), default=0) + 1

    def place(seat: int) -> tuple[int, int, int]:
        if seat in winners:
            return (0, 0, 0)
        score = state.scores[seat] if state.scores is not None else 0
        return (1, -left.get(seat, never), score)

    groups: dict[tuple[int, int, int], list[int]] = {}
    for seat in sorted(range(n), key=place):
        groups.setdefault(place(seat), []).append(seat)
    return tuple(tuple(group) for group in groups.values())


def play_one(tournament: Tournament, index: int) -> GameResult:
    """Game ``index`` of ``tournament``; the same arguments always give the same game."""
    seating = tournament.seating(index)
    seed = derived_seed(tournament.seed, index)
    bots = [
        make_bot(name, derived_seed(tournament.seed, index, "seat", seat))
        for seat, name in enumerate(seating)
    ]
    state = play_game(tournament.rules, bots, seed)
    finish = finishing_order(state)
    meta = {
        "bots": list(seating),
        "tournament": {"seed": tournament.seed, "game": index},
        "winners": list(state.winners),
        "finish": [list(group) for group in finish],
    }
    return GameResult(
        index=index,
        seed=seed,
        bots=seating,
        winners=state.winners,
        finish=finish,
        actions=state.moves,
        rounds=state.round,
        record=record_of(state, meta=meta).to_json(),
    )


def play_chunk(tournament: Tournament, start: int, end: int) -> list[GameResult]:
    """Games ``start`` to ``end - 1``: the unit of work sent to a worker."""
    return [play_one(tournament, i) for i in range(start, end)]


# --------------------------------------------------------------------------- executors


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Game ranges for ``workers`` workers: about 16 per worker, none above ``MAX_CHUNK``."""
    size = max(1, min(MAX_CHUNK, math.ceil(games / (max(1, workers) * 16))))
    return [(a, min(a + size, games)) for a in range(0, games, size)]


Done = Callable[[int], None]
Stop = Callable[[], bool]
Chunks = Generator[tuple[int, list[GameResult]], None, None]  # (chunk number, its games)
POLL = 0.1  # seconds between looks at ``stop`` while waiting for workers
IN_FLIGHT = 4  # chunks handed out per worker at a time: enough to keep it busy


def play_games(
    tournament: Tournament,
    *,
    workers: int = 1,
    address: str | None = None,
    on_done: Done | None = None,
    stop: Stop | None = None,
) -> Generator[GameResult, None, None]:
    """Every game of ``tournament``, in game order whoever plays them.

    ``address`` sends the games to the Dask scheduler there; otherwise ``workers`` above 1
    plays them in that many local processes, and 1 plays them here. ``on_done(k)`` is told
    each time ``k`` more games are finished (in any order), for progress bars. ``stop()`` is
    asked between games and while waiting for workers: once it is true, the workers are
    stopped and the games end early (still the first ones, in order). Polling is how a
    signal handler stops a run safely: an exception thrown into the middle of
    ``concurrent.futures`` can leave a lock held and hang the shutdown."""
    source: Chunks
    if address is not None:
        source = _dask_chunks(tournament, address, stop)
    elif workers > 1 and tournament.games > 1:
        source = _process_chunks(tournament, workers, stop)
    else:
        source = _serial_chunks(tournament, stop)
    try:
        yield from in_order(source, on_done)
    finally:
        source.close()  # stops the workers at once if the caller stops early


def in_order(
    chunks: Iterable[tuple[int, list[GameResult]]], on_done: Done | None = None
) -> Iterator[GameResult]:
    """The games of numbered chunks arriving in any order, in chunk order: each chunk is
    held back until all those before it have arrived."""
    pending: dict[int, list[GameResult]] = {}
    following = 0
    for k, results in chunks:
        if on_done:
            on_done(len(results))
        pending[k] = results
        while following in pending:
            yield from pending.pop(following)
            following += 1


def _serial_chunks(tournament: Tournament, stop: Stop | None) -> Chunks:
    for i in range(tournament.games):
        if stop is not None and stop():
            return
        yield i, play_chunk(tournament, i, i + 1)


def _process_chunks(tournament: Tournament, workers: int, stop: Stop | None) -> Chunks:
    """(chunk number, results) from a local process pool, in order of completion."""
    ranges = list(enumerate(chunks(tournament.games, workers)))
    ranges.reverse()  # popped from the end: first chunks first
    window = IN_FLIGHT * workers
    pool = ProcessPoolExecutor(
        min(workers, len(ranges)), mp_context=workers_context(), initializer=ignore_sigint
    )
    running: dict[Future[list[GameResult]], int] = {}
    try:
        while ranges or running:
            while ranges and len(running) < window:
                k, (a, b) = ranges.pop()
                running[pool.submit(play_chunk, tournament, a, b)] = k
            if stop is not None and stop():
                return
            done, _ = wait(running, timeout=POLL, return_when=FIRST_COMPLETED)
            for k, future in sorted((running.pop(f), f) for f in done):
                yield k, future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _dask_chunks(tournament: Tournament, address: str, stop: Stop | None) -> Chunks:
    """(chunk number, results) from the Dask cluster at ``address``, in order of completion.
    Its workers must have this version of ono99 installed."""
    from dask.distributed import Client, as_completed

    try:
        client = Client(address, timeout="20s")
    except (OSError, ValueError) as exc:  # unreachable, or not an address at all
        raise ConnectionError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        threads = sum(client.nthreads().values()) or 1
        ranges = list(enumerate(chunks(tournament.games, threads)))
        ranges.reverse()
        window = IN_FLIGHT * threads
        running: dict[Any, tuple[int, Any]] = {}  # the futures, by key: dropping one cancels it
        finished = as_completed()
        try:
            while ranges or running:
                batch = [ranges.pop() for _ in range(min(len(ranges), window - len(running)))]
                if batch:
                    starts = [a for _, (a, _) in batch]
                    ends = [b for _, (_, b) in batch]
                    futures = client.map(
                        play_chunk, [tournament] * len(batch), starts, ends, pure=False
                    )
                    for (k, _), future in zip(batch, futures, strict=True):
                        running[future.key] = (k, future)
                    finished.update(futures)
                if stop is not None and stop():
                    return
                done = finished.next_batch(block=False)
                if not done:
                    time.sleep(POLL)
                for k, future in sorted(running.pop(f.key) for f in done):
                    yield k, future.result()
        finally:
            client.cancel([future for _, future in running.values()])


# --------------------------------------------------------------------------- results


def _interval(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci95": [low, high],
    }


class Ratings:
    """Plackett–Luce ratings per bot name (openskill); see the module docstring."""

    def __init__(self, names: Iterable[str]) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce(tau=0.0)
        self.mu = {name: self.model.mu for name in names}
        self.sigma = {name: self.model.sigma for name in self.mu}

    def update(self, bots: Sequence[str], finish: Sequence[Sequence[int]]) -> None:
        """One game: ``bots`` per seat, ``finish`` the seats grouped best first."""
        place = {seat: k for k, group in enumerate(finish) for seat in group}
        teams = [[self.model.rating(mu=self.mu[b], sigma=self.sigma[b])] for b in bots]
        rated = self.model.rate(teams, ranks=[float(place[s]) for s in range(len(bots))])
        change = dict.fromkeys(bots, 0.0)
        shrink = dict.fromkeys(bots, 1.0)
        for seat, name in enumerate(bots):
            change[name] += rated[seat][0].mu - self.mu[name]
            shrink[name] *= (rated[seat][0].sigma / self.sigma[name]) ** 2
        for name in change:
            self.mu[name] += change[name]
            self.sigma[name] *= math.sqrt(shrink[name])

    def to_dict(self) -> dict[str, Any]:
        m = self.model
        return {
            "model": "openskill Plackett-Luce, one rating per bot name, copies pooled",
            "params": {"mu": m.mu, "sigma": m.sigma, "beta": m.beta, "tau": m.tau},
            "bots": [
                {
                    "bot": name,
                    "mu": self.mu[name],
                    "sigma": self.sigma[name],
                    "ordinal": self.mu[name] - 3 * self.sigma[name],
                }
                for name in self.mu
            ],
        }


def have_ratings() -> bool:
    """Whether ``openskill`` (the ``tournament`` extra) is installed."""
    try:
        import openskill  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass
class Results:
    """Everything a run of tournament games adds up to; feed it games in game order."""

    tournament: Tournament
    ratings: Ratings | None = None
    games: int = 0
    actions: int = 0
    rounds: int = 0
    shared: int = 0  # games won by tied winners
    wins: dict[str, float] = field(default_factory=dict)
    seat_games: dict[str, list[int]] = field(default_factory=dict)
    seat_wins: dict[str, list[float]] = field(default_factory=dict)
    wins_by_seat: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.tournament.bots)
        names = list(dict.fromkeys(self.tournament.bots))
        self.wins = dict.fromkeys(names, 0.0)
        self.seat_games = {name: [0] * n for name in names}
        self.seat_wins = {name: [0.0] * n for name in names}
        self.wins_by_seat = [0.0] * n

    @classmethod
    def start(cls, tournament: Tournament, *, ratings: bool = True) -> Results:
        """Empty results, with ratings when asked for and ``openskill`` is installed."""
        names = dict.fromkeys(tournament.bots)
        return cls(tournament, Ratings(names) if ratings and have_ratings() else None)

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.actions += result.actions
        self.rounds += result.rounds
        self.shared += len(result.winners) > 1
        for seat, name in enumerate(result.bots):
            self.seat_games[name][seat] += 1
        share = 1 / len(result.winners)
        for seat in result.winners:
            name = result.bots[seat]
            self.wins[name] += share
            self.seat_wins[name][seat] += share
            self.wins_by_seat[seat] += share
        if self.ratings is not None:
            self.ratings.update(result.bots, result.finish)

    def summary(self) -> dict[str, Any]:
        """The JSON-ready summary; the same games in the same order give the same summary."""
        bots = []
        for name, wins in self.wins.items():
            seat_games = self.seat_games[name]
            bot = _interval(wins, sum(seat_games))
            bot = {"bot": name, "copies": self.tournament.bots.count(name), **bot}
            if bot_info(name).sees_all:
                bot["omniscient"] = True
            bot["seat_games"] = list(seat_games)
            bot["seat_wins"] = list(self.seat_wins[name])
            bots.append(bot)
        seats = [
            {"seat": seat, **_interval(wins, self.games)}
            for seat, wins in enumerate(self.wins_by_seat)
        ]
        per_game = max(1, self.games)
        return {
            "format": SUMMARY_FORMAT,
            "config": self.tournament.to_dict(),
            "games": self.games,
            "bots": bots,
            "seats": seats,
            "ratings": None if self.ratings is None else self.ratings.to_dict(),
            "averages": {"actions": self.actions / per_game, "rounds": self.rounds / per_game},
            "shared_wins": self.shared,
        }


def run_tournament(
    tournament: Tournament,
    *,
    workers: int = 1,
    address: str | None = None,
    ratings: bool = True,
    on_game: Callable[[GameResult], None] | None = None,
    on_done: Done | None = None,
    stop: Stop | None = None,
) -> Results:
    """Play every game of ``tournament`` (or those before ``stop()``, see ``play_games``)
    and add them up; ``on_game`` sees each game, in game order (to save it, say),
    ``on_done`` counts finished games as they come in."""
    results = Results.start(tournament, ratings=ratings)
    games = play_games(tournament, workers=workers, address=address, on_done=on_done, stop=stop)
    for game in games:
        results.add(game)
        if on_game:
            on_game(game)
    return results
