// store.js reduces every kind of server message of docs/protocol.md to the table's state, and
// nothing else: no DOM, no clock of its own. Each test is one message kind (or one of its
// cases); every input is frozen, so a reducer that changed what it was given fails here.
import { test } from "node:test";
import assert from "node:assert/strict";

import { Store, advance, advanceAll, initialState, receive, remember } from "../../src/ono99/server/static/js/table/store.js";

/** @typedef {import("../../src/ono99/server/static/js/table/store.js").TableState} TableState */
/** @typedef {import("../../src/ono99/server/static/js/types.js").View} View */
/** @typedef {import("../../src/ono99/server/static/js/types.js").TableMessage} TableMessage */
/** @typedef {import("../../src/ono99/server/static/js/types.js").UpdateMessage} UpdateMessage */
/** @typedef {import("../../src/ono99/server/static/js/types.js").ServerMessage} ServerMessage */
/** @typedef {import("../../src/ono99/server/static/js/types.js").GameEvent} GameEvent */

/**
 * Freeze a value and all it holds (Maps stay as they are: the state's are replaced, not changed,
 * and the tests below compare them by identity).
 * @template T
 * @param {T} value
 * @returns {T}
 */
function frozen(value) {
  if (value && typeof value === "object" && !(value instanceof Map)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * A three-seat view, with `facts` changed.
 * @param {Partial<View>} [facts]
 * @returns {View}
 */
function view(facts = {}) {
  return {
    seat: 0, round: 1, dealer: 2, total: 17, direction: "cw", to_play: 0, owed: 1,
    second_card: false, ono99_played: false, hand: ["3", "10", "reverse", "ono99"],
    hand_sizes: [4, 4, 4], status: ["in", "in", "in"], laid_down: [[], [], []], tokens: null,
    scores: null, out: [], out_of_round: [], owes_draw: [], draw_pile: 90, discard_top: "10",
    discard_size: 3, over: false, winners: [], legal: ["play 3", "play 10", "play reverse"],
    ...facts,
  };
}

/** @param {Partial<TableMessage>} [facts] @returns {TableMessage} */
function table(facts = {}) {
  return {
    type: "table", code: "7kq2mx9pab3d", phase: "playing", game: 1, host_seat: 0,
    rules: {
      edition: "2022", players: 3, max_total: 98, negative_totals: false, four_ono99_discard: true,
      play2_deflects_play2: false, ono99_on_tens: false, draw_penalty: false, match: "single",
      tokens: 3, target: 100, variant: "last_standing", bust_total: "unchanged",
    },
    turn_seconds: 30, hints: true, tally: [0, 0, 0], pause: null, next: null,
    seats: [0, 1, 2].map((seat) => ({
      seat, kind: seat === 2 ? "bot" : "human", bot: seat === 2 ? "greedy" : null,
      name: ["Ana", "Leo", "Ben"][seat], open: false, left: false, connected: true, away: false,
    })),
    turn: { seat: 0, seconds: 30, ms_left: 20000, auto: false },
    ...facts,
  };
}

// The game of docs/protocol.md's `state` example: two cards down, seat 0 to play.
const STATE = frozen(/** @type {ServerMessage} */ ({
  type: "state", game: 1, moves: 2, view: view(),
  log: [
    { kind: "deal", seat: 2, total: 0, round: 1 },
    { kind: "play", seat: 0, card: "7", total: 7 },
    { kind: "play", seat: 1, card: "10", total: 17 },
  ],
  by: ["seat", "bot"],
  turn: { seat: 0, seconds: 30, ms_left: 29990, auto: false },
}));

/**
 * Seat `seat` plays `card`: the update every connection gets.
 * @param {number} moves  the actions so far, this one included
 * @param {number} seat
 * @param {string} card
 * @param {number} total
 * @param {Partial<View>} [facts]
 * @returns {UpdateMessage}
 */
function played(moves, seat, card, total, facts = {}) {
  const next = (seat + 1) % 3;
  return frozen({
    type: "update", game: 1, moves, seat, action: `play ${card}`, by: "seat",
    events: [{ kind: "play", seat, card, total }],
    view: view({ total, to_play: next, discard_top: card, legal: next === 0 ? ["play 3"] : [], ...facts }),
    turn: { seat: next, seconds: 30, ms_left: 30000, auto: next === 2 },
  });
}

/** A table in play, its state received at t = 1000 ms. @returns {TableState} */
function playing() {
  let s = receive(initialState(), { type: "welcome", protocol: 1, code: "7kq2mx9pab3d", seat: 0, host: true }, 0);
  s = receive(s, table(), 500);
  return frozen(receive(s, STATE, 1000));
}

test("welcome: who you are, nothing else", () => {
  const before = frozen(initialState());
  const s = receive(before, { type: "welcome", protocol: 1, code: "7kq2mx9pab3d", seat: 2, host: false }, 5);
  assert.deepEqual(s.me, { seat: 2, host: false });
  assert.equal(s.table, null);
  assert.equal(before.me.seat, null, "the state given is unchanged");
  const spectator = receive(before, { type: "welcome", protocol: 1, code: "7kq2mx9pab3d", seat: null, host: false }, 5);
  assert.equal(spectator.me.seat, null);
});

test("table: the facts kept, the countdowns on our clock", () => {
  const next = { ready: [1], waiting: [0], ms_left: 9000 };
  const pause = { round: 1, ms_left: 7400, continued: [0], waiting: [2] };
  const m = frozen(table({ phase: "over", next, pause, turn: null }));
  const s = receive(frozen(initialState()), m, 1000);
  assert.equal(s.table, m);
  assert.equal(s.nextEnds, 10000);
  assert.equal(s.pauseEnds, 8400);
  const quiet = receive(s, frozen(table({ next: { ready: [], waiting: [0], ms_left: null } })), 2000);
  assert.equal(quiet.nextEnds, null, "no countdown runs");
  assert.equal(quiet.pauseEnds, null);
});

test("table: the turn follows it at once, unless updates wait to be shown", () => {
  const s = playing();
  const later = receive(s, frozen(table({ turn: { seat: 0, seconds: 30, ms_left: 5000, auto: true } })), 3000);
  assert.equal(later.game?.turn?.auto, true);
  assert.equal(later.turnEnds, 8000);
  const waiting = receive(s, played(3, 0, "3", 20), 2000);
  const held = receive(waiting, frozen(table({ turn: { seat: 1, seconds: 30, ms_left: 5000, auto: false } })), 3000);
  assert.equal(held.game, waiting.game, "the shown game waits for its queue");
  assert.equal(held.turnEnds, waiting.turnEnds);
});

test("state: the game as it is, the story so far, the table's memory of the round", () => {
  const s = playing();
  assert.equal(s.game, s.latest);
  assert.deepEqual(s.game && [s.game.game, s.game.moves, s.game.view.total], [1, 2, 17]);
  assert.deepEqual(s.events.map(({ ev, by }) => [ev.kind, by]), [["deal", null], ["play", "seat"], ["play", "bot"]]);
  assert.equal(s.told, 3);
  assert.deepEqual(s.pile, ["7", "10"]);
  assert.deepEqual(s.lastCards, { 1: "10" }, "seat 0's card leaves it on its turn");
  assert.equal(s.turnEnds, 1000 + 29990);
  assert.equal(s.epoch, 1);
  // A second state (a reconnection, a new game) starts over: everything waiting is moot.
  const queued = receive(s, played(3, 0, "3", 20), 2000);
  const again = receive(queued, STATE, 3000);
  assert.deepEqual(again.queue, []);
  assert.equal(again.epoch, 2);
});

test("state before the first game: no game", () => {
  const s = receive(frozen(initialState()), frozen({ type: "state", game: 0, moves: 0, view: null, log: [], by: [] }), 0);
  assert.equal(s.game, null);
  assert.equal(s.latest, null);
  assert.deepEqual(s.events, []);
});

test("update: queued, with when it arrived; the shown game waits for advance", () => {
  const s = playing();
  const m = played(3, 0, "3", 20);
  const after = receive(s, m, 2500);
  assert.equal(after.latest?.moves, 3);
  assert.equal(after.game?.moves, 2, "not shown yet");
  assert.equal(after.queue.length, 1);
  assert.equal(after.queue[0].arrived, 2500);
  assert.equal(after.queue[0].action, "play 3");
  const shown = advance(after);
  assert.equal(shown.game?.moves, 3);
  assert.deepEqual(shown.queue, []);
  assert.deepEqual(shown.pile, ["7", "10", "3"]);
  assert.deepEqual(shown.lastCards, { 0: "3" }, "seat 1 is to play: its last card leaves it");
  assert.equal(shown.events.length, 4);
  assert.equal(shown.turnEnds, 2500 + 30000, "the timer counts from the update's arrival");
});

test("update: another game's is ignored", () => {
  const s = playing();
  const other = frozen({ ...played(3, 0, "3", 20), game: 2 });
  assert.equal(receive(s, other, 2000), s);
  assert.equal(receive(frozen(initialState()), played(3, 0, "3", 20), 2000).queue.length, 0);
});

test("update: a round's end gives its summary, from the view before and its events", () => {
  const s = frozen({ ...playing(), table: table({ rules: { ...table().rules, match: "tokens" } }) });
  /** @type {UpdateMessage} */
  const m = frozen({
    type: "update", game: 1, moves: 3, seat: 0, action: "play 3", by: "seat",
    events: [
      { kind: "play", seat: 0, card: "3", total: 99, how: "bust" },
      { kind: "round_end", seat: 0, round: 1, total: 99, points: null },
      { kind: "lost_token", seat: 0, tokens_left: 2 },
      { kind: "deal", seat: 0, round: 2, total: 0 },
    ],
    view: view({ round: 2, total: 0, tokens: [2, 3, 3], to_play: 1, legal: [] }),
    turn: { seat: 1, seconds: 30, ms_left: 30000, auto: false },
  });
  const after = receive(s, m, 2000);
  assert.equal(after.round?.round, 1);
  assert.equal(after.round?.moves, 3);
  assert.deepEqual(after.round?.lost, [{ seat: 0, left: 2 }]);
  const shown = advance(after);
  assert.deepEqual(shown.pile, [], "a new deal clears the pile");
  assert.deepEqual(shown.lastCards, {});
});

test("advanceAll shows everything waiting, in order", () => {
  let s = playing();
  s = receive(s, played(3, 0, "3", 20), 2000);
  s = receive(s, played(4, 1, "9", 29), 2010);
  s = receive(s, played(5, 2, "reverse", 29, { direction: "ccw" }), 2020);
  const all = advanceAll(frozen(s));
  assert.equal(all.game?.moves, 5);
  assert.equal(all.game?.view.direction, "ccw");
  assert.deepEqual(all.pile, ["7", "10", "3", "9", "reverse"]);
  assert.deepEqual(all.queue, []);
  assert.equal(advance(all), all, "nothing waiting: nothing changes");
});

test("link: the host's new personal link for a seat", () => {
  const s = playing();
  const after = receive(s, frozen({ type: "link", id: 7, seat: 1, token: "abc" }), 0);
  assert.equal(after.newLinks.get(1), "abc");
  assert.equal(s.newLinks.size, 0, "a new Map, the old one unchanged");
});

test("hint: kept for the decision on screen, dropped for any other", () => {
  const s = playing();
  const hint = frozen(/** @type {ServerMessage} */ ({ type: "hint", id: 3, game: 1, moves: 2, seat: 0, choice: "play 3", actions: [{ action: "play 3", chance: 0.4 }] }));
  assert.equal(receive(s, hint, 0).hint, hint);
  const stale = frozen({ ...hint, moves: 1 });
  assert.equal(receive(s, stale, 0), s);
});

test("error: a refused hint, a probe's answer remembered, an action's refusal", () => {
  const asked = frozen({ ...playing(), hintAsked: "1|2" });
  const noHint = receive(asked, frozen({ type: "error", code: "hints_off", id: "hint" }), 0);
  assert.equal(noHint.hintAsked, null);
  // Why a greyed card cannot be played: the answer is kept for that position.
  const probing = frozen({ ...playing(), probe: { id: "p1", key: "2|play ono99", sent: 0 } });
  const why = frozen(/** @type {ServerMessage} */ ({ type: "error", code: "illegal", id: "p1", params: { reason: "too_high", rule: "T4" } }));
  const told = receive(probing, why, 0);
  assert.equal(told.probe, null);
  assert.equal(told.answer, why);
  assert.equal(told.refusals.get("2|play ono99"), why);
  assert.equal(probing.refusals.size, 0);
  // A stale probe is answered but not remembered: the position moved on.
  const stale = receive(probing, frozen({ type: "error", code: "stale", id: "p1" }), 0);
  assert.equal(stale.refusals.size, 0);
  // An action refused: nothing pending any more.
  const pending = frozen({ ...playing(), pending: "play 3" });
  assert.equal(receive(pending, frozen({ type: "error", code: "not_your_turn" }), 0).pending, null);
  assert.equal(receive(playing(), frozen({ type: "error", code: "not_your_turn" }), 0).pending, null);
  // A refused configure is the lobby's to show: the state is unchanged.
  const configure = receive(pending, frozen({ type: "error", code: "bad_rules", id: "configure" }), 0);
  assert.equal(configure, pending);
});

test("pong, reaction and notice change nothing in the state", () => {
  const s = playing();
  /** @type {ServerMessage[]} */
  const messages = [
    { type: "pong", id: 5 },
    { type: "reaction", seat: 2, reaction: "🎉" },
    { type: "notice", code: "bus_down", message: "…" },
    { type: "notice", code: "closed", message: "…" },
  ];
  for (const m of messages) assert.equal(receive(s, frozen(m), 0), s, m.type);
});

test("remember: a reshuffle keeps only the top card; a seat's card stays on its own turn", () => {
  /** @type {{ev: GameEvent, by: null}[]} */
  const told = [
    { ev: { kind: "play", seat: 0, card: "5", total: 5 }, by: null },
    { ev: { kind: "play", seat: 1, card: "9", total: 14 }, by: null },
    { ev: { kind: "reshuffle", cards: 40 }, by: null },
  ];
  const memory = remember([], {}, told, view({ to_play: 1 }), 0);
  assert.deepEqual(memory.pile, ["9"]);
  assert.deepEqual(memory.lastCards, { 0: "5" }, "seat 1 is to play: its card is gone");
  const own = remember([], {}, told, view({ to_play: 1 }), 1);
  assert.deepEqual(own.lastCards, { 0: "5", 1: "9" }, "seat 1 plays again (Play 2): its card stays");
  const many = remember([], {}, Array.from({ length: 9 }, (_, i) => ({ ev: /** @type {GameEvent} */ ({ kind: "play", seat: 0, card: String(i), total: i }), by: null })), null, 0);
  assert.deepEqual(many.pile, ["3", "4", "5", "6", "7", "8"], "the pile remembers six cards");
});

test("Store: every listener hears each change once, and one failing stops none", () => {
  const store = new Store();
  /** @type {string[]} */
  const heard = [];
  const failures = [];
  const report = globalThis.reportError;
  globalThis.reportError = (err) => failures.push(err);
  try {
    store.subscribe(() => {
      throw new Error("a broken view");
    });
    const stop = store.subscribe((now, before) => heard.push(`${before.me.seat}->${now.me.seat}`));
    store.update((s) => receive(s, { type: "welcome", protocol: 1, code: "x", seat: 1, host: false }, 0));
    store.update((s) => s); // no change: nobody is told
    stop();
    store.update((s) => receive(s, { type: "welcome", protocol: 1, code: "x", seat: 2, host: false }, 0));
  } finally {
    globalThis.reportError = report;
  }
  assert.deepEqual(heard, ["null->1"]);
  assert.equal(failures.length, 2, "the broken view was reported each time");
  assert.equal(store.state.me.seat, 2);
});
