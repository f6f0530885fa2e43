// log.js's narrator, the parts that need no page: who chose each action, and the reader's own
// lines. It looks its words up in i18n.js's catalog, which is loaded here from a small one
// (Node has `fetch`, but no server to ask, and no `document` whose language to set).
import { before, test } from "node:test";
import assert from "node:assert/strict";

import { loadCatalog } from "../../src/ono99/server/static/js/i18n.js";
import { Narrator, withBy } from "../../src/ono99/server/static/js/log.js";

/** @typedef {import("../../src/ono99/server/static/js/types.js").GameEvent} GameEvent */

const CATALOG = {
  "card.number": "{n}",
  "card.reverse": "Reverse",
  "log.play": "{name} plays {card}: total {total}.",
  "log.play.you": "You play {card}: total {total}.",
  "log.now.ccw": " Play goes the other way.",
  "log.by.timer": " (time ran out)",
  "log.deal": "{name} deals round {round}.",
};

before(async () => {
  Object.assign(globalThis, {
    fetch: async () => ({ json: async () => CATALOG }),
    document: { documentElement: {} },
  });
  await loadCatalog("en");
});

test("withBy pairs each action's first event with who chose it", () => {
  /** @type {GameEvent[]} */
  const events = [
    { kind: "deal", seat: 2, round: 1, total: 0 },
    { kind: "play", seat: 0, card: "7", total: 7 },
    { kind: "reshuffle", cards: 40 },
    { kind: "play", seat: 1, card: "10", total: 17 },
  ];
  assert.deepEqual(
    withBy(events, ["seat", "timer"]).map(({ by }) => by),
    [null, "seat", null, "timer"],
  );
});

test("the reader's own play is worded for them; a stand-in's says so", () => {
  const narrator = new Narrator(["Ana", "Bo", "Cy"], 1, { edition: "2022", players: 3 });
  assert.deepEqual(narrator.line({ kind: "play", seat: 1, card: "reverse", total: 17 }, "seat"), {
    text: "You play Reverse: total 17. Play goes the other way.",
    tone: "play",
  });
  assert.equal(narrator.line({ kind: "play", seat: 0, card: "5", total: 22 }, "timer").text, "Ana plays 5: total 22. (time ran out)");
  assert.equal(narrator.line({ kind: "deal", seat: 2, round: 2, total: 0 }, null).tone, "round");
});
