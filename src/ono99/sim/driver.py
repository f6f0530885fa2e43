"""The game loop — whose turn, ask the agent, apply — written once.

``advance`` lets the bots act, each move through the engine's checked ``apply``, until a seat
without a bot (a person, a learner) is to act, ``stop`` says so, or the game is over. Who acts
is the engine's ``to_act`` unless the caller says otherwise (``actor``); what a bot plays is
``decide``: from the seat's view (RULES.md V1), or, for an ``OmniscientBot``, from the whole
state. ``play_game`` is a whole game between bots from a seed.

Everything that runs games steps through here: tournaments and analyses (``play_game``), the
terminal game (``ono99.cli.play``, between the person's turns), the Gymnasium environment's
referee (the opponents, up to the learner's turn) and the vector environment's engine backend
(each bot's ``move``, many games interleaved). Two loops are declared second ones, for speed,
and held to this one by a contract test each:

- the expert's rollouts (``ono99.fast.playout``), which play on mutable lists, never on engine
  states (``tests/bots/test_greedy.py``, ``tests/bots/test_network_rollouts.py``);
- the vector environment's batch backend (``ono99.env.vector``), whose batched opponents
  (``greedy``, ``random``, ``learned``, policies) play on the batch simulator's arrays; both of
  its backends must give what games stepped through ``advance`` give
  (``tests/env/test_env_vector.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..bots import Agent, OmniscientBot
from ..engine import Action, IllegalActionError, Rules, State, apply, new_game, to_act, view

Choose = Callable[[Agent, State, int], Action]


class BotError(RuntimeError):
    """A bot failed: it raised, or chose an action the engine refused. Shipped bots never do;
    an outside bot (``ono99.bots`` by import path or entry point) may. The message is one
    line naming the bot, its seat, the move and the error; the game is abandoned as it was."""

    def __init__(self, message: str, seat: int, bot: str) -> None:
        super().__init__(message, seat, bot)  # all three, so that it crosses a process pool
        self.seat, self.bot = seat, bot

    def __str__(self) -> str:
        return str(self.args[0])


def decide(agent: Agent, state: State, seat: int) -> Action:
    """What ``agent`` plays at ``seat``: a bot from the seat's view, an omniscient one (the
    oracle, recognised by its type) from the whole state."""
    if isinstance(agent, OmniscientBot):
        return agent.choose_state(state, seat)
    return agent.choose(view(state, seat))


def advance(
    state: State,
    agents: Sequence[Agent | None],
    *,
    actor: Callable[[State], int | None] = to_act,
    choose: Choose = decide,
    stop: Callable[[State], bool] | None = None,
    before: Callable[[State, int, Action], None] | None = None,
    on_state: Callable[[State], None] | None = None,
) -> State:
    """Let the bots in ``agents`` (one per seat, None where no bot sits) act until the seat
    ``actor`` names has no bot, ``stop(state)`` holds, or the game is over; return the state
    reached. ``before(state, seat, action)`` is called before each move is applied,
    ``on_state`` with each state after one."""
    while not state.over and not (stop is not None and stop(state)):
        seat = actor(state)
        assert seat is not None
        agent = agents[seat]
        if agent is None:
            break
        state = move(state, agent, seat, choose=choose, before=before)
        if on_state is not None:
            on_state(state)
    return state


def move(
    state: State,
    agent: Agent,
    seat: int,
    *,
    choose: Choose = decide,
    before: Callable[[State, int, Action], None] | None = None,
) -> State:
    """One move of the bot ``agent`` at ``seat``: what ``choose`` says (``decide`` unless the
    caller says otherwise), applied through the engine; a bot that raises or chooses an
    illegal action is a ``BotError``. ``advance`` is this in a loop; a caller that interleaves
    many games (the vector environment's engine backend) calls it one move at a time."""
    try:
        action = choose(agent, state, seat)
    except Exception as exc:
        raise _failed(agent, seat, state, f"raised {type(exc).__name__}: {exc}") from exc
    if before is not None:
        before(state, seat, action)
    try:
        return apply(state, seat, action)
    except IllegalActionError as exc:
        raise _failed(agent, seat, state, f"chose an illegal action: {exc}") from exc


def _failed(agent: Agent, seat: int, state: State, what: str) -> BotError:
    name = getattr(agent, "name", None)
    name = name if isinstance(name, str) else type(agent).__name__
    return BotError(f"bot {name!r} at seat {seat} {what} (move {state.moves + 1})", seat, name)


def play_game(
    rules: Rules,
    bots: Sequence[Agent],
    seed: int,
    *,
    dealer: int | None = None,
    on_state: Callable[[State], None] | None = None,
) -> State:
    """Play one game between ``bots`` (one per seat) and return the final state;
    ``on_state`` is called with the first state and each one after."""
    if len(bots) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} bots, not {len(bots)}")
    state = new_game(rules, seed, dealer=dealer)
    if on_state:
        on_state(state)
    return advance(state, bots, on_state=on_state)
