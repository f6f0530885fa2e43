"""Tournaments: many games between a lineup of bots, seats rotated, results with intervals.

A ``Tournament`` names the rules, the lineup (one bot per seat; a name may repeat), the number
of games and a seed. Game ``i`` is a pure function of those: its seeds follow the one seeding
rule of ``seeding.game_seeds`` (hashed from the tournament seed and ``i``), and it seats the
lineup rotated by ``i mod n``, so over any ``n`` consecutive games every lineup entry sits in
every seat once. A tournament is a batch (``batches.Batch``): ``play_games`` has its games
played anywhere — serially, in local processes, or on a Dask cluster — and hands them back in
game order, so everything computed from them (the ``games.jsonl`` file, the summary, the
ratings) is the same whatever played them.

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

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import bot_info, check_bot
from ..engine import Rules, finishing_order, record_of
from ..ratings import model, ordinal, rate
from .batches import Done, Stop, play_batch
from .seeding import play_seeded
from .stats import wilson_interval
from .tally import Tally

SUMMARY_FORMAT = "ono99-tournament/1"


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

    def play(self, index: int) -> GameResult:
        """Game ``index`` (``play_one``): a tournament is a batch of games (``batches.Batch``)."""
        return play_one(self, index)

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
        }


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


def play_one(tournament: Tournament, index: int) -> GameResult:
    """Game ``index`` of ``tournament``; the same arguments always give the same game."""
    seating = tournament.seating(index)
    state = play_seeded(tournament.rules, seating, tournament.seed, index)
    finish = finishing_order(state)
    meta = {
        "bots": list(seating),
        "tournament": {"seed": tournament.seed, "game": index},
        "winners": list(state.winners),
        "finish": [list(group) for group in finish],
    }
    return GameResult(
        index=index,
        seed=state.setup.seed,
        bots=seating,
        winners=state.winners,
        finish=finish,
        actions=state.moves,
        rounds=state.round,
        record=record_of(state, meta=meta).to_json(),
    )


def play_games(
    tournament: Tournament,
    *,
    workers: int = 1,
    address: str | None = None,
    on_done: Done | None = None,
    stop: Stop | None = None,
) -> Generator[GameResult, None, None]:
    """Every game of ``tournament``, in game order whoever plays them (``batches.play_batch``:
    ``address`` a Dask scheduler, else ``workers`` local processes; ``on_done`` and
    ``stop`` as there)."""
    return play_batch(tournament, workers=workers, address=address, on_done=on_done, stop=stop)


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
        self.model = model(tau=0.0)
        self.mu = {name: self.model.mu for name in names}
        self.sigma = {name: self.model.sigma for name in self.mu}

    def update(self, bots: Sequence[str], finish: Sequence[Sequence[int]]) -> None:
        """One game: ``bots`` per seat, ``finish`` the seats grouped best first."""
        before = {b: (self.mu[b], self.sigma[b]) for b in bots}
        for name, (mu, sigma) in rate(self.model, before, bots, finish).items():
            self.mu[name], self.sigma[name] = mu, sigma

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
                    "ordinal": ordinal(self.mu[name], self.sigma[name]),
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
    seats: Tally = field(init=False)  # per seat whoever sat there; games, actions, rounds
    wins: dict[str, float] = field(default_factory=dict)
    seat_games: dict[str, list[int]] = field(default_factory=dict)
    seat_wins: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.tournament.bots)
        names = list(dict.fromkeys(self.tournament.bots))
        self.seats = Tally(n)
        self.wins = dict.fromkeys(names, 0.0)
        self.seat_games = {name: [0] * n for name in names}
        self.seat_wins = {name: [0.0] * n for name in names}

    @property
    def games(self) -> int:
        return self.seats.games

    @classmethod
    def start(cls, tournament: Tournament, *, ratings: bool = True) -> Results:
        """Empty results, with ratings when asked for and ``openskill`` is installed."""
        names = dict.fromkeys(tournament.bots)
        return cls(tournament, Ratings(names) if ratings and have_ratings() else None)

    def add(self, result: GameResult) -> None:
        self.seats.add(result.winners, result.actions, result.rounds)
        for seat, name in enumerate(result.bots):
            self.seat_games[name][seat] += 1
        share = 1 / len(result.winners)
        for seat in result.winners:
            name = result.bots[seat]
            self.wins[name] += share
            self.seat_wins[name][seat] += share
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
            for seat, wins in enumerate(self.seats.wins)
        ]
        actions, rounds = self.seats.averages()
        return {
            "format": SUMMARY_FORMAT,
            "config": self.tournament.to_dict(),
            "games": self.games,
            "bots": bots,
            "seats": seats,
            "ratings": None if self.ratings is None else self.ratings.to_dict(),
            "averages": {"actions": actions, "rounds": rounds},
            "shared_wins": self.seats.shared,
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
