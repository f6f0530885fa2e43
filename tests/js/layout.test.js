// The browser client's table in rooms (issue 41): each module one thing and under ~400 lines,
// and the views depending on the state (the store and what words it), never on each other.
// Only view.js, which wires the page, and page.js, the address, may import the views.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

const DIR = new URL("../../src/ono99/server/static/js/table/", import.meta.url);

// What each module of table/ is. A new module must be named here (the test fails without).
/** @type {Record<string, "state" | "motion" | "view" | "wiring">} */
const KIND = {
  "store.js": "state", // the messages reduced to the table's state
  "words.js": "state", // the state in the reader's words
  "hint.js": "state", // which hint is the shown decision's, and its words
  "actions.js": "state", // the commands a person sends, and what they mark as pending
  "connection.js": "state", // the websocket
  "queue.js": "state", // the move queue and its pace
  "flight.js": "motion", // a card's flight and the total's count-up
  "announce.js": "view",
  "center.js": "view",
  "end.js": "view",
  "hand.js": "view",
  "keys.js": "view",
  "lobby.js": "view",
  "panels.js": "view",
  "reactions.js": "view",
  "seats.js": "view",
  "story.js": "view",
  "summary.js": "view",
  "view.js": "wiring",
  "page.js": "wiring",
};

const files = readdirSync(DIR).filter((f) => f.endsWith(".js")).sort();

/** @param {string} file @returns {string[]} the modules of table/ it imports */
function imports(file) {
  const text = readFileSync(new URL(file, DIR), "utf8");
  return [...text.matchAll(/^import\s[^;]*?from\s+"\.\/([\w-]+\.js)"/gms)].map((m) => m[1]);
}

test("every module of table/ is named, and nothing named is missing", () => {
  assert.deepEqual(files, Object.keys(KIND).sort());
});

test("no module of table/ is over 400 lines", () => {
  for (const file of files) {
    const lines = readFileSync(new URL(file, DIR), "utf8").split("\n").length;
    assert.ok(lines <= 400, `${file}: ${lines} lines`);
  }
});

test("views depend on the state, never on each other; nothing below the wiring imports it", () => {
  const allowed = {
    state: new Set(["state"]),
    motion: new Set(["state"]),
    view: new Set(["state", "motion"]),
    wiring: new Set(["state", "motion", "view", "wiring"]),
  };
  for (const file of files) {
    const kind = KIND[file];
    for (const used of imports(file)) {
      assert.ok(allowed[kind].has(KIND[used]), `${file} (${kind}) imports ${used} (${KIND[used]})`);
    }
  }
  assert.ok(imports("view.js").includes("seats.js"), "the parser finds imports");
});
