// The lobby: who sits where (the host seats bots, frees seats), the Start button, the
// invitation, the rules; and the host's "Change rules", in the lobby and between games.
import { api } from "../api.js";
import { botLabel } from "../cards.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { ruleFields } from "../home.js";
import { t, tn } from "../i18n.js";
import { rulesRows, seatLine } from "./words.js";

/** @typedef {import("./store.js").TableState} TableState */
/** @typedef {import("./actions.js").Context} Context */
/** @typedef {import("../types.js").Options} Options */

/**
 * @param {Context} ctx
 * @param {() => Options | null} options  the server's /api/options, once loaded
 * @param {{invite: Node | string, status: Node}} parts  the invitation and the connection's state (panels.js)
 */
export function lobbyView(ctx, options, parts) {
  const seats = h("ul", { id: "lobby-seats", class: "lobby-seats" });
  const actions = h("div", { id: "lobby-actions", class: "lobby-actions" });
  const rules = h("dl", { id: "lobby-rules", class: "rules-list" });
  const rulesActions = h("div", { id: "lobby-rules-actions" });
  // Play now's table: who comes if nobody else does, and when; a public one says it is listed.
  const quick = h("p", { id: "lobby-quick", class: "lobby-quick", hidden: true });
  const listed = h("p", { id: "lobby-public", class: "hint", hidden: true }, t("lobby.public"));
  // Seats and the Start button first (no scrolling for the host), the invite beside them on a
  // wide screen and above them on a phone, the rules last.
  const els = [
    h("div", { class: "table-head" }, h("h1", { class: "page-title" }, t("lobby.title")), parts.status),
    h("div", { class: "lobby" },
      parts.invite,
      h("section", { class: "panel lobby-seats-panel", "aria-labelledby": "seats-title" },
        h("h2", { id: "seats-title" }, t("lobby.seats")), quick, seats, actions, listed),
      h("section", { class: "panel lobby-rules-panel", "aria-labelledby": "rules-title" },
        h("h2", { id: "rules-title" }, t("lobby.rules")), rules, rulesActions)),
  ];

  /** @param {TableState} s */
  function bots(s) {
    const seen = new Set(["random", "greedy"]);
    for (const x of s.table?.seats || []) if (x.bot) seen.add(x.bot);
    return options()?.bots || [...seen];
  }

  /** @param {TableState} s */
  function update(s) {
    const table = s.table;
    if (!table) return;
    const host = s.me.host && !ctx.device; // on one device every seat is set when it is made
    seats.replaceChildren(...table.seats.map((x) => {
      const controls = [];
      if (host && x.open) {
        const pick = /** @type {HTMLSelectElement} */ (h("select", { class: "small", "aria-label": t("lobby.bot_for", { n: x.seat + 1 }) },
          ...bots(s).map((b) => h("option", { value: b, selected: b === options()?.stand_in }, botLabel(b)))));
        controls.push(pick, h("button", { type: "button", class: "small", onclick: () => ctx.send({ type: "seat", seat: x.seat, kind: "bot", bot: pick.value }) }, t("lobby.make_bot")));
      }
      if (host && x.kind === "bot") {
        controls.push(h("button", { type: "button", class: "small", onclick: () => ctx.send({ type: "seat", seat: x.seat, kind: "human" }) }, t("lobby.make_open")));
      }
      if (host && x.kind === "human" && !x.open && x.seat !== s.me.seat) {
        controls.push(h("button", { type: "button", class: "small", onclick: () => ctx.send({ type: "seat", seat: x.seat, kind: "open" }) }, t("host.open_seat")));
      }
      return h("li", { class: "lobby-seat" },
        h("span", { class: "seat-no" }, t("seat.numbered", { n: x.seat + 1 })),
        h("span", { class: "seat-name" }, seatLine(s, x)),
        controls.length ? h("span", { class: "seat-controls" }, ...controls) : null);
    }));
    listed.hidden = !table.public;
    tick(s, performance.now());
    rules.replaceChildren(...rulesRows(table));
    rulesActions.replaceChildren(rulesButton(ctx, options)() || "");
    const waiting = table.seats.filter((x) => x.open).length;
    if (s.me.host) {
      actions.replaceChildren(
        h("button", { type: "button", class: "primary", disabled: waiting > 0, "aria-describedby": "start-hint", onclick: () => ctx.send({ type: "start" }) }, t("lobby.start")),
        h("p", { id: "start-hint", class: "hint" }, waiting ? tn("lobby.waiting", waiting) : t("lobby.ready")));
    } else {
      actions.replaceChildren(h("p", { class: "hint" }, s.me.seat === null ? t("lobby.watching") : t("lobby.wait_host")));
    }
  }

  /** The countdown to Play now's bots. @param {TableState} s @param {number} now */
  function tick(s, now) {
    const q = s.table?.quick;
    quick.hidden = !q || s.quickEnds === null;
    if (!q || s.quickEnds === null) return;
    const seconds = Math.max(0, Math.ceil((s.quickEnds - now) / 1000));
    const text = tn("lobby.quick", seconds, { bot: botLabel(q.bot) });
    if (quick.textContent !== text) quick.textContent = text;
  }

  return { els, update, tick };
}

/**
 * The host's "Change rules" button (null for the others, and during a game): the create
 * form's rule fields, prefilled with the table's, sent as one `configure`.
 * @param {Context} ctx
 * @param {() => Options | null} options
 * @returns {() => HTMLElement | null}
 */
export function rulesButton(ctx, options) {
  return () => {
    const s = ctx.store.state;
    if (!s.me.host || !s.table || s.table.phase === "playing") return null;
    return h("button", { type: "button", id: "change-rules", class: "small", onclick: () => openRules(ctx, options) }, t("rules.change"));
  };
}

/**
 * @param {Context} ctx
 * @param {() => Options | null} options
 */
async function openRules(ctx, options) {
  document.getElementById("rules-dialog")?.remove();
  const opts = options() || (await api.options());
  const fields = ruleFields(opts, ctx.store.state.table);
  const status = h("p", { class: "form-error", role: "alert" });
  const box = h("form", {
    id: "rules-dialog", class: "rules-dialog panel", role: "dialog", "aria-labelledby": "rules-dialog-title",
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      status.textContent = "";
      const config = fields.read(status);
      if (!config) return;
      ctx.configure = { refused: false };
      ctx.send({ type: "configure", config, id: "configure" });
      ctx.send({ type: "ping", id: "configured" });
    },
  },
    h("h2", { id: "rules-dialog-title" }, t("rules.change")),
    fields.edition, fields.timerField, fields.hintsField, fields.options, status,
    h("div", { class: "buttons" },
      h("button", { type: "submit", class: "primary", id: "rules-save" }, t("rules.save")),
      h("button", { type: "button", onclick: () => box.remove() }, t("rules.cancel"))));
  document.body.append(box);
  /** @type {HTMLElement | null} */ (box.querySelector("input[name=edition]:checked"))?.focus();
}

/**
 * The server's answer to the dialog: a refusal says why in it; a pong after no refusal
 * means the rules are set, and it closes.
 * @param {Context} ctx
 * @param {import("../types.js").ServerMessage} m
 */
export function configureAnswer(ctx, m) {
  if (m.type === "error" && m.id === "configure") {
    ctx.configure = { refused: true };
    const status = document.querySelector("#rules-dialog .form-error");
    if (status) status.textContent = errorText(m, ctx.store.state.table?.rules.edition);
  } else if (m.type === "pong" && m.id === "configured" && !ctx.configure?.refused) {
    document.getElementById("rules-dialog")?.remove();
  }
}
