"""``python -m ono99``: the ``ono99`` command."""

from .cli.main import run

if __name__ == "__main__":
    run()
