// The page's side of the offline engine (worker.js): one worker per page, asked in order, each
// answer a promise. Nothing here knows the rules: the worker runs the project's Python.

/**
 * @typedef {object} Answer  what the worker says after each change
 * @property {string[]} messages  for the seat on screen (docs/protocol.md)
 * @property {number | null} wakeIn  ms until the table wants waking (a bot's move, a timer)
 * @property {{seat: number, name: string}[]} people  the seats of the people on this device
 * @property {string | null} record  the latest game's N3 record, once it is over
 * @property {import("./kept.js").Kept["summary"]} summary  the game as the list of kept games shows it
 * @property {import("../types.js").ErrorPayload} [error]  create or restore refused
 */

export class Engine {
  constructor() {
    this.worker = new Worker("/static/js/device/worker.js", { type: "module" });
    this.next = 0;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this.waiting = new Map();
    this.worker.onmessage = (/** @type {MessageEvent} */ e) => {
      const ask = this.waiting.get(e.data.id);
      if (!ask) return;
      this.waiting.delete(e.data.id);
      if (e.data.ok) ask.resolve(e.data.value);
      else ask.reject(new Error(e.data.error));
    };
    this.worker.onerror = (e) => {
      for (const ask of this.waiting.values()) ask.reject(new Error(e.message || "the engine failed to start"));
      this.waiting.clear();
    };
  }

  /**
   * @param {string} op
   * @param {unknown} [arg]
   * @returns {Promise<any>}
   */
  ask(op, arg) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, arg });
    });
  }

  /** Resolves once Pyodide and the package have loaded. */
  load() {
    return this.ask("load");
  }

  /** @returns {Promise<import("../types.js").Options>} */
  options() {
    return this.ask("options");
  }

  /** @param {unknown} request @returns {Promise<Answer>} */
  create(request) {
    return this.ask("create", request);
  }

  /** @param {string} kept @returns {Promise<Answer>} */
  restore(kept) {
    return this.ask("restore", kept);
  }

  /** @param {number} seat @returns {Promise<Answer>} */
  hello(seat) {
    return this.ask("hello", seat);
  }

  /** @param {Record<string, unknown>} message @returns {Promise<Answer>} */
  handle(message) {
    return this.ask("handle", message);
  }

  /** @returns {Promise<Answer>} */
  wake() {
    return this.ask("wake");
  }
}

const RUNTIME = "ono99-runtime"; // the service worker's cache of it (sw.js)

/**
 * Keep the runtime for offline play (the service worker's cache), and drop what an older
 * version kept. The files come from the browser's own cache (they are named by version).
 */
export async function keepRuntime() {
  if (!("caches" in self)) return;
  const info = await (await fetch("/app/runtime.json")).json();
  const cache = await caches.open(RUNTIME);
  const wanted = new Set(["/app/runtime.json", ...info.files]);
  for (const request of await cache.keys()) {
    if (!wanted.has(new URL(request.url).pathname)) await cache.delete(request);
  }
  for (const path of info.files) {
    if (!(await cache.match(path))) await cache.add(path);
  }
  if (!(await cache.match("/app/runtime.json"))) await cache.add("/app/runtime.json");
}
