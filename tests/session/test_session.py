"""The session core without sockets: seats and tokens, commands in, changes and messages
out, bots and timers as deadlines at a given ``now``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ono99.engine import (
    CARD_NAMES,
    DRAW,
    apply,
    legal_actions,
    load_record,
    new_game,
    replay,
    summarize,
    view,
)
from ono99.session import (
    OVER,
    PLAYING,
    ActionTaken,
    GameFinished,
    GameStarted,
    Identity,
    RateLimiter,
    Seat,
    SeatChanged,
    SessionError,
    Settings,
    Table,
    TableConfig,
    TableCreated,
    encode_events,
    encode_view,
    normalize_code,
    parse_message,
    parse_table_request,
    replay_steps,
    wire,
)
from ono99.session.credentials import CODE_ALPHABET, new_code
from ono99.session.effects import ConfigChanged
from ono99.session.setup import same_name

SETTINGS = Settings(bot_delay=1.0, grace=30.0, bots=("random", "greedy"))


def make_table(
    seats: list[str], turn_seconds: float = 0, settings: Settings = SETTINGS, **rules: Any
) -> tuple[Table, dict[int, Identity], list[Any]]:
    """A started table; returns it, an identity per human seat, and every change so far."""
    request = {
        "rules": rules,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        "turn_seconds": turn_seconds,
        "name": "Ana",
    }
    config, name = parse_table_request(request, bots=settings.bots, turn_limits=(1, 600))
    table, _token, host, effects = Table.create(new_code(), config, name, settings)
    changes = list(effects.changes)
    who = {}
    if host.seat is not None:
        who[host.seat] = host
    for i, s in enumerate(seats):
        if s == "human" and i != host.seat:
            seat, tok, out = table.join(f"P{i}", 0.0)
            changes += out.changes
            who[seat] = table.identify(tok)
    for w in who.values():
        table.connect(w, 0.0)
    changes += table.start(host, 0.0).changes
    return table, who, changes


def drive_bots(table: Table, now: float, until: float) -> float:
    """Let every due bot move up to time ``until``; returns the time reached."""
    while table.phase == PLAYING:
        when = table.next_deadline()
        if when is None or when > until:
            break
        now = max(now, when)
        table.expire(now)
        move = table.pending_move(now)
        if move is not None:
            table.complete(move, move.bot.choose(move.view), now)
    return now


# ------------------------------------------------------------------ tables and seats


def test_codes_are_long_random_and_normalised() -> None:
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    code = next(iter(codes))
    assert len(code) == 12 and set(code) <= set(CODE_ALPHABET)
    assert normalize_code(code.upper()[:4] + "-" + code[4:8] + " " + code[8:]) == code
    assert normalize_code("0000-0000-0000") is None  # 0 is not in the alphabet
    assert normalize_code("short") is None
    assert normalize_code("x" * 1000) is None


def test_creator_hosts_and_sits_in_the_first_human_seat() -> None:
    config, name = parse_table_request(
        {"seats": [{"kind": "bot"}, {"kind": "human"}, {"kind": "human"}], "name": " Ana  "},
        bots=SETTINGS.bots,
    )
    table, token, host, effects = Table.create("c" * 12, config, name, SETTINGS)
    assert host == Identity(1, True)
    assert table.identify(token) == host
    assert [s.name for s in table.seats] == ["Ben", "Ana", None]  # bots get names
    assert table.seats[0].bot == "greedy"
    assert isinstance(effects.changes[0], TableCreated)
    assert token not in json.dumps(effects.changes)  # only hashes are stored
    assert table.identify(None) == Identity(None, False)
    with pytest.raises(SessionError) as err:
        table.identify("not-a-token")
    assert err.value.code == "bad_token"


def test_all_bot_table_has_a_watching_host() -> None:
    config, name = parse_table_request(
        {"seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot"}]}, bots=SETTINGS.bots
    )
    table, token, host, _ = Table.create("d" * 12, config, name, SETTINGS)
    assert host == Identity(None, True)
    assert table.identify(token) == host
    table.start(host, 0.0)
    assert table.phase == PLAYING


def test_join_fills_open_seats_then_refuses() -> None:
    config, name = parse_table_request(
        {"seats": [{"kind": "human"}] * 3, "name": "Ana"}, bots=SETTINGS.bots
    )
    table, _, host, _ = Table.create("e" * 12, config, name, SETTINGS)
    seat1, tok1, out = table.join("Ben", 0.0)
    assert seat1 == 1 and out.table
    assert out.changes == [SeatChanged(1, "human", None, "Ben", table.seats[1].token_hash)]
    with pytest.raises(SessionError) as err:
        table.start(host, 0.0)
    assert err.value.code == "not_ready" and err.value.params == {"seats": [2]}
    for bad in ("", "   ", "x" * 25, "a\x00b", 7, None):
        with pytest.raises(SessionError) as err:
            table.join(bad, 0.0)
        assert err.value.code == "bad_name"
    seat2, tok2, _ = table.join("Chloé", 0.0)
    assert seat2 == 2 and tok2 != tok1
    with pytest.raises(SessionError) as err:
        table.join("Dev", 0.0)
    assert err.value.code == "full"
    with pytest.raises(SessionError) as err:
        table.start(table.identify(tok1), 0.0)
    assert err.value.code == "not_host"
    out = table.start(host, 0.0)
    assert out.snapshot and isinstance(out.changes[0], GameStarted)
    with pytest.raises(SessionError) as err:
        table.start(host, 0.0)
    assert err.value.code == "started"


def test_two_people_at_a_table_never_share_a_name() -> None:
    """Session rule (docs/protocol.md, joining): a newcomer named like a person already
    seated — the creator included — is refused with ``name_taken``, whatever the case, the
    spaces around it or the way its accents were typed, and nothing changes."""
    config, name = parse_table_request(
        {"seats": [{"kind": "human"}] * 3 + [{"kind": "bot"}], "name": "Ana"},
        bots=SETTINGS.bots,
    )
    table, _, _, _ = Table.create("g" * 12, config, name, SETTINGS)
    table.join("Chlo\u00e9", 0.0)  # é typed as one letter
    before = [s.to_json() for s in table.seats]
    taken = [("Ana", "Ana"), ("ana", "Ana"), ("  ANA ", "Ana"), ("\tAna\n", "Ana")]
    taken += [("CHLOÉ", "Chloé"), (" Chloe\u0301 ", "Chloé")]  # e + combining ◌́
    # Look-alikes (UTS #39 skeletons after NFKC): a Cyrillic о, full-width letters, a Greek Α.
    taken += [("Chl\u043e\u00e9", "Chloé"), ("\uff21\uff4e\uff41", "Ana"), ("\u0391na", "Ana")]
    for same, holder in taken:
        with pytest.raises(SessionError) as err:
            table.join(same, 0.0)
        assert err.value.code == "name_taken", same
        assert err.value.params == {"name": holder}, same  # as the one who has it wrote it
        assert [s.to_json() for s in table.seats] == before
    # A name that merely looks alike is another name, and the seat is still free for it.
    seat, _, _ = table.join("Anna", 0.0)
    assert seat == 2 and [s.name for s in table.seats] == ["Ana", "Chloé", "Anna", "Ben"]


def test_look_alike_names_are_one_name_but_an_accent_makes_another() -> None:
    """Full-width "Ｌｅｏ" and a capital I for an l read as "Leo" and "Al": refused. An accent
    is part of a name in many languages (Léo and Leo are two people, and both are shown as
    typed), so "Léo" may sit beside "Leo"."""
    assert same_name("\uff2c\uff45\uff4f", "Leo") and same_name("AI", "Al")
    assert not same_name("L\u00e9o", "Leo") and not same_name("Ana", "Anna")


def test_names_are_stored_composed_and_bots_make_way_for_people() -> None:
    config, name = parse_table_request(
        {"seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}], "name": "ben"},
        bots=SETTINGS.bots,
    )
    table, _, _, _ = Table.create("h" * 12, config, name, SETTINGS)
    assert [s.name for s in table.seats] == ["ben", "Ana", None]  # no bot "Ben" beside "ben"
    _, _, out = table.join("ANA", 0.0)  # the bot "Ana" takes a name neither person has
    assert [s.name for s in table.seats] == ["ben", "Chloé", "ANA"]
    assert [c.seat for c in out.changes] == [2, 1]
    config, name = parse_table_request(
        {"seats": [{"kind": "human"}] * 2, "name": "Chloe\u0301"}, bots=SETTINGS.bots
    )
    table, _, _, _ = Table.create("j" * 12, config, name, SETTINGS)
    assert table.seats[0].name == "Chlo\u00e9"


def test_host_turns_an_open_seat_into_a_bot() -> None:
    config, name = parse_table_request(
        {"seats": [{"kind": "human"}] * 3, "name": "Ana"}, bots=SETTINGS.bots
    )
    table, _, host, _ = Table.create("f" * 12, config, name, SETTINGS)
    _, tok, _ = table.join("Ben", 0.0)
    with pytest.raises(SessionError) as err:
        table.set_seat(host, 1, "bot", "greedy", 0.0)
    assert err.value.code == "seat_taken"
    with pytest.raises(SessionError) as err:
        table.set_seat(table.identify(tok), 2, "bot", "greedy", 0.0)
    assert err.value.code == "not_host"
    with pytest.raises(SessionError) as err:
        table.set_seat(host, 2, "bot", "nonsense", 0.0)
    assert err.value.code == "bad_request"
    out = table.set_seat(host, 2, "bot", "random", 0.0)
    assert out.changes[0].kind == "bot" and table.seats[2].bot == "random"
    table.start(host, 0.0)
    assert table.phase == PLAYING


# ------------------------------------------------------------------ playing


def test_a_turn_is_stored_and_announced_and_refusals_change_nothing() -> None:
    table, who, changes = make_table(["human", "human", "human"])
    state = table.state
    assert state is not None
    seed = next(c.seed for c in changes if isinstance(c, GameStarted))
    to_play = state.to_play
    assert to_play is not None
    other = next(s for s in who if s != to_play)
    action = legal_actions(state)[0]
    for who_, text, moves, code in [
        (who[other], str(action), None, "not_your_turn"),
        (who[to_play], "play 7", 5, "stale"),
        (who[to_play], "jump", None, "bad_action"),
        (who[to_play], "draw", None, "illegal"),
        (Identity(None, False), str(action), None, "not_seated"),
    ]:
        with pytest.raises(SessionError) as err:
            table.act(who_, text, moves, 1.0)
        assert err.value.code == code
        assert table.state is state  # nothing changed
        assert str(seed) not in json.dumps(err.value.to_json())
    out = table.act(who[to_play], str(action), 0, 1.0)
    assert out.changes == [ActionTaken(1, 0, to_play, str(action), "seat")]
    assert out.step is not None and out.step.seat == to_play and out.step.first_event == 1
    messages = wire.update_messages(table, out.step, [0, 1, 2, None], 1.0)
    after = table.state
    assert after is not None
    for seat, message in messages.items():
        assert message["view"] == encode_view(view(after, seat))
        assert message["events"] == encode_events(after.events(1))
        assert message["moves"] == 1 and message["action"] == str(action)
        assert str(seed) not in json.dumps(message)
    assert messages[None]["view"]["hand"] is None


def test_an_illegal_card_names_the_rule_and_a_card_not_in_hand_is_refused() -> None:
    table, who, _ = make_table(["human", "human"])
    state = table.state
    assert state is not None and state.to_play is not None
    seat = state.to_play
    missing = next(
        c for c in ("0", "1", "2", "3", "4", "5", "6") if int(c) not in state.hands[seat]
    )
    with pytest.raises(SessionError) as err:
        table.act(who[seat], f"play {missing}", None, 0.0)
    assert err.value.code == "illegal" and "in hand" in err.value.message
    reason = {"reason": "not_in_hand", "rule": "T1", "card": missing}  # docs/protocol.md
    assert err.value.params == {"action": f"play {missing}", **reason}
    assert table.state is state
    other = 1 - seat
    with pytest.raises(SessionError) as err:
        table.act(who[other], f"play {missing}", None, 0.0)
    assert err.value.code == "not_your_turn"
    assert err.value.params["to_play"] == seat and err.value.params["reason"] == "not_your_turn"


def test_a_whole_game_every_message_is_that_seats_view() -> None:
    """Four people play a whole game at random; after every action, the message each seat
    and a spectator would get is exactly the engine's view for them, and nothing else."""
    rng = random.Random(5)
    table, who, changes = make_table(["human"] * 4, edition="1980", draw_penalty=True)
    seed = next(c.seed for c in changes if isinstance(c, GameStarted))
    now = 0.0
    while table.phase == PLAYING:
        state = table.state
        assert state is not None
        actors = [s for s in range(4) if legal_actions(state, s)]
        seat = rng.choice(actors)
        action = rng.choice(legal_actions(state, seat))
        now += 0.1
        out = table.act(who[seat], str(action), state.moves, now)
        assert out.step is not None
        messages = wire.update_messages(table, out.step, [0, 1, 2, 3, None], now)
        for audience, message in messages.items():
            after = table.state
            assert after is not None
            assert message["view"] == encode_view(view(after, audience))
            if audience is not None:
                assert message["view"]["hand"] == [CARD_NAMES[c] for c in after.hands[audience]]
            text = json.dumps(message)
            if not after.over:
                assert str(seed) not in text
            for forbidden in ('"hands"', '"pile"', '"seed"', '"decks"', '"reshuffles"'):
                assert forbidden not in text
        changes += out.changes
    assert table.phase == OVER
    finished = [c for c in changes if isinstance(c, GameFinished)]
    assert len(finished) == 1
    record = load_record(finished[0].record)
    assert record.seed == seed
    assert record.meta["names"] == ["Ana", "P1", "P2", "P3"]
    assert summarize(replay(record)) == summarize(table.state)
    steps = replay_steps(record)
    assert len(steps) == len(record.actions) + 1
    assert steps[-1]["state"]["over"] and steps[-1]["state"]["winners"]


def test_the_snapshot_holds_the_log_and_no_one_elses_hand() -> None:
    table, _, _ = make_table(["human", "human", "greedy"])
    drive_bots(table, 0.0, 5.0)
    state = table.state
    assert state is not None
    for seat in (0, 1, None):
        message = wire.state_message(table, seat, 0.0)
        assert message["view"] == encode_view(view(state, seat))
        assert message["log"] == encode_events(state.events())
        assert message["moves"] == state.moves


# ------------------------------------------------------------------ bots and timers


def test_bots_move_after_their_delay() -> None:
    table, who, _ = make_table(["human", "greedy", "random"])
    state = table.state
    assert state is not None
    # Bring it to a bot's turn.
    now = 0.0
    while state.to_play == 0:
        table.act(who[0], str(legal_actions(state)[0]), None, now)
        state = table.state
        assert state is not None
    bot_seat = state.to_play
    assert bot_seat in (1, 2)
    due = table.next_deadline()
    assert due == pytest.approx(now + SETTINGS.bot_delay)
    assert table.pending_move(due - 0.01) is None
    move = table.pending_move(due)
    assert move is not None and move.seat == bot_seat and move.by == "bot"
    assert move.view.hand == state.hands[bot_seat] and move.view.seat == bot_seat
    assert table.pending_move(due) is None  # it is thinking: not asked twice
    out = table.complete(move, move.bot.choose(move.view), due)
    assert out.changes[0].by == "bot" and out.changes[0].seat == bot_seat


def test_a_stale_bot_choice_is_ignored() -> None:
    """The stand-in is choosing for an away player when they come back and play first."""
    table, who, _ = make_table(["human", "human"])
    state = table.state
    assert state is not None and state.to_play is not None
    seat = state.to_play
    table.disconnect(who[seat], 0.0)
    table.expire(SETTINGS.grace)
    move = table.pending_move(SETTINGS.grace + SETTINGS.bot_delay)
    assert move is not None and move.by == "away"
    table.connect(who[seat], 40.0)
    table.act(who[seat], str(legal_actions(state)[-1]), 0, 40.0)
    after = table.state
    out = table.complete(move, move.bot.choose(move.view), 40.0)
    assert out.changes == [] and out.step is None
    assert table.state is after and table.by == ["seat"]


def test_the_turn_timer_lets_the_stand_in_finish_the_turn() -> None:
    table, _, _ = make_table(["human", "human"], turn_seconds=10)
    state = table.state
    assert state is not None and state.to_play is not None
    seat = state.to_play
    assert table.clock.turn_deadline == pytest.approx(10.0)
    info = wire.turn_info(table, 4.0)
    assert info == {"seat": seat, "seconds": 10.0, "ms_left": 6000, "auto": False}
    assert table.pending_move(9.9) is None
    move = table.pending_move(10.0)
    assert move is not None and move.by == "timer" and move.seat == seat
    assert move.bot.name == "greedy"
    out = table.complete(move, move.bot.choose(move.view), 10.0)
    assert out.changes[0].by == "timer" and out.step is not None
    after = table.state
    assert after is not None
    if after.to_play != seat:  # the next person's turn has a fresh timer
        assert table.clock.turn_deadline == pytest.approx(20.0)


def test_a_dropped_player_keeps_the_seat_for_the_grace_period() -> None:
    table, who, _ = make_table(["human", "human"])
    state = table.state
    assert state is not None and state.to_play is not None
    seat = state.to_play
    out = table.disconnect(who[seat], 100.0)
    assert out.table and not table.seats[seat].to_json()["connected"]
    assert table.next_deadline() == pytest.approx(130.0)
    assert table.pending_move(129.0) is None
    assert not table.expire(129.0).table
    # Back within the grace period: nothing happened.
    table.connect(who[seat], 120.0)
    assert table.next_deadline() is None
    table.disconnect(who[seat], 200.0)
    out = table.expire(230.0)
    assert out.table and table.seats[seat].away and wire.table_message(table, 230.0)["turn"]["auto"]
    move = table.pending_move(231.0)
    assert move is not None and move.by == "away" and move.seat == seat
    table.complete(move, move.bot.choose(move.view), 231.0)
    assert table.by == ["away"]
    table.connect(who[seat], 240.0)
    assert not table.seats[seat].away


def test_a_bot_draws_with_its_card_so_no_quick_neighbour_can_make_it_lost() -> None:
    """X2 at a table: a bot takes the draw its card owes in the same move (two actions, one
    update each), so the person's next card, however quick, never finds it owing."""
    table, who, _ = make_table(["human", "greedy"], edition="1980", draw_penalty=True)
    now = 0.0
    for _ in range(50):  # the person plays (and draws) until it is the bot's turn
        state = table.state
        assert state is not None
        if state.to_play == 1 and not state.owes_draw:
            break
        action = DRAW if DRAW in legal_actions(state, 0) else legal_actions(state, 0)[0]
        table.act(who[0], str(action), None, now)
    assert table.next_deadline() == pytest.approx(now + SETTINGS.bot_delay)
    move = table.pending_move(now + SETTINGS.bot_delay)
    assert move is not None and move.seat == 1
    now += SETTINGS.bot_delay
    out = table.complete(move, move.bot.choose(move.view), now)
    state = table.state
    assert state is not None and not state.owes_draw and len(state.hands[1]) == 4
    assert [(c.seat, c.action.split()[0], c.by) for c in out.changes[:2]] == [
        (1, "play", "bot"),
        (1, "draw", "bot"),
    ]
    assert [st.state.moves for st in out.steps] == [state.moves - 1, state.moves]


def test_when_the_timer_runs_out_the_stand_in_plays_the_whole_turn_draw_included() -> None:
    """X2: the stand-in's card owes a draw; it takes it, so the absent person loses the turn
    and nothing more (a hand of four, as after any turn)."""
    table, _who, _ = make_table(["human", "greedy"], 5, edition="1980", draw_penalty=True)
    now = 0.0
    for _ in range(50):  # the bot plays until it is the person's turn
        state = table.state
        assert state is not None
        if state.to_play == 0 and not state.owes_draw:
            break
        now = drive_bots(table, now, now + 2)
    deadline = table.clock.turn_deadline
    assert deadline is not None
    move = table.pending_move(deadline)
    assert move is not None and move.seat == 0 and move.by == "timer"
    out = table.complete(move, move.bot.choose(move.view), deadline)
    state = table.state
    assert state is not None and 0 not in state.owes_draw and len(state.hands[0]) == 4
    assert [c.by for c in out.changes if isinstance(c, ActionTaken)] == ["timer", "timer"]


# ------------------------------------------------------------------ restoring


def test_restore_rebuilds_the_same_table_from_its_changes() -> None:
    table, who, changes = make_table(["human", "greedy", "human"])
    rng = random.Random(3)
    now = 0.0
    for _ in range(25):
        state = table.state
        assert state is not None
        if state.over:
            break
        seat = state.to_play
        assert seat is not None
        if seat == 1:
            now += 5
            move = table.pending_move(now)
            assert move is not None
            changes += table.complete(move, move.bot.choose(move.view), now).changes
        else:
            action = rng.choice(legal_actions(state))
            changes += table.act(who[seat], str(action), None, now).changes
    created = next(c for c in changes if isinstance(c, TableCreated))
    seats: dict[int, SeatChanged] = {}
    for c in changes:
        if isinstance(c, SeatChanged):
            seats[c.seat] = c
    started = next(c for c in changes if isinstance(c, GameStarted))
    actions = [(c.seat, c.action, c.by) for c in changes if isinstance(c, ActionTaken)]
    restored = Table.restore(
        created.code,
        TableConfig.from_json(json.loads(created.config)),
        created.host_hash,
        [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in seats.values()],
        SETTINGS,
        1000.0,
        game=started.game,
        seed=started.seed,
        dealer=started.dealer,
        actions=actions,
    )
    assert restored.state == table.state
    assert restored.by == table.by and restored.phase == table.phase
    for seat in (0, 2, None):
        assert wire.state_message(restored, seat, 0.0) == {
            **wire.state_message(table, seat, 0.0),
            "turn": wire.state_message(restored, seat, 0.0)["turn"],
        }
    assert [s.name for s in restored.seats] == [s.name for s in table.seats]


def test_play_again_deals_a_new_game_with_a_new_seed() -> None:
    table, _, changes = make_table(["random", "greedy"])
    host = Identity(None, True)
    with pytest.raises(SessionError) as err:
        table.again(host, 0.0)
    assert err.value.code == "not_over"
    drive_bots(table, 0.0, 10_000.0)
    assert table.phase == OVER and wire.turn_info(table, 0.0) is None
    out = table.again(host, 0.0)
    assert out.snapshot and table.game == 2 and table.phase == PLAYING
    seeds = [c.seed for c in changes + out.changes if isinstance(c, GameStarted)]
    assert len(seeds) == 2 and seeds[0] != seeds[1]


# ------------------------------------------------------------------ input checking


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        ('{"type": "fly"}', "bad_request"),
        ('{"no": "type"}', "bad_request"),
        ('{"type": "act"}', "bad_request"),
        ('{"type": "act", "action": 7}', "bad_request"),
        ('{"type": "act", "action": "play 7", "moves": true}', "bad_request"),
        ('{"type": "act", "action": "play 7", "moves": -1}', "bad_request"),
        ('{"type": "act", "action": "play 7", "extra": 1}', "bad_request"),
        ('{"type": "act", "action": "' + "x" * 100 + '"}', "bad_request"),
        ('{"type": "ping", "id": [1]}', "bad_request"),
        ('{"type": "hello", "token": "' + "t" * 100 + '"}', "bad_request"),
        ('{"type": "seat", "seat": 1}', "bad_request"),
        ('{"type": "ping", "pad": "' + "x" * 3000 + '"}', "too_big"),
        ("[" * 100_000, "too_big"),
        ("[" * 2000 + "]" * 2, "bad_json"),
    ],
)
def test_malformed_messages_are_refused(frame: str | bytes, code: str) -> None:
    with pytest.raises(SessionError) as err:
        parse_message(frame)
    assert err.value.code == code


def test_well_formed_messages_parse() -> None:
    cmd = parse_message('{"type": "act", "action": "play 7", "moves": 3, "id": "a1"}')
    assert (cmd.type, cmd.action, cmd.moves, cmd.id) == ("act", "play 7", 3, "a1")
    assert parse_message(b'{"type": "hello"}').token is None
    assert parse_message('{"type": "seat", "seat": 2, "kind": "bot", "bot": "greedy"}').seat == 2


@pytest.mark.parametrize(
    ("request_", "code", "field"),
    [
        ([], "bad_request", None),
        ({"seats": [{"kind": "human"}]}, "bad_request", "seats"),
        ({"seats": [{"kind": "human"}] * 7}, "bad_request", "seats"),
        ({"seats": [{"kind": "alien"}] * 2, "name": "A"}, "bad_request", "seats"),
        ({"seats": [{"kind": "bot", "bot": "oracle9"}] * 2}, "bad_request", "seats"),
        ({"seats": [{"kind": "human"}] * 2}, "bad_name", "name"),
        ({"seats": [{"kind": "bot"}] * 2, "rules": {"max_total": 5}}, "bad_rules", "rules"),
        ({"seats": [{"kind": "bot"}] * 2, "rules": {"edition": "1999"}}, "bad_rules", "rules"),
        ({"seats": [{"kind": "bot"}] * 2, "rules": {"players": 3}}, "bad_request", "seats"),
        ({"seats": [{"kind": "bot"}] * 2, "turn_seconds": 2}, "bad_request", "turn_seconds"),
        ({"seats": [{"kind": "bot"}] * 2, "turn_seconds": "30"}, "bad_request", "turn_seconds"),
        ({"seats": [{"kind": "bot"}] * 2, "colour": "red"}, "bad_request", "colour"),
    ],
)
def test_bad_table_requests_name_the_field(request_: Any, code: str, field: str | None) -> None:
    with pytest.raises(SessionError) as err:
        parse_table_request(request_, bots=SETTINGS.bots)
    assert err.value.code == code
    assert err.value.params.get("field") == field


def test_a_bad_rule_option_keeps_the_engines_message() -> None:
    with pytest.raises(SessionError) as err:
        parse_table_request(
            {"seats": [{"kind": "bot"}] * 2, "rules": {"max_total": 5}}, bots=SETTINGS.bots
        )
    assert err.value.params["option"] == "max_total" and "at least 10" in err.value.message


def test_rate_limiter_allows_a_burst_then_the_rate() -> None:
    limiter = RateLimiter(rate=2, burst=3, now=0.0)
    assert [limiter.allow(0.0) for _ in range(4)] == [True, True, True, False]
    assert limiter.allow(0.5) and not limiter.allow(0.5)
    assert limiter.refused == 2
    assert RateLimiter(rate=0, burst=0, now=0.0).allow(0.0)


def test_stored_state_replays_to_the_live_one() -> None:
    """The engine guarantee the restart relies on: seed + actions give the same state."""
    rules_table, _, changes = make_table(["greedy", "random", "greedy"])
    drive_bots(rules_table, 0.0, 10_000.0)
    started = next(c for c in changes if isinstance(c, GameStarted))
    state = new_game(rules_table.rules, started.seed, dealer=started.dealer)
    live = rules_table.state
    assert live is not None
    for seat, action in live.actions():
        state = apply(state, seat, action)
    assert state == live


def test_a_seat_left_mid_game_is_played_by_the_stand_in_to_a_record_that_replays() -> None:
    """``leave``: the seat opens, its link holds nothing, the stand-in plays it to the end
    (``by`` "away"), and the record still names every seat and replays."""
    table, who, _ = make_table(["human", "human", "greedy"])
    tokenless = table.leave(who[1], 0.0)
    assert [type(c) for c in tokenless.changes] == [SeatChanged]
    assert table.seats[1].open and table.seats[1].auto
    with pytest.raises(SessionError) as err:
        table.leave(who[1], 0.0)  # the same link again: the seat is no longer theirs
    assert err.value.code == "not_seated"
    with pytest.raises(SessionError) as err:
        table.leave(Identity(None, False), 0.0)
    assert err.value.code == "not_seated"
    now = 0.0
    while table.phase == PLAYING:
        state = table.state
        assert state is not None
        if state.to_play == 0 and legal_actions(state, 0):
            table.act(who[0], str(legal_actions(state, 0)[0]), None, now)
        now = drive_bots(table, now, now + 5)
    assert "away" in table.by
    record = load_record(table.record_json())
    assert replay(record).over
    assert record.meta["names"][1] is None  # nobody held the seat at the end


def test_a_newcomer_takes_an_open_seat_from_the_stand_in_mid_game() -> None:
    table, who, _ = make_table(["human", "human"])
    host = who[0]
    table.set_seat(host, 1, "open", None, 0.0)
    assert table.seats[1].auto
    seat, token, _ = table.join("Zoé", 0.0)
    assert seat == 1 and table.identify(token) == Identity(1, False)
    assert not table.seats[1].auto
    with pytest.raises(SessionError) as err:
        table.set_seat(host, 1, "bot", "random", 0.0)
    assert err.value.code == "started"


def test_a_person_who_leaves_mid_game_stays_named_on_the_open_seat_until_it_is_taken() -> None:
    """docs/protocol.md, ``left``: the seat opens (anyone may join it; the stand-in plays it)
    but keeps its person's name, marked as left, so the log still says whose tokens it lost.
    The name is nobody's: a newcomer may take it, and a joiner takes the seat as their own."""
    table, who, _ = make_table(["human", "human", "greedy"])
    out = table.leave(who[1], 0.0)
    seat = wire.table_message(table, 0.0)["seats"][1]
    assert seat == {**seat, "name": "P1", "open": True, "left": True, "kind": "human"}
    assert table.seats[1].open and table.seats[1].auto and table.seats[1].name is None
    assert out.changes == [SeatChanged(1, "human", None, None, None, "P1")]
    # The leaver's name does not refuse a newcomer, who takes it along with the seat.
    seat_index, token, joined = table.join("p1", 0.0)
    assert seat_index == 1 and table.identify(token) == Identity(1, False)
    seat = wire.table_message(table, 0.0)["seats"][1]
    assert seat == {**seat, "name": "p1", "open": False, "left": False}
    assert joined.changes[0] == SeatChanged(1, "human", None, "p1", table.seats[1].token_hash)


def test_a_seat_the_host_opens_mid_game_keeps_its_person_s_name_until_someone_joins() -> None:
    table, who, _ = make_table(["human", "human", "human"])
    table.set_seat(who[0], 2, "open", None, 0.0)
    table.set_seat(who[0], 2, "open", None, 0.0)  # opened again: still theirs to show
    seat = table.seats[2].to_json()
    assert seat == {**seat, "name": "P2", "open": True, "left": True}
    seat_index, _token, _ = table.join("Zoé", 0.0)
    assert seat_index == 2
    assert table.seats[2].to_json() == {**seat, "name": "Zoé", "open": False, "left": False}


def test_only_a_person_who_played_is_named_on_the_seat_they_left() -> None:
    """In the lobby nothing was played: a seat given up is simply open. A bot's seat opened
    between games names nobody (a bot is not a person who left)."""
    config, name = parse_table_request(
        {"seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ana"}, bots=SETTINGS.bots
    )
    table, _token, _host, _ = Table.create("c" * 12, config, name, SETTINGS)
    _, token, _ = table.join("Ben", 0.0)
    table.leave(table.identify(token), 0.0)
    seat = table.seats[1].to_json()
    assert seat == {**seat, "name": None, "open": True, "left": False}
    over, who = finished(["human", "human", "greedy"])
    over.set_seat(who[0], 2, "open", None, 2e6)
    over.set_seat(who[0], 1, "open", None, 2e6)  # between games: P1 played, and is named
    assert [(over.seats[i].to_json()["name"], over.seats[i].left) for i in (1, 2)] == [
        ("P1", True),
        (None, False),
    ]


def finished(seats: list[str]) -> tuple[Table, dict[int, Identity]]:
    """A table whose first game is over (every turn timed out and played by the stand-in)."""
    table, who, _ = make_table(seats, 1)
    drive_bots(table, 0.0, 1e6)
    assert table.phase == OVER
    return table, who


def test_the_next_game_starts_once_every_person_there_is_ready() -> None:
    """Between games: no game starts under someone still reading the end. Each person says
    ready (bots always are); the last one starts the next game."""
    table, who = finished(["human", "human", "greedy"])
    now = 2e6
    assert wire.next_info(table, now) == {"ready": [], "waiting": [0, 1], "ms_left": None}
    out = table.mark_ready(who[1], now)
    assert out.table and not out.changes and table.phase == OVER
    assert wire.table_message(table, now)["next"] == {"ready": [1], "waiting": [0], "ms_left": None}
    with pytest.raises(SessionError) as err:
        table.mark_ready(Identity(None, False), now)
    assert err.value.code == "not_seated"
    out = table.mark_ready(who[0], now)
    assert table.phase == PLAYING and table.game == 2
    assert any(isinstance(c, GameStarted) for c in out.changes)
    assert wire.table_message(table, now)["next"] is None
    with pytest.raises(SessionError) as err:
        table.mark_ready(who[0], now)
    assert err.value.code == "not_over"


def test_the_next_game_starts_when_the_one_it_waited_for_leaves() -> None:
    """Everyone still at the table is ready and the last person not ready goes: nothing is
    waited for any more, so the next game starts (it used to wait for ever)."""
    table, who = finished(["human", "human", "greedy"])
    now = 2e6
    table.mark_ready(who[1], now)
    assert table.phase == OVER and wire.next_info(table, now)["waiting"] == [0]
    out = table.set_connections(0, 0, now)  # seat 0, not ready, closes its last connection
    assert table.phase == PLAYING and table.game == 2
    assert any(isinstance(c, GameStarted) for c in out.changes)
    # Nobody ready and everyone gone: no game starts with nobody there.
    table2, _ = finished(["human", "human"])
    table2.set_connections(0, 0, now)
    table2.set_connections(1, 0, now)
    assert table2.phase == OVER


def test_the_host_s_next_game_counts_down_for_those_not_ready() -> None:
    table, who = finished(["human", "human"])
    now = 2e6
    out = table.again(who[0], now)
    assert not out.changes and table.phase == OVER  # Ben has not said he is ready
    assert wire.next_info(table, now + 4) == {"ready": [0], "waiting": [1], "ms_left": 6000}
    assert table.next_deadline() == pytest.approx(now + SETTINGS.countdown)
    assert table.expire(now + 9.9).changes == []
    out = table.expire(now + SETTINGS.countdown)
    assert table.phase == PLAYING and any(isinstance(c, GameStarted) for c in out.changes)


def test_nobody_waits_for_someone_who_is_not_there() -> None:
    table, who = finished(["human", "human"])
    table.disconnect(who[1], 2e6)
    table.again(who[0], 2e6)
    assert table.phase == PLAYING and table.game == 2


def test_another_process_s_ready_marks_are_taken_in() -> None:
    table, who = finished(["human", "human"])
    table.mark_ready(who[0], 2e6)
    assert table.merge_next([7], 3000, 2e6).table  # a seat that is not there is ignored
    assert table.ready == {0} and table.countdown == pytest.approx(2e6 + 3)
    table.merge_next([1], None, 2e6)
    assert table.phase == PLAYING


def test_a_round_s_summary_holds_the_next_round_until_everyone_continues() -> None:
    """Issue 25: in a tokens match the next round's first turn (its bots, its timer) waits
    while the people there read the summary, until each says continue or the pause ends."""
    settings = Settings(bot_delay=1.0, grace=30.0, bots=("greedy",), round_pause=5.0)
    table, who, _ = make_table(["human", "greedy", "greedy"], 30, settings, edition="1980")
    rng = random.Random(4)
    now = 0.0
    while table.pause.until is None:
        assert table.phase == PLAYING, "the match ended without a second round"
        state = table.state
        assert state is not None
        if state.to_play == 0 or 0 in state.owes_draw:
            now += 0.1
            table.act(who[0], rng.choice([str(a) for a in legal_actions(state, 0)]), None, now)
        else:
            now = drive_bots(table, now, (table.next_deadline() or now) + 0.001)
    paused = wire.table_message(table, now)["pause"]
    assert paused == {"round": 1, "ms_left": 5000, "continued": [], "waiting": [0]}
    assert table.pending_move(now + 4.9) is None  # nobody moves under the summary
    assert table.next_deadline() == pytest.approx(now + 5.0)
    state = table.state
    assert state is not None
    if state.to_play == 0:
        with pytest.raises(SessionError) as err:
            table.act(who[0], str(legal_actions(state, 0)[0]), None, now + 1)
        assert err.value.code == "paused"
    with pytest.raises(SessionError) as err:
        table.carry_on(Identity(None, False), now + 1)
    assert err.value.code == "not_seated"
    assert table.carry_on(who[0], now + 1).table  # the only person there: play resumes
    assert wire.table_message(table, now + 1)["pause"] is None
    # From now on, not from the pause's end: a bot's delay, or the person's turn timer.
    assert table.next_deadline() == pytest.approx(now + 1 + (30 if state.to_play == 0 else 1))
    assert not table.carry_on(who[0], now + 1.5).table  # no pause: nothing to do


def test_without_a_continue_the_pause_ends_by_itself() -> None:
    settings = Settings(bot_delay=1.0, grace=30.0, bots=("greedy",), round_pause=5.0)
    table, _who, _ = make_table(["human", "greedy"], 0, settings, edition="1980")
    table.pause.begin(1, 5.0, 10.0)
    assert table.pause.active(12.0) and not table.pause.active(15.0)
    assert table.expire(15.0).table and wire.table_message(table, 15.0)["pause"] is None


def test_the_host_changes_the_rules_between_games_and_only_then() -> None:
    """Issue 25: ``configure`` in the lobby and between games; refused during a game and
    from a guest, and a bad config changes nothing. A finished game comes back from storage
    under its own rules, whatever the table's are now."""
    table, who = finished(["human", "human"])
    guest, host = who[1], who[0]
    new = {"rules": {"edition": "1980", "match": "points", "target": 100}, "turn_seconds": 60}
    with pytest.raises(SessionError) as err:
        table.configure(guest, new, 1e6)
    assert err.value.code == "not_host"
    for bad, code in (
        ({"rules": {"edition": "1999"}}, "bad_rules"),
        ({"rules": {"players": 3}}, "bad_request"),
        ({"seats": []}, "bad_request"),
        ({"turn_seconds": 3}, "bad_request"),
        ([], "bad_request"),
    ):
        with pytest.raises(SessionError) as err:
            table.configure(host, bad, 1e6)
        assert err.value.code == code, bad
    assert table.rules.edition == "2022" and table.config.turn_seconds == 1
    old_state = table.state
    out = table.configure(host, new, 1e6)
    assert out.table and len(out.changes) == 1
    stored = json.loads(out.changes[0].config)
    assert TableConfig.from_json(stored) == table.config
    message = wire.table_message(table, 1e6)
    assert (message["rules"]["edition"], message["rules"]["match"]) == ("1980", "points")
    assert message["rules"]["target"] == 100 and message["turn_seconds"] == 60
    assert table.state is old_state  # the game just played stays as it was
    # After a restart: the finished game replays by its record's rules, not the new ones.
    record = load_record(table.record_json())
    restored = Table.restore(
        table.code, table.config, table.host_hash, table.seats, SETTINGS, 1e6,
        game=1, seed=record.seed, dealer=record.dealer,
        actions=[(s, str(a), b) for (s, a), b in zip(record.actions, table.by, strict=True)],
        finished=True, record=table.record_json(),
    )  # fmt: skip
    assert restored.state == old_state and restored.rules.edition == "1980"
    table.mark_ready(guest, 1e6)
    table.mark_ready(host, 1e6)
    assert table.phase == PLAYING and table.state is not None
    assert table.state.rules.edition == "1980" and table.state.rules.match == "points"
    with pytest.raises(SessionError) as err:
        table.configure(host, {"rules": {"edition": "2022"}}, 1e6)
    assert err.value.code == "started"
    assert table.rules.edition == "1980"


def test_configure_parses_as_a_message() -> None:
    cmd = parse_message('{"type": "configure", "config": {"rules": {"edition": "1980"}}}')
    assert cmd.type == "configure" and cmd.config == {"rules": {"edition": "1980"}}
    for frame in ('{"type": "configure"}', '{"type": "configure", "config": [1]}'):
        with pytest.raises(SessionError) as err:
            parse_message(frame)
        assert err.value.code == "bad_request"


def test_a_timed_out_turn_that_ends_a_round_does_not_skip_the_pause() -> None:
    """The stand-in's move that ends a round, by the seat that then opens the next one: the
    next turn's timer still waits for the pause (it once ran at the stand-in's pace)."""
    settings = Settings(bot_delay=0.5, grace=30.0, bots=("greedy",), round_pause=5.0)
    for _ in range(200):
        table, _who, _ = make_table(["human", "human"], 1, settings, edition="1980")
        now, last = 0.0, None
        while table.phase == PLAYING and table.pause.until is None:
            now = max(now, table.next_deadline() or now)
            table.expire(now)
            move = table.pending_move(now)
            if move is not None:
                table.complete(move, move.bot.choose(move.view), now)
                last = move.seat
        if table.pause.until is not None and table.state and table.state.to_play == last:
            assert table.clock.turn_deadline is not None
            assert table.clock.turn_deadline >= table.pause.until
            assert table.pending_move(table.pause.until - 0.01) is None
            return
    pytest.fail("in no game did the seat that ended a round open the next")


@pytest.mark.parametrize("public", [True, False])
def test_someone_the_host_removes_from_a_public_table_may_not_sit_down_there_again(
    public: bool,
) -> None:
    """At a public table anyone may take an open seat: the host's removal would be undone by
    the next join. So it bars the name (as names are compared) and the profile; a private
    table's link is the host's to give, and its removal bars nobody."""
    request = {"seats": [{"kind": "human"}] * 3, "name": "Ana", "public": public}
    config, name = parse_table_request(request, bots=SETTINGS.bots)
    table, _, host, _ = Table.create("g" * 12, config, name, SETTINGS)
    seat, _tok, _ = table.join("Ben", 0.0, "profile-ben")
    out = table.set_seat(host, seat, "open", None, 0.0)
    stored = [c for c in out.changes if isinstance(c, ConfigChanged)]
    if not public:
        assert stored == []
        table.join("Ben", 0.0, "profile-ben")
        return
    (change,) = stored  # kept with the table's config: every process and a restart bar them
    assert TableConfig.from_json(json.loads(change.config)).barred == table.config.barred
    for again, player in (
        ("Ben", None),
        (" BEN ", None),
        ("Bеn", None),
        ("Benjamin", "profile-ben"),
    ):
        with pytest.raises(SessionError) as err:  # Bеn: a Cyrillic е
            table.join(again, 0.0, player)
        assert err.value.code == "removed"
    assert table.seating.open_seats() == [1, 2]  # refused: nothing changed
    table.join("Cleo", 0.0)  # anyone else
    assert "profile-ben" not in json.dumps(wire.table_message(table, 0.0))  # never sent
