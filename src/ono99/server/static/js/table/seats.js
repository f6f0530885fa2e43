// The seats around the table: yours at the bottom, the others in seat order, clockwise on
// the screen; each with its avatar (a ring that empties as its turn timer runs), its name, its
// cards face down, its last card, and what a screen reader says of it.
import { cardFace, cardLabel } from "../cards.js";
import { fitAll } from "../fit.js";
import { h, svg } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";
import { seatLine } from "./words.js";

/** @typedef {import("./store.js").TableState} TableState */
/** @typedef {import("./store.js").Store} Store */

/**
 * Where each seat sits on the oval: `place` counts from yours (0, at the bottom) onwards in
 * seat order; `cx`, `cy` are on the unit circle (y down), the angle growing clockwise.
 * @param {number} n  seats at the table (2–6)
 * @param {number | null} me  your seat (a spectator sees seat 0 at the bottom)
 * @returns {{seat: number, place: number, cx: number, cy: number, east: boolean}[]}
 */
export function seatPlaces(n, me) {
  const bottom = me ?? 0;
  return Array.from({ length: n }, (_, seat) => {
    const place = (seat - bottom + n) % n;
    const angle = Math.PI / 2 + (place * 2 * Math.PI) / n;
    const cx = Math.cos(angle);
    return { seat, place, cx, cy: Math.sin(angle), east: cx > 0.3 };
  });
}

// The ring around a seat's avatar; its `pathLength` of 100 makes the dash offset a percentage.
function ringIcon() {
  return svg("svg", { class: "ring", viewBox: "0 0 44 44", focusable: "false" },
    svg("circle", { class: "ring-track", cx: 22, cy: 22, r: 20, pathLength: 100 }),
    svg("circle", { class: "ring-fill", cx: 22, cy: 22, r: 20, pathLength: 100, transform: "rotate(-90 22 22)" }));
}

/** @param {Store} store */
export function seatsView(store) {
  const s = store.state;
  const table = s.table;
  if (!table) throw new Error("the seats need the table");
  const els = seatPlaces(table.seats.length, s.me.seat).map(({ seat, place, cx, cy, east }) => {
    const base = `seat${place === 0 && s.me.seat !== null ? " seat-me" : ""}${east ? " seat-east" : ""}`;
    const el = h("div", { id: `seat-${seat}`, class: base, role: "group", dataset: { base } },
      h("div", { class: "seat-top" },
        h("div", { class: "avatar", "aria-hidden": "true" },
          ringIcon(),
          h("span", { class: "initial" }),
          h("span", { class: "owe-badge", hidden: true })),
        // The seat's last card, with a word saying what it is (a bare card read as a mystery).
        h("div", { class: "seat-last", "aria-hidden": "true" },
          h("span", { class: "seat-last-label" }, t("seat.last_label")),
          h("span", { class: "seat-last-card" }))),
      h("div", { class: "seat-body" },
        h("p", { class: "seat-title" }),
        h("div", { class: "backs", "aria-hidden": "true" }),
        h("p", { class: "seat-facts", "aria-hidden": "true" })),
      h("span", { class: "sr-only seat-said" }));
    el.style.setProperty("--cx", cx.toFixed(4));
    el.style.setProperty("--cy", cy.toFixed(4));
    return el;
  });

  /** @param {TableState} s */
  function update(s) {
    const v = s.game?.view;
    const table = s.table;
    if (!v || !table) return;
    const edition = table.rules.edition;
    /** @type {HTMLElement[]} */
    const toFit = [];
    for (const seat of table.seats) {
      const i = seat.seat;
      const el = els[i];
      if (!el) continue;
      const now = i === v.to_play && !v.over;
      el.className = `${el.dataset.base} seat-${v.status[i]}${now ? " seat-turn" : ""}${v.winners.includes(i) ? " seat-winner" : ""}${seat.open ? " seat-open" : ""}`;
      el.toggleAttribute("aria-current", now);
      const name = seat.name ?? t("seat.waiting");
      const initial = el.querySelector(".initial");
      if (initial) initial.textContent = seat.name ? Array.from(seat.name)[0].toLocaleUpperCase() : "?";
      const title = i === s.me.seat ? t("seat.you", { name }) : name;
      el.querySelector(".seat-title")?.replaceChildren(h("strong", {}, title), seat.open && seat.left ? h("span", { class: "seat-gone" }, ` · ${t("seat.gone")}`) : "");
      const facts = [];
      if (v.status[i] !== "in") facts.push(t(`status.${v.status[i]}`));
      if (v.tokens) facts.push(tn("seat.tokens", v.tokens[i]));
      if (v.scores) facts.push(t("seat.score", { score: formatNumber(v.scores[i]) }));
      if (v.owes_draw.includes(i)) facts.push(t("seat.owes_draw"));
      if (i === v.dealer) facts.push(t("seat.dealer"));
      const factsEl = el.querySelector(".seat-facts");
      if (factsEl) factsEl.textContent = facts.join(" · ");
      const backs = el.querySelector(".backs");
      const count = v.hand_sizes[i];
      if (backs && backs.childElementCount !== Math.min(count, 8) + 1) {
        backs.replaceChildren(
          ...Array.from({ length: Math.min(count, 8) }, () => h("span", { class: "back" })),
          h("span", { class: "backs-count" }, formatNumber(count)),
        );
      } else if (backs?.lastChild) backs.lastChild.textContent = formatNumber(count);
      const badge = /** @type {HTMLElement | null} */ (el.querySelector(".owe-badge"));
      const owes = now && v.owed === 2 ? "×2" : now && v.second_card ? "+1" : "";
      if (badge) {
        badge.hidden = !owes;
        badge.textContent = owes;
      }
      const last = s.lastCards[i];
      const lastEl = /** @type {HTMLElement | null} */ (el.querySelector(".seat-last"));
      if (lastEl && lastEl.dataset.card !== (last ?? "")) {
        lastEl.dataset.card = last ?? "";
        lastEl.classList.toggle("seat-last-none", !last);
        lastEl.querySelector(".seat-last-card")?.replaceChildren(...(last ? [cardFace(last, edition, { small: true })] : []));
        if (last) toFit.push(lastEl);
      }
      // What a screen reader reads for the seat: everything the picture shows, in words.
      const said = [seatLine(s, seat), tn("seat.cards", count), t(`status.${v.status[i]}`), ...facts.slice(v.status[i] !== "in" ? 1 : 0)];
      if (now && v.owed === 2) said.push(t("seat.owes.two"));
      else if (now && v.second_card) said.push(t("seat.owes.one"));
      if (last) said.push(t("seat.last", { card: cardLabel(last, edition) }));
      if (now) said.push(t("seat.turn_now"));
      const saidEl = el.querySelector(".seat-said");
      if (saidEl) saidEl.textContent = said.join(" · ");
      if (!now) setRing(s, el, null);
      else if (!s.game?.turn?.seconds) setRing(s, el, 1);
    }
    fitAll(toFit);
  }

  /**
   * The ring of the seat to play empties as its turn timer runs.
   * @param {TableState} s
   * @param {number} now
   */
  function tick(s, now) {
    const turn = s.game?.turn;
    if (!turn || turn.seat === null || !turn.seconds || s.turnEnds === null) return;
    const el = els[turn.seat];
    if (el && el.classList.contains("seat-turn")) setRing(s, el, Math.max(0, s.turnEnds - now) / (turn.seconds * 1000));
  }

  return { els, update, tick };
}

/**
 * @param {TableState} s
 * @param {Element} el
 * @param {number | null} fraction
 */
function setRing(s, el, fraction) {
  const ring = /** @type {SVGElement | null} */ (el.querySelector(".ring-fill"));
  if (!ring) return;
  ring.style.strokeDashoffset = fraction === null ? "100" : String(100 - 100 * Math.max(0, Math.min(1, fraction)));
  el.classList.toggle("ring-low", fraction !== null && fraction < 0.2 && !!s.game?.turn?.seconds);
}
