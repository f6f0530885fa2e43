// The offline app's engine (docs/offline.md): this project's own Python — the rules, the bots,
// session/device.py — run by Pyodide in this Web Worker, so that the page stays responsive
// while a bot searches. The page asks (device.js); each answer carries the messages for the
// seat on screen, when the table next wants waking, and what to keep (IndexedDB, kept.js).
import { keep } from "./kept.js";

/** @typedef {{id: number, op: string, arg?: any}} Ask */

/** @type {Promise<any>} */
let ready;
/** @type {any} */
let device = null; // the Python Device, once made or restored
let written = ""; // what IndexedDB holds of it

const clock = () => performance.now() / 1000;

/** Load Pyodide and this package; resolve to the Python module session/device.py. */
async function start() {
  const answer = await fetch("/app/runtime.json");
  // 404 not_built: this server has no offline app (`ono99 app build`); the page says so.
  if (!answer.ok) throw new Error(answer.status === 404 ? "not_built" : `runtime.json: HTTP ${answer.status}`);
  const info = await answer.json();
  const { loadPyodide } = await import(`${info.pyodide}pyodide.mjs`);
  const py = await loadPyodide({ indexURL: info.pyodide, packages: [], fullStdLib: false });
  const zip = await (await fetch(info.package)).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: info.python_path });
  py.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(info.python_path)})`);
  return py.pyimport("ono99.session.device");
}

/**
 * What an ask answers with, after the table changed (or not).
 * @param {string[]} [messages]
 */
async function answer(messages = []) {
  const deadline = device.deadline();
  const wakeIn = deadline === undefined || deadline === null ? null : Math.max(0, (deadline - clock()) * 1000);
  const summary = device.summary().toJs({ dict_converter: Object.fromEntries });
  const now = device.kept_json();
  if (now !== written) { // a screen shown, a refusal, a hint: nothing new to keep
    await keep({ kept: now, summary });
    written = now;
  }
  return { messages: [...messages], wakeIn, summary, people: device.people().toJs({ dict_converter: Object.fromEntries }), record: device.record_json() ?? null };
}

/** @param {Ask} ask */
async function run(ask) {
  const mod = await ready;
  const now = clock();
  switch (ask.op) {
    case "load":
      return null;
    case "options":
      return JSON.parse(mod.options_json());
    case "create":
    case "restore": {
      // A refusal (a name not allowed, a kept game that is damaged) makes nothing.
      const [made, error] = mod.open_device(ask.op, ask.op === "create" ? JSON.stringify(ask.arg) : ask.arg, now).toJs({ depth: 1 });
      if (error) return { error: JSON.parse(error) };
      device = made;
      return answer();
    }
    case "hello":
      return answer(device.hello(ask.arg, now).toJs());
    case "handle":
      return answer(device.handle(JSON.stringify(ask.arg), now).toJs());
    case "wake":
      return answer(device.wake(now).toJs());
    default:
      throw new Error(`unknown ask ${ask.op}`);
  }
}

// One ask at a time, in order: the table is one, and its changes must not interleave.
let queue = Promise.resolve();
self.onmessage = (/** @type {MessageEvent<Ask>} */ e) => {
  const ask = e.data;
  queue = queue.then(async () => {
    try {
      self.postMessage({ id: ask.id, ok: true, value: await run(ask) });
    } catch (err) {
      self.postMessage({ id: ask.id, ok: false, error: describe(err) });
    }
  });
};

/**
 * What went wrong, in words: an Error's message, or what a thrown non-Error holds (a failed
 * response, an event).
 * @param {unknown} err
 */
function describe(err) {
  if (err instanceof Error) return err.message;
  if (err instanceof Response) return `HTTP ${err.status} for ${err.url}`;
  if (err instanceof Event) return `${err.type} event${err.target instanceof IDBRequest ? ` (${err.target.error?.message})` : ""}`;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

ready = start();
ready.catch(() => {}); // each ask reports it
