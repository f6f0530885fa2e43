"""The progress of ``ono99 analyze``: one bar per phase, and a time left that each phase's own
speed sets.

The phases of a run (``ono99.sim.experiments.plan``) cost very different amounts per game: a
game with the expert costs hundreds of greedy games, and a tokens match ten single games. One
rate over all the games would promise seconds before the expensive phase and then run for
an hour, so each phase is estimated from its own games:

- a phase under way: the prior seconds of its remaining games (``ono99.sim.costs``) times
  the ratio of the time its finished games took to their priors;
- a phase not started: its prior seconds times that ratio over the games finished so far
  by the same bots (how fast this machine is right now), else over every game finished,
  but never faster than the priors; before any game, the priors over the workers;
- a phase whose bots' cost is not known (a strong bot with options) adds nothing until it has
  played a game, and the total left is then shown as a lower bound.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from ..sim.experiments import Phase

PLAIN_EVERY = 30.0  # seconds between progress lines when stderr is not a terminal


def clock_text(seconds: float) -> str:
    """``0:03:12``, as rich's time columns write it."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:d}:{minutes:02d}:{secs:02d}"


class PhaseClock:
    """Games finished and time spent per phase, and the time left that they imply."""

    def __init__(
        self,
        phases: Sequence[Phase],
        workers: int = 1,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.phases = tuple(phases)
        self.workers = max(1, workers)
        self.now = now
        self.done = [0] * len(self.phases)
        self.started: list[float | None] = [None] * len(self.phases)
        self.ended: list[float | None] = [None] * len(self.phases)
        self.current: int | None = None

    def begin(self, phase: Phase) -> int:
        """Phase ``phase`` starts now (and the one before it has ended); its index."""
        at = self.now()
        if self.current is not None:
            self.ended[self.current] = at
        self.current = self.phases.index(phase)
        self.started[self.current] = at
        return self.current

    def tick(self) -> None:
        if self.current is not None:
            self.done[self.current] += 1

    def _spent(self, i: int, at: float) -> float:
        start = self.started[i]
        if start is None:
            return 0.0
        end = self.ended[i]
        return (at if end is None else end) - start

    def speed(self, at: float, bots: str | None = None) -> float:
        """Seconds taken per prior second, over the games finished in phases of known cost
        played by ``bots`` (None: by anyone); before any, the priors shared among the
        workers."""
        spent = prior = 0.0
        for i, phase in enumerate(self.phases):
            if self.done[i] and phase.known and bots in (None, phase.bots):
                spent += self._spent(i, at)
                prior += phase.prior_seconds(0, self.done[i])
        return spent / prior if prior > 0 else 1 / self.workers

    def _speed_for(self, phase: Phase, at: float) -> float:
        """The speed to expect of a phase not started: that of the same bots if they have
        played, else that of the run so far but never faster than the priors. Other bots
        being slow says the machine is busy; their being fast may only say that their prior
        was cautious, and a too-early finish is the promise this estimate must not make."""
        if any(
            self.done[i] and p.known and p.bots == phase.bots for i, p in enumerate(self.phases)
        ):
            return self.speed(at, phase.bots)
        return max(self.speed(at), 1 / self.workers)

    def left(self, i: int, at: float | None = None) -> tuple[float, str]:
        """Seconds left in phase ``i`` and how they are known: "done", "measured" (from the
        phase's own games), "prior" (from the run's speed and the phase's prior) or
        "unknown" (0 seconds: nothing to go on yet)."""
        at = self.now() if at is None else at
        phase, done = self.phases[i], self.done[i]
        if done >= phase.games:
            return 0.0, "done"
        if done:
            rate = self._spent(i, at) / max(phase.prior_seconds(0, done), 1e-12)
            return phase.prior_seconds(done) * rate, "measured"
        if not phase.known:
            return 0.0, "unknown"
        expected = phase.prior_seconds() * self._speed_for(phase, at)
        return max(0.0, expected - self._spent(i, at)), "prior"

    def total_left(self, at: float | None = None) -> tuple[float, bool]:
        """Seconds left in the whole run, and whether that is only a lower bound."""
        at = self.now() if at is None else at
        parts = [self.left(i, at) for i in range(len(self.phases))]
        return sum(s for s, _ in parts), any(kind == "unknown" for _, kind in parts)

    def total_text(self, at: float | None = None) -> str:
        seconds, lower_bound = self.total_left(at)
        return ("at least " if lower_bound else "") + clock_text(seconds)


class LeftColumn(ProgressColumn):
    """The time left of a phase's row (``~`` before it has measured its own games, ``?``
    when there is nothing to go on), or of the whole run on the row without a phase."""

    def __init__(self, clock: PhaseClock) -> None:
        super().__init__()
        self.clock = clock

    def render(self, task: Task) -> Text:
        i = task.fields.get("phase")
        if i is None:
            seconds, lower_bound = self.clock.total_left()
            return Text(("≥" if lower_bound else "") + clock_text(seconds) + " left", "bold")
        seconds, kind = self.clock.left(i)
        if kind == "done":
            return Text("done", "progress.elapsed")
        if kind == "unknown":
            return Text("? left", "progress.remaining")
        mark = "~" if kind == "prior" else ""
        return Text(f"{mark}{clock_text(seconds)} left", "progress.remaining")


class Tracker:
    """The callbacks ``ono99.sim.experiments.Run`` takes, feeding a clock and a display."""

    def __init__(self, clock: PhaseClock) -> None:
        self.clock = clock

    def on_phase(self, phase: Phase) -> None:
        self.clock.begin(phase)

    def on_game(self) -> None:
        self.clock.tick()


class BarTracker(Tracker):
    def __init__(self, clock: PhaseClock, progress: Progress) -> None:
        super().__init__(clock)
        self.progress = progress
        self.tasks = [
            progress.add_task(p.name, total=p.games, start=False, phase=i, bots=p.bots)
            for i, p in enumerate(clock.phases)
        ]
        total = sum(p.games for p in clock.phases)
        self.all = progress.add_task("all phases", total=total, phase=None, bots="")

    def on_phase(self, phase: Phase) -> None:
        self.progress.start_task(self.tasks[self.clock.begin(phase)])

    def on_game(self) -> None:
        self.clock.tick()
        if self.clock.current is not None:
            self.progress.advance(self.tasks[self.clock.current])
        self.progress.advance(self.all)


class LineTracker(Tracker):
    """Progress as plain lines on stderr: one as each phase begins, and one every
    ``PLAIN_EVERY`` seconds."""

    def __init__(self, clock: PhaseClock, console: Console) -> None:
        super().__init__(clock)
        self.console = console
        self.last = clock.now()

    def on_phase(self, phase: Phase) -> None:
        i = self.clock.begin(phase)
        self.last = self.clock.now()
        self.console.print(
            f"analyze: {phase.name} ({i + 1}/{len(self.clock.phases)}): {phase.games:,} games "
            f"of {phase.bots} · about {self.clock.total_text()} left in all",
            soft_wrap=True,
        )

    def on_game(self) -> None:
        self.clock.tick()
        at = self.clock.now()
        i = self.clock.current
        if i is None or at - self.last < PLAIN_EVERY:
            return
        self.last = at
        phase = self.clock.phases[i]
        self.console.print(
            f"analyze: {phase.name} {self.clock.done[i]:,}/{phase.games:,} games · "
            f"about {self.clock.total_text(at)} left in all",
            soft_wrap=True,
        )


@contextmanager
def phase_progress(phases: Sequence[Phase], workers: int, console: Console) -> Iterator[Tracker]:
    """Progress of a run's phases on ``console``: live bars on a terminal (gone when the
    run ends), else plain lines."""
    clock = PhaseClock(phases, workers)
    if not console.is_terminal:
        yield LineTracker(clock, console)
        return
    columns = (
        TextColumn("{task.description}"),
        TextColumn("{task.fields[bots]}", style="dim"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        LeftColumn(clock),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        yield BarTracker(clock, progress)
