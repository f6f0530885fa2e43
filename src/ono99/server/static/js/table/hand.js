// Your hand: each card a button (the playable ones live), Draw and Discard when they are
// yours to take, the hint button, and why a greyed card cannot be played — asked of the server,
// which refuses the move with the engine's reason (docs/protocol.md, `error`): the page does not
// judge the rules a second time.
import { cardFace, cardLabel } from "../cards.js";
import { h, say } from "../dom.js";
import { errorText } from "../errors.js";
import { t } from "../i18n.js";
import { chanceTag, currentHint, hintAsked } from "./hint.js";

/** @typedef {import("./store.js").TableState} TableState */
/** @typedef {import("./actions.js").Context} Context */

/** @param {Context} ctx */
export function handView(ctx) {
  const { store } = ctx;
  const cards = h("div", { id: "hand", class: "hand-cards", role: "group", "aria-labelledby": "hand-title" });
  const actions = h("div", { id: "hand-actions", class: "buttons" });
  const handHint = h("p", { id: "hand-hint", class: "hint hand-hint" });
  const refusal = h("p", { id: "refusal", class: "refusal", hidden: true });
  const el = h("section", { class: "hand", "aria-labelledby": "hand-title" },
    h("div", { class: "hand-head" }, h("h2", { id: "hand-title" }, t("hand.title")), handHint),
    refusal, cards, actions,
    h("p", { class: "hint keys" }, t("hand.keys")));
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let refusalTimer;

  /** @param {string} text */
  function showRefusal(text) {
    refusal.textContent = text;
    refusal.hidden = false;
    say(text);
    clearTimeout(refusalTimer);
    refusalTimer = setTimeout(() => {
      refusal.hidden = true;
    }, 5000);
  }

  /**
   * Why a greyed card cannot be played: a reason already known, else ask the server.
   * @param {string} action
   * @param {string} label
   */
  function why(action, label) {
    const s = store.state;
    const known = s.game && s.refusals.get(`${s.game.moves}|${action}`);
    if (known) return showRefusal(errorText(known, s.table?.rules.edition));
    if (!ctx.why(action)) showRefusal(t("hand.cannot", { card: label }));
  }

  /** @param {TableState} s @param {TableState} [before] */
  function update(s, before) {
    const v = s.game?.view;
    const table = s.table;
    if (!v || !table) return;
    // The server's answer to a question asked here: shown by the hand.
    if (before && s.answer && s.answer !== before.answer) showRefusal(errorText(s.answer, table.rules.edition));
    const rules = table.rules;
    const focused = cards.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement).dataset.index : undefined;
    if (v.hand === null || s.me.seat === null) { // watching (a view of a seat just left, too)
      cards.replaceChildren(h("p", { class: "hint" }, t("hand.spectator")));
      actions.replaceChildren();
      handHint.textContent = "";
      return;
    }
    const legal = new Set(s.pending ? [] : v.legal);
    cards.replaceChildren(
      ...v.hand.map((name, i) => {
        const action = `play ${name}`;
        const ok = legal.has(action);
        const label = cardLabel(name, rules.edition);
        return h(
          "button",
          {
            type: "button",
            class: `hand-card${ok ? " playable" : ""}`,
            "aria-disabled": ok ? null : "true",
            "aria-label": ok ? t("hand.play", { card: label, key: i + 1 }) : t("hand.cannot", { card: label }),
            dataset: { index: String(i), card: name },
            onclick: () => (ok ? ctx.act(action) : why(action, label)),
          },
          cardFace(name, rules.edition),
          h("span", { class: "key", "aria-hidden": "true" }, String(i + 1)),
          ok ? chanceTag(s, action) : null,
        );
      }),
    );
    if (!v.hand.length) cards.replaceChildren(h("p", { class: "hint" }, t("hand.empty")));
    const canPlay = v.hand.some((name) => legal.has(`play ${name}`));
    const status = v.status[s.me.seat];
    const out = !v.over && status !== "in";
    handHint.textContent = s.pending ? t("hand.sent") : canPlay ? t("hand.pick") : out ? t(`hand.${status}`) : "";
    const buttons = [];
    if (legal.has("draw")) {
      buttons.push(h("button", { type: "button", class: "primary draw", onclick: () => ctx.act("draw") }, t("hand.draw"), chanceTag(s, "draw")));
    }
    if (legal.has("discard ono99")) {
      buttons.push(h("button", { type: "button", class: "primary discard", onclick: () => ctx.act("discard ono99") }, t("hand.discard"), chanceTag(s, "discard ono99")));
    }
    if (table.hints !== false && v.to_play === s.me.seat && !v.over && legal.size > 1) {
      const asked = hintAsked(s);
      buttons.push(h("button", { type: "button", id: "hint", class: "hint-button", disabled: asked, onclick: () => ctx.askHint() },
        currentHint(s) ? t("hint.shown") : asked ? t("hint.thinking") : t("hint.ask")));
    }
    actions.replaceChildren(...buttons);
    if (focused !== undefined) {
      const again = /** @type {HTMLElement | null} */ (cards.querySelector(`[data-index="${focused}"]`) || cards.querySelector("button"));
      again?.focus();
    }
  }

  return { el, update, why };
}
