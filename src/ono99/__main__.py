"""``python -m ono99``: the ``ono99`` command."""

from .cli.main import main

if __name__ == "__main__":
    main(prog_name="ono99")
