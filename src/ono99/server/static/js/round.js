// A round's summary (issue 25), from public facts only: the view before the update that ended
// the round, and that update's events. Under tokens: who lost a token, or left the game. Under
// points: each player's points and where they came from (the rules page, "Points"): cards
// left in hand, 15 for each card missing from a full hand of four, 25 more when out of the
// round (bust).
const HAND_SIZE = 4;
const SHORT_POINTS = 15;
const BUST_POINTS = 25;

export function roundSummary(before, events, after, rules) {
  const end = events.findIndex((e) => e.kind === "round_end");
  if (end < 0 || !before) return null;
  const ending = events[end];
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
    const parts = { short, shortPoints: short * SHORT_POINTS, bust: bust.has(seat) ? BUST_POINTS : 0 };
    parts.cards = points - parts.shortPoints - parts.bust;
    const known = parts.cards >= 0; // else our count is off: show the points alone
    summary.rows.push({ seat, points, score: after?.scores?.[seat] ?? null, ...(known ? parts : {}) });
  });
  return summary;
}
