// queue.js: the pace of the moves on screen, and the move queue's promise (issue 41) that no
// update waits more than LAG_MS to be shown, however quick the bots, however late the page's
// timers fire, whatever an animation does (never ends, throws). The queue runs here on Node's
// mocked timers against a clock of the test's own: seconds of play in milliseconds.
import { afterEach, mock, test } from "node:test";
import assert from "node:assert/strict";

import { FLIGHT, LAG_MS, MIN_PACE_MS, MoveQueue, PACE_MS, pace } from "../../src/ono99/server/static/js/table/queue.js";
import { Store, receive } from "../../src/ono99/server/static/js/table/store.js";

/** @typedef {import("../../src/ono99/server/static/js/table/store.js").Queued} Queued */
/** @typedef {import("../../src/ono99/server/static/js/types.js").View} View */
/** @typedef {import("../../src/ono99/server/static/js/types.js").UpdateMessage} UpdateMessage */

test("one move alone takes the whole pace; reduced motion, none", () => {
  assert.equal(pace(0, 0), PACE_MS);
  assert.equal(pace(0, 0, { still: true }), 0);
  assert.equal(pace(5, 100, { still: true }), 0);
});

test("the pace quickens as updates wait, and never below the quickest a move is drawn", () => {
  let last = Infinity;
  for (let waiting = 0; waiting < 40; waiting++) {
    const ms = pace(waiting, 0);
    assert.ok(ms <= last, `waiting ${waiting}: ${ms} after ${last}`);
    assert.ok(ms === 0 || ms >= MIN_PACE_MS, `waiting ${waiting}: ${ms}`);
    last = ms;
  }
  assert.equal(pace(40, 0), 0, "forty waiting: shown at once");
});

test("every flight fits in what is left of the lag budget, for everything waiting", () => {
  for (let waiting = 0; waiting < 30; waiting++) {
    let last = Infinity;
    for (let age = 0; age <= LAG_MS + 500; age += 25) {
      const ms = pace(waiting, age);
      assert.ok(ms <= last, `older must not be slower (waiting ${waiting}, age ${age})`);
      last = ms;
      // The last waiting is shown once the steps before it are done and its own card landed.
      if (ms > 0) assert.ok(age + (waiting + FLIGHT) * ms <= LAG_MS + 1e-9, `waiting ${waiting}, age ${age}: ${ms}`);
    }
    assert.equal(pace(waiting, LAG_MS), 0, "an update as old as the budget is shown at once");
  }
});

/**
 * A three-seat view after a card.
 * @param {number} moves
 * @returns {View}
 */
function view(moves) {
  return {
    seat: 0, round: 1, dealer: 2, total: moves % 90, direction: "cw", to_play: moves % 3, owed: 1,
    second_card: false, ono99_played: false, hand: ["3", "10", "reverse", "ono99"],
    hand_sizes: [4, 4, 4], status: ["in", "in", "in"], laid_down: [[], [], []], tokens: null,
    scores: null, out: [], out_of_round: [], owes_draw: [], draw_pile: 90, discard_top: "5",
    discard_size: moves, over: false, winners: [], legal: [],
  };
}

/** @param {number} moves @returns {UpdateMessage} */
function update(moves) {
  const seat = (moves - 1) % 3;
  return {
    type: "update", game: 1, moves, seat, action: "play 5", by: "bot",
    events: [{ kind: "play", seat, card: "5", total: moves % 90 }],
    view: view(moves), turn: { seat: moves % 3, seconds: null, ms_left: null, auto: true },
  };
}

afterEach(() => mock.timers.reset());

/**
 * Bots playing every `every` ms, `count` moves, while the page's timers fire only every `step`
 * ms (a busy, throttled phone fires them late): when was each update shown, how long after it
 * arrived, and how long it was given.
 * @param {object} how
 * @param {number} how.every
 * @param {number} how.count
 * @param {number} [how.step]
 * @param {import("../../src/ono99/server/static/js/table/queue.js").QueueHooks["animate"]} [how.animate]
 * @param {(queue: MoveQueue, store: Store, clock: number) => void} [how.meanwhile]  called each step
 * @param {(moves: number) => boolean} [how.kick]  whether the page starts the queue for this update
 * @param {(store: Store) => void} [how.watch]  called once, with the page's store
 */
async function play({ every, count, step = 10, animate = (_m, ms, sleep) => sleep(ms), meanwhile, kick = () => true, watch }) {
  mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  let clock = 0;
  const store = new Store();
  store.update((s) => receive(s, { type: "state", game: 1, moves: 0, view: view(0), log: [], by: [] }, 0));
  watch?.(store);
  /** @type {{moves: number, lag: number, ms: number}[]} */
  const shown = [];
  const queue = new MoveQueue(store, {
    animate,
    shown: (m, ms) => shown.push({ moves: m.moves, lag: clock - m.arrived, ms }),
    still: () => false,
    now: () => clock,
  });
  let sent = 0;
  const end = count * every + 3 * LAG_MS;
  while (clock < end) {
    while (sent < count && (sent + 1) * every <= clock) {
      const m = update(++sent);
      store.update((s) => receive(s, m, clock));
      if (kick(m.moves)) queue.kick();
    }
    meanwhile?.(queue, store, clock);
    clock += step;
    mock.timers.tick(step);
    await new Promise((resolve) => setImmediate(resolve)); // the promises the timers resolved
  }
  queue.stop();
  return { shown, store };
}

/** @param {{moves: number}[]} shown @param {number} count */
function inOrder(shown, count) {
  assert.deepEqual(shown.map(({ moves }) => moves), Array.from({ length: count }, (_, i) => i + 1));
}

test("a move every two seconds is shown at the whole pace, at once", async () => {
  const { shown } = await play({ every: 2000, count: 5 });
  inOrder(shown, 5);
  for (const { lag, ms } of shown) {
    assert.equal(ms, PACE_MS);
    assert.ok(lag <= PACE_MS * FLIGHT + 20, `shown ${lag} ms after it came`);
  }
});

test("six quick bots (a move every 50 ms): every update within the lag budget", async () => {
  const { shown, store } = await play({ every: 50, count: 300 });
  inOrder(shown, 300);
  const worst = Math.max(...shown.map(({ lag }) => lag));
  assert.ok(worst <= LAG_MS + 20, `the table fell ${worst} ms behind`);
  assert.equal(store.state.game?.moves, 300, "the last move is on screen");
  assert.ok(shown.some(({ ms }) => ms > 0), "moves still fly when they can");
});

test("a page whose timers fire 200 ms late still keeps up", async () => {
  const { shown } = await play({ every: 50, count: 200, step: 200 });
  inOrder(shown, 200);
  const worst = Math.max(...shown.map(({ lag }) => lag));
  assert.ok(worst <= LAG_MS + 2 * 200, `the table fell ${worst} ms behind`);
});

test("a burst of late updates is drawn once, not once each", async () => {
  // Forty moves in 200 ms (bots finishing a round): the table is redrawn for the few that
  // fly and once for those shown at once, not forty times on a phone already behind.
  let drawings = 0;
  const { shown, store } = await play({
    every: 5, count: 40,
    watch: (s) => s.subscribe((now, before) => { if (now.game?.moves !== before.game?.moves) drawings++; }),
  });
  inOrder(shown, 40);
  assert.equal(store.state.game?.moves, 40);
  assert.ok(drawings < 10, `drawn ${drawings} times`);
});

test("an animation that never ends holds up nothing", async () => {
  const { shown } = await play({ every: 300, count: 20, animate: () => new Promise(() => {}) });
  inOrder(shown, 20);
  const worst = Math.max(...shown.map(({ lag }) => lag));
  assert.ok(worst <= LAG_MS + 20, `${worst} ms: ${JSON.stringify(shown.slice(0, 6))}`);
});

test("an animation that throws still shows its update, and the next", async () => {
  const report = globalThis.reportError;
  let reported = 0;
  globalThis.reportError = () => reported++;
  try {
    const { shown, store } = await play({
      every: 300, count: 12, animate: async () => {
        throw new Error("a card with nowhere to land");
      },
    });
    inOrder(shown, 12);
    assert.equal(store.state.game?.moves, 12);
    assert.ok(reported >= 1);
  } finally {
    globalThis.reportError = report;
  }
});

test("the game's last updates are shown even if nothing kicks the queue (the freeze of issue 41)", async () => {
  // The last updates of a game arrive and nobody starts the loop for them (as when an
  // exception once escaped it): nothing comes after a game's end to start it again, so only
  // the watchdog can find them waiting, and show them.
  const { shown, store } = await play({ every: 1000, count: 6, kick: (moves) => moves < 5 });
  inOrder(shown, 6);
  assert.deepEqual(store.state.queue, []);
  for (const { moves, lag } of shown.slice(4)) assert.ok(lag <= LAG_MS, `move ${moves} shown ${lag} ms late`);
});

test("hurry: everything waiting is shown at once, without motion", async () => {
  let hurried = false;
  const { shown } = await play({
    every: 20, count: 10,
    meanwhile: (queue, store) => {
      if (!hurried && store.state.queue.length === 10) {
        hurried = true;
        queue.hurry();
      }
    },
  });
  inOrder(shown, 10);
  assert.ok(hurried);
  assert.ok(shown.slice(1).every(({ ms }) => ms === 0), JSON.stringify(shown));
});

test("a fresh state replaces what waits: nothing of the old game is shown after it", async () => {
  let fresh = false;
  const { shown, store } = await play({
    every: 30, count: 20,
    meanwhile: (_queue, store, clock) => {
      if (!fresh && clock >= 200) {
        fresh = true;
        store.update((s) => receive(s, { type: "state", game: 1, moves: 6, view: view(6), log: [], by: [] }, clock));
      }
    },
  });
  assert.ok(fresh);
  assert.ok(shown.every(({ moves }, i) => i === 0 || moves > shown[i - 1].moves), "never backwards");
  assert.deepEqual(shown.filter(({ moves }) => moves > 6).map(({ moves }) => moves), [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  assert.ok(shown.filter(({ moves }) => moves <= 6).length < 6, "the moves the state covered are not all drawn again");
  assert.equal(store.state.game?.moves, 20);
});
