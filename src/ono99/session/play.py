"""The game-action path of a table: a game begins, each action is checked and applied — a
person's (``act``), a bot's or the stand-in's (``pending_move``, then ``complete``), or one
another server process took (``replay``) — and a game that ends leaves its record. The
expert's hint is asked of the game being played too (``hint``).

Every action goes through ``apply``: it records who made it, ends the game or begins the
pause between rounds, and returns what to store and announce (``effects.py``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine import (
    DRAW,
    Action,
    IllegalActionError,
    NotationError,
    Rules,
    apply,
    finishing_order,
    legal_actions,
    new_game,
    parse_action,
    record_of,
    view,
)
from .autoplay import Autoplay, Move
from .credentials import new_seed
from .effects import ActionTaken, Change, Effects, GameFinished, GameStarted, Step
from .errors import SessionError
from .hint import Hint
from .phases import LOBBY, OVER, PLAYING
from .seats import Identity, who_played
from .setup import BOT, HUMAN

if TYPE_CHECKING:
    from .table import Table


class Play:
    def __init__(self, table: Table) -> None:
        self.table = table
        settings = table.settings
        self.autoplay = Autoplay(settings.stand_in, settings.make_bot)  # the current game's bots

    # ---------------------------------------------------------------- a game

    def new_game(self, now: float, stored: tuple[int, int] | None = None) -> Effects:
        """The table's next game: a new shuffle (or ``stored``, the seed and dealer of one
        another process began), with new bots; nobody is ready for the one after."""
        table = self.table
        seed, dealer = stored if stored is not None else (new_seed(), None)
        table.game += 1
        table.state = new_game(table.rules, seed, dealer=dealer)
        table.by = []
        table.phase = PLAYING
        table.between.clear()
        table.clock.stop()
        self.autoplay.reset(table.seats)
        changes: list[Change] = [GameStarted(table.game, seed, table.state.dealer)]
        if table.state.over:  # possible in principle: nobody dealt in can play at all
            table.phase = OVER
            self._count_win()
            changes.append(self._finished())
        table.schedule(now)
        return Effects(changes, table=True, snapshot=True)

    def resume(
        self,
        seed: int,
        dealer: int | None,
        actions: Sequence[tuple[int, str, str]],
        finished: bool,
        record: str | None,
    ) -> None:
        """The table's latest game from storage, replayed action by action, under the rules
        it was played with (``record``, when it is finished: the host may have changed the
        table's since)."""
        table = self.table
        rules = table.config.rules
        if record is not None:
            rules = Rules.from_dict(json.loads(record)["rules"])
        state = new_game(rules, seed, dealer=dealer)
        for seat, action, by in actions:
            state = apply(state, seat, action)
            table.by.append(by)
        table.state = state
        table.phase = OVER if finished or state.over else PLAYING
        if state.over:
            self._count_win()
        self.autoplay.reset(table.seats)

    def replay_new_game(self, game: int, seed: int, dealer: int, now: float) -> Effects:
        """A game another server process started and stored (its seed read from storage):
        begin it here too, to announce it. Nothing to store again."""
        table = self.table
        if table.phase == PLAYING or game != table.game + 1:
            raise SessionError("server_error", f"game {game} does not follow game {table.game}")
        effects = self.new_game(now, (seed, dealer))
        return Effects(table=effects.table, snapshot=effects.snapshot)

    def _finished(self) -> GameFinished:
        table = self.table
        assert table.state is not None
        return GameFinished(
            table.game,
            self.record_json(),
            tuple(who_played(s) for s in table.seats),
            finishing_order(table.state),
            table.config.rating,
        )

    def record_json(self) -> str:
        """The N3 record of the current game. It reveals every card: only for a game that
        is over (or for storage)."""
        table = self.table
        assert table.state is not None and table.state.over
        meta = {
            "names": [s.name for s in table.seats],
            "players": [s.bot if s.kind == BOT else HUMAN for s in table.seats],
            "by": list(table.by),
            "winners": list(table.state.winners),  # the table's tally is counted from these
        }
        return record_of(table.state, meta).to_json()

    # ---------------------------------------------------------------- actions

    def act(self, who: Identity, text: str, moves: int | None, now: float) -> Effects:
        """A person's action. Refused (``SessionError``, nothing changed) when it is not
        theirs to take; ``moves``, when given, must be the number of actions they have seen."""
        table = self.table
        if who.seat is None:
            raise SessionError("not_seated", "spectators cannot play")
        if table.phase == LOBBY or table.state is None:
            raise SessionError("not_started", "the game has not started yet")
        if table.phase == OVER:
            raise SessionError("over", "the game is over")
        state = table.state
        if table.between.pause.active(now):
            raise SessionError("paused", "the next round starts when everyone has read the last")
        if moves is not None and moves != state.moves:
            raise SessionError("stale", "the game moved on before this arrived", moves=state.moves)
        try:
            action = parse_action(text)
        except NotationError as exc:
            raise SessionError("bad_action", str(exc)) from None
        try:
            return self.apply(who.seat, action, "seat", now)
        except IllegalActionError as exc:
            # The engine's reason, as data for the client to word (illegal.<reason>).
            why = {"action": str(action), "reason": exc.code, "rule": exc.rule, **exc.params}
            if exc.code == "not_your_turn":
                raise SessionError("not_your_turn", str(exc), **why) from None
            raise SessionError("illegal", str(exc), **why) from None

    def replay(self, seat: int, text: str, by: str, now: float) -> Effects:
        """An action another server process took and stored: play it here too, to announce
        it. (Its changes are already stored; the caller does not store them again.)"""
        table = self.table
        if table.phase != PLAYING or table.state is None:
            raise SessionError("server_error", "no game to replay an action in")
        try:
            return self.apply(seat, parse_action(text), by, now)
        except (NotationError, IllegalActionError) as exc:
            raise SessionError("server_error", f"a stored action does not fit: {exc}") from None

    def apply(self, seat: int, action: Action, by: str, now: float) -> Effects:
        """Play ``action`` for ``seat`` (made ``by`` whom), unchecked by the table: the
        engine refuses an illegal one (``IllegalActionError``) and nothing changes."""
        table = self.table
        assert table.state is not None
        before = table.state
        table.state = apply(before, seat, action)
        table.by.append(by)
        table.clock.moved(seat)
        changes: list[Change] = [ActionTaken(table.game, before.moves, seat, str(action), by)]
        announce = False
        if table.state.over:
            table.phase = OVER
            self._count_win()
            changes.append(self._finished())
            announce = True
        elif (
            table.state.round != before.round
            and table.settings.round_pause > 0
            and table.seating.people()
        ):
            # A round ended: hold the next one's first turn while the people read its summary.
            table.between.pause.begin(before.round, table.settings.round_pause, now)
            table.clock.restart()
            announce = True
        table.schedule(now)
        step = Step(seat, str(action), by, before.event_count, table.state)
        return Effects(changes, table=announce, steps=[step])

    def _count_win(self) -> None:
        table = self.table
        assert table.state is not None
        for seat in table.state.winners:
            table.wins[seat] += 1

    # ---------------------------------------------------------------- bots

    def pending_move(self, now: float) -> Move | None:
        """The bot move that is due now, if any; the seat counts as thinking until
        ``complete`` or ``abandon``."""
        table = self.table
        if table.phase != PLAYING or table.state is None:
            return None
        due = table.clock.due(table.state.to_play, now)
        if due is None:
            return None
        seat, timer = due
        return self.autoplay.move(table.state, table.seats, table.game, seat, timer)

    def complete(self, move: Move, action: Action, now: float) -> Effects:
        """Play the action a bot chose for ``move``; nothing happens when the game moved
        on meanwhile (the move is asked again if still due)."""
        table = self.table
        table.clock.done(move.seat)
        state = table.state
        if (
            table.phase != PLAYING
            or state is None
            or (table.game, state.moves) != (move.game, move.moves)
        ):
            table.schedule(now)
            return Effects()
        if action not in legal_actions(state, move.seat):
            action = legal_actions(state, move.seat)[0]  # a bot's mistake must not stop play
        effects = self.apply(move.seat, action, move.by, now)
        after = table.state
        assert after is not None
        if table.phase == PLAYING and move.seat in after.owes_draw:
            # X2: a bot (or a stand-in) takes the draw its card owes at once, in the same
            # turn: no quick neighbour's card can make it lost, and a person whose timer ran
            # out loses the turn, not a card as well.
            effects.merge(self.apply(move.seat, DRAW, move.by, now))
            after = table.state
            assert after is not None
        if (
            move.by == "timer"
            and table.phase == PLAYING
            and after.to_play == move.seat
            and after.round == state.round  # a new round is a new turn (held by a pause)
        ):
            table.clock.finish_turn(now)
        return effects

    def abandon(self, move: Move, now: float) -> None:
        """The bot could not choose (it raised): ask again later."""
        self.table.clock.again_later(move.seat, now)

    # ---------------------------------------------------------------- hints

    def hint(self, who: Identity) -> Hint:
        """What a hint for ``who`` needs: refused when the host has switched hints off, for a
        spectator, and when the seat has nothing to decide."""
        table = self.table
        if not table.config.hints:
            raise SessionError("hints_off", "the host has switched hints off at this table")
        if who.seat is None:
            raise SessionError("not_seated", "spectators get no hints")
        if table.phase != PLAYING or table.state is None:
            raise SessionError("not_started", "there is no game being played")
        v = view(table.state, who.seat)
        # A draw owed out of turn (X2) is no decision: "draw" is the one thing to do.
        if v.to_play != who.seat or not v.legal:
            raise SessionError("not_your_turn", "there is nothing for you to decide now")
        return Hint(who.seat, table.game, table.state.moves, v)
