"""The reusable invariant suite (STYLE.md principle 8).

``play_checked_game(rules, seed)`` plays one random game — uniformly random choices among the
legal actions and, under the draw penalty (X2), owed draws taken or left to be lost at random —
and checks every invariant of RULES.md after every step. ``check_state(state)`` checks the
invariants a single state must satisfy on its own; ``GameChecker`` adds the ones that need the
previous state or the game so far (transitions, events, deals, hand sizes, scoring).

Everything an implementation is asked for goes through ``Engine`` (``new_game``,
``legal_actions``, ``apply``), so a second implementation that produces engine ``State`` values
can be checked with the same suite: ``play_checked_game(rules, seed, engine=Engine(...))``.

The expected legal actions are computed here independently from RULES.md (``expected_legal``),
so the suite is an oracle for T1, K2, K6, K7, P4, X2, X3 and M3, not just a consistency check.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn

from ono99.engine import (
    ALL_ACTIONS,
    CARD_NAMES,
    CCW,
    CW,
    DISCARD,
    DRAW,
    IN,
    OUT,
    OUT_OF_ROUND,
    PLAY,
    REASONS,
    Action,
    Event,
    IllegalActionError,
    Rules,
    State,
    apply,
    legal_actions,
    load_record,
    make_rules,
    new_game,
    parse_position,
    position_text,
    record_of,
    replay,
    summarize,
    view,
    why_illegal,
)
from ono99.engine.cards import HOLD, MINUS_TEN, ONO99, PLAY2, REVERSE
from ono99.engine.state import EMPTY_CHAIN

HAND_SIZE = 4
NUM_CARDS = len(CARD_NAMES)
# RULES.md M3: what a card left in hand costs at a round's end.
CARD_POINTS = tuple(range(11)) + (15, 15, 15, 15, 20)
# RULES.md C1, C2, written out again here so the engine's own tables are checked too.
DECK_COUNTS = {
    "2022": (8, 6, 6, 6, 6, 6, 6, 6, 6, 6, 10, 10, 10, 10, 0, 10),
    "1980": (0, 0, 3, 3, 3, 3, 3, 3, 3, 3, 10, 4, 6, 2, 4, 4),
}


class InvariantError(AssertionError):
    """An invariant failed; the message names the rule and the state."""


def fail(state: State, message: str) -> NoReturn:
    raise InvariantError(f"{message} [{describe(state)}]")


def describe(state: State) -> str:
    """A one-line reproducer context for failure messages."""
    return (
        f"rules={state.rules.to_dict()} seed={state.setup.seed} dealer={state.setup.dealer} "
        f"moves={state.moves} round={state.round} total={state.total} to_play={state.to_play}"
    )


@dataclass(frozen=True)
class Engine:
    """The functions of an implementation the suite drives. Defaults: ``ono99.engine``."""

    new_game: Callable[..., State] = new_game
    legal_actions: Callable[..., list[Action]] = legal_actions
    apply: Callable[[State, int, Action], State] = apply


ENGINE = Engine()


# --------------------------------------------------------------------------- the rules, again


def counts(cards: Any) -> list[int]:
    out = [0] * NUM_CARDS
    for card in cards:
        out[card] += 1
    return out


def effect(rules: Rules, total: int, card: int) -> int:
    """The total after ``card``'s effect (K1–K6, X3)."""
    if card <= 10:
        return total + card
    if card == MINUS_TEN:
        after = total - 10
        return after if rules.negative_totals or after >= 0 else 0
    return total


def deflectors(rules: Rules) -> set[int]:
    """P2: Reverse and Hold always; Play 2 only when it may answer a Play 2."""
    return {REVERSE, HOLD} | ({PLAY2} if rules.play2_deflects_play2 else set())


def playable(rules: Rules, card: int, total: int, owed: int, ono99_played: bool) -> bool:
    """T1 with K6, X3 and P4: may ``card`` be played now (not as a bust)?"""
    if card == ONO99:
        return (
            rules.ono99_on_tens
            and not ono99_played
            and total % 10 == 0
            and total <= rules.max_total
        )
    if card == PLAY2 and owed == 2 and not rules.play2_deflects_play2:
        return False
    return effect(rules, total, card) <= rules.max_total


def expected_legal(state: State, seat: int) -> list[Action]:
    """The legal actions of ``seat`` computed from RULES.md, in N4 order."""
    if state.over:
        return []
    owes = seat in state.owes_draw
    if seat != state.to_play:
        return [DRAW] if owes else []
    return legal_in(
        state.rules, state.hands[seat], state.total, state.owed, state.ono99_played, owes
    )


def legal_in(
    rules: Rules, hand: Any, total: int, owed: int, ono99_played: bool, owes: bool
) -> list[Action]:
    """The legal actions of the seat to play holding ``hand`` (T1, K6, K7, P4, X2, X3, M3)."""
    draw = [DRAW] if owes else []
    if rules.four_ono99_discard and list(hand).count(ONO99) == 4:
        return [DISCARD, *draw]  # K7: the only play for such a hand
    plays = sorted({c for c in hand if playable(rules, c, total, owed, ono99_played)})
    if plays:
        return [PLAY[c] for c in plays] + draw
    if owes:
        return [DRAW]  # X2: never out while a draw is still yours
    if rules.match == "points":
        return [PLAY[c] for c in sorted(set(hand)) if c != ONO99]  # M3: busts
    return []


def round_points(hand: tuple[int, ...], out_of_round: bool) -> int:
    """M3: what a seat adds to its score at the end of a round."""
    points = sum(CARD_POINTS[c] for c in hand) + 15 * max(0, HAND_SIZE - len(hand))
    return points + (25 if out_of_round else 0)


def next_in(status: Any, seat: int, direction: int) -> int:
    """T4: the next seat in ``direction`` whose player is in."""
    n = len(status)
    s = (seat + direction) % n
    for _ in range(n):
        if status[s] == IN:
            return s
        s = (s + direction) % n
    raise InvariantError(f"no seat is in: {status}")


# --------------------------------------------------------------------------- one state


def check_frozen(state: State) -> None:
    """Every part of a State is immutable, so a state can never be changed after the fact."""
    for name in ("hands", "pile", "discard", "status", "out", "out_of_round", "owes_draw"):
        value = getattr(state, name)
        if type(value) is not tuple:
            fail(state, f"state.{name} is a {type(value).__name__}, not a tuple")
    for name in ("tokens", "scores"):
        value = getattr(state, name)
        if value is not None and type(value) is not tuple:
            fail(state, f"state.{name} is a {type(value).__name__}, not a tuple")
    for hand in state.hands:
        if type(hand) is not tuple:
            fail(state, f"a hand is a {type(hand).__name__}, not a tuple")
    for name in ("decks_used", "reshuffles_used"):
        for cards in getattr(state, name):
            if type(cards) is not tuple:
                fail(state, f"state.{name} holds a {type(cards).__name__}, not a tuple")
    for name in ("log", "history"):
        chunks, tail = getattr(state, name)
        if type(tail) is not tuple or any(type(c) is not tuple for c in chunks):
            fail(state, f"state.{name} is not made of tuples")


def check_state(state: State, *, engine: Engine = ENGINE) -> dict[str, Any]:
    """Check everything a single state must satisfy; return its N4 summary."""
    rules = state.rules
    n = rules.players
    check_frozen(state)

    # C1/C2, T3, E1: every card is in exactly one place.
    if counts(rules.deck) != list(DECK_COUNTS[rules.edition]):
        fail(state, f"the {rules.edition} deck is not the deck of C1/C2")
    if not 0 <= state.pile_pos <= len(state.pile):
        fail(state, f"pile_pos {state.pile_pos} outside the pile of {len(state.pile)}")
    where = [c for hand in state.hands for c in hand]
    where += state.pile[state.pile_pos :]
    where += state.discard
    if counts(where) != list(DECK_COUNTS[rules.edition]):
        fail(
            state,
            f"cards not conserved: hands+draw pile+discard has {counts(where)}, "
            f"the deck {DECK_COUNTS[rules.edition]}",
        )
    if state.draw_pile_size != len(state.pile) - state.pile_pos:
        fail(state, "draw_pile_size disagrees with the pile")

    # Shapes.
    if len(state.hands) != n or len(state.status) != n:
        fail(state, "hands/status do not have one entry per seat")
    for s, hand in enumerate(state.hands):
        if len(hand) > HAND_SIZE:
            fail(state, f"seat {s} holds {len(hand)} cards (T2: at most four)")
        if list(hand) != sorted(hand):
            fail(state, f"seat {s}'s hand is not sorted (N4)")
    if any(st not in (IN, OUT, OUT_OF_ROUND) for st in state.status):
        fail(state, f"bad status {state.status}")
    if state.direction not in (CW, CCW):
        fail(state, f"bad direction {state.direction}")
    if state.round < 1 or len(state.decks_used) != state.round:
        fail(state, f"round {state.round} with {len(state.decks_used)} decks used")
    if len(state.reshuffles_used) != state.reshuffle_count:
        fail(state, "reshuffles_used does not match reshuffle_count")

    # T1, K2: the total's bounds.
    if not rules.negative_totals and state.total < 0:
        fail(state, f"negative total {state.total} without negative_totals (K2)")
    if rules.bust_total != "keep" or rules.match != "points":
        if state.total > rules.max_total:
            fail(state, f"total {state.total} above max_total {rules.max_total} (T1)")
    else:
        # Each bust adds at most 10 under `keep`, and each bust puts a seat out of the round
        # (once over, seats that left no longer show it).
        busts = rules.players - 1 if state.over else state.status.count(OUT_OF_ROUND)
        if state.total > rules.max_total + 10 * busts:
            fail(state, f"total {state.total} above max_total + 10 per bust (M3 keep)")

    # Status, out and out_of_round (N4).
    out = state.out
    if len(set(out)) != len(out) or set(out) != {s for s in range(n) if state.status[s] == OUT}:
        fail(state, f"out {out} does not list the seats with status OUT {state.status}")
    oor = state.out_of_round
    if len(set(oor)) != len(oor):
        fail(state, f"out_of_round has duplicates: {oor}")
    # N4: out_of_round is empty once over; the seats' status still says where they ended.
    if not state.over and set(oor) != {s for s in range(n) if state.status[s] == OUT_OF_ROUND}:
        fail(state, f"out_of_round {oor} does not match the status {state.status}")
    if rules.match != "points" and oor:
        fail(state, "out_of_round outside points scoring")
    if rules.match == "points" and rules.variant == "lowest_score" and out:
        fail(state, f"a seat left a lowest_score match: {out}")

    # Tokens and scores (M2, M3).
    if rules.match == "tokens":
        if state.tokens is None or len(state.tokens) != n or state.scores is not None:
            fail(state, "a tokens match needs per-seat tokens and no scores")
        if any(not 0 <= t <= rules.tokens for t in state.tokens):
            fail(state, f"tokens {state.tokens} outside 0..{rules.tokens}")
        for s in out:
            if state.tokens[s] != 0:
                fail(state, f"seat {s} left holding {state.tokens[s]} tokens (M2)")
    elif rules.match == "points":
        if state.scores is None or len(state.scores) != n or state.tokens is not None:
            fail(state, "a points match needs per-seat scores and no tokens")
        if any(sc < 0 for sc in state.scores):
            fail(state, f"negative score {state.scores}")
        if rules.variant == "last_standing" and not state.over:
            for s in range(n):
                if (s in out) != (state.scores[s] >= rules.target):
                    fail(state, f"seat {s} score {state.scores[s]} vs target, out {out} (M3)")
    elif state.tokens is not None or state.scores is not None:
        fail(state, "a single game has neither tokens nor scores")

    # X2: owed draws.
    owes = state.owes_draw
    if owes and not rules.draw_penalty:
        fail(state, f"owes_draw {owes} without the draw penalty")
    if len(owes) > 1:
        fail(state, f"more than one owed draw: {owes} (only the last player's draw is pending)")
    for s in owes:
        if state.status[s] == OUT or len(state.hands[s]) >= HAND_SIZE:
            fail(state, f"seat {s} owes a draw but is out or holds four cards")
    if state.ono99_played and not rules.ono99_on_tens:
        fail(state, "ono99_played without ono99_on_tens")

    # Legal actions against RULES.md, for every seat.
    legal = engine.legal_actions(state)
    for s in range(n):
        got = engine.legal_actions(state, s)
        want = expected_legal(state, s)
        if got != want:
            fail(state, f"legal_actions(seat {s}) = {_texts(got)}, RULES.md gives {_texts(want)}")
    if [a.index for a in legal] != sorted({a.index for a in legal}):
        fail(state, f"legal actions not in canonical order: {_texts(legal)}")

    # Over or not (E2, M2, M3, N4).
    if state.over:
        if state.to_play is not None or state.owed != 0 or owes or oor or state.ono99_played:
            fail(state, "a finished game still has a turn, an owed card or draw, or out_of_round")
        if legal:
            fail(state, f"legal actions after the end: {_texts(legal)}")
        if not state.winners or len(set(state.winners)) != len(state.winners):
            fail(state, f"bad winners {state.winners}")
        if list(state.winners) != sorted(state.winners):
            fail(state, f"winners not in seat order: {state.winners}")
        check_winners(state)
    else:
        if state.winners:
            fail(state, f"winners {state.winners} before the end")
        if state.to_play is None or state.status[state.to_play] != IN:
            fail(state, f"to_play {state.to_play} is not a seat that is in")
        if state.owed not in (1, 2):
            fail(state, f"owed {state.owed} is not 1 or 2")
        if not legal:
            fail(state, "the seat to play has no legal action, and the game is not over")
        if sum(1 for st in state.status if st == IN) < 2:
            fail(state, "fewer than two seats in, and the game is not over")

    summary = summarize(state)
    check_summary(state, summary, legal)
    return summary


def check_winners(state: State) -> None:
    rules = state.rules
    n = rules.players
    remaining = [s for s in range(n) if state.status[s] != OUT]
    winners = list(state.winners)
    if rules.match in ("single", "tokens"):
        if remaining != winners:
            fail(state, f"winners {winners}, but {remaining} remain (E2, M2)")
        return
    scores = state.scores
    assert scores is not None
    if rules.variant == "last_standing":
        if len(remaining) == 1:
            if winners != remaining:
                fail(state, f"winners {winners}, but {remaining} is the last standing (M3)")
        elif remaining:
            fail(state, f"a last_standing match ended with {remaining} still in (M3)")
        else:
            # Everyone left at the last round's end: the lowest score among them wins.
            last = []
            for e in reversed(state.events()):
                if e.kind == "round_end":
                    break
                if e.kind == "left":
                    last.append(e.seat)
            best = min(scores[s] for s in last)
            if winners != sorted(s for s in last if scores[s] == best):
                fail(state, f"winners {winners}; {last} left last with scores {scores} (M3)")
    else:
        if not any(scores[s] >= rules.target for s in remaining):
            fail(state, "a lowest_score match ended with no one at the target (M3)")
        below = [s for s in remaining if scores[s] < rules.target] or remaining
        best = min(scores[s] for s in below)
        if winners != [s for s in below if scores[s] == best]:
            fail(state, f"winners {winners}, scores {scores}, target {rules.target} (M3)")


def check_summary(state: State, summary: dict[str, Any], legal: list[Action]) -> None:
    """N4: the summary is JSON, round-trips, and agrees with the state."""
    text = json.dumps(summary)
    if json.loads(text) != summary:
        fail(state, "the summary does not round-trip through JSON")
    keys = [
        "over", "winners", "round", "total", "direction", "to_play", "owed", "legal", "hands",
        "out", "out_of_round", "tokens", "scores", "draw_pile", "discard_pile",
    ]  # fmt: skip
    if state.rules.draw_penalty:
        keys.append("owes_draw")
    if list(summary) != keys:
        fail(state, f"summary keys {list(summary)}")
    want = {
        "over": state.over,
        "winners": list(state.winners),
        "round": state.round,
        "total": state.total,
        "direction": "cw" if state.direction == CW else "ccw",
        "to_play": state.to_play,
        "owed": state.owed,
        "legal": _texts(legal),
        "hands": [[CARD_NAMES[c] for c in hand] for hand in state.hands],
        "out": list(state.out),
        "out_of_round": list(state.out_of_round),
        "tokens": None if state.tokens is None else list(state.tokens),
        "scores": None if state.scores is None else list(state.scores),
        "draw_pile": len(state.pile) - state.pile_pos,
        "discard_pile": len(state.discard),
    }
    if state.rules.draw_penalty:
        want["owes_draw"] = sorted(state.owes_draw)
    if summary != want:
        diff = {k: (summary.get(k), v) for k, v in want.items() if summary.get(k) != v}
        fail(state, f"summary disagrees with the state: {diff}")


def check_views(state: State, seats: Any = None) -> None:
    """V1 basics: a seat's view shows its own hand and its legal actions; a spectator's
    view shows no hand and no actions; laid-down hands only for single-game eliminations."""
    n = state.rules.players
    spectator = view(state)
    if spectator.hand is not None or spectator.legal != () or spectator.seat is not None:
        fail(state, "the spectator view has a hand or legal actions")
    for s in range(n) if seats is None else seats:
        v = view(state, s)
        if v.seat != s or v.hand != state.hands[s]:
            fail(state, f"view({s}).hand is not seat {s}'s hand")
        if v.legal != tuple(legal_actions(state, s)):
            fail(state, f"view({s}).legal disagrees with legal_actions")
    for v in (spectator,):
        if v.hand_sizes != tuple(len(h) for h in state.hands):
            fail(state, "view hand sizes disagree with the state")
        if v.draw_pile != state.draw_pile_size or v.discard_pile != state.discard:
            fail(state, "view piles disagree with the state")
        single = state.rules.match == "single"
        for s in range(n):
            shown = v.laid_down[s]
            want = state.hands[s] if single and state.status[s] == OUT else ()
            if shown != want:
                fail(state, f"view laid_down[{s}] = {shown}, expected {want} (E1, V1)")


def check_record(state: State) -> None:
    """N3: the record of ``state`` round-trips through JSON and replays to the same state."""
    record = record_of(state)
    text = record.to_json()
    loaded = load_record(text)
    if loaded != record:
        fail(state, "load_record(record_of(state).to_json()) != record_of(state)")
    again = replay(text)
    if summarize(again) != summarize(state):
        fail(state, "replaying the record gives a different summary")
    # Everything but the Setup (which now spells the decks out) is identical.
    if again.events() != state.events() or again.actions() != state.actions():
        fail(state, "replaying the record gives different events or actions")
    short = ("setup",)
    for name in State._fields:
        if name not in short and getattr(again, name) != getattr(state, name):
            fail(state, f"replaying the record gives a different state.{name}")
    if record_of(again).to_json() != text:
        fail(state, "the record of the replayed state differs from the original record")


def check_position(
    state: State,
    step: tuple[int, Action, State] | None = None,
    *,
    engine: Engine = ENGINE,
) -> None:
    """The position text (like FEN) round-trips: parsing the text of ``state`` gives a state
    with the same text, the same summary (N4) and the same views (the seat to play's and a
    spectator's) but for the past: a position has no event log. With ``step`` — the seat, the
    action it took and the state it led to — play from the parsed position goes on exactly as
    from ``state``: same cards drawn, same shuffles to come."""
    text = position_text(state)
    if "\n" in text:
        fail(state, "the position text is more than one line")
    try:
        parsed = parse_position(text)
    except ValueError as exc:
        fail(state, f"its own position text does not parse: {exc} [{text}]")
    if position_text(parsed) != text:
        fail(state, f"the position text does not round-trip: {text} -> {position_text(parsed)}")
    if summarize(parsed) != summarize(state):
        fail(state, f"the parsed position has another summary [{text}]")
    unlogged = state._replace(log=EMPTY_CHAIN)
    for s in (None, state.to_play):  # every seat's view is checked against the state elsewhere
        if view(parsed, s) != view(unlogged, s):
            fail(state, f"seat {s} sees the parsed position differently [{text}]")
    if parsed.events() or parsed.actions() or parsed.moves:
        fail(state, "a parsed position has a past")
    if step is not None:
        seat, action, after = step
        if position_text(engine.apply(parsed, seat, action)) != position_text(after):
            fail(state, f"{seat} {action} from the parsed position goes another way [{text}]")


def _texts(actions: Any) -> list[str]:
    return [str(a) for a in actions]


# --------------------------------------------------------------------------- transitions


def new_events(before: State, after: State) -> list[Event]:
    """The events ``after`` added to ``before``'s log, oldest first. The log only grows."""
    n = before.event_count
    if after.event_count < n or (n and after.events(n - 1)[0] != before.events(n - 1)[0]):
        fail(after, "the event log was rewritten, not extended")
    return after.events(n)


@dataclass
class GameChecker:
    """Checks a game transition by transition against a model of RULES.md.

    For each action it works out, from the state before and the rules alone, what must follow:
    the card's effect (K1–K6), the draw (T2, T3), who plays next and owes what (T4, P1–P6), and
    every automatic consequence — eliminations (E1), lost rounds and tokens (M2), busts, outs
    and round scores (M3), deals (S1, M2) and the end (E2, M3) — and compares with the state
    and the events the engine produced."""

    engine: Engine = ENGINE
    out_so_far: set[int] = field(default_factory=set)  # seats out of the game, from events
    dealt: frozenset[int] = frozenset()  # seats dealt into the current round
    lost: dict[int, int] = field(default_factory=dict)  # lost draws per seat this round (X2)
    pending: set[int] = field(default_factory=set)  # seats whose draw is still to be taken
    dealers: list[int] = field(default_factory=list)
    state: State | None = None
    summary: dict[str, Any] | None = None

    def start(self, state: State) -> None:
        """Check the first state of a game (S1)."""
        if state.moves != 0 or state.actions():
            fail(state, "a new game has actions already")
        events = state.events()
        if not events or events[0].kind != "deal" or events[0].data != 1:
            fail(state, f"a new game does not start with the first deal: {events[:1]}")
        if events[0].seat != state.setup.dealer:
            fail(state, "the first deal is not by the setup's dealer")
        self._track(events, state)
        self.state = state
        self.summary = check_state(state, engine=self.engine)
        self._hand_sizes(state)

    def step(self, seat: int, action: Action, after: State) -> None:
        """Check the transition from the last state by ``seat`` taking ``action``."""
        before = self.state
        assert before is not None
        if after.moves != before.moves + 1:
            fail(after, "moves did not go up by one")
        if (
            after.actions(before.moves) != [(seat, action)]
            or after.actions()[: before.moves] != before.actions()
        ):
            fail(after, "history was not extended by exactly this action")
        if after.rules != before.rules or after.setup != before.setup:
            fail(after, "rules or setup changed during the game")
        if after.out[: len(before.out)] != before.out:
            fail(after, f"out {after.out} does not extend {before.out}")
        if after.decks_used[: len(before.decks_used)] != before.decks_used:
            fail(after, "decks_used was rewritten")
        if after.reshuffles_used[: len(before.reshuffles_used)] != before.reshuffles_used:
            fail(after, "reshuffles_used was rewritten")
        if before.status[seat] == OUT:
            fail(after, f"seat {seat} acted after leaving the game")
        if seat != before.to_play and action is not DRAW:
            fail(after, f"seat {seat} played out of turn")
        events = new_events(before, after)
        self._model(before, seat, action, events, after)
        self._track(events, after)
        self.state = after
        self.summary = check_state(after, engine=self.engine)
        self._hand_sizes(after)

    # ---- the model

    def _model(
        self, before: State, seat: int, action: Action, events: list[Event], after: State
    ) -> None:
        rules = before.rules
        n = rules.players
        status = list(before.status)
        direction = before.direction
        total = before.total
        hands = [list(h) for h in before.hands]
        pending = set(before.owes_draw)
        expect: list[Event] = []  # the events the model predicts, in order

        # The action itself: cards leave the hand, pending draws are lost (X2), cards drawn.
        if action is DRAW:
            if seat not in pending:
                fail(after, f"seat {seat} drew without owing a draw (X2)")
            pending.discard(seat)
            played: list[int] = []
            drawn = 1
            expect.append(Event("draw", seat))
        else:
            expect += [Event("lost_draw", s) for s in before.owes_draw]
            pending = set()
            played = [ONO99] * 4 if action is DISCARD else [action.card]  # type: ignore[list-item]
            if action is DISCARD:
                drawn = 4  # K7: at once, even under the draw penalty
            elif rules.draw_penalty:
                drawn, pending = 0, {seat}  # X2: the draw is the player's to take
            else:
                drawn = 1
        for c in played:
            if c not in hands[seat]:
                fail(after, f"seat {seat} played {CARD_NAMES[c]!r}, which it does not hold")
            hands[seat].remove(c)

        bust = False
        card = played[0] if played else None
        if action is DRAW:
            nxt, owed, o99 = before.to_play, before.owed, before.ono99_played
            settle = seat == before.to_play
        elif action is DISCARD:
            expect.append(Event("discard", seat, ONO99, total))
            settle = True
            if before.owed == 2:  # K7: the first of two owed cards; it does not deflect
                nxt, owed, o99 = seat, 1, before.ono99_played
            else:
                nxt, owed, o99 = next_in(status, seat, direction), 1, False
        else:
            assert card is not None
            settle = True
            bust = not playable(rules, card, total, before.owed, before.ono99_played)
            if bust:  # M3: the card is played for nothing and the seat is out of the round
                if rules.match != "points" or seat in before.owes_draw or card == ONO99:
                    fail(after, f"an unplayable {action} was accepted at total {total}")
                if any(
                    playable(rules, c, total, before.owed, before.ono99_played)
                    for c in hands[seat] + [card]
                ):
                    fail(after, f"a bust ({action}) was accepted while a card was playable")
                if rules.bust_total == "reset":
                    total = 0
                elif rules.bust_total == "keep":
                    total = effect(rules, total, card)
                expect.append(Event("play", seat, card, total, "bust"))
                status[seat] = OUT_OF_ROUND
                nxt, owed, o99 = seat, 1, False  # replaced below
            else:
                deflect = before.owed == 2 and card in deflectors(rules)
                total = effect(rules, total, card)
                if card == REVERSE:
                    direction = -direction
                expect.append(Event("play", seat, card, total, "deflect" if deflect else None))
                if before.owed == 2 and not deflect:  # P1: the same player plays again
                    nxt, owed, o99 = seat, 1, before.ono99_played or card == ONO99
                else:  # P2, P5: a Play 2 or a deflected obligation puts two on the next
                    owed = 2 if card == PLAY2 or deflect else 1
                    nxt, owed, o99 = next_in(status, seat, direction), owed, False

        # T2, T3: draws come from the top of the draw pile, then from each reshuffled pile.
        source = list(before.pile[before.pile_pos :])
        reshuffles = after.reshuffles_used[before.reshuffle_count :]
        reshuffled = 0
        discard = list(before.discard) + played
        for i in range(drawn):
            if i >= len(source):
                if reshuffled >= len(reshuffles):
                    fail(after, "the draw pile ran out and was not reshuffled (T3)")
                pile = reshuffles[reshuffled]
                if counts(pile) != counts(discard):
                    fail(after, "a reshuffled pile is not the discard pile (T3)")
                expect.append(Event("reshuffle", data=len(pile)))
                source += pile
                discard = []
                reshuffled += 1
            hands[seat].append(source[i])
        hands[seat].sort()
        if reshuffled != len(reshuffles) and "deal" not in [e.kind for e in events]:
            fail(after, f"{len(reshuffles)} reshuffles, the model needs {reshuffled} (T3)")

        # Automatic consequences until someone can act, or the round or the game ends.
        round_over = False
        if bust:  # out of the round once the card is played and drawn for
            expect.append(Event("out_of_round", seat, None, total))
            if status.count(IN) == 1:
                round_over = True
            else:
                nxt, owed, o99 = next_in(status, seat, direction), 1, False
        dealt = False
        over = False
        tokens = None if before.tokens is None else list(before.tokens)
        scores = None if before.scores is None else list(before.scores)
        winners: list[int] = []
        out = list(before.out)
        while settle and not round_over:
            assert nxt is not None
            if legal_in(rules, hands[nxt], total, owed, o99, nxt in pending):
                break
            if rules.match == "single":  # E1
                expect.append(Event("eliminated", nxt, None, total, tuple(hands[nxt])))
                status[nxt] = OUT
                out.append(nxt)
                if status.count(IN) == 1:
                    winners = [status.index(IN)]
                    over = True
                    break
                nxt, owed, o99 = next_in(status, nxt, direction), 1, False  # P6
            elif rules.match == "tokens":  # M2
                assert tokens is not None
                expect.append(Event("round_end", nxt, None, total, (before.round, None)))
                if tokens[nxt] > 0:
                    tokens[nxt] -= 1
                    expect.append(Event("lost_token", nxt, data=tokens[nxt]))
                else:
                    expect.append(Event("left", nxt))
                    status[nxt] = OUT
                    out.append(nxt)
                remaining = [s for s in range(n) if status[s] != OUT]
                if len(remaining) == 1:
                    winners, over = remaining, True
                else:
                    dealt = True
                break
            else:  # M3: nothing to bust with
                expect.append(Event("out_of_round", nxt, None, total))
                status[nxt] = OUT_OF_ROUND
                if status.count(IN) == 1:
                    round_over = True
                else:
                    nxt, owed, o99 = next_in(status, nxt, direction), 1, False
        if round_over:  # M3: score the round
            assert scores is not None
            gained = [0] * n
            for s in range(n):
                if status[s] != OUT:
                    gained[s] = round_points(tuple(hands[s]), status[s] == OUT_OF_ROUND)
                    scores[s] += gained[s]
            expect.append(Event("round_end", None, None, total, (before.round, tuple(gained))))
            in_game = [s for s in range(n) if status[s] != OUT]
            if rules.variant == "lowest_score":
                if any(scores[s] >= rules.target for s in in_game):
                    below = [s for s in in_game if scores[s] < rules.target] or in_game
                    best = min(scores[s] for s in below)
                    winners, over = [s for s in below if scores[s] == best], True
                else:
                    dealt = True
            else:
                leaving = [s for s in in_game if scores[s] >= rules.target]
                for s in leaving:
                    expect.append(Event("left", s))
                    status[s] = OUT
                    out.append(s)
                remaining = [s for s in range(n) if status[s] != OUT]
                if not remaining:
                    best = min(scores[s] for s in leaving)
                    winners, over = [s for s in leaving if scores[s] == best], True
                elif len(remaining) == 1:
                    winners, over = remaining, True
                else:
                    dealt = True
        if over:
            expect.append(Event("over", data=tuple(winners)))
        elif dealt:
            dealer = (before.dealer + 1) % n
            while status[dealer] == OUT:
                dealer = (dealer + 1) % n
            expect.append(Event("deal", dealer, None, 0, before.round + 1))

        got = events[: len(expect)]
        if got != expect:
            fail(after, f"{seat} {action}: events {got}, RULES.md gives {expect}")
        if dealt:
            return  # the new round is checked by _check_deal (and any cascade by _track)
        if len(events) != len(expect):
            fail(after, f"{seat} {action}: unexpected events {events[len(expect) :]}")
        want_hands = [tuple(h) for h in hands]
        if list(after.hands) != want_hands:
            fail(after, f"hands {after.hands}, RULES.md gives {want_hands} (T2)")
        if after.total != total or after.direction != direction or list(after.out) != out:
            fail(after, "total, direction or out differ from RULES.md")
        if tuple(after.tokens or ()) != tuple(tokens or ()):
            fail(after, f"tokens {after.tokens}, RULES.md gives {tokens}")
        if tuple(after.scores or ()) != tuple(scores or ()):
            fail(after, f"scores {after.scores}, RULES.md gives {scores}")
        if after.discard != tuple(discard):
            fail(after, "the discard pile is not the cards played since the last reshuffle")
        if reshuffled:
            pile_pos = drawn - (len(source) - len(reshuffles[-1]))
            if after.pile is not reshuffles[-1] or after.pile_pos != pile_pos:
                fail(after, "the draw pile is not the reshuffled pile less the cards drawn")
        elif after.pile is not before.pile or after.pile_pos != before.pile_pos + drawn:
            fail(after, f"{after.pile_pos - before.pile_pos} cards drawn, not {drawn} (T2)")
        if over:
            if list(after.winners) != winners or not after.over:
                fail(after, f"winners {after.winners}, RULES.md gives {winners}")
            return
        if (after.to_play, after.owed, after.ono99_played) != (nxt, owed, o99):
            fail(
                after,
                f"next: seat {after.to_play} owing {after.owed} (ONO 99 played "
                f"{after.ono99_played}); RULES.md gives seat {nxt} owing {owed} ({o99})",
            )
        if list(after.status) != status or set(after.owes_draw) != pending:
            fail(
                after,
                f"status/owes_draw {after.status}/{after.owes_draw}, RULES.md gives "
                f"{status}/{sorted(pending)}",
            )

    # ---- bookkeeping from the events

    def _track(self, events: list[Event], after: State) -> None:
        """Follow the game's events: who is out, who was dealt in, lost and pending draws."""
        rules = after.rules
        n = rules.players
        last_deal = None
        for i, e in enumerate(events):
            kind = e.kind
            if kind == "deal":
                if self.dealers:
                    d = (self.dealers[-1] + 1) % n
                    while d in self.out_so_far:
                        d = (d + 1) % n
                    if e.seat != d:
                        fail(after, f"round dealt by {e.seat}, M2 passes the deal to {d}")
                if e.data != len(self.dealers) + 1 or e.total != 0:
                    fail(after, f"deal event {e} out of sequence")
                self.dealers.append(e.seat)
                self.dealt = frozenset(set(range(n)) - self.out_so_far)
                self.lost = {}
                self.pending = set()
                last_deal = i
            elif kind in ("eliminated", "left"):
                if (kind == "eliminated") != (rules.match == "single"):
                    fail(after, f"{e} in a {rules.match} match")
                if e.seat in self.out_so_far:
                    fail(after, f"seat {e.seat} left the game twice")
                self.out_so_far.add(e.seat)
            elif kind == "lost_draw":
                if e.seat not in self.pending:
                    fail(after, f"seat {e.seat} lost a draw it did not owe (X2)")
                self.pending.discard(e.seat)
                self.lost[e.seat] = self.lost.get(e.seat, 0) + 1
            elif kind == "draw":
                if e.seat not in self.pending:
                    fail(after, f"seat {e.seat} took a draw it did not owe (X2)")
                self.pending.discard(e.seat)
            elif kind == "play":
                if rules.draw_penalty:
                    self.pending.add(e.seat)
            elif kind == "over":
                if i != len(events) - 1 or tuple(e.data) != after.winners:
                    fail(after, f"bad 'over' event {e}")
            elif kind not in ("discard", "reshuffle", "lost_token", "out_of_round", "round_end"):
                fail(after, f"unknown event kind {kind!r}")
        if last_deal is not None and last_deal == len(events) - 1:
            self._check_deal(after)

    def _check_deal(self, state: State) -> None:
        """S1: four cards each from the dealer's left, one at a time, seats in only."""
        n = state.rules.players
        deck = state.decks_used[-1]
        if counts(deck) != list(DECK_COUNTS[state.rules.edition]):
            fail(state, "the deck used is not the edition's deck")
        order = [(state.dealer + i) % n for i in range(1, n + 1)]
        order = [s for s in order if s in self.dealt]
        hands: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(HAND_SIZE):
            for s in order:
                hands[s].append(deck[pos])
                pos += 1
        if [tuple(sorted(h)) for h in hands] != list(state.hands):
            fail(state, "the hands are not dealt as S1 says")
        if state.pile is not deck or state.pile_pos != pos or state.discard != ():
            fail(state, "the draw pile after the deal is not the rest of the deck (S1)")
        if state.total != 0 or state.direction != CW or state.owed != 1:
            fail(state, "a round does not start at total 0, clockwise, one card owed (S1)")
        if state.to_play != order[0] or state.owes_draw or state.out_of_round:
            fail(state, "the player left of the dealer does not play first (S1)")
        if state.status != tuple(IN if s in self.dealt else OUT for s in range(n)):
            fail(state, "seats still in the game are not all in the new round")

    def _hand_sizes(self, state: State) -> None:
        """T2, X2: four cards each, less the lost draws and a draw still owed; nothing for a
        seat not dealt into the round. (A draw still owed when the match ends is never taken:
        the summary no longer lists it, but the hand stays short.)"""
        if not state.over and set(state.owes_draw) != self.pending:
            fail(state, f"owes_draw {state.owes_draw}, but the events leave {self.pending} owing")
        for s, hand in enumerate(state.hands):
            if s not in self.dealt:
                if hand:
                    fail(state, f"seat {s} was not dealt in but holds {len(hand)} cards")
                continue
            want = HAND_SIZE - self.lost.get(s, 0) - (1 if s in self.pending else 0)
            if len(hand) != want:
                fail(state, f"seat {s} holds {len(hand)} cards, T2/X2 give {want}")


# --------------------------------------------------------------------------- playing


@dataclass
class GameStats:
    games: int = 0
    steps: int = 0
    rounds: int = 0


STATS = GameStats()


def illegal_attempt(
    state: State, rng: random.Random, engine: Engine = ENGINE
) -> tuple[int, Action] | None:
    """A random (seat, action) that is not legal now, or None if every pair is legal."""
    n = state.rules.players
    for _ in range(8):
        seat = rng.randrange(n)
        action = rng.choice(ALL_ACTIONS)
        if action not in engine.legal_actions(state, seat):
            return seat, action
    return None


def choose(state: State, rng: random.Random, p_draw: float, engine: Engine) -> tuple[int, Action]:
    """A random legal move; an owed draw is taken with probability ``p_draw``, else the next
    card is played and the draw is lost (X2)."""
    assert state.to_play is not None
    for s in state.owes_draw:
        if s != state.to_play and rng.random() < p_draw:
            return s, DRAW
    legal = engine.legal_actions(state)
    if DRAW in legal and len(legal) > 1:
        if rng.random() < p_draw:
            return state.to_play, DRAW
        legal = [a for a in legal if a is not DRAW]
    return state.to_play, rng.choice(legal)


def random_states(
    rules: Rules, seed: int, *, dealer: int | None = None, p_draw: float | None = None
) -> Iterator[State]:
    """Every state of one random game, unchecked (for leak and property tests)."""
    rng = random.Random(f"invariants:{seed}")
    if p_draw is None:
        p_draw = rng.choice((0.0, 0.5, 0.9, 1.0))
    state = new_game(rules, seed, dealer=dealer)
    yield state
    while not state.over:
        seat, action = choose(state, rng, p_draw, ENGINE)
        state = apply(state, seat, action)
        yield state


def step_bound(rules: Rules) -> int:
    """A generous bound on the number of actions of a random game."""
    per_round = 4000
    if rules.match == "single":
        rounds = 1
    elif rules.match == "tokens":
        rounds = (rules.tokens + 1) * (rules.players - 1)
    else:
        # Every round, every seat but one scores at least 25 (M3).
        rounds = rules.players * (rules.target // 25 + 2)
    return per_round * rounds


def play_checked_game(
    rules: Rules,
    seed: int,
    *,
    dealer: int | None = None,
    engine: Engine = ENGINE,
    records: int = 2,
    illegal: bool = True,
    views: bool = True,
    positions: bool = True,
    max_steps: int | None = None,
) -> State:
    """Play one random game from ``seed`` and check every invariant after every step.

    ``records`` mid-game states (chosen at random) and the final state are also checked to
    round-trip through a record (N3). ``illegal`` tries one illegal move per step and checks it
    is refused, leaving the state alone (STYLE.md 6). ``positions`` checks every state's
    position text (``check_position``), and that play from it goes on as from the state.
    Returns the final state."""
    rng = random.Random(f"invariants:{seed}")
    p_draw = rng.choice((0.0, 0.5, 0.9, 1.0))
    bound = max_steps if max_steps is not None else step_bound(rules)
    record_at = {rng.randrange(1, 300) for _ in range(records)}
    state = engine.new_game(rules, seed, dealer=dealer)
    checker = GameChecker(engine=engine)
    checker.start(state)
    if views:
        check_views(state)
    steps = 0
    while not state.over:
        if steps >= bound:
            fail(state, f"the game did not end within {bound} actions")
        seat, action = choose(state, rng, p_draw, engine)
        fields = tuple(state)
        summary = checker.summary
        if illegal:
            bad = illegal_attempt(state, rng, engine)
            if bad is not None:
                check_refused(state, *bad, engine=engine)
        after = engine.apply(state, seat, action)
        if positions:
            check_position(state, (seat, action, after), engine=engine)
        # The input state is never changed: the same (immutable, see check_frozen) objects,
        # and the same summary.
        if any(a is not b for a, b in zip(tuple(state), fields, strict=True)):
            fail(state, "apply replaced a field of its input state")
        if summarize(state) != summary:
            fail(state, "apply changed its input state")
        checker.step(seat, action, after)
        state = after
        steps += 1
        if views:
            check_views(state, () if state.to_play is None else (state.to_play, seat))
        if steps in record_at:
            check_record(state)
    check_record(state)
    if positions:
        check_position(state, engine=engine)
    if views:
        check_views(state)
    STATS.games += 1
    STATS.steps += steps
    STATS.rounds += state.round
    return state


def check_refused(state: State, seat: int, action: Action, *, engine: Engine = ENGINE) -> None:
    """An illegal move raises IllegalActionError with a one-line message; nothing changes."""
    summary = summarize(state)
    fields = tuple(state)
    try:
        engine.apply(state, seat, action)
    except IllegalActionError as exc:
        message = str(exc)
        if "\n" in message or str(action) not in message:
            fail(state, f"unhelpful refusal of seat {seat} {str(action)!r}: {message!r}")
        reason = REASONS.get(exc.code)
        if exc.seat != seat or exc.action is not action or reason is None:
            fail(state, f"refusal {message!r} names {exc.seat}, {exc.action}, {exc.code!r}")
        if exc.rule != reason.rule or tuple(exc.params) != reason.params:
            fail(state, f"refusal {message!r}: rule {exc.rule}, params {exc.params}")
        # STYLE.md 12: the seat's view gives the same reason, so no interface works it out again.
        seen = why_illegal(view(state, seat), seat, action)
        if seen is None or (str(seen), seen.code, seen.params) != (message, exc.code, exc.params):
            fail(state, f"the view of seat {seat} says {seen!r}, the state {message!r}")
    else:
        fail(state, f"seat {seat} was allowed {str(action)!r}, which is not legal")
    if any(a is not b for a, b in zip(tuple(state), fields, strict=True)):
        fail(state, "a refused action replaced a field of the state")
    if summarize(state) != summary:
        fail(state, "a refused action changed the state")


# --------------------------------------------------------------------------- configurations


def config_id(rules: Rules) -> str:
    """A short test id naming the edition and every option that differs from its defaults."""
    parts = [rules.edition]
    for key, value in rules.to_dict().items():
        if key == "edition":
            continue
        if key == "players":
            parts.append(f"{value}p")
        elif value is True:
            parts.append(key)
        elif value is False:
            parts.append(f"no_{key}")
        else:
            parts.append(f"{key}={value}")
    return "-".join(parts)


def sweep_configs() -> list[Rules]:
    """The conformance sweep: editions × match formats × option profiles, each at two player
    counts; the counts rotate so that every profile and every format meets all of 2–6."""
    matches: list[dict[str, Any]] = [
        {"match": "single"},
        {"match": "tokens"},
        {"match": "tokens", "tokens": 0},
        {"match": "tokens", "tokens": 1},
        {"match": "points", "target": 60},
        {"match": "points", "target": 40, "bust_total": "keep"},
        {"match": "points", "target": 50, "bust_total": "reset"},
        {"match": "points", "target": 80, "variant": "lowest_score"},
        {"match": "points", "target": 30, "variant": "lowest_score", "bust_total": "keep"},
        {"match": "points", "target": 1, "variant": "lowest_score", "bust_total": "reset"},
    ]
    profiles: list[dict[str, Any]] = [
        {},
        {"max_total": 99},
        {"max_total": 30},
        {"flip": "negative_totals"},
        {"flip": "four_ono99_discard"},
        {"flip": "play2_deflects_play2"},
        {"ono99_on_tens": True},
        {"draw_penalty": True},
        {"draw_penalty": True, "ono99_on_tens": True, "max_total": 99},
        {"flip": "all", "max_total": 10},
    ]
    out = []
    for e, edition in enumerate(("2022", "1980")):
        base = make_rules(edition)
        for m, match in enumerate(matches):
            for j, profile in enumerate(profiles):
                options = dict(match)
                options.update(profile)
                flip = options.pop("flip", None)
                for name in ("negative_totals", "four_ono99_discard", "play2_deflects_play2"):
                    if flip in (name, "all"):
                        options[name] = not getattr(base, name)
                if flip == "all":
                    options["ono99_on_tens"] = True
                    options["draw_penalty"] = True
                first = (j + m + e) % 5
                for players in (2 + first, 2 + (first + 2) % 5):
                    out.append(make_rules(edition, players=players, **options))
    return out
