// The review of a finished game, under its replay (docs/review.md): for a chosen seat, the
// win-chance line, every decision's moves with their chances, the move played, the mistakes
// with the better move; a second lens with every hand known. The server works it out.
import { api } from "./api.js";
import { cardLabel } from "./cards.js";
import { h, say } from "./dom.js";
import { errorText } from "./errors.js";
import { formatNumber, formatPercent, t } from "./i18n.js";

/** @typedef {import("./types.js").Chance} Chance */
/** @typedef {import("./types.js").Decision} Decision */
/** @typedef {import("./types.js").Review} Review */
/** @typedef {import("./types.js").Rules} Rules */

const SVG = "http://www.w3.org/2000/svg";
const HEIGHT = 180; // the chart's height in px; its width is the page's (text stays its size)
const PAD = { left: 44, right: 12, top: 12, bottom: 24 };

/**
 * An SVG element: `on…` attributes are listeners, `text` its text.
 * @param {string} tag
 * @param {Record<string, string | number | ((event: Event) => void)>} [attrs]
 * @param {...Node} children
 */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = /** @type {string} */ (value);
    else el.setAttribute(key, String(value));
  }
  el.append(...children);
  return el;
}

/** @param {string} action  N2 @param {string} [edition] */
export function moveLabel(action, edition) {
  if (action.startsWith("play ")) return cardLabel(action.slice(5), edition);
  return action === "draw" ? t("review.move.draw") : t("review.move.discard");
}

// go(step): show the replay at that step (the state a decision was taken in).
// seat: the one chosen at first (the first person's).
/**
 * @param {object} options
 * @param {string} options.code
 * @param {number} options.game
 * @param {string[]} options.names  per seat
 * @param {Rules} options.rules
 * @param {number} options.seat
 * @param {(step: number) => void} options.go
 */
export function reviewSection({ code, game, names, rules, seat: first, go }) {
  const edition = rules.edition;
  let seat = first;
  /** @type {"fair" | "known"} */
  let lens = "fair";
  const status = h("p", { class: "review-status", role: "status", "aria-live": "polite" });
  const body = h("div", { class: "review-body" });
  let asked = 0; // reviews asked for: once one is shown, a new seat or lens is asked at once
  const again = () => { if (asked) load(); };
  /** @type {HTMLSelectElement} */
  const seatSelect = h("select", { id: "review-seat", onchange: () => { seat = Number(seatSelect.value); again(); } },
    names.map((name, i) => h("option", { value: String(i), selected: i === first }, name)));
  /** @type {HTMLButtonElement[]} */
  const lensButtons = /** @type {("fair" | "known")[]} */ (["fair", "known"]).map((which) =>
    h("button", { type: "button", class: "lens", "data-lens": which, "aria-pressed": String(which === lens),
      onclick: () => { lens = which; for (const b of lensButtons) b.setAttribute("aria-pressed", String(b.dataset.lens === lens)); again(); } },
    t(`review.lens.${which}`)));

  async function load() {
    for (const b of lensButtons) b.setAttribute("aria-pressed", String(b.dataset.lens === lens));
    const ask = ++asked;
    status.textContent = t("review.loading");
    status.classList.remove("tone-bad");
    body.replaceChildren();
    let data;
    try {
      data = await api.review(code, game, seat, lens);
    } catch (err) {
      if (ask !== asked) return;
      status.textContent = errorText(err);
      status.classList.add("tone-bad");
      return;
    }
    if (ask !== asked) return;
    status.textContent = "";
    body.replaceChildren(...render(data));
    const worst = data.mistakes.length;
    say(`${t("review.title", { name: names[seat] })}. ${t("review.mistakes")}: ${formatNumber(worst)}`);
  }

  /** @param {Review} data */
  function render(data) {
    const decisions = data.decisions;
    if (!decisions.length) return [h("p", {}, t("review.none"))];
    const byMove = new Map(decisions.map((d) => [d.move, d]));
    return [
      h("p", { class: "hint review-about" }, t(`review.lens.${data.lens}.about`)),
      h("h3", {}, t("review.line")),
      chart(data),
      h("h3", {}, t("review.mistakes")),
      data.mistakes.length
        ? h("ol", { class: "review-mistakes" }, data.mistakes.map((m) => mistakeItem(/** @type {Decision} */ (byMove.get(m)))))
        : h("p", { class: "review-clean" }, t("review.mistakes.none")),
      h("p", { class: "hint review-legend" },
        h("span", { class: "move-chip played", "aria-hidden": "true" }, t("review.played")), " ",
        h("span", { class: "move-chip best", "aria-hidden": "true" }, t("review.col.best"))),
      h("div", { class: "review-table-wrap" }, decisionTable(decisions)),
    ];
  }

  /** @param {Review} data */
  function chart(data) {
    const points = data.line;
    const byMove = new Map(data.decisions.map((d) => [d.move, d]));
    const WIDTH = Math.round(Math.min(900, Math.max(280, body.clientWidth || 640)));
    const w = WIDTH - PAD.left - PAD.right;
    const hgt = HEIGHT - PAD.top - PAD.bottom;
    const x = (/** @type {number} */ i) => PAD.left + (points.length > 1 ? (i * w) / (points.length - 1) : w / 2);
    const y = (/** @type {number} */ p) => PAD.top + (1 - p) * hgt;
    const grid = /** @type {SVGElement[]} */ ([0, 0.25, 0.5, 0.75, 1].map((p) => [
      svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(p), y2: y(p), class: p === 0.5 ? "grid grid-mid" : "grid" }),
      p % 0.5 === 0 ? svg("text", { x: PAD.left - 6, y: y(p) + 4, "text-anchor": "end", class: "axis", text: formatPercent(p) }) : null,
    ]).flat().filter(Boolean));
    const line = svg("polyline", { class: "chance-line", fill: "none", points: points.map((pt, i) => `${x(i)},${y(pt.chance)}`).join(" ") });
    const dots = points.map((pt, i) => {
      const d = /** @type {Decision} */ (byMove.get(pt.move)); // every point is a decision's
      const judgement = d.judgement;
      const words = [t("review.decision", { move: d.move, round: d.round, total: d.total }), formatPercent(pt.chance)];
      if (judgement) words.push(t(`review.judgement.${judgement}`));
      return svg("circle", { cx: x(i), cy: y(pt.chance), r: judgement ? 6 : 3, class: `dot${judgement ? ` dot-${judgement}` : ""}`,
        onclick: () => go(d.move) }, svg("title", { text: words.join(" · ") }));
    });
    return svg("svg", { class: "review-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
      "aria-label": t("review.chart", { name: names[data.seat] }) }, ...grid, line, ...dots);
  }

  /** @param {Decision} d  a judged one: its chances are known */
  function mistakeItem(d) {
    return h("li", { class: `mistake judgement-${d.judgement}` },
      h("span", {}, t("review.mistake", {
        move: d.move, judgement: t(`review.judgement.${d.judgement}`), total: d.total,
        played: moveLabel(d.played, edition), chance: formatPercent(/** @type {number} */ (d.played_chance)),
        best: moveLabel(d.best, edition), best_chance: formatPercent(/** @type {number} */ (d.best_chance)), cost: formatPercent(d.cost),
      })),
      " ",
      h("button", { type: "button", class: "link-button", onclick: () => go(d.move) }, t("review.goto")));
  }

  /** @param {Decision[]} decisions */
  function decisionTable(decisions) {
    return h("table", { class: "review-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "#"),
        h("th", { scope: "col", class: "num" }, t("review.col.total")),
        h("th", { scope: "col" }, t("review.col.chance")),
        h("th", { scope: "col", class: "num" }, t("review.col.cost")))),
      h("tbody", {}, decisions.map((d) => h("tr", { class: d.judgement ? `judgement-${d.judgement}` : d.forced ? "forced" : "" },
        h("td", {}, h("button", { type: "button", class: "link-button", title: t("review.goto"), onclick: () => go(d.move) }, formatNumber(d.move))),
        h("td", { class: "num" }, formatNumber(d.total)),
        h("td", {}, d.forced
          ? h("span", { class: "move-chip played forced-chip" }, moveLabel(d.played, edition), " · ", t("review.forced"))
          : h("span", { class: "chips" }, [...d.chances].sort((a, b) => b.chance - a.chance).map((c) => chip(d, c))),
        d.judgement ? h("span", { class: `verdict verdict-${d.judgement}` }, t(`review.judgement.${d.judgement}`)) : null),
        h("td", { class: "num" }, d.forced || d.cost < 0.005 ? "" : formatPercent(d.cost))))));
  }

  /** @param {Decision} d @param {Chance} c */
  function chip(d, c) {
    const played = c.action === d.played;
    const best = c.action === d.best && !played;
    return h("span", { class: `move-chip${played ? " played" : ""}${best ? " best" : ""}` },
      moveLabel(c.action, edition), " ", h("span", { class: "chip-chance" }, formatPercent(c.chance)),
      played ? h("span", { class: "sr-only" }, ` (${t("review.played")})`) : null,
      best ? h("span", { class: "sr-only" }, ` (${t("review.col.best")})`) : null);
  }

  const section = h("section", { class: "panel review", "aria-labelledby": "review-heading" },
    h("h2", { id: "review-heading" }, t("review.heading")),
    h("div", { class: "review-controls" },
      h("label", { for: "review-seat" }, t("review.seat")), seatSelect,
      h("div", { class: "lens-toggle", role: "group", "aria-label": t("review.lens") }, lensButtons),
      h("button", { type: "button", class: "primary", id: "review-open", onclick: () => load() }, t("review.open"))),
    status, body);
  return section;
}
