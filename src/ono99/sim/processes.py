"""Worker processes that play games: started clean, and deaf to Ctrl-C.

Ctrl-C reaches the whole process group. The parent alone decides what to do with it (stop,
keep what is finished, say so); a worker that took it would print a traceback of its own.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.context import BaseContext
from types import FrameType


def ignore_sigint() -> None:
    """A pool's initializer: this worker ignores Ctrl-C (for workers not forked from a
    server that already does, see ``context``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def context() -> BaseContext:
    """Where worker processes come from: a forkserver where there is one, since it starts
    clean workers even when this process has threads (a progress bar's refresh thread, a
    Dask client), which plain fork cannot do safely.

    The server is started with SIGINT blocked, a mask it and every worker forked from it
    inherit: a worker is deaf to Ctrl-C from its first instruction, not only once its
    initializer has run. (Blocked in this thread only, a Ctrl-C meanwhile still reaches this
    process, through another thread or once unblocked: it is delayed, never lost.)"""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context()
    from multiprocessing import forkserver

    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    return multiprocessing.get_context("forkserver")


@contextmanager
def sigint_held() -> Iterator[None]:
    """Hold a Ctrl-C back until the block has run, then raise it as usual. Around the start
    of a pool: interrupted half-way, it would leave workers that nobody stops, and that fail
    noisily once this process has gone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[FrameType | None] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held and callable(previous):
            previous(signal.SIGINT, held[0])


__all__ = ["context", "ignore_sigint", "sigint_held"]
