"""The single-view encoder and the PettingZoo AEC environment, beside PettingZoo's classic card
environments (Leduc and Texas hold'em), in one run.

1. ``encode(view)``: microseconds per view, for the single-view encoder and for the batch
   encoder on a batch of one (``encode_public(public_of([v]), rules)[0]``, what ``encode``
   did before it had its own path), over the same views: every position of a few random
   4-player 2022 games, seen by the seat to play.
2. AEC steps/s: the same random-agent loop for every environment, as PettingZoo's docs write
   it (``agent_iter``, ``last``, a uniformly random action from the action mask, ``step``;
   ``None`` for a finished agent; ``reset`` at the end of each episode). Each environment is
   the one its package offers (``env()``, with its default wrappers). The ono99 rows are the
   2022 edition with 4 and 2 players, and the 4-player one with ``encode`` swapped for the batch
   encoder on a batch of one, to show what the encoder alone changed.

Rows are measured in turns (each repetition runs every row once, in order), so a change of load
on a busy machine hits all rows alike; each figure is the best and the median of ``--repeats``
repetitions of about ``--seconds`` each, after a warm-up. Run by hand, never from the tests:

    python benchmarks/bench_env.py                    # about a minute
    python benchmarks/bench_env.py --seconds 1 --repeats 3 --core 1

It needs the rl and bench extras (PettingZoo's hold'em environments need RLCard and pygame).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from bench_engine import machine_info, pin_to_one_core

from ono99.engine import Rules, State, apply, legal_actions, make_rules, new_game, view
from ono99.env import pettingzoo_env
from ono99.features import encode, encode_public, public_of


def batch_of_one(v: Any) -> np.ndarray:
    """The batch encoder on a batch of one: ``encode`` before it had its own path."""
    return encode_public(public_of([v]), v.rules)[0]


# --------------------------------------------------------------------------- encode


def positions(rules: Rules, games: int) -> list[Any]:
    """The seat to play's view of every position of ``games`` random games."""
    rng = random.Random(0)
    views = []
    for seed in range(games):
        state: State = new_game(rules, seed)
        while not state.over:
            seat = state.to_play
            assert seat is not None
            views.append(view(state, seat))
            state = apply(state, seat, rng.choice(legal_actions(state, seat)))
    return views


def time_encoder(encoder: Callable[[Any], np.ndarray], views: list[Any], seconds: float) -> float:
    """Microseconds per view, over whole passes through ``views`` for about ``seconds``."""
    done = 0
    start = time.perf_counter()
    while True:
        for v in views:
            encoder(v)
        done += len(views)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / done * 1e6


# --------------------------------------------------------------------------- AEC steps


def aec_run(make: Callable[[], Any], seconds: float, seed: int) -> float:
    """Steps/s of the random-agent loop, whole episodes, for about ``seconds``."""
    env = make()
    rng = random.Random(seed)
    steps = 0
    episode = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        # Seeded once: a seeded reset rebuilds the RLCard game inside PettingZoo's hold'em envs.
        env.reset(seed=seed) if episode == 0 else env.reset()
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                mask = observation["action_mask"]
                action = rng.choice(np.flatnonzero(mask).tolist())
            env.step(action)
            steps += 1
        episode += 1
        elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def ono99_env(players: int) -> Callable[[], Any]:
    return lambda: pettingzoo_env.env("2022", players=players)


class _EncoderSwap:
    """Runs a row with ``pettingzoo_env.encode`` set to another encoder (the module looks the
    name up at each call), then puts the real one back."""

    def __init__(self, encoder: Callable[[Any], np.ndarray] | None) -> None:
        self.encoder = encoder

    def __enter__(self) -> None:
        if self.encoder is not None:
            pettingzoo_env.encode = self.encoder  # type: ignore[assignment]

    def __exit__(self, *_: object) -> None:
        pettingzoo_env.encode = encode  # type: ignore[assignment]


def rows() -> list[tuple[str, Callable[[], Any], Callable[[Any], np.ndarray] | None]]:
    from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4

    return [
        ("ono99 2022, 4 players", ono99_env(4), None),
        ("ono99 2022, 2 players", ono99_env(2), None),
        ("ono99 2022, 4 players, batch-of-one encode", ono99_env(4), batch_of_one),
        ("PettingZoo leduc_holdem_v4", leduc_holdem_v4.env, None),
        ("PettingZoo texas_holdem_v4", texas_holdem_v4.env, None),
    ]


# --------------------------------------------------------------------------- report


def summary(values: list[float]) -> dict[str, float]:
    return {"best": max(values), "median": statistics.median(values), "worst": min(values)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per repetition")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions per row")
    parser.add_argument(
        "--core", type=int, default=None, help="CPU core to pin to (default: one of those allowed)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1:
        parser.error("--seconds must be > 0 and --repeats >= 1")
    machine = machine_info(pin_to_one_core(args.core))
    try:
        table = rows()
    except ImportError as error:
        print(f"error: {error}: pip install -e '.[rl,bench]'", file=sys.stderr)
        return 2
    progress = sys.stderr.isatty()

    views = positions(make_rules("2022", players=4), games=20)
    for v in views[:50]:  # the two encoders agree (the tests check it everywhere)
        assert encode(v).tobytes() == batch_of_one(v).tobytes()
    encoders = {"encode (single view)": encode, "batch encoder, batch of one": batch_of_one}
    enc: dict[str, list[float]] = {name: [] for name in encoders}
    aec: dict[str, list[float]] = {name: [] for name, _, _ in table}
    for _name, make, swap in table:  # warm-up
        with _EncoderSwap(swap):
            aec_run(make, min(args.seconds, 0.3), 999)
    for rep in range(args.repeats):
        for name, encoder in encoders.items():
            enc[name].append(time_encoder(encoder, views, args.seconds / 2))
        for name, make, swap in table:
            with _EncoderSwap(swap):
                aec[name].append(aec_run(make, args.seconds, rep))
        if progress:
            print(f"  repetition {rep + 1}/{args.repeats} done", file=sys.stderr)
    report = {
        "machine": machine,
        "settings": {"seconds": args.seconds, "repeats": args.repeats, "views": len(views)},
        # encode: the best time is the smallest
        "encode_us": {k: {"best": min(v), "median": statistics.median(v)} for k, v in enc.items()},
        "aec_steps_per_s": {k: summary(v) for k, v in aec.items()},
    }
    report["machine"]["load_average_at_end"] = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    m = report["machine"]
    print("ono99 single-view encoder and AEC environment, beside PettingZoo's classic card envs")
    print()
    print(f"CPU       {m['cpu']} ({m['cores']} cores, {m['pinning']})")
    print(f"Python    {m['python']}; {m['date']}")
    print(f"Load      {m['load_average_at_start']} at start, {m.get('load_average_at_end')} at end")
    print(
        f"Timing    {args.repeats} repetitions of ~{args.seconds:g} s per row, rows in turns; "
        "best and median"
    )
    print()
    print(f"encode(view), {len(views)} views of 4-player 2022 games (µs per view)")
    one, batch = (
        report["encode_us"]["encode (single view)"],
        report["encode_us"]["batch encoder, batch of one"],
    )
    for name, r in report["encode_us"].items():
        print(f"  {name:<34} best {r['best']:8.1f}   median {r['median']:8.1f}")
    print(
        f"  speed-up: {batch['best'] / one['best']:.1f}x (best), "
        f"{batch['median'] / one['median']:.1f}x (median)"
    )
    print()
    print("AEC random-agent loop (steps/s: agent_iter, last, a random legal action, step)")
    for name, r in report["aec_steps_per_s"].items():
        print(f"  {name:<44} best {r['best']:9,.0f}   median {r['median']:9,.0f}")
    ours = report["aec_steps_per_s"]["ono99 2022, 4 players"]
    for other in ("PettingZoo leduc_holdem_v4", "PettingZoo texas_holdem_v4"):
        theirs = report["aec_steps_per_s"][other]
        print(
            f"  ono99 4 players / {other.split()[1]}: {ours['best'] / theirs['best']:.2f}x (best), "
            f"{ours['median'] / theirs['median']:.2f}x (median)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
