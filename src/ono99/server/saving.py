"""Writing a table's changes (``session.effects.Change``) to storage: one transaction per
batch, which first checks and bumps the table's sequence number (``Store.bump``: a stale
writer writes nothing and gets ``storage.Conflict``). A single move, most of them, is one
statement of its own (``append_action``)."""

from __future__ import annotations

from ..session.effects import (
    ActionTaken,
    Change,
    ConfigChanged,
    GameFinished,
    GameStarted,
    ListingChanged,
    SeatChanged,
    TableClosed,
    TableCreated,
)
from ..storage import Store
from .results import write_results


def save(store: Store, code: str, seq: int, changes: list[Change]) -> None:
    """Store ``changes`` of table ``code``, which storage holds at ``seq`` (as we know it)."""
    if len(changes) == 1 and isinstance(changes[0], ActionTaken):  # most of them
        a = changes[0]
        store.append_action(code, seq, a.game, a.position, a.seat, a.action, a.by)
        return
    with store.transaction():
        if not isinstance(changes[0], TableCreated):
            store.bump(code, seq)
        for ch in changes:
            if isinstance(ch, ActionTaken):
                store.add_action(code, ch.game, ch.position, ch.seat, ch.action, ch.by)
            elif isinstance(ch, GameFinished):
                store.finish_game(code, ch.game, ch.record)
                write_results(store, code, ch)
            elif isinstance(ch, SeatChanged):
                store.put_seat(
                    code, ch.seat, ch.kind, ch.bot, ch.name, ch.token_hash, ch.left_name, ch.player
                )
            elif isinstance(ch, GameStarted):
                store.start_game(code, ch.game, ch.seed, ch.dealer)
            elif isinstance(ch, TableCreated):
                store.create_table(ch.code, ch.config, ch.host_hash)
            elif isinstance(ch, TableClosed):
                store.close_table(ch.code)
            elif isinstance(ch, ConfigChanged):
                store.set_config(code, ch.config)
            elif isinstance(ch, ListingChanged):
                if ch.entry is None:
                    store.unlist_table(code)
                else:
                    store.list_table(code, ch.setting, ch.free, ch.entry)
