// The table's state, reduced from the protocol's messages (docs/protocol.md), and nothing
// else: no DOM, no clock of its own (times come in as arguments), so it runs in Node's tests.
//
// Two games are kept: `latest`, the game as the server last told it, and `game`, the game as
// the screen shows it. Updates wait in `queue` between the two; the move queue (queue.js)
// moves them across one at a time, at a pace one can follow, by calling `advance`.
import { withBy } from "../log.js";
import { roundSummary } from "../round.js";

/** @typedef {import("../types.js").TableMessage} TableMessage */
/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").UpdateMessage} UpdateMessage */
/** @typedef {import("../types.js").ServerMessage} ServerMessage */
/** @typedef {import("../types.js").View} View */
/** @typedef {import("../types.js").GameEvent} GameEvent */
/** @typedef {import("../types.js").Turn} Turn */
/** @typedef {import("../types.js").HintMessage} HintMessage */
/** @typedef {import("../types.js").ErrorMessage} ErrorMessage */

/**
 * @typedef {object} Game  a game at one moment: its number, actions so far, the view, the turn
 * @property {number} game
 * @property {number} moves
 * @property {View} view
 * @property {Turn | null | undefined} turn
 */

/**
 * @typedef {UpdateMessage & {arrived: number}} Queued  an update, with when it reached us
 */

/** @typedef {{ev: GameEvent, by: string | null}} Told  an event and who chose its action */

/**
 * @typedef {object} TableState
 * @property {{seat: number | null, host: boolean}} me
 * @property {"connecting" | "online" | "offline"} connection  the websocket's state
 * @property {TableMessage | null} table  the latest `table` message
 * @property {Game | null} latest  the game as the server last told it
 * @property {Game | null} game  the game as the screen shows it
 * @property {Queued[]} queue  updates received, not yet shown
 * @property {Told[]} events  every event shown so far this game, oldest first
 * @property {number} told  how many of `events` came with the game's `state` (the story so far)
 * @property {number} epoch  bumped by every fresh `state`: work in progress on older ones is moot
 * @property {string[]} pile  the last cards on the discard pile this round (as shown)
 * @property {Record<number, string>} lastCards  seat → its last card, until its next turn
 * @property {number | null} turnEnds  when the shown turn's timer runs out (our clock)
 * @property {number | null} nextEnds  when the host's countdown to the next game ends
 * @property {number | null} pauseEnds  when the pause after a round ends
 * @property {number | null} quickEnds  when Play now's bots take the open seats (in the lobby)
 * @property {ReturnType<typeof roundSummary> & {moves: number} | null} round  the last round's summary
 * @property {string | null} pending  an action sent and not yet answered
 * @property {HintMessage | null} hint  the hint for the shown decision, if asked
 * @property {string | null} hintAsked  "game|moves" of the decision a hint was asked for
 * @property {{id: string, key: string, sent: number} | null} probe  a greyed card's move, sent to learn why
 * @property {Map<string, ErrorMessage>} refusals  "moves|action" → the server's refusal
 * @property {ErrorMessage | null} answer  the last refusal asked for (why a greyed card cannot be played)
 * @property {Map<number, string>} newLinks  seat → a personal link the host just made for it
 */

/** @returns {TableState} */
export function initialState() {
  return {
    me: { seat: null, host: false },
    connection: "connecting",
    table: null,
    latest: null,
    game: null,
    queue: [],
    events: [],
    told: 0,
    epoch: 0,
    pile: [],
    lastCards: {},
    turnEnds: null,
    nextEnds: null,
    pauseEnds: null,
    quickEnds: null,
    round: null,
    pending: null,
    hint: null,
    hintAsked: null,
    probe: null,
    refusals: new Map(),
    answer: null,
    newLinks: new Map(),
  };
}

/**
 * The state after one message from the server, `now` being when it arrived (performance.now()).
 * @param {TableState} s
 * @param {ServerMessage} m
 * @param {number} now
 * @returns {TableState}
 */
export function receive(s, m, now) {
  switch (m.type) {
    case "welcome":
      return { ...s, me: { seat: m.seat, host: m.host } };
    case "table": {
      const next = {
        ...s,
        table: m,
        // The host's countdown to the next game, and the pause after a round: on our clock.
        nextEnds: m.next && m.next.ms_left !== null ? now + m.next.ms_left : null,
        pauseEnds: m.pause ? now + m.pause.ms_left : null,
        quickEnds: m.quick ? now + m.quick.ms_left : null,
      };
      // The turn as it is now, unless updates wait to be shown: then the queue sets it.
      if (!s.queue.length && s.game) return { ...next, game: { ...s.game, turn: m.turn }, turnEnds: ends(m.turn, now) };
      return next;
    }
    case "state": {
      const game = m.game && m.view ? { game: m.game, moves: m.moves, view: m.view, turn: m.turn } : null;
      const events = withBy(m.log || [], m.by || []);
      const memory = remember([], {}, events, m.view, lastActor(events));
      return {
        ...s,
        latest: game,
        game,
        queue: [],
        events,
        told: events.length,
        epoch: s.epoch + 1,
        pile: memory.pile,
        lastCards: memory.lastCards,
        turnEnds: ends(m.turn, now),
        pending: null,
        probe: null,
        hint: null,
      };
    }
    case "update": {
      if (!s.latest || m.game !== s.latest.game) return s;
      // A round that ended: its summary, from the view before and the events (round.js).
      const ended = roundSummary(s.latest.view, m.events, m.view, s.table?.rules);
      return {
        ...s,
        latest: { game: m.game, moves: m.moves, view: m.view, turn: m.turn },
        queue: [...s.queue, { ...m, arrived: now }],
        round: ended ? { ...ended, moves: m.moves } : s.round,
      };
    }
    case "link": {
      const newLinks = new Map(s.newLinks);
      newLinks.set(m.seat, m.token);
      return { ...s, newLinks };
    }
    case "hint":
      if (s.game && m.game === s.game.game && m.moves === s.game.moves) return { ...s, hint: m };
      return s;
    case "error":
      if (m.id === "hint") return { ...s, hint: null, hintAsked: null };
      if (s.probe && m.id === s.probe.id) {
        const refusals = new Map(s.refusals);
        if (m.code !== "stale") refusals.set(s.probe.key, m);
        return { ...s, probe: null, refusals, answer: m };
      }
      if (m.id === "configure") return s;
      return s.pending ? { ...s, pending: null } : s;
    default:
      return s; // welcome's siblings that change nothing here: pong, reaction, notice
  }
}

/**
 * Show the oldest waiting update: the screen's game moves one action on.
 * @param {TableState} s
 * @returns {TableState}
 */
export function advance(s) {
  const [m, ...rest] = s.queue;
  if (!m) return s;
  if (!s.game || m.game !== s.game.game) return { ...s, queue: rest };
  const told = withBy(m.events, [m.by]);
  const memory = remember(s.pile, s.lastCards, told, m.view, m.seat);
  return {
    ...s,
    queue: rest,
    game: { game: m.game, moves: m.moves, view: m.view, turn: m.turn },
    events: [...s.events, ...told],
    pile: memory.pile,
    lastCards: memory.lastCards,
    turnEnds: ends(m.turn, m.arrived),
    pending: null,
  };
}

/**
 * Everything waiting, shown at once.
 * @param {TableState} s
 */
export function advanceAll(s) {
  let out = s;
  while (out.queue.length) out = advance(out);
  return out;
}

/** @param {Turn | null | undefined} turn @param {number} arrived */
function ends(turn, arrived) {
  return turn && turn.ms_left !== null && turn.ms_left !== undefined ? arrived + turn.ms_left : null;
}

/** @param {Told[]} told */
function lastActor(told) {
  let actor = null;
  for (const { ev } of told) if (["play", "discard", "draw"].includes(ev.kind)) actor = ev.seat ?? null;
  return actor;
}

/**
 * The table's memory of the round, from the public events: the last few cards on the discard
 * pile, and each seat's last card, which stays beside it until its next turn.
 * @param {string[]} pile
 * @param {Record<number, string>} lastCards
 * @param {Told[]} told
 * @param {View | null} view  the view after these events
 * @param {number | null | undefined} actor  who acted (their card stays on their own turn)
 */
export function remember(pile, lastCards, told, view, actor) {
  let cards = [...pile];
  /** @type {Record<number, string>} */
  let last = { ...lastCards };
  for (const { ev } of told) {
    if (ev.kind === "deal") {
      cards = [];
      last = {};
    } else if ((ev.kind === "play" || ev.kind === "discard") && ev.card && ev.seat !== undefined) {
      cards.push(ev.card);
      if (cards.length > 6) cards.shift();
      last[ev.seat] = ev.card;
    } else if (ev.kind === "reshuffle") {
      cards = cards.slice(-1);
    }
  }
  if (view && !view.over && view.to_play !== null && view.to_play !== actor) delete last[view.to_play];
  return { pile: cards, lastCards: last };
}

/**
 * The state plus `patch`, for what the page itself does: an action sent, a hint asked.
 * @param {TableState} s
 * @param {Partial<TableState>} patch
 * @returns {TableState}
 */
export function patched(s, patch) {
  return { ...s, ...patch };
}

/**
 * The state, and who wants to hear when it changes: every view subscribes, and is told the
 * state before and after each change.
 */
export class Store {
  constructor() {
    /** @type {TableState} */
    this.state = initialState();
    /** @type {Set<(now: TableState, before: TableState) => void>} */
    this.listeners = new Set();
  }

  /** @param {(now: TableState, before: TableState) => void} listener */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** @param {(s: TableState) => TableState} change */
  update(change) {
    const before = this.state;
    const after = change(before);
    if (after === before) return;
    this.state = after;
    for (const listener of this.listeners) {
      // One view failing must not stop the others, nor the queue that called us.
      try {
        listener(after, before);
      } catch (err) {
        (globalThis.reportError ?? console.error)(err);
      }
    }
  }
}
