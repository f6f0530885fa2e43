// The table page: it wires the parts together and owns nothing else. The connection brings
// messages; the store reduces them to the table's state; the move queue moves updates onto
// the screen at a pace one can follow; each part of the screen is a view that draws itself
// from the state alone (views depend on the store, never on each other). Like Hanab Live's
// client (one state, reduced from the server's messages, that the views observe) and
// boardgame.io's client/master split, with the pacing of a card table on top.
import { api, saveToken } from "../api.js";
import { h, say, toast } from "../dom.js";
import { errorText } from "../errors.js";
import { t } from "../i18n.js";
import { sound } from "../sound.js";
import { commands } from "./actions.js";
import { announcer } from "./announce.js";
import { centerView } from "./center.js";
import { Connection } from "./connection.js";
import { endView } from "./end.js";
import { animate } from "./flight.js";
import { handView } from "./hand.js";
import { sayHint } from "./hint.js";
import { tableKeys } from "./keys.js";
import { configureAnswer, lobbyView, rulesButton } from "./lobby.js";
import { WIDE, connectionBadge, gameHeader, hostSeats, inviteBox, logDrawer, updateConnection } from "./panels.js";
import { MoveQueue } from "./queue.js";
import { reactButton, showReaction } from "./reactions.js";
import { seatsView } from "./seats.js";
import { Store, patched, receive } from "./store.js";
import { Story } from "./story.js";
import { roundSummaryView } from "./summary.js";
import { nameOf, rulesOf } from "./words.js";

/** @typedef {import("./store.js").TableState} TableState */
/** @typedef {import("../types.js").ServerMessage} ServerMessage */
/** @typedef {import("../types.js").Options} Options */
/**
 * @typedef {object} View  a part of the screen
 * @property {(s: TableState, before: TableState) => void} update  draw the state
 * @property {(s: TableState, now: number) => void} [tick]  a clock's beat (timers, countdowns)
 */

const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
// What no view draws: a change to these alone redraws nothing (an update waiting in the queue).
const UNSEEN = new Set(["queue", "latest"]);

/**
 * @typedef {object} Link  a table on this device (offline.js), instead of the server's
 * @property {(on: import("./connection.js").ConnectionEvents) => import("./actions.js").Connection} connect
 * @property {() => Promise<Options>} options
 * @property {import("./actions.js").Device} device
 */

/**
 * Open the table `code` in `root`, with the seat's token if this browser holds one; or the
 * table on this device (`link`). Returns how to close it (the device passed to another person).
 * @param {HTMLElement} root
 * @param {string} code
 * @param {string | null} seatToken
 * @param {Link | null} [link]
 * @returns {{close: () => void}}
 */
export function openTable(root, code, seatToken, link = null) {
  let token = seatToken;
  const store = new Store();
  const story = new Story();
  const announce = announcer(story);
  /** @type {Options | null} */
  let options = null;
  /** @type {View[]} */
  let views = [];
  let built = ""; // which screen is drawn: its kind, the game's state and your seat
  let gone = false; // the table is no more: nothing to draw, nothing to reconnect to
  /** @type {(e: KeyboardEvent) => void} */
  let keys = () => {};
  /** @type {{open: (open: boolean) => void} | null} */
  let drawer = null;

  /** @type {import("./connection.js").ConnectionEvents} */
  const events = {
    message: onMessage,
    status: (status) => store.update((s) => patched(s, status === "offline" ? { connection: status, pending: null } : { connection: status })),
    closed,
  };
  const connection = link ? link.connect(events) : new Connection(code, () => token, events);
  root.classList.toggle("on-device", !!link); // nothing to be connected to: no badge (style.css)
  const ctx = commands(store, connection, code, link?.device ?? null);
  const queue = new MoveQueue(store, {
    animate: (m, ms, sleep) => animate(store, m, ms, sleep),
    shown: (m, ms) => {
      if (!ms && m.events.some((ev) => ev.kind === "play" || ev.kind === "discard")) sound("card");
      // For benchmarks and tests: this update is now on screen (its card has landed).
      document.dispatchEvent(new CustomEvent("ono99:shown", { detail: { moves: m.moves, arrived: m.arrived } }));
    },
    still: () => REDUCED.matches || document.hidden,
    now: () => performance.now(),
  });

  store.subscribe(render);
  (link ? link.options() : api.options()).then((o) => {
    options = o;
    if (built.startsWith("lobby")) render(store.state, store.state);
  }, () => {});
  /** @param {KeyboardEvent} e */
  const onKey = (e) => keys(e);
  const onWide = () => drawer?.open(false);
  document.addEventListener("keydown", onKey);
  WIDE.addEventListener("change", onWide);
  const beat = setInterval(() => {
    const s = store.state;
    const now = performance.now();
    for (const view of views) view.tick?.(s, now);
  }, 250);
  connection.open();

  /** @param {ServerMessage} m */
  function onMessage(m) {
    const before = store.state;
    // The host changed the rules for the games to come: everyone is told.
    if (m.type === "table" && before.table && rulesOf(before.table) !== rulesOf(m)) toast(t("rules.changed"));
    store.update((s) => receive(s, m, performance.now()));
    const edition = store.state.table?.rules.edition;
    switch (m.type) {
      case "update":
        // A draw owed under the draw penalty races the next card (X2, docs/protocol.md
        // "Timing"): the table jumps to the present so that the Draw button is live at once.
        if (m.view.legal.includes("draw")) queue.hurry();
        queue.kick();
        break;
      case "reaction":
        showReaction(ctx, m.seat, m.reaction);
        break;
      case "link":
        // The host gave a seat a new personal link: the old one no longer holds it.
        toast(t("host.new_link_made", { name: nameOf(store.state, m.seat) }), "good");
        break;
      case "pong":
        configureAnswer(ctx, m);
        break;
      case "error":
        if (m.id === "configure") configureAnswer(ctx, m);
        else if (m.id === "hint") toast(errorText(m, edition), "bad");
        else if (!(before.probe && m.id === before.probe.id)) { // a probe's answer: the hand shows it
          toast(errorText(m, edition), "bad");
          say(errorText(m, edition), true);
        }
        break;
      default:
        break;
    }
  }

  /** @param {number} closeCode */
  function closed(closeCode) {
    if (closeCode === 4401) {
      // The link no longer holds a seat (given up here, or opened by the host): forget it and
      // watch instead.
      saveToken(code, null);
      token = null;
      toast(ctx.leaving ? t("seat.left") : t("error.bad_token"), ctx.leaving ? "good" : "bad");
      ctx.leaving = false;
      return false;
    }
    if (closeCode === 4404 || closeCode === 4410) {
      // No such table, or it has closed (idle too long): nothing to reconnect to.
      gone = true;
      queue.stop();
      views = [];
      root.replaceChildren(h("p", { role: "alert" }, closeCode === 4410 ? t("error.closed") : t("error.not_found")));
      return true;
    }
    return false;
  }

  /** @param {TableState} s @param {TableState} before */
  function render(s, before) {
    if (gone || !s.table) return;
    if (s !== before && Object.keys(s).every((k) => UNSEEN.has(k) || s[/** @type {keyof TableState} */ (k)] === before[/** @type {keyof TableState} */ (k)])) return;
    const screen = s.table.phase === "lobby" || !s.game ? "lobby" : "game";
    // A fresh state (a new game, a reconnection) or a new seat draws the screen anew.
    const key = `${screen}|${s.epoch}|${s.me.seat}|${s.table.seats.length}`;
    if (key !== built) {
      const moved = !built.startsWith(screen);
      built = key;
      views = screen === "lobby" ? buildLobby(s) : buildGame(s);
      // A new screen starts at its top: the host who scrolled down to Start sees the table,
      // not whatever of the game lies where the button was.
      if (moved) window.scrollTo(0, 0);
    }
    for (const view of views) {
      // One part failing must not leave the others unpainted (nor stop the queue).
      try {
        view.update(s, before);
      } catch (err) {
        (globalThis.reportError ?? console.error)(err);
      }
    }
    updateConnection(s);
    if (screen === "game") {
      announce.update(s, before);
      sayHint(s, before);
    }
  }

  return {
    close() {
      gone = true;
      queue.stop();
      views = [];
      clearInterval(beat);
      document.removeEventListener("keydown", onKey);
      WIDE.removeEventListener("change", onWide);
    },
  };

  /** @param {TableState} s @returns {View[]} */
  function buildLobby(s) {
    keys = () => {};
    drawer = null;
    const lobby = lobbyView(ctx, () => options, { invite: link ? "" : inviteBox(ctx), status: connectionBadge(s) });
    root.replaceChildren(...lobby.els);
    return [lobby];
  }

  // A card table: the seats around an oval, the piles and the total in its middle, your hand
  // below it; the play-by-play beside it on a wide screen, in a drawer on a phone.
  /** @param {TableState} s @returns {View[]} */
  function buildGame(s) {
    const n = s.table?.seats.length ?? 0;
    const seats = seatsView(store);
    const center = centerView();
    const hand = handView(ctx);
    const summary = roundSummaryView(ctx);
    const end = endView(ctx, rulesButton(ctx, () => options));
    const log = logDrawer(story);
    const header = gameHeader(ctx, reactButton(ctx), () => log.open(true));
    const host = hostSeats(ctx);
    root.replaceChildren(
      header.el,
      h("div", { class: "game" },
        h("div", { class: "col-main" },
          end.el,
          summary.el,
          h("section", { class: "felt-wrap", "aria-label": t("game.status") },
            h("div", { id: "felt", class: `felt seats-${n}` },
              h("div", { class: "felt-oval", "aria-hidden": "true" }),
              center.felt[0], ...seats.els, center.felt[1])),
          ...center.below,
          hand.el),
        log.el),
      host.el,
      link ? "" : inviteBox(ctx, { folded: true }),
    );
    log.open(false);
    drawer = log;
    keys = tableKeys(ctx, hand, log);
    // The end screen before the announcer, which reads its title.
    return [header, seats, center, hand, log, end, summary, host];
  }
}
