"""The runner of batches of games (``play_batch``): it plays them here, in local worker
processes, or on a Dask cluster, and hands back the same results in the same order.

A batch (``Batch``) says how many games it holds and plays game ``i`` on request; it must
pickle, so that its games can be played in other processes. ``play_batch`` hands its results
back in game order whoever played them, so everything computed from them is the same whatever
the number of workers. Which seeds game ``i`` is played with is ``seeding.py``'s rule.
"""

from __future__ import annotations

import math
import os
import queue
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from .processes import context as workers_context
from .processes import ignore_sigint, sigint_held

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)

MAX_CHUNK = 64  # games per task sent to a worker: few enough for a lively progress bar
POLL = 0.1  # seconds between looks at ``stop`` while waiting for workers
IN_FLIGHT = 4  # chunks handed out per worker at a time: enough to keep it busy


def cores() -> int:
    """The cores this process may run on (fewer than the machine's in a container): the
    default number of worker processes."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


# --------------------------------------------------------------------------- the runner


class Batch(Protocol[R_co]):
    """Games to play: ``games`` of them, game ``index`` played by ``play(index)``, which must
    give the same result wherever and whenever it runs."""

    @property
    def games(self) -> int: ...

    def play(self, index: int) -> R_co: ...


def play_chunk(batch: Batch[R], start: int, end: int) -> list[R]:
    """Games ``start`` to ``end - 1``: the unit of work sent to a worker."""
    return [batch.play(i) for i in range(start, end)]


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Game ranges for ``workers`` workers: about 16 per worker, none above ``MAX_CHUNK``."""
    size = max(1, min(MAX_CHUNK, math.ceil(games / (max(1, workers) * 16))))
    return [(a, min(a + size, games)) for a in range(0, games, size)]


Done = Callable[[int], None]
Stop = Callable[[], bool]
Chunks = Generator[tuple[int, list[Any]], None, None]  # (chunk number, its results)


def play_batch(
    batch: Batch[R],
    *,
    workers: int = 1,
    address: str | None = None,
    on_done: Done | None = None,
    stop: Stop | None = None,
) -> Generator[R, None, None]:
    """The result of every game of ``batch``, in game order whoever plays them.

    ``address`` sends the games to the Dask scheduler there; otherwise ``workers`` above 1
    plays them in that many local processes, and 1 plays them here. ``on_done(k)`` is told
    each time ``k`` more games are finished (in any order), for progress bars. ``stop()`` is
    asked between games and while waiting for workers: once it is true, the workers are
    stopped and the games end early (still the first ones, in order). Polling is how a
    signal handler stops a run safely; an exception (a Ctrl-C that is let through) or closing
    the generator stops the local workers at once too."""
    source: Chunks
    if address is not None:
        source = _dask_chunks(batch, address, stop)
    elif workers > 1 and batch.games > 1:
        source = _process_chunks(batch, workers, stop)
    else:
        source = _serial_chunks(batch, stop)
    try:
        yield from in_order(source, on_done)
    finally:
        source.close()  # stops the workers at once if the caller stops early


def in_order(chunks: Iterable[tuple[int, list[R]]], on_done: Done | None = None) -> Iterator[R]:
    """The games of numbered chunks arriving in any order, in chunk order: each chunk is
    held back until all those before it have arrived."""
    pending: dict[int, list[R]] = {}
    following = 0
    for k, results in chunks:
        if on_done:
            on_done(len(results))
        pending[k] = results
        while following in pending:
            yield from pending.pop(following)
            following += 1


def _serial_chunks(batch: Batch[Any], stop: Stop | None) -> Chunks:
    for i in range(batch.games):
        if stop is not None and stop():
            return
        yield i, play_chunk(batch, i, i + 1)


def _process_chunks(batch: Batch[Any], workers: int, stop: Stop | None) -> Chunks:
    """(chunk number, results) from a local process pool, in order of completion. The pool
    is terminated on the way out, whatever the way: a chunk under way is not waited for."""
    ranges = list(enumerate(chunks(batch.games, workers)))
    ranges.reverse()  # popped from the end: first chunks first
    window = IN_FLIGHT * workers
    finished: Finished = queue.SimpleQueue()
    pool = None
    try:
        with sigint_held():  # half-started, a pool leaves workers that nobody stops
            pool = workers_context().Pool(
                min(workers, len(ranges)), initializer=_take_batch, initargs=(batch,)
            )
        running = 0
        while ranges or running:
            while ranges and running < window:
                k, (a, b) = ranges.pop()
                pool.apply_async(
                    _play_range,
                    (a, b),
                    callback=_put(finished, k),
                    error_callback=_put_error(finished, k),
                )
                running += 1
            if stop is not None and stop():
                return
            try:
                k, result, exc = finished.get(timeout=POLL)
            except queue.Empty:
                continue
            running -= 1
            if exc is not None:
                raise exc
            yield k, result
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


# The batch a pool's worker plays, handed to it once when it starts. Tasks are then two
# numbers each: a task that carried the batch (bots and all) could fill the pipe to the
# workers, and Pool.terminate deadlocks on a task handler blocked writing to a full pipe
# that no worker reads any more (a test that stops a batch early hung the whole suite).
_batch: Batch[Any] | None = None


def _take_batch(batch: Batch[Any]) -> None:
    """A pool's initializer: keep ``batch``, and ignore Ctrl-C (``processes.ignore_sigint``)."""
    global _batch
    _batch = batch
    ignore_sigint()


def _play_range(start: int, end: int) -> list[Any]:
    assert _batch is not None, "a worker of _process_chunks' pool"
    return play_chunk(_batch, start, end)


Finished = queue.SimpleQueue[tuple[int, Any, BaseException | None]]


def _put(finished: Finished, k: int) -> Callable[[Any], None]:
    """A pool callback: chunk ``k``'s results arrived."""
    return lambda result: finished.put((k, result, None))


def _put_error(finished: Finished, k: int) -> Callable[[BaseException], None]:
    """A pool callback: chunk ``k`` raised."""
    return lambda exc: finished.put((k, None, exc))


def _dask_chunks(batch: Batch[Any], address: str, stop: Stop | None) -> Chunks:
    """(chunk number, results) from the Dask cluster at ``address``, in order of completion.
    Its workers must have this version of ono99 installed."""
    from dask.distributed import Client, as_completed

    try:
        client = Client(address, timeout="20s")
    except (OSError, ValueError) as exc:  # unreachable, or not an address at all
        raise ConnectionError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        threads = sum(client.nthreads().values()) or 1
        ranges = list(enumerate(chunks(batch.games, threads)))
        ranges.reverse()
        window = IN_FLIGHT * threads
        running: dict[Any, tuple[int, Any]] = {}  # the futures, by key: dropping one cancels it
        finished = as_completed()
        try:
            while ranges or running:
                batch_ranges = [
                    ranges.pop() for _ in range(min(len(ranges), window - len(running)))
                ]
                if batch_ranges:
                    starts = [a for _, (a, _) in batch_ranges]
                    ends = [b for _, (_, b) in batch_ranges]
                    futures = client.map(
                        play_chunk, [batch] * len(batch_ranges), starts, ends, pure=False
                    )
                    for (k, _), future in zip(batch_ranges, futures, strict=True):
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


__all__ = [
    "Batch",
    "chunks",
    "cores",
    "in_order",
    "play_batch",
    "play_chunk",
]
