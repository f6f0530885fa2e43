"""``ono99 admin``: the operator's hand on a server's players — list them, ban or unban one,
hide or show a profile. It writes the server's own database (the one ``ono99 serve --db``
uses), so a ban holds at once on every server process that shares it: each process asks the
database for a key's profile on every create, join and Play now. A player is named by their
display name (as people read it: case and look-alike letters aside) or by a player key."""

from __future__ import annotations

import datetime

import click

from ..invocation import HOME_HELP
from ..server.config import defaults
from ..session.credentials import token_hash
from ..session.setup import check_name, name_key
from ..storage import Store, StoredPlayer, open_store
from .command import Command, Group
from .options import CliError

_EPILOG = (
    "\b\nExamples:\n  ono99 admin list\n  ono99 admin ban Mallory\n  ono99 admin unban Mallory\n"
    "  ono99 admin hide Mallory\n  ono99 admin list --db postgresql://db/ono99"
)

_db = click.option(
    "--db",
    "--database",
    "db",
    default=None,
    help=f"The server's database: a SQLite file or a postgresql://… address. [default: the "
    f"server's, $ONO99_HOME/ono99.db, {HOME_HELP}]",
)


def _store(db: str | None) -> Store:
    where = defaults()["db"] if db is None else db
    try:
        return open_store(where)
    except Exception as exc:
        raise CliError(f"cannot open the database {where}: {exc}") from None


def _find(store: Store, who: str) -> StoredPlayer:
    player = store.player_of_key(token_hash(who))
    if player is None:
        try:
            player = store.player_named(name_key(check_name(who)))
        except ValueError:  # not a name either (SessionError is one)
            player = None
    if player is None:
        raise CliError(f"no player is named {who!r} or holds that key")
    return player


@click.group("admin", cls=Group, epilog=_EPILOG)
def admin_command() -> None:
    """List, ban and hide the players of a server (its database)."""


@admin_command.command("list", cls=Command, epilog=_EPILOG)
@_db
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000))
def list_command(db: str | None, limit: int) -> None:
    """The newest players: name, since when, and whether banned or hidden."""
    store = _store(db)
    try:
        for p in store.players(limit):
            since = datetime.datetime.fromtimestamp(p.created, datetime.UTC).strftime("%Y-%m-%d")
            flags = " ".join(f for f, on in (("banned", p.banned), ("hidden", p.hidden)) if on)
            click.echo(f"{p.name}\t{since}\t{flags}".rstrip())
    finally:
        store.close()


def _flag(name: str, flag: str, on: bool, done: str, help_text: str) -> click.Command:
    @click.command(
        name, cls=Command, help=f"{help_text} WHO: a name or a player key.", epilog=_EPILOG
    )
    @_db
    @click.argument("who")
    def command(db: str | None, who: str) -> None:
        store = _store(db)
        try:
            player = _find(store, who)
            store.set_flag(player.id, flag, on)
            click.echo(f"{player.name} {done}")
        finally:
            store.close()

    return command


admin_command.add_command(_flag("ban", "banned", True, "is banned", "Refuse a player's keys."))
admin_command.add_command(_flag("unban", "banned", False, "may play again", "Lift a ban."))
admin_command.add_command(
    _flag("hide", "hidden", True, "is hidden", "Hide a profile: no page, not on the leaderboard.")
)
admin_command.add_command(_flag("unhide", "hidden", False, "is shown again", "Show it again."))
