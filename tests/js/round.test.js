// round.js's summary of a round from public facts only (issue 25), for the tokens and points
// matches: no DOM, so it runs here as it does in the browser.
import { test } from "node:test";
import assert from "node:assert/strict";

import { roundSummary } from "../../src/ono99/server/static/js/round.js";

/** @typedef {import("../../src/ono99/server/static/js/types.js").View} View */
/** @typedef {import("../../src/ono99/server/static/js/types.js").GameEvent} GameEvent */

/**
 * A view of a three-seat game, with only what the summary reads changed.
 * @param {Partial<View>} facts
 * @returns {View}
 */
function view(facts) {
  return {
    seat: 0, round: 1, dealer: 2, total: 0, direction: "cw", to_play: 0, owed: 1,
    second_card: false, ono99_played: false, hand: ["3", "10", "reverse", "ono99"],
    hand_sizes: [4, 4, 4], status: ["in", "in", "in"], laid_down: [[], [], []], tokens: null,
    scores: null, out: [], out_of_round: [], owes_draw: [], draw_pile: 90, discard_top: "10",
    discard_size: 2, over: false, winners: [], legal: ["play 3"],
    ...facts,
  };
}

test("no round ended: no summary", () => {
  /** @type {GameEvent[]} */
  const events = [{ kind: "play", seat: 0, card: "7", total: 57 }];
  assert.equal(roundSummary(view({}), events, view({}), {}), null);
});

test("tokens: who lost a token, who left the game, up to the next deal", () => {
  /** @type {GameEvent[]} */
  const events = [
    { kind: "play", seat: 0, card: "9", total: 98 },
    { kind: "round_end", seat: 1, round: 3, total: 98, points: null },
    { kind: "lost_token", seat: 1, tokens_left: 0 },
    { kind: "left", seat: 1 },
    { kind: "deal", seat: 0, round: 4, total: 0 },
    { kind: "lost_token", seat: 2, tokens_left: 1 }, // the next round's: not this summary's
  ];
  const after = view({ tokens: [2, 0, 2] });
  assert.deepEqual(roundSummary(view({ tokens: [2, 1, 2] }), events, after, { match: "tokens" }), {
    round: 3,
    rows: [],
    lost: [{ seat: 1, left: 0 }],
    left: [1],
    tokens: [2, 0, 2],
  });
});

test("points: cards in hand, 15 a missing card, 25 for a bust; seats out of the game left out", () => {
  // Seat 1 busts; seat 3 was out of the game already. Under the draw penalty a card played
  // leaves the hand short until its draw: seats 0 and 1 end the round holding three.
  const before = view({ hand_sizes: [4, 4, 4, 0], status: ["in", "in", "in", "out"], out: [3] });
  /** @type {GameEvent[]} */
  const events = [
    { kind: "play", seat: 0, card: "7", total: 95 },
    { kind: "play", seat: 1, card: "9", total: 104, how: "bust" },
    { kind: "out_of_round", seat: 1, total: 104 },
    { kind: "round_end", round: 2, total: 104, points: [22, 46, 4, 0] },
  ];
  const after = view({ scores: [30, 50, 4, 100] });
  const summary = roundSummary(before, events, after, { match: "points", draw_penalty: true });
  assert.deepEqual(summary, {
    round: 2,
    rows: [
      { seat: 0, points: 22, score: 30, short: 1, shortPoints: 15, bust: 0, cards: 7 },
      { seat: 1, points: 46, score: 50, short: 1, shortPoints: 15, bust: 25, cards: 6 },
      { seat: 2, points: 4, score: 4, short: 0, shortPoints: 0, bust: 0, cards: 4 },
    ],
    lost: [],
    left: [],
  });
});

test("points: a count that does not add up shows the points alone", () => {
  // Under the draw penalty with the draw not shown, seat 0 looks short (15) but has 10 points.
  /** @type {GameEvent[]} */
  const events = [
    { kind: "play", seat: 0, card: "7", total: 95 },
    { kind: "round_end", round: 1, total: 95, points: [10, 8, 9] },
  ];
  const summary = roundSummary(view({}), events, null, { draw_penalty: true });
  assert.deepEqual(summary?.rows[0], { seat: 0, points: 10, score: null });
});
