// Between the rounds of a match: the round's summary, over the table, while the server holds
// the next round (the table's `pause`) until everyone continues or the pause runs out.
import { h } from "../dom.js";
import { formatNumber, listOf, t } from "../i18n.js";
import { nameOf, thirdPerson } from "./words.js";

/** @typedef {import("./store.js").TableState} TableState */
/** @typedef {import("./actions.js").Context} Context */

/** @param {Context} ctx */
export function roundSummaryView(ctx) {
  const el = h("section", { id: "round-summary", class: "round-summary panel", hidden: true, role: "dialog", "aria-labelledby": "round-title" });
  const countdown = h("p", { id: "pause-countdown", class: "countdown", role: "timer" });
  let shownFor = ""; // the pause whose summary is on screen, and who it still waits for

  /** @param {TableState} s */
  function update(s) {
    const pause = s.table?.pause;
    const summary = s.round && s.round.round === pause?.round ? s.round : null;
    // Shown once the table has shown the move that ended the round (updates are queued).
    if (!pause || !s.game || s.game.view.over || (summary && s.game.moves < summary.moves)) {
      el.hidden = true;
      el.replaceChildren();
      shownFor = "";
      return;
    }
    const me = s.me.seat;
    const key = JSON.stringify([pause.round, pause.waiting, summary?.moves ?? null]);
    if (key === shownFor) return tick(s, performance.now());
    const wasHidden = el.hidden;
    shownFor = key;
    el.hidden = false;
    /** @param {number} seat */
    const who = (seat) => thirdPerson(s, seat); // never "you loses"
    const items = [];
    for (const l of summary?.lost || []) items.push(h("li", { class: "round-lost" }, t("round.lost_token", { name: who(l.seat), left: formatNumber(l.left) })));
    for (const seat of summary?.left || []) items.push(h("li", { class: "round-lost" }, t("round.left", { name: who(seat) })));
    for (const r of summary?.rows || []) {
      const parts = [];
      if (r.cards !== undefined) {
        if (r.cards) parts.push(t("round.cards", { points: formatNumber(r.cards) }));
        if (r.short) parts.push(t("round.short", { count: formatNumber(r.short), points: formatNumber(r.shortPoints ?? 0) }));
        if (r.bust) parts.push(t("round.bust", { points: formatNumber(r.bust) }));
      }
      items.push(h("li", { dataset: { seat: String(r.seat) } },
        h("strong", {}, t("round.points", { name: who(r.seat), points: formatNumber(r.points) })),
        parts.length ? ` = ${parts.join(" + ")}` : "",
        r.score !== null ? ` · ${t("seat.score", { score: formatNumber(r.score) })}` : ""));
    }
    const mine = me !== null && pause.waiting.includes(me);
    const others = pause.waiting.filter((x) => x !== me);
    // h() leaves out null children: those with no Continue button see no "null" (issue 41).
    el.replaceChildren(...[
      h("h2", { id: "round-title", tabindex: "-1" }, t("round.title", { round: formatNumber(pause.round) })),
      h("ul", { class: "round-rows" }, ...items),
      others.length ? h("p", { class: "hint", id: "round-waiting" }, t("round.waiting", { names: listOf(others.map((x) => nameOf(s, x))) })) : null,
      countdown,
      mine ? h("div", { class: "buttons" }, h("button", { type: "button", id: "continue", class: "primary", onclick: () => ctx.send({ type: "continue" }) }, t("round.continue"))) : null,
    ].filter((x) => x !== null));
    tick(s, performance.now());
    if (wasHidden) /** @type {HTMLElement} */ (el.querySelector("#continue") || el.querySelector("h2")).focus();
  }

  /** @param {TableState} s @param {number} now */
  function tick(s, now) {
    if (el.hidden || s.pauseEnds === null) return;
    const left = Math.max(0, Math.ceil((s.pauseEnds - now) / 1000));
    const text = t("round.next_in", { seconds: formatNumber(left) });
    if (countdown.textContent !== text) countdown.textContent = text;
  }

  return { el, update, tick };
}
