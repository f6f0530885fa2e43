// What the table says without being looked at: the screen-reader announcements (what
// happened, the total, whose turn it is) and the sounds of a move.
import { say } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { sound } from "../sound.js";
import { turnText } from "./words.js";

/** @typedef {import("./store.js").TableState} TableState */
/** @typedef {import("./story.js").Story} Story */

/** @param {Story} story */
export function announcer(story) {
  const last = { total: /** @type {number | null} */ (null), toPlay: /** @type {number | null} */ (null), owed: /** @type {number | null} */ (null), phase: /** @type {string | null} */ (null) };
  let spoken = -1; // the story's lines already read out (-1: none yet; the story so far is on screen)
  let epoch = -1;

  /** @param {TableState} s @param {TableState} before */
  function update(s, before) {
    const phase = s.table?.phase ?? null;
    if (phase !== last.phase) {
      if (phase === "playing" && last.phase !== null) say(t("say.started"));
      last.phase = phase;
    }
    const v = s.game?.view;
    if (!v) return;
    const lines = story.of(s);
    if (s.epoch !== epoch) {
      epoch = s.epoch;
      spoken = lines.length; // a fresh state: read out what comes next
    }
    // The lines not yet read out (the last few: bots can be quick), then none until more.
    const parts = lines.slice(Math.max(spoken, lines.length - 3)).map((l) => l.text);
    spoken = lines.length;
    if (v.total !== last.total) parts.push(t("say.total", { total: formatNumber(v.total) }));
    const turnChanged = v.to_play !== last.toPlay || v.owed !== last.owed;
    if (v.over && last.toPlay !== null) parts.push(document.getElementById("end-title")?.textContent || t("turn.over"));
    else if (turnChanged && v.to_play !== null && !v.over) {
      if (v.to_play === s.me.seat) {
        say([...parts, turnText(s, v)].join(" "), true);
        parts.length = 0;
      } else parts.push(turnText(s, v));
    }
    if (s.me.seat !== null && v.owes_draw.includes(s.me.seat) && !v.over) parts.push(t("warning.draw"));
    last.total = v.total;
    last.toPlay = v.over ? null : v.to_play;
    last.owed = v.owed;
    if (parts.length) say(parts.join(" "));
    if (before.game && s.game && s.game.moves > before.game.moves && s.game.game === before.game.game) cue(s, before);
  }

  return { update };
}

/**
 * A move's sound, once it is on screen: the win, someone out, or your turn.
 * @param {TableState} s
 * @param {TableState} before
 */
function cue(s, before) {
  const v = s.game?.view;
  const was = before.game?.view;
  if (!v || !was) return;
  const kinds = new Set(s.events.slice(before.events.length).map((x) => x.ev.kind));
  if (kinds.has("over")) sound("win");
  else if (kinds.has("eliminated") || kinds.has("out_of_round") || kinds.has("left")) sound("out");
  else if (v.to_play === s.me.seat && was.to_play !== s.me.seat) sound("turn");
}
