"""``ono99 app``: the offline app (docs/offline.md) — ``build`` puts Pyodide's runtime into this
install from its pinned npm package, so that ``ono99 serve`` serves offline play; ``export``
writes the whole app as a static folder that any static host serves, with no server."""

from __future__ import annotations

from pathlib import Path

import click

from .command import Command, Group
from .options import CliError

_EPILOG = (
    "\b\nExamples:\n  npm ci && ono99 app build\n  ono99 app export site/\n"
    "  python -m http.server -d site/ 8000"
)


@click.group("app", cls=Group, epilog=_EPILOG)
def app_command() -> None:
    """Build the offline app, or export it as a static folder."""


@app_command.command("build", cls=Command)
@click.option(
    "--from",
    "source",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("node_modules/pyodide"),
    show_default=True,
    help="Pyodide's npm package, as `npm ci` installs it (package.json pins its version).",
)
def build_command(source: Path) -> None:
    """Copy Pyodide's runtime into this install (with a gzip copy of each file)."""
    from ..server.offline import RUNTIME, NotBuilt, build

    try:
        written = build(source)
    except NotBuilt as exc:
        raise CliError(str(exc)) from None
    size = sum(p.stat().st_size for p in written if p.suffix == ".gz")
    click.echo(f"offline app built in {RUNTIME} ({size / 1e6:.1f} MB compressed)")


@app_command.command("export", cls=Command)
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
def export_command(folder: Path) -> None:
    """Write the offline app into FOLDER (new or empty), to serve from any static host."""
    from ..server.offline import NotBuilt, export

    try:
        size = export(folder)
    except NotBuilt as exc:
        raise CliError(str(exc)) from None
    click.echo(f"wrote the offline app to {folder} ({size / 1e6:.1f} MB); serve it with e.g.")
    click.echo(f"  python -m http.server -d {folder} 8000")
