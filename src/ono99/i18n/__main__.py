"""``python -m ono99.i18n update|check`` (see tools.py)."""

from __future__ import annotations

import sys

from .languages import LANGUAGES
from .tools import problems, update


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        for line in update():
            print(line)
        return 0
    if command == "check":
        found = [p for lang in LANGUAGES for p in problems(lang)]
        for line in found:
            print(line)
        print(f"{len(found)} problems")
        return 1 if found else 0
    print("usage: python -m ono99.i18n update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
