// A round's summary (issue 25), from public facts only: the view before the update that ended
// the round, and that update's events. Under tokens: who lost a token, or left the game. Under
// points: each player's points and where they came from (the rules page, "Points"): cards
// left in hand, 15 for each card missing from a full hand of four, 25 more when out of the
// round (bust).
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").RoundEndEvent} RoundEndEvent */
/** @typedef {import("./types.js").Rules} Rules */
/** @typedef {import("./types.js").View} View */

/**
 * @typedef {object} SummaryRow  points: a seat's points, and where they came from (when they add up)
 * @property {number} seat
 * @property {number} points
 * @property {number | null} score  the seat's score after the round
 * @property {number} [short]  cards missing from a full hand
 * @property {number} [shortPoints]
 * @property {number} [bust]  the points for being out of the round
 * @property {number} [cards]  the points of the cards left in hand
 */

/**
 * @typedef {object} RoundSummary
 * @property {number} round
 * @property {SummaryRow[]} rows  points
 * @property {{seat: number, left: number}[]} lost  tokens: who lost a token, and how many they have left
 * @property {number[]} left  tokens: who left the game
 * @property {number[] | null} [tokens]  tokens: each seat's, after the round
 */

const HAND_SIZE = 4;
const SHORT_POINTS = 15;
const BUST_POINTS = 25;

/**
 * @param {View | null | undefined} before  the view before the update
 * @param {GameEvent[]} events  the update's
 * @param {View | null | undefined} after  the view after it
 * @param {Partial<Rules> | null | undefined} rules
 * @returns {RoundSummary | null}  null when no round ended
 */
export function roundSummary(before, events, after, rules) {
  const end = events.findIndex((e) => e.kind === "round_end");
  if (end < 0 || !before) return null;
  const ending = /** @type {RoundEndEvent} */ (events[end]);
  /** @type {RoundSummary} */
  const summary = { round: ending.round, rows: [], lost: [], left: [] };
  if (ending.points === null || ending.points === undefined) {
    for (const e of events.slice(end)) {
      if (e.kind === "deal") break;
      if (e.kind === "lost_token") summary.lost.push({ seat: e.seat, left: e.tokens_left });
      if (e.kind === "left") summary.left.push(e.seat);
    }
    summary.tokens = after?.tokens || null;
    return summary;
  }
  // The hands as the round ended: the view before, and the cards played and drawn since. A
  // card played is replaced at once from the pile (no event says so), except under the draw
  // penalty, where the draw is an action of its own.
  const sizes = [...before.hand_sizes];
  const bust = new Set(before.out_of_round);
  for (const e of events.slice(0, end)) {
    if ((e.kind === "play" || e.kind === "discard") && rules?.draw_penalty) sizes[e.seat] -= 1;
    else if (e.kind === "draw") sizes[e.seat] += 1;
    else if (e.kind === "out_of_round") bust.add(e.seat);
  }
  ending.points.forEach((points, seat) => {
    if (before.out.includes(seat)) return;
    const short = Math.max(0, HAND_SIZE - sizes[seat]);
    const parts = /** @type {Required<Omit<SummaryRow, "seat" | "points" | "score">>} */ ({ short, shortPoints: short * SHORT_POINTS, bust: bust.has(seat) ? BUST_POINTS : 0 });
    parts.cards = points - parts.shortPoints - parts.bust;
    const known = parts.cards >= 0; // else our count is off: show the points alone
    summary.rows.push({ seat, points, score: after?.scores?.[seat] ?? null, ...(known ? parts : {}) });
  });
  return summary;
}
