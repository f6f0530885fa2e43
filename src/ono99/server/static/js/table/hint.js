// The expert's hint, as the terminal's `hint`: each legal move's chance of winning, asked for
// the decision on screen and shown beside the cards. Here: which hint belongs to the decision
// shown, its chances, and the words a screen reader hears when it comes.
import { cardLabel } from "../cards.js";
import { h, say } from "../dom.js";
import { formatPercent, t } from "../i18n.js";

/** @typedef {import("./store.js").TableState} TableState */

/**
 * The hint for the decision on screen, or null.
 * @param {TableState} s
 */
export function currentHint(s) {
  const hint = s.hint;
  return hint && s.game && hint.moves === s.game.moves && hint.game === s.game.game ? hint : null;
}

/**
 * Whether a hint was asked for the decision on screen (its answer not yet in).
 * @param {TableState} s
 */
export function hintAsked(s) {
  return !!s.game && s.hintAsked === `${s.game.game}|${s.game.moves}`;
}

/**
 * A move's chance of winning as a tag beside it, when a hint gave one.
 * @param {TableState} s
 * @param {string} action
 */
export function chanceTag(s, action) {
  const hint = currentHint(s);
  const chance = hint?.actions.find((a) => a.action === action)?.chance;
  if (chance === undefined || !hint) return null;
  return h("span", { class: `chance${hint.choice === action ? " chance-best" : ""}`, title: t("hint.chance") }, formatPercent(chance));
}

/**
 * A move in the reader's words.
 * @param {string} action
 * @param {string} edition
 */
export function actionLabel(action, edition) {
  if (action.startsWith("play ")) return cardLabel(action.slice(5), edition);
  return action === "draw" ? t("hand.draw") : t("hand.discard");
}

/**
 * A hint that has just come is read out: the move the expert suggests, and its chance.
 * @param {TableState} s
 * @param {TableState} before
 */
export function sayHint(s, before) {
  const hint = currentHint(s);
  if (!hint || hint === before.hint || !s.table) return;
  const choice = hint.actions.find((a) => a.action === hint.choice);
  if (choice) say(t("hint.said", { move: actionLabel(choice.action, s.table.rules.edition), chance: formatPercent(choice.chance) }), true);
}
