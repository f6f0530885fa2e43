"""The one game loop (``ono99.sim.driver``): whose turn (the engine's ``to_act``, X2 then T4),
ask the agent (from its view, V1, or the whole state for an omniscient one), apply."""

from __future__ import annotations

from ono99.bots import Agent, OmniscientBot, make_bot
from ono99.engine import DRAW, Action, State, legal_actions, make_rules, new_game, to_act, view
from ono99.sim.driver import advance, decide, play_game


def bots(players: int, seed: int) -> list[Agent | None]:
    return [make_bot("greedy" if s % 2 else "random", seed * 10 + s) for s in range(players)]


def randoms(players: int, seed: int) -> list[Agent | None]:
    return [make_bot("random", seed * 10 + s) for s in range(players)]


def test_advance_stops_where_no_bot_sits_and_play_game_is_the_same_loop() -> None:
    rules = make_rules("2022", players=4, draw_penalty=True)
    for seed in range(20):
        whole: list[State] = []
        final = play_game(rules, bots(4, seed), seed, on_state=whole.append)
        # The same bots, but nobody at seat 2: the loop stops at the first state it is asked.
        seated = bots(4, seed)
        seated[2] = None
        stopped = advance(new_game(rules, seed), seated)
        first = next(s for s in whole if to_act(s) == 2 or s.over)
        assert stopped == first
        assert stopped.over or to_act(stopped) == 2
        assert final == whole[-1] and final.over


def test_advance_calls_its_hooks_with_every_move_and_state_and_obeys_stop() -> None:
    rules = make_rules("1980", players=3, match="tokens")
    moves: list[tuple[int, Action]] = []
    states: list[State] = []

    def before(state: State, seat: int, action: Action) -> None:
        assert seat == to_act(state) and action in legal_actions(state, seat)
        moves.append((seat, action))

    start = new_game(rules, 5)
    end = advance(
        start, bots(3, 5), stop=lambda s: s.round > 1, before=before, on_state=states.append
    )
    assert end.round == 2 and all(s.round == 1 for s in states[:-1])
    assert len(moves) == len(states) == end.moves - start.moves
    assert states[-1] == end


def test_who_acts_and_what_a_bot_plays_can_be_given() -> None:
    rules = make_rules("2022", players=3, draw_penalty=True)

    def lost(end: State) -> int:
        return sum(e.kind == "lost_draw" for e in end.events())

    def draw_first(agent: Agent, state: State, seat: int) -> Action:
        return DRAW if seat in state.owes_draw else decide(agent, state, seat)

    def to_play(state: State) -> int | None:
        return state.to_play  # never waits for an owed draw

    # Random bots let some owed draws go (X2: a card played first loses them) ...
    assert sum(lost(advance(new_game(rules, s), randoms(3, s))) for s in range(10)) > 0
    # ... none when each owed draw is taken first, and some whenever nobody is asked to draw.
    for seed in range(10):
        end = advance(new_game(rules, seed), randoms(3, seed), choose=draw_first)
        assert end.over and lost(end) == 0
        end = advance(new_game(rules, seed), randoms(3, seed), actor=to_play)
        assert end.over
        assert lost(end) > 0


class Seer(OmniscientBot):
    """Sees everything; plays the last legal action."""

    name = "seer"

    def __init__(self) -> None:
        self.seen: list[tuple[tuple[int, ...], ...]] = []

    def choose_state(self, state: State, seat: int) -> Action:
        assert isinstance(state, State)
        self.seen.append(state.hands)
        return legal_actions(state, seat)[-1]


def test_an_omniscient_bot_is_handed_the_state_others_their_view() -> None:
    rules = make_rules("2022", players=3)
    seer = Seer()
    state = new_game(rules, 11)
    seat = to_act(state)
    assert seat is not None
    assert decide(seer, state, seat) == legal_actions(state, seat)[-1]
    assert seer.seen == [state.hands]  # every hand, not a view's one
    greedy = make_bot("greedy")
    assert decide(greedy, state, seat) is greedy.choose(view(state, seat))
    final = play_game(rules, [seer, make_bot("greedy", 1), make_bot("random", 2)], 11)
    assert final.over and len(seer.seen) > 1
