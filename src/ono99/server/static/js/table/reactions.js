// Quick reactions: a fixed few (session/table.py REACTIONS; nothing typed freely), shown on
// the sender's seat for a few seconds.
import { h, say } from "../dom.js";
import { t } from "../i18n.js";
import { nameOf } from "./words.js";

/** @typedef {import("./actions.js").Context} Context */

export const REACTIONS = ["👍", "👏", "😮", "😂", "🎉", "😬", "🙈", "🔥"];

/**
 * The button and its menu, for a seated person (null for a spectator).
 * @param {Context} ctx
 */
export function reactButton(ctx) {
  if (ctx.store.state.me.seat === null) return null;
  const menu = h("div", { id: "reactions", class: "reactions", role: "menu", hidden: true },
    ...REACTIONS.map((r) => h("button", { type: "button", class: "small reaction", role: "menuitem", onclick: () => {
      menu.hidden = true;
      ctx.send({ type: "react", reaction: r });
    } }, r)));
  const toggle = h("button", { type: "button", id: "react", class: "small icon", "aria-label": t("react.title"), title: t("react.title"), "aria-haspopup": "menu", onclick: () => { menu.hidden = !menu.hidden; } }, "🙂");
  return h("span", { class: "react-wrap" }, toggle, menu);
}

/**
 * A reaction that came: a bubble on the seat, and its words for screen readers.
 * @param {Context} ctx
 * @param {number} seat
 * @param {string} reaction
 */
export function showReaction(ctx, seat, reaction) {
  if (!REACTIONS.includes(reaction)) return;
  const el = document.getElementById(`seat-${seat}`);
  if (!el) return;
  el.querySelector(".reaction-bubble")?.remove();
  const bubble = h("span", { class: "reaction-bubble", "aria-hidden": "true" }, reaction);
  el.append(bubble);
  say(t("react.said", { name: nameOf(ctx.store.state, seat), reaction }));
  setTimeout(() => bubble.remove(), 3000);
}
