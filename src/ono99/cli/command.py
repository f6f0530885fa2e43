"""Click commands whose ``--help`` examples name the program the way it was started, so that
each example works as printed (``ono99 play`` on PATH, ``/home/ana/ono99/ono99 play`` from the
launcher; ``ono99.invocation`` decides)."""

from __future__ import annotations

import re

import click

_EXAMPLE = re.compile(r"(?m)^(\s*)ono99 ")


class _Examples:
    epilog: str | None

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.epilog:
            program = ctx.find_root().info_name or "ono99"
            epilog = _EXAMPLE.sub(lambda m: f"{m.group(1)}{program} ", self.epilog)
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(epilog)


class Command(_Examples, click.Command):
    pass


class Group(_Examples, click.Group):
    pass
