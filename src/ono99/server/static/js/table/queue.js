// The move queue: updates are shown one at a time, each at a pace one can follow (the card
// travels from its seat to the pile while the total counts, then the table shows the new
// state), but the table is never far behind the game.
//
// The pace is a pure function of how many updates wait and how long the oldest has waited,
// so that Node's tests can hold it to its promise: every update is on screen within LAG_MS of
// its arrival, however quick the bots and however slow the page. The loop itself cannot stall:
// each step's animation is cut off by its own deadline, a failing step still shows its update,
// and a watchdog restarts the loop if anything ever leaves updates waiting with nobody showing
// them (issue 41: a table that froze at the end of a busy game, its last moves never shown).
import { advance } from "./store.js";

/** @typedef {import("./store.js").Store} Store */
/** @typedef {import("./store.js").Queued} Queued */

export const PACE_MS = 800; // one move on its own, from the card leaving its seat to the next
export const MIN_PACE_MS = 150; // the quickest a move is animated, when many wait behind it
export const LAG_MS = 1500; // the most an update waits to be shown (the goal: under 2 s)
export const FLIGHT = 0.75; // the share of a move's time its card is in the air

/**
 * How long to give the update about to be shown, in ms (0: at once, without motion).
 * @param {number} waiting  updates behind it
 * @param {number} age  ms since it arrived
 * @param {{still?: boolean}} [how]  still: reduced motion, a hidden tab, or hurrying
 */
export function pace(waiting, age, { still = false } = {}) {
  if (still) return 0;
  const wanted = waiting === 0 ? PACE_MS : Math.max(MIN_PACE_MS, (2 * PACE_MS) / (waiting + 2));
  // What is left of the lag budget, shared with every update behind it: the last of them is
  // shown once the steps before it are done and its own card has landed.
  const share = (LAG_MS - age) / (waiting + FLIGHT);
  if (share < MIN_PACE_MS) return 0; // late already: shown at once
  return Math.min(wanted, share);
}

/**
 * @typedef {object} QueueHooks
 * @property {(m: Queued, ms: number, sleep: (ms: number) => Promise<void>) => Promise<void>} animate
 *   the update's cards fly, in `ms`
 * @property {(m: Queued, ms: number) => void} shown  the update is on screen (ms: the time it was given; 0: at once)
 * @property {() => boolean} still  whether motion is off now (reduced motion, a hidden tab)
 * @property {() => number} now
 */

export class MoveQueue {
  /**
   * @param {Store} store
   * @param {QueueHooks} hooks
   */
  constructor(store, hooks) {
    this.store = store;
    this.hooks = hooks;
    this.running = false;
    this.hurrying = false;
    /** @type {Set<() => void>} */
    this.sleepers = new Set(); // the pauses hurry() cuts short
    this.watchdog = setInterval(() => this.check(), 250);
  }

  stop() {
    clearInterval(this.watchdog);
  }

  // New updates are waiting: show them, unless the loop already runs.
  kick() {
    if (!this.running) void this.run();
  }

  // Show what is queued at once: the move on screen lands now, the rest without motion.
  hurry() {
    this.hurrying = true;
    for (const wake of [...this.sleepers]) wake();
  }

  check() {
    const queue = this.store.state.queue;
    if (!queue.length) return;
    if (!this.running) this.kick();
    else if (this.hooks.now() - queue[0].arrived > LAG_MS) this.hurry(); // a step overran
  }

  async run() {
    this.running = true;
    try {
      for (;;) {
        const { queue, epoch } = this.store.state;
        const m = queue[0];
        if (!m) break;
        const still = this.hurrying || this.hooks.still();
        const ms = pace(queue.length - 1, this.hooks.now() - m.arrived, { still });
        if (ms > 0) {
          try {
            // The flight may not outlast its share, whatever the page does meanwhile.
            await Promise.race([this.hooks.animate(m, ms * FLIGHT, (t) => this.sleep(t)), this.sleep(ms * FLIGHT)]);
          } catch (err) {
            (globalThis.reportError ?? console.error)(err);
          }
        }
        const now = this.store.state;
        if (now.epoch !== epoch || now.queue[0] !== m) continue; // a fresh state replaced it
        // Late updates are shown together: one drawing of the table for all of them, not one
        // each (a slow phone that drew every one of the game's last moves in turn fell
        // seconds behind at the very end, when bots finish a round in a burst).
        const batch = ms > 0 ? [m] : this.late(now.queue, still);
        this.store.update((s) => batch.reduce(advance, s));
        for (const shown of batch) this.hooks.shown(shown, ms);
        if (ms > 0 && !this.hurrying) await this.sleep(ms * (1 - FLIGHT));
      }
    } finally {
      this.running = false;
      this.hurrying = false;
    }
  }

  /**
   * The updates at the head of `queue` that are all to be shown at once (their pace is 0).
   * @param {Queued[]} queue
   * @param {boolean} still
   */
  late(queue, still) {
    const now = this.hooks.now();
    let n = 1;
    while (n < queue.length && pace(queue.length - 1 - n, now - queue[n].arrived, { still }) === 0) n++;
    return queue.slice(0, n);
  }

  /**
   * A pause that hurry() cuts short.
   * @param {number} ms
   * @returns {Promise<void>}
   */
  sleep(ms) {
    if (this.hurrying) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }
}
