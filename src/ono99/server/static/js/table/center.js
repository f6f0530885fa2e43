// The middle of the table and the line under it: the draw pile, the discard pile (its last
// few cards, the newest on top), the total, the direction of play; whose turn it is, their
// turn timer, and what they owe.
import { cardFace, cardLabel } from "../cards.js";
import { fitAll } from "../fit.js";
import { h, say, svg } from "../dom.js";
import { formatNumber, language, t, tn } from "../i18n.js";
import { stopCounting } from "./flight.js";
import { nameOf, turnText } from "./words.js";

/** @typedef {import("./store.js").TableState} TableState */

// Two arrows chasing each other round the middle of the table: the direction of play.
function directionIcon() {
  /** @param {number} rotate */
  const arrow = (rotate) =>
    svg("g", { transform: `rotate(${rotate} 50 50)` },
      svg("path", { d: "M 50 8 A 42 42 0 0 1 88 32", fill: "none", "stroke-width": 4, "stroke-linecap": "round" }),
      svg("path", { d: "M 80 28 L 89 34 L 91 23", fill: "none", "stroke-width": 4, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  return svg("svg", { viewBox: "0 0 100 100", focusable: "false" }, arrow(0), arrow(120), arrow(240));
}

export function centerView() {
  const total = h("span", { class: "total", id: "total", "aria-describedby": "total-label" });
  const drawCount = h("span", { class: "pile-count", id: "draw-count" });
  const drawPile = h("div", { id: "draw-pile", class: "pile pile-draw" }, h("span", { class: "card-back" }), drawCount);
  const discard = h("div", { id: "discard", class: "pile pile-discard" });
  const dir = h("div", { id: "dir", class: "dir", "aria-hidden": "true" }, directionIcon());
  const middle = h("div", { class: "center" },
    h("div", { class: "piles-row", "aria-hidden": "true" }, drawPile, discard),
    h("div", { class: "total-box" }, total, h("span", { class: "total-label", id: "total-label" }, t("game.total"))));
  const turn = h("p", { id: "turn", class: "turn" });
  const timerText = h("span", { class: "timer-text" });
  const timer = h("p", { id: "timer", class: "timer", hidden: true }, timerText);
  const direction = h("p", { id: "direction", class: "direction", "aria-hidden": "true" }); // in #piles for screen readers
  const piles = h("p", { id: "piles", class: "sr-only" });
  const status = h("div", { class: "status-line" }, turn, timer, direction, piles);
  const warning = h("p", { id: "warning", class: "warning", hidden: true });
  let warned = false; // the ten-second warning, said once a turn

  /** @param {TableState} s @param {TableState} [before] */
  function update(s, before) {
    const v = s.game?.view;
    const table = s.table;
    if (!v || !table) return;
    const rules = table.rules;
    if (before?.game?.moves !== s.game?.moves || before?.game?.game !== s.game?.game) warned = false;
    stopCounting();
    total.textContent = formatNumber(v.total);
    total.dataset.total = String(v.total);
    turn.textContent = v.over ? t("turn.over") : turnText(s, v);
    const mine = v.to_play === s.me.seat && !v.over;
    turn.classList.toggle("turn-mine", mine);
    // A tab in the background still says when it is your turn.
    document.title = mine ? t("app.title.your_turn") : t("app.title");
    const seats = table.seats;
    if (!v.over && v.to_play !== null && seats[v.to_play]?.kind === "human" && s.game?.turn?.auto) turn.textContent += t("turn.auto");
    const words = v.direction === "cw" ? t("direction.cw") : t("direction.ccw");
    direction.textContent = words;
    // The arrows round the middle turn over on a Reverse (a CSS transition).
    dir.classList.toggle("dir-ccw", v.direction === "ccw");
    const warnings = [];
    const play2 = cardLabel("play2", rules.edition);
    if (!v.over && v.owed === 2) {
      warnings.push(mine ? t("warning.play2.you", { card: play2 }) : t("warning.play2", { card: play2, name: nameOf(s, v.to_play ?? 0) }));
    } else if (!v.over && v.second_card) {
      // P1: the first of the two owed cards is down; say so until the second one is.
      warnings.push(mine ? t("warning.second.you", { card: play2 }) : t("warning.second", { card: play2, name: nameOf(s, v.to_play ?? 0) }));
    }
    if (s.me.seat !== null && v.owes_draw.includes(s.me.seat)) warnings.push(t("warning.draw"));
    warning.hidden = warnings.length === 0;
    warning.textContent = warnings.join(" ");
    piles.replaceChildren(
      tn("piles.draw", v.draw_pile),
      " · ",
      v.discard_top ? `${t("piles.top")} ${cardLabel(v.discard_top, rules.edition)}` : t("piles.empty"),
      ` · ${words}`,
    );
    drawCount.textContent = formatNumber(v.draw_pile);
    drawPile.classList.toggle("pile-empty", !v.draw_pile);
    let cards = s.pile.slice(-3);
    if (v.discard_top && cards[cards.length - 1] !== v.discard_top) cards = [...cards.slice(-2), v.discard_top];
    if (!v.discard_top) cards = [];
    // The pile is drawn again only when its cards change: most updates leave it as it was.
    const key = `${language()} ${rules.edition} ${cards.join(" ")}`;
    if (discard.dataset.cards !== key) {
      discard.dataset.cards = key;
      const faces = cards.map((c, i) => {
        const face = cardFace(c, rules.edition);
        face.classList.add("pile-card");
        face.style.setProperty("--i", String(cards.length - 1 - i));
        return face;
      });
      discard.replaceChildren(...faces);
      fitAll(faces);
    }
    tick(s, performance.now());
  }

  /** The turn timer, counting down from when its message arrived. @param {TableState} s @param {number} now */
  function tick(s, now) {
    const turn = s.game?.turn;
    if (!turn || s.turnEnds === null || !turn.seconds || s.game?.view.over) {
      timer.hidden = true;
      return;
    }
    timer.hidden = false;
    const left = Math.max(0, s.turnEnds - now);
    const seconds = Math.ceil(left / 1000);
    const next = tn("timer.left", seconds);
    if (timerText.textContent !== next) timerText.textContent = next;
    timer.classList.toggle("timer-low", left < 5000);
    if (turn.seat === s.me.seat && seconds <= 10 && seconds > 0 && !warned) {
      warned = true;
      say(tn("timer.warning", seconds), true);
    }
  }

  return { felt: [dir, middle], below: [status, warning], update, tick };
}
