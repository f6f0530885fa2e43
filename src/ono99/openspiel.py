"""ONO 99 as an OpenSpiel game (the ``openspiel`` extra): ``pyspiel.load_game("ono99")``.

Importing this module registers the Python game ``ono99`` with pyspiel. Its parameters are
``players`` (2–6, default 2), ``edition`` (2022 or 1980, an int) and ``draw_penalty``; the match is
a single game (RULES.md M1: play until one player is left), which is one deal.

**The rules are the engine's.** Every decision is ``ono99.engine``'s: its legal actions, its
``apply``, its ``view``; this module only says where the chance is. Player actions are the
engine's action indices (``ALL_ACTIONS``: 0–15 play that card, 16 lays down four ONO 99s, 17
draws an owed card).

**Chance is explicit, card by card.** The first chance node picks the dealer (uniform over the
seats); then one chance node per dealt card, in the engine's order of dealing (S1: one card at a
time, from the dealer's left), each outcome a card kind with the probability of its share of the
cards not dealt yet. After a player's action that draws (T2, K7, X2), one chance node per card
drawn picks it from the draw pile's contents, as shuffling would; a draw from an emptied pile
picks from the reshuffled discard pile (T3). The engine then gets exactly these cards: the deal
is ``new_game(rules, decks=[…])`` with the dealt cards on top, and before an action that draws,
the draw pile is put in an order with the chosen cards on top (``state_from_view`` of the
acting seat's view, with every hidden card where it is; a reshuffle's order is fixed the same
way ``new_game(reshuffles=…)`` fixes it). How many cards an action draws, and whether the pile
runs out on the way, is public (pile size, the card played), and is read from the engine by
applying the action once before the draws are chosen.

Why card by card and not one chance node for the shuffle's seed: a seed would make the deal a
single chance node with billions of outcomes (no algorithm can enumerate it) and make
``resample_from_infostate`` a search for a seed consistent with what a player saw. Card by card,
every chance node has at most 16 outcomes (``chance_outcomes`` lists them), the history holds
the hidden cards explicitly (as in OpenSpiel's poker games), and resampling is sampling the
unseen cards (``ono99.bots.determinize``, the expert's own sampler).

**What a player observes** comes through an observer built from that seat's ``View`` only
(RULES.md V1): the observation tensor is ``ono99.features.encode`` of the view (the RL
environments' vector, 173 floats); the information-state tensor adds what the seat has seen
happen: the actions of each seat (relative to the observer) counted by kind, and the cards it
was dealt and drew. The information-state *string* is the seat's whole history (public actions,
its own cards, a ``?`` for each card another seat received): perfect recall. The tensor is a
summary of it, not the whole sequence: games have no fixed length to lay a sequence out in.

``resample_from_infostate(player, sampler)`` returns a state with the same information state
for ``player``: the hidden hands and the draw pile dealt anew from the cards that player cannot
see, consistently with the public record (after a reshuffle, which cards can be in the pile).
In the sampled state the other seats' own histories are not kept (their cards received are all
``?``, their current hands are the sampled ones).

Returns are zero-sum: ``n`` players, ``k`` tied winners: each winner ``(n/k - 1)/(n - 1)``,
each other seat ``-1/(n - 1)`` (2 players: +1 and −1).
"""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np
import pyspiel

from .bots.determinize import Determinizer, hidden_seats
from .engine import (
    ALL_ACTIONS,
    HAND_SIZE,
    Rules,
    State,
    apply,
    card_name,
    legal_actions,
    make_rules,
    new_game,
    position_text,
    state_from_view,
    to_act,
    view,
)
from .engine.cards import NUM_CARD_KINDS, counts
from .features import FEATURES, NUM_ACTIONS, SEATS, encode

SHORT_NAME = "ono99"
MAX_GAME_LENGTH = 5000  # no rule bounds a game; random play stays far below (docs/openspiel.md)
_HISTORY = SEATS * NUM_ACTIONS + 2 * NUM_CARD_KINDS  # the information state's summary block

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="ONO 99 (the ono99 rules engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    # The edition is the year as an int: OpenSpiel writes a game as ``ono99(edition=2022,…)``
    # and reads ``2022`` back as an int, so a string edition could not be pickled or rebuilt
    # from its own string (``random_sim_test(serialize=True)``, ``deserialize_game_and_state``).
    parameter_specification={"players": 2, "edition": 2022, "draw_penalty": False},
)


def game_rules(params: dict[str, Any]) -> Rules:
    """The engine's rules for the game's parameters (a single game, M1)."""
    return make_rules(
        str(params.get("edition", 2022)),
        players=int(params.get("players", 2)),
        draw_penalty=bool(params.get("draw_penalty", False)),
        match="single",
    )


class Ono99Game(pyspiel.Game):
    """The OpenSpiel game; ``pyspiel.load_game("ono99", {"players": 4})`` builds one."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        n = game_rules(params).players
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARD_KINDS,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, params)

    @functools.cached_property
    def rules(self) -> Rules:
        # From the parameters OpenSpiel holds, not an attribute set in __init__: an unpickled
        # game is rebuilt from its string by OpenSpiel, without __init__ and with an empty
        # __dict__, as OpenSpiel's own Python games are (they keep nothing in Python).
        return game_rules(self.get_parameters())

    def new_initial_state(self) -> Ono99State:
        return Ono99State(self)

    def new_state_at(self, position: State) -> Ono99State:
        """A state at an engine position (``make_position``, ``parse_position``), the deal
        skipped: for tests and puzzles. Its history starts there."""
        if position.rules != self.rules:
            raise ValueError("the position is not played under this game's rules")
        state = Ono99State(self)
        state.dealer = position.dealer
        state.engine = position
        state.events.append((None, "from a position"))
        for seat, hand in enumerate(position.hands):
            state.dealt_to[seat] = counts(hand)
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Ono99Observer:
        return Ono99Observer(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class Ono99State(pyspiel.State):
    """A state: the dealing, then the engine's ``State`` and the draws chance still owes."""

    def __init__(self, game: Ono99Game) -> None:
        super().__init__(game)
        self.rules: Rules = game.rules
        self.engine: State | None = None  # once the cards are dealt
        self.dealer: int | None = None
        self.dealt: list[int] = []  # the dealt cards, in the order of dealing
        self._deal_to: list[int] = []  # the seat each of them goes to
        self._left = counts(self.rules.deck)  # cards not dealt yet, per kind
        self._pending: _Draws | None = None  # an action waiting for the cards it draws
        # What happened, in order: (the seat it is private to, or None if public; its text).
        self.events: list[tuple[int | None, str]] = []
        # For the information-state tensor: each seat's actions, and the cards it received.
        n = self.rules.players
        self.counts = np.zeros((n, NUM_ACTIONS), np.float32)
        self.dealt_to = np.zeros((n, NUM_CARD_KINDS), np.float32)
        self.drawn_by = np.zeros((n, NUM_CARD_KINDS), np.float32)

    # ------------------------------------------------------------------ the OpenSpiel API

    def current_player(self) -> int:
        if self.engine is None or self._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = to_act(self.engine)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine is None or self._pending is not None or player != to_act(self.engine):
            return []
        return sorted(a.index for a in legal_actions(self.engine, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealer is None:
            n = self.rules.players
            return [(seat, 1.0 / n) for seat in range(n)]
        pool = self._pending.pool() if self._pending is not None else self._left
        total = sum(pool)
        return [(card, k / total) for card, k in enumerate(pool) if k]

    def _apply_action(self, action: int) -> None:
        if self.dealer is None:
            self._choose_dealer(action)
        elif self.engine is None:
            self._deal(action)
        elif self._pending is not None:
            self._draw(action)
        else:
            self._act(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealer is None:
                return f"dealer {action}"
            return f"card {card_name(action)}"
        return str(ALL_ACTIONS[action])

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.over

    def returns(self) -> list[float]:
        n = self.rules.players
        if not self.is_terminal():
            return [0.0] * n
        assert self.engine is not None
        winners = self.engine.winners
        win = (n / len(winners) - 1) / (n - 1)
        return [win if seat in winners else -1.0 / (n - 1) for seat in range(n)]

    def __str__(self) -> str:
        if self.engine is None:
            return f"dealer {self.dealer} · dealt {' '.join(map(card_name, self.dealt))}"
        text = position_text(self.engine)
        if self._pending is not None:
            text += f"; drawing for seat {self._pending.seat}: {self._pending.chosen}"
        return text

    def resample_from_infostate(self, player: int, sampler: Any) -> Ono99State:
        """A state ``player`` cannot tell from this one: every card it cannot see dealt anew,
        consistently with the public record (see the module doc)."""
        if self.engine is None or self._pending is not None:
            raise ValueError("resample_from_infostate is for a player's decision, not chance")
        rng = random.Random(int(sampler() * 2**53))
        sampled = Determinizer(view(self.engine, player)).sample(rng)
        other = self.clone()
        other.engine = sampled
        # Nothing hidden from the player stays in the sampled state, the deal included.
        deal = zip(self.dealt, self._deal_to, strict=True)
        other.dealt = [card if to == player else -1 for card, to in deal]
        other.events = [
            (owner, text if owner is None or owner == player else "?")
            for owner, text in self.events
        ]
        for seat in range(self.rules.players):
            if seat != player:
                other.dealt_to[seat] = 0
                other.drawn_by[seat] = 0
        return other

    # ------------------------------------------------------------------ chance and play

    def _choose_dealer(self, seat: int) -> None:
        n = self.rules.players
        if not 0 <= seat < n:
            raise ValueError(f"the dealer is a seat from 0 to {n - 1}, not {seat}")
        self.dealer = seat
        self.events.append((None, f"dealer {seat}"))
        order = [(seat + i) % n for i in range(1, n + 1)]
        self._deal_to = [s for _ in range(HAND_SIZE) for s in order]  # S1: one at a time

    def _deal(self, card: int) -> None:
        if not 0 <= card < NUM_CARD_KINDS or self._left[card] <= 0:
            raise ValueError(f"no card {card} is left to deal")
        seat = self._deal_to[len(self.dealt)]
        self.dealt.append(card)
        self._left[card] -= 1
        self.events.append((seat, f"dealt {card_name(card)}"))
        self.dealt_to[seat, card] += 1
        if len(self.dealt) < len(self._deal_to):
            return
        rest = [c for c in range(NUM_CARD_KINDS) for _ in range(self._left[c])]
        assert self.dealer is not None
        self.engine = new_game(self.rules, 0, dealer=self.dealer, decks=[self.dealt + rest])

    def _act(self, index: int) -> None:
        assert self.engine is not None
        if not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"actions are 0 to {NUM_ACTIONS - 1}, not {index}")
        state, action = self.engine, ALL_ACTIONS[index]
        seat = to_act(state)
        assert seat is not None
        after = apply(state, seat, action)  # once, to learn how many cards it draws
        self.events.append((None, f"seat {seat}: {action}"))
        self.counts[seat, index] += 1
        draws = _Draws.of(state, after, seat, index)
        if draws is None:
            self.engine = after
        else:
            self._pending = draws

    def _draw(self, card: int) -> None:
        draws = self._pending
        assert draws is not None and self.engine is not None
        draws.choose(card)
        self.events.append((draws.seat, f"drew {card_name(card)}"))
        self.drawn_by[draws.seat, card] += 1
        if draws.complete():
            self.engine = draws.realize(self.engine)
            self._pending = None


class _Draws:
    """The cards an action draws: how many from the draw pile as it is, and how many from the
    discard pile reshuffled on the way (T3), and those chance has chosen so far."""

    def __init__(
        self,
        seat: int,
        index: int,
        before: list[int],
        split: int,
        after: list[int] | None = None,
        total: int | None = None,
    ) -> None:
        self.seat = seat
        self.index = index
        self.before = before  # the draw pile's contents, per kind
        self.split = split  # cards drawn from it (before any reshuffle)
        self.after = after  # the reshuffled pile's contents, per kind (None: no reshuffle)
        self.total = split if total is None else total  # cards drawn in all
        self.chosen: list[int] = []

    @classmethod
    def of(cls, state: State, after: State, seat: int, index: int) -> _Draws | None:
        reshuffles = after.reshuffle_count - state.reshuffle_count
        if reshuffles == 0:
            k = after.pile_pos - state.pile_pos
            if k == 0:
                return None
            return cls(seat, index, counts(state.pile[state.pile_pos :]), k)
        if reshuffles != 1:  # pragma: no cover - four cards at most are ever drawn at once
            raise RuntimeError("an action reshuffled the discard pile more than once")
        # The pile ran out: all of it was drawn, then the rest from the reshuffled pile.
        split = state.draw_pile_size
        reshuffled = counts(after.reshuffles_used[-1])
        before = counts(state.pile[state.pile_pos :])
        return cls(seat, index, before, split, reshuffled, split + after.pile_pos)

    def pool(self) -> list[int]:
        """What the next card is drawn from, per kind."""
        if len(self.chosen) < self.split:
            pool = self.before[:]
            taken = self.chosen
        else:
            assert self.after is not None
            pool = self.after[:]
            taken = self.chosen[self.split :]
        for card in taken:
            pool[card] -= 1
        return pool

    def choose(self, card: int) -> None:
        if not 0 <= card < NUM_CARD_KINDS or self.pool()[card] <= 0:
            raise ValueError(f"no {card_name(card)} is left to draw")
        self.chosen.append(card)

    def complete(self) -> bool:
        return len(self.chosen) == self.total

    def realize(self, state: State) -> State:
        """The engine's state after the action, having drawn exactly the chosen cards."""
        first = self.chosen[: self.split]
        pile = first + _rest(self.before, first)
        v = view(state, self.seat)
        hands = {s: state.hands[s] for s in hidden_seats(v)}
        ordered = state_from_view(v, hands, pile, seed=state.setup.seed)
        if self.after is not None:
            second = self.chosen[self.split :]
            reshuffled = tuple(second + _rest(self.after, second))
            k = ordered.reshuffle_count
            # The order of the coming reshuffle, as new_game(reshuffles=…) would fix it.
            setup = ordered.setup._replace(reshuffles=((),) * k + (reshuffled,))
            ordered = ordered._replace(setup=setup)
        return apply(ordered, self.seat, ALL_ACTIONS[self.index])


def _rest(pool: list[int], taken: list[int]) -> list[int]:
    left = pool[:]
    for card in taken:
        left[card] -= 1
    return [c for c in range(NUM_CARD_KINDS) for _ in range(left[c])]


# ---------------------------------------------------------------------- observation


_OFFSETS: dict[str, slice] = {}
_at = 0
for _feature in FEATURES:
    _OFFSETS[_feature.name] = slice(_at, _at + _feature.size)
    _at += _feature.size
OBSERVATION_SIZE = _at
_PRIVATE = ("hand", "legal", "unseen")  # the blocks that tell the observer's own cards


class Ono99Observer:
    """What one seat observes (pyspiel's PyObserver): its ``View`` encoded, and with perfect
    recall the summary of what it has seen happen (see the module doc)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the ono99 observer takes no parameters, not {params}")
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("the ono99 observer shows one seat's cards, never every seat's")
        self.public = bool(iig_obs_type.public_info)
        size = OBSERVATION_SIZE + (_HISTORY if self.recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:OBSERVATION_SIZE]}
        if self.recall:
            history = self.tensor[OBSERVATION_SIZE:]
            actions = SEATS * NUM_ACTIONS
            self.dict["actions"] = history[:actions].reshape(SEATS, NUM_ACTIONS)
            self.dict["dealt"] = history[actions : actions + NUM_CARD_KINDS]
            self.dict["drawn"] = history[actions + NUM_CARD_KINDS :]

    def set_from(self, state: Ono99State, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is not None:
            self.dict["observation"][:] = encode(view(state.engine, player))
            if not self.private:
                for name in _PRIVATE:
                    self.dict["observation"][_OFFSETS[name]] = 0
        if not self.recall:
            return
        n = state.rules.players
        if self.public:
            for k in range(n):
                self.dict["actions"][k] = state.counts[(player + k) % n]
        if self.private:
            self.dict["dealt"][:] = state.dealt_to[player]
            self.dict["drawn"][:] = state.drawn_by[player]

    def string_from(self, state: Ono99State, player: int) -> str:
        if self.recall:
            seen = [
                text if owner is None or (owner == player and self.private) else "?"
                for owner, text in state.events
            ]
            text = f"seat {player} · " + " · ".join(seen)
            if state.engine is not None and self.private:
                # Implied by the history, but a resampled state keeps no other seat's own
                # history: the hand makes every seat's key tell its legal actions.
                text += " · hand " + " ".join(map(card_name, state.engine.hands[player]))
            return text
        if state.engine is None:
            mine = state.dealt_to[player]
            cards = " ".join(
                card_name(c) for c in range(NUM_CARD_KINDS) for _ in range(int(mine[c]))
            )
            cards = cards if self.private else "?"
            return f"seat {player} · dealing · cards {cards}"
        v = view(state.engine, player)
        hand = " ".join(map(card_name, v.hand or ())) if self.private else "?"
        return (
            f"seat {player} · hand {hand} · total {v.total} · direction {v.direction} · "
            f"to play {v.to_play} owes {v.owed} · hand sizes {list(v.hand_sizes)} · "
            f"draw pile {v.draw_pile} · discard {' '.join(map(card_name, v.discard_pile))}"
        )


pyspiel.register_game(_GAME_TYPE, Ono99Game)

__all__ = ["SHORT_NAME", "Ono99Game", "Ono99Observer", "Ono99State", "game_rules"]
