"""Starting a game, its legal actions, and applying an action (RULES.md §2–§7).

``apply`` is the checked entry point: it raises ``IllegalActionError`` (who tried what,
and why not, as a message and as data: ``reasons.py``) and leaves the state alone;
``why_illegal`` gives the same answer without raising, from the state or the seat's view.
``apply_unchecked`` skips the checks for callers that only ever pass actions taken from
``legal_actions``.

A transition copies the state into a mutable ``_Work``, runs the rules procedurally on it,
and freezes the result. After every transition the automatic consequences (eliminations,
busts' outs, round ends, new deals) have been resolved: either the game is over or
``to_play`` has at least one legal action.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .actions import DISCARD, DRAW, PLAY, Action, parse_action
from .cards import (
    CARD_NAMES,
    CARD_POINTS,
    MINUS_TEN,
    ONO99,
    PLAY2,
    REVERSE,
    card_ids,
    check_permutation,
)
from .errors import IllegalActionError, SetupError
from .reasons import REASONS, english
from .rules import Rules
from .state import (
    CCW,
    CW,
    EMPTY_CHAIN,
    IN,
    OUT,
    OUT_OF_ROUND,
    Chain,
    Event,
    Setup,
    State,
    Status,
    chain_append,
)

if TYPE_CHECKING:
    from .view import View

HAND_SIZE = 4  # T2: the cards dealt to each seat, and the most a hand holds


# --------------------------------------------------------------------------- starting


def new_game(
    rules: Rules,
    seed: int,
    *,
    dealer: int | None = None,
    decks: Sequence[Sequence[int | str]] | None = None,
    reshuffles: Sequence[Sequence[int | str]] | None = None,
) -> State:
    """A new match, dealt (S1). The same inputs always give the same game.

    ``decks`` fixes the deck order (top first) of rounds 1, 2, …; ``reshuffles`` fixes the new
    draw pile at each reshuffle (T3), in order. Cards may be given as ids or N1 names.
    Anything not given is shuffled from ``seed``.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError("seed", f"must be a whole number, not {seed!r}")
    n = rules.players
    if dealer is None:
        dealer = random.Random(f"ono99:{seed}:dealer").randrange(n)
    elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise SetupError("dealer", f"must be a seat from 0 to {n - 1}, not {dealer!r}")
    for name, value in (("decks", decks), ("reshuffles", reshuffles)):
        if value is not None and (
            isinstance(value, (str, bytes)) or not isinstance(value, Iterable)
        ):
            raise SetupError(name, f"must be a list of card lists, not {value!r}")
    deck_list = tuple(
        check_permutation(card_ids(d, f"decks[{i}]"), rules.deck, f"decks[{i}]", "the deck")
        for i, d in enumerate(decks or ())
    )
    reshuffle_list = tuple(card_ids(r, f"reshuffles[{i}]") for i, r in enumerate(reshuffles or ()))
    setup = Setup(seed, dealer, deck_list, reshuffle_list)
    w = _Work()
    w.rules = rules
    w.setup = setup
    w.round = 0
    w.dealer = dealer
    w.total = 0
    w.direction = CW
    w.to_play = None
    w.owed = 0
    w.ono99_played = False
    w.hands = [()] * n
    w.pile = ()
    w.pile_pos = 0
    w.discard = ()
    w.status = [IN] * n
    w.out = ()
    w.out_of_round = ()
    w.tokens = [rules.tokens] * n if rules.match == "tokens" else None
    w.scores = [0] * n if rules.match == "points" else None
    w.owes_draw = ()
    w.over = False
    w.winners = ()
    w.reshuffle_count = 0
    w.decks_used = ()
    w.reshuffles_used = ()
    w.log = EMPTY_CHAIN
    w.history = EMPTY_CHAIN
    w.moves = 0
    _deal(w)
    _settle(w)
    return w.freeze()


# --------------------------------------------------------------------------- legality


def to_act(game: State | View) -> int | None:
    """Who acts next: the seat that owes a draw (X2), which takes it before any card is
    played, else the seat to play (T4); None once the game is over. A seat that owes a draw
    and is also the seat to play (its second owed card, P1) may play instead and lose the
    draw. The same answer from the full state and from any seat's view: it is public."""
    if game.over:
        return None
    if game.owes_draw:
        return game.owes_draw[0]
    return game.to_play


def next_seat(game: State | View, seat: int) -> int | None:
    """T4: the seat after ``seat``, in the current direction, whose player is still in; None
    when no other seat is. Public: the same answer from the state and from any view."""
    return _seat_after(game.status, game.direction, seat)


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """The actions ``seat`` (default: the seat to play) may take now, in canonical order
    (N4): plays in card order, then ``discard ono99``, then ``draw``."""
    if state.over:
        return []
    if seat is None or seat == state.to_play:
        return _to_play_actions(state)
    if seat in state.owes_draw:
        return [DRAW]
    return []


def _to_play_actions(s: State | _Work) -> list[Action]:
    seat = s.to_play
    assert seat is not None
    rules = s.rules
    hand = s.hands[seat]
    owes = seat in s.owes_draw
    if rules.four_ono99_discard and hand.count(ONO99) >= 4:
        return [DISCARD, DRAW] if owes else [DISCARD]  # K7: the only play for such a hand
    plays = playable_cards(rules, hand, s.total, s.owed, s.ono99_played)
    if plays:
        actions = [PLAY[c] for c in plays]
        if owes:
            actions.append(DRAW)
        return actions
    if owes:
        return [DRAW]  # X2: never out while a draw is still yours to take
    if rules.match == "points":
        return [PLAY[c] for c in _distinct(hand) if c != ONO99]  # M3: a bust
    return []


def playable_cards(
    rules: Rules, hand: tuple[int, ...], total: int, owed: int, ono99_played: bool
) -> list[int]:
    """Distinct cards of ``hand`` whose play keeps the total at most max_total (T1)."""
    out = []
    prev = -1
    max_total = rules.max_total
    for c in hand:
        if c == prev:
            continue
        prev = c
        if c <= 10 or c == MINUS_TEN:
            ok = total_after(rules, total, c) <= max_total
        elif c == ONO99:
            ok = rules.ono99_on_tens and not ono99_played and total % 10 == 0 and total <= max_total
        elif c == PLAY2:
            ok = total <= max_total and (owed == 1 or rules.play2_deflects_play2)
        else:  # Reverse, Hold
            ok = total <= max_total
        if ok:
            out.append(c)
    return out


def _distinct(hand: tuple[int, ...]) -> list[int]:
    return sorted(set(hand))


def total_after(rules: Rules, total: int, card: int) -> int:
    """The total after ``card`` is played on ``total``: a number adds its value (T1), a −10
    takes ten off, down to 0 unless ``negative_totals`` (K2); any other card leaves it."""
    if card <= 10:
        return total + card
    if card == MINUS_TEN:
        after = total - 10
        return 0 if after < 0 and not rules.negative_totals else after
    return total


def must_bust(game: State | View) -> bool:
    """Whether every card the seat to play may play is a bust (M3): points scoring, no draw
    owed, no four ONO 99s to discard (K7), and no card keeps the total at most max_total.
    ``game`` is the full state or a view; a view answers only for its own seat (False for
    another seat, or a spectator), from the hand it shows, so both give the same answer."""
    if game.over or game.to_play is None:
        return False
    if isinstance(game, State):
        hand = game.hands[game.to_play]
    elif game.seat == game.to_play and game.hand is not None:
        hand = game.hand
    else:
        return False
    return _busts(game, hand)


def _busts(s: State | View | _Work, hand: tuple[int, ...]) -> bool:
    """``must_bust`` for the seat to play, holding ``hand``."""
    rules = s.rules
    if rules.match != "points" or s.to_play in s.owes_draw:
        return False
    if rules.four_ono99_discard and hand.count(ONO99) >= 4:
        return False
    return not playable_cards(rules, hand, s.total, s.owed, s.ono99_played)


def is_bust(state: State, action: Action) -> bool:
    """Whether ``action`` by the seat to play would be a bust (M3)."""
    return action.kind == "play" and must_bust(state)


# --------------------------------------------------------------------------- applying


def apply(state: State, seat: int, action: Action | str) -> State:
    """The state after ``seat`` takes ``action``. Raises ``IllegalActionError`` (a
    ``ValueError``) if it may not; ``state`` itself is never changed."""
    action = parse_action(action)
    refusal = _refusal(state, seat, action)
    if refusal is not None:
        raise refusal
    return apply_unchecked(state, seat, action)


def apply_unchecked(state: State, seat: int, action: Action) -> State:
    """``apply`` without the checks: ``action`` must be one of ``legal_actions(state, seat)``."""
    w = _Work.thaw(state)
    w.history = chain_append(w.history, (seat, action))
    w.moves += 1
    if action is DRAW:
        _take_draw(w, seat)
    elif action is DISCARD:
        _discard_four(w, seat)
    else:
        assert action.card is not None
        _play(w, seat, action.card)
    return w.freeze()


# --------------------------------------------------------------------------- refusals


def why_illegal(game: State | View, seat: int, action: Action | str) -> IllegalActionError | None:
    """Why ``seat`` may not take ``action`` now: the ``IllegalActionError`` that ``apply``
    would raise (returned, not raised), or None when the action is legal. ``game`` is the full
    state or that seat's own view; the reasons use only what the seat sees (its hand and
    public facts), through the same code, so both give the same answer."""
    return _refusal(game, seat, parse_action(action))


def _refusal(game: State | View, seat: int, action: Action) -> IllegalActionError | None:
    if game.over:
        return _illegal(seat, action, "game_over")
    n = game.rules.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        return _illegal(seat, action, "no_such_seat", last_seat=n - 1)
    if isinstance(game, State):
        hand = game.hands[seat]
        legal: Sequence[Action] = legal_actions(game, seat)
    else:
        if seat != game.seat or game.hand is None:
            raise SetupError("seat", f"seat {game.seat!r}'s view cannot answer for seat {seat}")
        hand, legal = game.hand, game.legal
    if action in legal:
        return None
    code, params = _reason(game, seat, hand, action)
    return _illegal(seat, action, code, **params)


def _illegal(seat: object, action: Action, code: str, **params: Any) -> IllegalActionError:
    message = english(seat, str(action), code, params)
    return IllegalActionError(
        message, seat=seat, action=action, code=code, rule=REASONS[code].rule, params=params
    )


def _reason(
    game: State | View, seat: int, hand: tuple[int, ...], action: Action
) -> tuple[str, dict[str, Any]]:
    """The code and params of an illegal action of a seat in range, in a game not over."""
    rules = game.rules
    if action is DRAW:
        return ("no_draw_owed" if rules.draw_penalty else "draw_automatic"), {}
    if seat != game.to_play:
        return "not_your_turn", {"to_play": game.to_play}
    card = action.card
    assert card is not None
    if action is DISCARD:
        if not rules.four_ono99_discard:
            return "no_discard_rule", {}
        return "discard_needs_four", {"ono99s": hand.count(ONO99)}
    name = CARD_NAMES[card]
    if card not in hand:
        return "not_in_hand", {"card": name}
    if rules.four_ono99_discard and hand.count(ONO99) >= 4:
        return "must_discard", {}
    total = game.total
    fits = playable_cards(rules, hand, total, game.owed, game.ono99_played)
    owes = seat in game.owes_draw
    if owes and not fits:
        return "must_draw", {"total": total}
    if card == ONO99:
        if rules.match == "points" and not owes and not fits:
            return "ono99_no_bust", {}  # M3: any card but an ONO 99 may bust
        if not rules.ono99_on_tens:
            return "ono99_never", {}
        if game.ono99_played:
            return "one_ono99_per_turn", {}
        return "ono99_needs_tens", {"total": total}
    if card == PLAY2 and game.owed == 2 and not rules.play2_deflects_play2:
        return "play2_not_first", {"card": name}
    after = total_after(rules, total, card)
    code = "already_over" if after == total else "too_high"
    return code, {"card": name, "total": total, "after": after, "max_total": rules.max_total}


# --------------------------------------------------------------------------- transitions


class _Work:
    """A mutable copy of a State for the length of one transition."""

    __slots__ = State._fields

    # The State fields, with the containers that change most made mutable lists.
    rules: Rules
    setup: Setup
    round: int
    dealer: int
    total: int
    direction: int
    to_play: int | None
    owed: int
    ono99_played: bool
    hands: list[tuple[int, ...]]
    pile: tuple[int, ...]
    pile_pos: int
    discard: tuple[int, ...]
    status: list[Status]
    out: tuple[int, ...]
    out_of_round: tuple[int, ...]
    tokens: list[int] | None
    scores: list[int] | None
    owes_draw: tuple[int, ...]
    over: bool
    winners: tuple[int, ...]
    reshuffle_count: int
    decks_used: tuple[tuple[int, ...], ...]
    reshuffles_used: tuple[tuple[int, ...], ...]
    log: Chain
    history: Chain
    moves: int

    @classmethod
    def thaw(cls, s: State) -> _Work:
        w = cls.__new__(cls)
        (
            w.rules, w.setup, w.round, w.dealer, w.total, w.direction, w.to_play, w.owed,
            w.ono99_played, w.hands, w.pile, w.pile_pos, w.discard, w.status, w.out,
            w.out_of_round, w.tokens, w.scores, w.owes_draw, w.over, w.winners,
            w.reshuffle_count, w.decks_used, w.reshuffles_used, w.log, w.history, w.moves,
        ) = s  # type: ignore[assignment]  # fmt: skip
        w.hands = list(s.hands)
        w.status = list(s.status)
        w.tokens = None if s.tokens is None else list(s.tokens)
        w.scores = None if s.scores is None else list(s.scores)
        return w

    def freeze(self) -> State:
        return State(
            self.rules, self.setup, self.round, self.dealer, self.total, self.direction,
            self.to_play, self.owed, self.ono99_played, tuple(self.hands), self.pile,
            self.pile_pos, self.discard, tuple(self.status), self.out, self.out_of_round,
            None if self.tokens is None else tuple(self.tokens),
            None if self.scores is None else tuple(self.scores),
            self.owes_draw, self.over, self.winners, self.reshuffle_count, self.decks_used,
            self.reshuffles_used, self.log, self.history, self.moves,
        )  # fmt: skip


def _event(w: _Work, kind: str, seat: int | None = None, card: int | None = None,
           total: int | None = None, data: object = None) -> None:  # fmt: skip
    w.log = chain_append(w.log, Event(kind, seat, card, total, data))


def _play(w: _Work, seat: int, card: int) -> None:
    rules = w.rules
    hand = w.hands[seat]
    bust = _busts(w, hand)  # the seat to play: only it may play a card
    i = hand.index(card)
    w.hands[seat] = hand[:i] + hand[i + 1 :]
    w.discard = w.discard + (card,)
    _lose_pending_draws(w)
    if bust:
        _bust(w, seat, card)
        return
    first_of_two = w.owed == 2
    deflect = first_of_two and card in rules.deflectors
    w.total = total_after(rules, w.total, card)
    if card == REVERSE:
        w.direction = -w.direction
    elif card == ONO99:
        w.ono99_played = True
    _event(w, "play", seat, card, w.total, "deflect" if deflect else None)
    _draw_after_play(w, seat)
    if first_of_two and not deflect:
        w.owed = 1  # P1: the same player plays their second card
        _settle(w)
    else:
        # P2/P5: a Play 2, or a deflected obligation, puts two cards on the next player.
        _advance(w, seat, 2 if card == PLAY2 or deflect else 1)


def _bust(w: _Work, seat: int, card: int) -> None:
    """M3: the card is played for nothing (but ``bust_total``) and the seat is out."""
    mode = w.rules.bust_total
    if mode == "reset":
        w.total = 0
    elif mode == "keep":
        w.total = total_after(w.rules, w.total, card)
    _event(w, "play", seat, card, w.total, "bust")
    _draw_after_play(w, seat)
    _out_of_round(w, seat)


def _discard_four(w: _Work, seat: int) -> None:
    """K7: four ONO 99s go to the discard pile and four new cards are drawn at once."""
    hand = list(w.hands[seat])
    for _ in range(4):
        hand.remove(ONO99)
    w.hands[seat] = tuple(hand)
    w.discard = w.discard + (ONO99,) * 4
    _lose_pending_draws(w)
    _event(w, "discard", seat, ONO99, w.total)
    _draw(w, seat, 4)
    if w.owed == 2:
        w.owed = 1  # it was the first of two owed cards; it does not deflect
        _settle(w)
    else:
        _advance(w, seat, 1)


def _take_draw(w: _Work, seat: int) -> None:
    w.owes_draw = tuple(s for s in w.owes_draw if s != seat)
    _event(w, "draw", seat)
    _draw(w, seat, 1)
    if seat == w.to_play:
        _settle(w)


def _lose_pending_draws(w: _Work) -> None:
    """X2: a card played before an owed draw is taken makes that draw lost."""
    for s in w.owes_draw:
        _event(w, "lost_draw", s)
    w.owes_draw = ()


def _draw_after_play(w: _Work, seat: int) -> None:
    if w.rules.draw_penalty:
        w.owes_draw = (seat,)
    else:
        _draw(w, seat, 1)


def _draw(w: _Work, seat: int, k: int) -> None:
    """Draw ``k`` cards into ``seat``'s hand, reshuffling the discard pile when needed (T3)."""
    hand = list(w.hands[seat])
    for _ in range(k):
        if w.pile_pos >= len(w.pile):
            if not w.discard:
                break  # every card is in a hand: the hand stays short
            _reshuffle(w)
        insort(hand, w.pile[w.pile_pos])
        w.pile_pos += 1
    w.hands[seat] = tuple(hand)


def _reshuffle(w: _Work) -> None:
    k = w.reshuffle_count
    if k < len(w.setup.reshuffles):
        pile = check_permutation(
            w.setup.reshuffles[k], w.discard, f"reshuffles[{k}]", "the discard pile"
        )
    else:
        cards = sorted(w.discard)
        random.Random(f"ono99:{w.setup.seed}:reshuffle:{k}").shuffle(cards)
        pile = tuple(cards)
    w.pile = pile
    w.pile_pos = 0
    w.discard = ()
    w.reshuffle_count = k + 1
    w.reshuffles_used = w.reshuffles_used + (pile,)
    _event(w, "reshuffle", data=len(pile))


def _seat_after(status: Sequence[Status], direction: int, seat: int) -> int | None:
    n = len(status)
    s = (seat + direction) % n
    while s != seat:
        if status[s] == IN:
            return s
        s = (s + direction) % n
    return None


def _next_seat(w: _Work, seat: int) -> int:
    """T4 as the transitions use it: a turn that finds no other seat in stays where it is."""
    s = _seat_after(w.status, w.direction, seat)
    return seat if s is None else s


def _advance(w: _Work, seat: int, owed: int) -> None:
    w.to_play = _next_seat(w, seat)
    w.owed = owed
    w.ono99_played = False
    _settle(w)


def _settle(w: _Work) -> None:
    """Resolve automatic consequences until ``to_play`` has a legal action or it is over."""
    while not w.over:
        seat = w.to_play
        assert seat is not None
        if _to_play_actions(w):
            return
        match = w.rules.match
        if match == "single":
            _eliminate(w, seat)
        elif match == "tokens":
            _lose_round(w, seat)
        else:
            _out_of_round(w, seat)  # nothing to bust with (M3)


def _eliminate(w: _Work, seat: int) -> None:
    """E1: no legal action; the hand is laid down face up, the player is out of the game."""
    w.status[seat] = OUT
    w.out = w.out + (seat,)
    w.owes_draw = tuple(s for s in w.owes_draw if s != seat)
    _event(w, "eliminated", seat, total=w.total, data=w.hands[seat])
    remaining = [s for s, st in enumerate(w.status) if st == IN]
    if len(remaining) == 1:
        _finish(w, remaining)
    else:
        _advance(w, seat, 1)  # P6: an owed Play 2 lapses


def _out_of_round(w: _Work, seat: int) -> None:
    """M3: out of the round (after a bust, or with nothing to bust with)."""
    w.status[seat] = OUT_OF_ROUND
    w.out_of_round = w.out_of_round + (seat,)
    _event(w, "out_of_round", seat, total=w.total)
    if sum(1 for st in w.status if st == IN) == 1:
        _score_round(w)
    else:
        _advance(w, seat, 1)  # P6: an owed Play 2 lapses


def _lose_round(w: _Work, seat: int) -> None:
    """M2: the round ends at this player, who loses a token or, holding none, the game."""
    assert w.tokens is not None
    _event(w, "round_end", seat, total=w.total, data=(w.round, None))
    if w.tokens[seat] > 0:
        w.tokens[seat] -= 1
        _event(w, "lost_token", seat, data=w.tokens[seat])
    else:
        _leave(w, [seat])
    _next_round_or_finish(w)


def _score_round(w: _Work) -> None:
    """M3: everyone still in the game scores what is left in hand."""
    assert w.scores is not None
    rules = w.rules
    gained = [0] * rules.players
    for s, st in enumerate(w.status):
        if st == OUT:
            continue
        hand = w.hands[s]
        points = sum(CARD_POINTS[c] for c in hand) + 15 * max(0, HAND_SIZE - len(hand))
        if st == OUT_OF_ROUND:
            points += 25
        gained[s] = points
        w.scores[s] += points
    _event(w, "round_end", total=w.total, data=(w.round, tuple(gained)))
    in_game = [s for s, st in enumerate(w.status) if st != OUT]
    scores = w.scores
    if rules.variant == "lowest_score":
        if any(scores[s] >= rules.target for s in in_game):
            below = [s for s in in_game if scores[s] < rules.target]
            _finish(w, _lowest(scores, below or in_game))
            return
    else:
        leaving = [s for s in in_game if scores[s] >= rules.target]
        if leaving:
            _leave(w, leaving)
            if len(leaving) == len(in_game):
                _finish(w, _lowest(scores, leaving))
                return
    _next_round_or_finish(w)


def _lowest(scores: list[int], seats: list[int]) -> list[int]:
    best = min(scores[s] for s in seats)
    return [s for s in seats if scores[s] == best]


def _leave(w: _Work, seats: list[int]) -> None:
    for s in seats:
        w.status[s] = OUT
        _event(w, "left", s)
    w.out = w.out + tuple(seats)


def _next_round_or_finish(w: _Work) -> None:
    remaining = [s for s, st in enumerate(w.status) if st != OUT]
    if len(remaining) == 1:
        _finish(w, remaining)
        return
    n = w.rules.players
    dealer = (w.dealer + 1) % n  # M2: the deal passes clockwise to a seat still in
    while w.status[dealer] == OUT:
        dealer = (dealer + 1) % n
    w.dealer = dealer
    _deal(w)
    _settle(w)  # a new round's first player may already be stuck (e.g. four 1980 ONO 99s)


def _deal(w: _Work) -> None:
    """S1: shuffle (or take the given order), deal four each from the dealer's left."""
    rules = w.rules
    n = rules.players
    w.round += 1
    r = w.round
    if r <= len(w.setup.decks):
        pile = w.setup.decks[r - 1]
    else:
        cards = list(rules.deck)
        random.Random(f"ono99:{w.setup.seed}:deck:{r}").shuffle(cards)
        pile = tuple(cards)
    w.decks_used = w.decks_used + (pile,)
    for s in range(n):
        if w.status[s] != OUT:
            w.status[s] = IN
    order = [(w.dealer + i) % n for i in range(1, n + 1)]
    order = [s for s in order if w.status[s] == IN]
    hands: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(HAND_SIZE):
        for s in order:
            hands[s].append(pile[pos])
            pos += 1
    w.hands = [tuple(sorted(h)) for h in hands]
    w.pile = pile
    w.pile_pos = pos
    w.discard = ()
    w.total = 0
    w.direction = CW
    w.to_play = order[0]
    w.owed = 1
    w.ono99_played = False
    w.out_of_round = ()
    w.owes_draw = ()
    _event(w, "deal", w.dealer, total=0, data=r)


def _finish(w: _Work, winners: list[int]) -> None:
    w.over = True
    w.winners = tuple(winners)
    w.to_play = None
    w.owed = 0
    w.out_of_round = ()
    w.owes_draw = ()
    w.ono99_played = False
    _event(w, "over", data=w.winners)


__all__ = [
    "CCW",
    "CW",
    "HAND_SIZE",
    "apply",
    "apply_unchecked",
    "is_bust",
    "legal_actions",
    "must_bust",
    "new_game",
    "next_seat",
    "playable_cards",
    "to_act",
    "total_after",
    "why_illegal",
]
