// The browser's narrator (src/ono99/server/static/js/log.js) run in Node, for
// tests/test_narrators.py: it reads one JSON document on standard input,
//   {"static": ".../static", "lang": "fr", "catalog": {key: text}, "games": [{"names": [...],
//    "me": 0 or null, "rules": {...}, "events": [event as the server sends it, ...]}, ...]}
// and writes, for every event of every game, the line the browser shows, its tone and the
// catalog keys it looked up; "warnings" are what i18n.js warned (a key missing from the
// catalog). Nothing of the browser is needed but `fetch`, `document` and `localStorage`,
// which are stood in for here.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const input = JSON.parse(readFileSync(0, "utf8"));
const warnings = [];
console.warn = (...args) => warnings.push(args.join(" "));
globalThis.document = { documentElement: {} };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };

let looked = [];
const catalog = new Proxy(input.catalog, {
  get(target, key) {
    if (typeof key === "string") looked.push(key);
    return target[key];
  },
});
globalThis.fetch = async () => ({ json: async () => catalog });

const js = (name) => pathToFileURL(`${input.static}/js/${name}`).href;
const i18n = await import(js("i18n.js"));
const { Narrator } = await import(js("log.js"));
await i18n.loadCatalog(input.lang);

const games = input.games.map((game) => {
  const narrator = new Narrator(game.names, game.me, game.rules);
  return game.events.map((ev) => {
    looked = [];
    const { text, tone } = narrator.line(ev, null);
    return { text, tone, keys: looked };
  });
});
process.stdout.write(JSON.stringify({ games, warnings }));
