"""Runs one real server process (uvicorn, as ``ono99 serve`` does) with the ``ServerConfig``
given as JSON in argv[1], on a free loopback port, and prints its address. The cluster tests
start several: a ``ServerConfig`` has more knobs (rates, timers) than the command has flags."""

from __future__ import annotations

import json
import sys

from ono99.server import ServerConfig, run


def main() -> None:
    options = {
        k: tuple(v) if isinstance(v, list) else v for k, v in json.loads(sys.argv[1]).items()
    }
    options.setdefault("round_pause", 0)  # as in-process test servers: asked for when tested
    run(
        ServerConfig(**options),
        "127.0.0.1",
        0,
        on_ready=lambda url: print(f"served at {url}", flush=True),
    )


if __name__ == "__main__":
    main()
