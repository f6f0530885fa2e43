// Replaying a finished game step by step: every hand face up (the game is over).
import { api } from "./api.js";
import { cardFace } from "./cards.js";
import { h, say } from "./dom.js";
import { errorText } from "./errors.js";
import { formatNumber, t, tn } from "./i18n.js";
import { Narrator, withBy } from "./log.js";
import { reviewSection } from "./review.js";

/** @typedef {import("./types.js").Replay} Replay */
/** @typedef {import("./types.js").ReplayState} ReplayState */

/** @param {HTMLElement} root @param {string} rawCode @param {number} game */
export async function showReplay(root, rawCode, game) {
  const code = rawCode.toLowerCase().replace(/[\s-]/g, "");
  root.replaceChildren(h("p", { class: "loading" }, t("loading")));
  /** @type {Replay} */
  let data;
  try {
    data = await api.replay(code, game);
  } catch (err) {
    root.replaceChildren(
      h("h1", { class: "page-title" }, t("replay.missing")),
      h("p", { role: "alert" }, errorText(err)),
      h("p", {}, h("a", { href: `/t/${code}` }, t("replay.back"))),
    );
    return;
  }
  const rules = data.rules;
  const names = (data.names || []).map((n, i) => n ?? t("seat.numbered", { n: i + 1 }));
  const narrator = new Narrator(names, null, rules);
  // Word every step's events once, in order (the narrator keeps running scores).
  const by = data.by || [];
  const lines = data.steps.map((step) => {
    const action = step.moves ? [by[step.moves - 1]] : [];
    return withBy(step.events, action).map(({ ev, by: who }) => narrator.line(ev, who));
  });
  const last = data.steps.length - 1;
  let at = 0;
  /** @type {ReturnType<typeof setInterval> | null} */
  let playing = null;

  const slider = h("input", { type: "range", id: "replay-step", min: 0, max: last, value: 0, oninput: () => go(Number(slider.value)) });
  const position = h("p", { id: "replay-position", class: "replay-position", "aria-live": "polite" });
  const board = h("div", { class: "replay-board" });
  const log = h("ol", { class: "log-list replay-log", tabindex: "0", "aria-label": t("game.log") });
  const playButton = h("button", { type: "button", onclick: () => toggle() }, t("replay.play"));

  /** @param {number} step */
  function go(step) {
    at = Math.max(0, Math.min(last, step));
    slider.value = String(at);
    draw();
  }

  function toggle() {
    if (playing) {
      clearInterval(playing);
      playing = null;
      playButton.textContent = t("replay.play");
      return;
    }
    if (at === last) go(0);
    playButton.textContent = t("replay.pause");
    playing = setInterval(() => {
      if (at >= last) toggle();
      else go(at + 1);
    }, 900);
  }

  function draw() {
    const step = data.steps[at];
    const s = step.state;
    position.textContent = t("replay.position", { step: formatNumber(at), last: formatNumber(last) });
    board.replaceChildren(
      h("div", { class: "replay-now" }, lines[at].map((l) => h("p", { class: `tone-${l.tone}` }, l.text))),
      h("div", { class: "total-box" }, h("span", { class: "total-label" }, t("game.total")), h("span", { class: "total" }, formatNumber(s.total))),
      h("p", {}, s.direction === "cw" ? t("direction.cw") : t("direction.ccw"),
        " · ", s.over ? t("turn.over") : turnText(s, names[/** @type {number} */ (s.to_play)]),
        " · ", tn("piles.draw", s.draw_pile)),
      h("ul", { class: "seat-list" },
        ...s.hands.map((hand, i) => {
          const facts = [t(`status.${s.status[i]}`)];
          if (s.tokens) facts.push(tn("seat.tokens", s.tokens[i]));
          if (s.scores) facts.push(t("seat.score", { score: formatNumber(s.scores[i]) }));
          if (s.winners.includes(i)) facts.push(t("end.winner"));
          return h("li", { class: `seat${i === s.to_play && !s.over ? " seat-turn" : ""}` },
            h("p", { class: "seat-title" }, h("strong", {}, names[i]), ` — ${facts.join(" · ")}`),
            h("p", { class: "laid" }, hand.length ? hand.map((c) => cardFace(c, rules.edition, { small: true })) : t("cards.none")));
        })),
    );
    const shown = lines.slice(0, at + 1).flat();
    log.replaceChildren(...shown.map((line, i) => h("li", { class: `tone-${line.tone}${i >= shown.length - lines[at].length ? " current" : ""}` }, line.text)));
    log.scrollTop = log.scrollHeight;
    const now = lines[at].map((l) => l.text).join(" ");
    if (!playing && now) say(now);
  }

  root.replaceChildren(
    h("h1", { class: "page-title" }, t("replay.title", { game: formatNumber(game) })),
    h("p", {}, h("a", { href: `/t/${code}` }, t("replay.back")), " · ",
      h("a", { href: api.recordUrl(code, game), download: `ono99-${code}-game${game}.json` }, t("end.record"))),
    h("div", { class: "replay-controls panel", role: "group", "aria-label": t("replay.controls") },
      h("button", { type: "button", onclick: () => go(0) }, t("replay.first")),
      h("button", { type: "button", onclick: () => go(at - 1) }, t("replay.prev")),
      playButton,
      h("button", { type: "button", onclick: () => go(at + 1) }, t("replay.next")),
      h("button", { type: "button", onclick: () => go(last) }, t("replay.last")),
      h("label", { for: "replay-step", class: "sr-only" }, t("replay.step")),
      slider,
      position),
    h("div", { class: "replay" }, h("section", { class: "panel" }, board), h("section", { class: "panel log" }, h("h2", {}, t("game.log")), log)),
    reviewSection({ code, game, names, rules, seat: reviewedSeat(data.players || []), go: (step) => {
      go(step);
      /** @type {HTMLElement} */ (root.querySelector(".replay-controls")).scrollIntoView({ block: "start" });
    } }),
  );
  document.addEventListener("keydown", (e) => {
    if (e.target && ["INPUT", "SELECT"].includes(/** @type {Element} */ (e.target).tagName)) return;
    if (e.key === "ArrowRight") go(at + 1);
    else if (e.key === "ArrowLeft") go(at - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(last);
    else return;
    e.preventDefault();
  });
  draw();
}

/** @param {ReplayState} s @param {string} name */
function turnText(s, name) {
  if (s.owed === 2) return t("turn.other.two", { name });
  return s.second_card ? t("turn.other.second", { name }) : t("turn.other", { name });
}

// The seat the review is for: ?seat=N (a profile links each game for its own seat), else the
// first person's.
/** @param {string[]} players  each seat's "human" or bot */
function reviewedSeat(players) {
  const asked = Number(new URLSearchParams(location.search).get("seat"));
  if (Number.isInteger(asked) && asked >= 0 && asked < players.length) return asked;
  return Math.max(0, players.indexOf("human"));
}
