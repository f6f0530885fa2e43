// The end of a game: who won, everyone's place, the tally, the next game (who is ready, the
// host's countdown), and the replay and the record.
import { api } from "../api.js";
import { h } from "../dom.js";
import { formatNumber, has, listOf, t, tn } from "../i18n.js";
import { finishingOrder, nameOf, tallyText } from "./words.js";

/** @typedef {import("./store.js").TableState} TableState */
/** @typedef {import("./actions.js").Context} Context */

/**
 * @param {Context} ctx
 * @param {() => Node | null} rulesButton  the host's "Change rules" (lobby.js)
 */
export function endView(ctx, rulesButton) {
  const el = h("section", { id: "end", class: "end panel", hidden: true, "aria-labelledby": "end-title" });
  let drawn = ""; // what is on screen, so that a timer's tick does not redraw (and refocus) it

  /** @param {TableState} s */
  function update(s) {
    const v = s.game?.view;
    const table = s.table;
    if (!v || !v.over || !table || !s.game) {
      el.hidden = true;
      el.replaceChildren();
      drawn = "";
      return;
    }
    const key = JSON.stringify([s.game.game, table.seats, table.tally, table.next && { ...table.next, ms_left: table.next.ms_left !== null }, s.me]);
    if (key === drawn) return tick(s, performance.now());
    const wasHidden = el.hidden;
    drawn = key;
    el.hidden = false;
    const winners = v.winners;
    const title = s.me.seat !== null && winners.includes(s.me.seat)
      ? t("end.you_win")
      : winners.length === 1
        ? t("end.wins", { name: nameOf(s, winners[0]) })
        : t("end.share", { names: listOf(winners.map((w) => nameOf(s, w))) });
    const game = s.game.game;
    const standings = finishingOrder(table.seats.map((x) => x.seat), v).map((seat, i) => {
      const x = table.seats[seat];
      const place = winners.includes(seat) ? 1 : i + 1; // winners share the first place
      const facts = [];
      if (v.scores) facts.push(t("seat.score", { score: formatNumber(v.scores[seat]) }));
      if (v.tokens) facts.push(tn("seat.tokens", v.tokens[seat]));
      facts.push(winners.includes(seat) ? t("end.winner") : t(`status.${v.status[seat]}`));
      const name = x.name ?? t("seat.waiting");
      return h("li", { class: `standing${winners.includes(seat) ? " standing-winner" : ""}`, dataset: { seat: String(seat) } },
        h("span", { class: "place" }, has(`end.place.${place}`) ? t(`end.place.${place}`) : formatNumber(place)),
        h("span", { class: "standing-who" }, h("strong", {}, seat === s.me.seat ? t("seat.you", { name }) : name), ` — ${facts.join(" · ")}`));
    });
    const tally = tallyText(s);
    el.replaceChildren(
      h("h2", { id: "end-title", tabindex: "-1" }, title),
      h("ol", { class: "standings" }, ...standings),
      tally ? h("p", { id: "end-tally", class: "tally" }, t("tally.title", { tally })) : "",
      nextGame(s),
      h("div", { class: "buttons" },
        rulesButton(),
        ...(ctx.device ? [deviceRecord(ctx.device, game)] : [
          h("a", { class: "button", href: `/t/${ctx.code}/replay/${game}` }, t("end.replay")),
          h("a", { class: "button", href: api.recordUrl(ctx.code, game), download: `ono99-${ctx.code}-game${game}.json` }, t("end.record"))])),
    );
    tick(s, performance.now());
    if (wasHidden) /** @type {HTMLElement} */ (el.querySelector("h2")).focus();
  }

  // Between games: who is ready for the next one, a Ready button, the host's Next game (a
  // countdown everyone sees when someone is not ready yet). Nothing starts under anyone.
  /** @param {TableState} s */
  function nextGame(s) {
    const next = s.table?.next || { ready: [], waiting: [], ms_left: null };
    const me = s.me.seat;
    const ready = me !== null && next.ready.includes(me);
    const parts = [];
    if (next.ready.length) parts.push(t("end.ready_list", { names: listOf(next.ready.map((x) => nameOf(s, x))) }));
    if (next.waiting.length) parts.push(t("end.waiting_list", { names: listOf(next.waiting.map((x) => nameOf(s, x))) }));
    const buttons = [];
    if (me !== null && !ready) {
      buttons.push(h("button", { type: "button", id: "ready", class: "primary", onclick: () => ctx.send({ type: "ready" }) }, t("end.ready")));
    }
    if (s.me.host && s.nextEnds === null) {
      buttons.push(h("button", { type: "button", id: "again", class: me !== null && !ready ? "" : "primary", onclick: () => ctx.send({ type: "again" }) }, t("end.again")));
    }
    if (!s.me.host && ready) parts.push(t("end.wait_again"));
    return h("div", { class: "next-game" },
      h("p", { class: "hint", id: "next-status", "aria-live": "polite" }, parts.join(" ")),
      s.nextEnds !== null ? h("p", { id: "next-countdown", class: "countdown", role: "timer" }) : null,
      buttons.length ? h("div", { class: "buttons" }, ...buttons) : null);
  }

  /** The host's countdown to the next game. @param {TableState} s @param {number} now */
  function tick(s, now) {
    const countdown = el.querySelector("#next-countdown");
    if (!countdown || s.nextEnds === null) return;
    const text = tn("end.countdown", Math.max(0, Math.ceil((s.nextEnds - now) / 1000)));
    if (countdown.textContent !== text) countdown.textContent = text;
  }

  return { el, update, tick };
}

/**
 * The record of a game played on this device, to download (it replays in `ono99 replay`).
 * @param {import("./actions.js").Device} device
 * @param {number} game
 */
function deviceRecord(device, game) {
  return h("button", { type: "button", id: "record-download", onclick: () => {
    const record = device.record();
    if (!record) return;
    const a = h("a", { href: URL.createObjectURL(new Blob([record], { type: "application/json" })), download: `ono99-offline-game${game}.json` });
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } }, t("end.record"));
}
