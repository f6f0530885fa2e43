// What the page sends: a move (never two at once), the question why a greyed card cannot be
// played, a hint. Each marks what it waits for in the store, so that every view shows it.
import { patched } from "./store.js";

/** @typedef {import("./store.js").Store} Store */
/**
 * @typedef {object} Connection  the websocket's (connection.js), or the device's (device/connection.js)
 * @property {() => void} open
 * @property {boolean} ready
 * @property {(message: Record<string, unknown>) => void} send
 * @property {() => string | null} token
 */

/**
 * @typedef {object} Context  what every view of the table is handed
 * @property {Store} store
 * @property {string} code
 * @property {() => string | null} token
 * @property {(message: Record<string, unknown>) => void} send
 * @property {(action: string) => void} act
 * @property {(action: string) => boolean} why  false: the refusal cannot be asked now
 * @property {() => void} askHint
 * @property {() => boolean} online
 * @property {{refused: boolean} | null} configure  a `configure` sent from the rules dialog, and whether it was refused
 * @property {boolean} leaving  the person asked to give up their seat (the close that follows is expected)
 * @property {Device | null} device  the table is on this device (offline, device/): no invitations, no leaving
 */
/**
 * @typedef {object} Device  what the page knows of a table on this device
 * @property {() => string | null} record  the latest game's record, once it is over
 */

/**
 * @param {Store} store
 * @param {Connection} connection
 * @param {string} code
 * @param {Device | null} [device]
 * @returns {Context}
 */
export function commands(store, connection, code, device = null) {
  let probes = 0;
  /** @param {Record<string, unknown>} message */
  const send = (message) => connection.send(message);
  return {
    store,
    code,
    token: () => connection.token(),
    send,
    online: () => connection.ready,
    leaving: false,
    configure: null,
    device,
    act(action) {
      const s = store.state;
      if (!s.game || s.pending || !connection.ready) return;
      // The move is for the position on screen: if the game has moved on, it is refused as
      // stale instead of landing on a state the player did not see.
      store.update((x) => patched(x, { pending: action }));
      send({ type: "act", action, moves: s.game.moves });
    },
    why(action) {
      const s = store.state;
      if (!s.game || s.game.view.hand === null) return false;
      const asking = s.probe && performance.now() - s.probe.sent < 3000; // one at a time
      if (s.pending || asking || !connection.ready) return false;
      const probe = { id: `why-${++probes}`, key: `${s.game.moves}|${action}`, sent: performance.now() };
      store.update((x) => patched(x, { probe }));
      send({ type: "act", action, moves: s.game.moves, id: probe.id });
      return true;
    },
    askHint() {
      const s = store.state;
      if (!s.game || !connection.ready) return;
      store.update((x) => patched(x, { hintAsked: `${s.game?.game}|${s.game?.moves}` }));
      send({ type: "hint", id: "hint" });
    },
  };
}
