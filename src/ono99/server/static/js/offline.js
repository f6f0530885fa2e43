// The page /offline (and the whole of the exported app): a game on this device, with no
// server — against the computer, or passed round the table (pass-and-play). The engine is the
// project's own Python in a worker (device/); the table is the one that plays online
// (table/view.js), its connection the device's. Between two people's turns a "pass to" screen
// hides the hand. The game is kept on the device (device/kept.js) and resumes after a reload.
import { botLabel } from "./cards.js";
import { h } from "./dom.js";
import { errorText } from "./errors.js";
import { listOf, t, tn } from "./i18n.js";
import { ruleFields } from "./home.js";
import { rememberName, rememberedName } from "./play.js";
import { DeviceConnection } from "./device/connection.js";
import { Engine, keepRuntime } from "./device/device.js";
import { forget, kept } from "./device/kept.js";
import { openTable } from "./table/view.js";

/** @typedef {import("./types.js").Options} Options */
/** @typedef {import("./device/device.js").Answer} Answer */

/** @type {Engine | null} */
let engine = null;

/**
 * @param {HTMLElement} root
 * @param {boolean} standalone  the exported app: there is no server to go back to
 */
export async function showOffline(root, standalone) {
  root.replaceChildren(
    h("h1", { class: "page-title" }, t("device.title")),
    h("p", { class: "loading", id: "device-loading" }, t("device.loading")),
    h("p", { class: "hint" }, t("device.first_load", { size: "6 MB" })), // benchmarks/bench_offline.py
  );
  engine ??= new Engine();
  /** @type {Options} */
  let opts;
  try {
    await engine.load();
    opts = await engine.options();
    // Kept for the next time, with no network (the service worker's cache); said once the
    // worker is active too, which keeps the page itself (before then, going offline fails).
    keepRuntime()
      .then(() => navigator.serviceWorker?.ready)
      .then((registration) => {
        const said = document.getElementById("device-offline-ready");
        if (registration && said) said.hidden = false;
      })
      .catch((err) => console.warn("the offline runtime is not kept:", err));
  } catch (err) {
    const message = /** @type {Error} */ (err).message;
    root.replaceChildren(h("h1", { class: "page-title" }, t("device.title")),
      h("p", { role: "alert" }, message.includes("not_built") ? t("error.not_built") : t("device.failed", { message })));
    return;
  }
  const game = await kept().catch(() => undefined);
  root.replaceChildren(
    h("h1", { class: "page-title" }, t("device.title")),
    h("p", { class: "lead" }, t("device.lead")),
    h("p", { class: "hint", id: "device-offline-ready", hidden: true }, t("device.offline_ready")),
    h("div", { class: "home-grid" },
      setupForm(root, opts),
      h("div", { class: "home-side" },
        game ? resumePanel(root, game) : "",
        standalone ? "" : h("p", {}, h("a", { href: "/" }, t("device.online"))))),
  );
}

/**
 * @param {HTMLElement} root
 * @param {import("./device/kept.js").Kept} game
 */
function resumePanel(root, game) {
  const g = game.summary;
  const status = h("p", { class: "form-error", role: "alert" });
  const panel = h("section", { class: "panel", id: "device-resume", "aria-labelledby": "resume-title" },
    h("h2", { id: "resume-title" }, t("device.resume.title")),
    h("p", {}, t("device.resume.facts", { edition: t(`edition.${g.edition}`), players: tn("create.players.count", g.players), people: listOf(g.people) })),
    h("p", { class: "hint" }, t("game.title", { game: g.game || 1 })),
    status,
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", id: "device-resume-button", onclick: async () => {
        const answer = await /** @type {Engine} */ (engine).restore(game.kept).catch((e) => ({ error: { code: "unknown", message: String(e) } }));
        if ("error" in answer && answer.error) {
          status.textContent = errorText(answer.error);
          return;
        }
        play(root, /** @type {Answer} */ (answer), true);
      } }, t("device.resume")),
      h("button", { type: "button", onclick: async () => {
        if (!confirm(t("device.discard.confirm"))) return;
        await forget();
        panel.remove();
      } }, t("device.discard"))));
  return panel;
}

/**
 * Who sits where (a person, named, or a bot of a level), the edition and every option.
 * @param {HTMLElement} root
 * @param {Options} opts
 */
function setupForm(root, opts) {
  const state = { players: opts.players.default };
  const players = h("select", { id: "device-players", onchange: () => { state.players = Number(players.value); drawSeats(); } },
    ...range(opts.players.low, opts.players.high).map((n) => h("option", { value: n, selected: n === state.players }, tn("create.players.count", n))));
  const seatsBox = h("div", { class: "seat-rows" });
  /** @type {{kind: HTMLSelectElement, name: HTMLInputElement}[]} */
  const rows = [];
  const level = opts.bots.includes("greedy") ? "greedy" : opts.bots[0];
  function drawSeats() {
    const shown = [];
    for (let i = 0; i < state.players; i++) {
      if (!rows[i]) {
        const kind = /** @type {HTMLSelectElement} */ (h("select", { id: `device-seat-${i}`, onchange: () => { name.hidden = kind.value !== "human"; } },
          h("option", { value: "human" }, t("device.person")),
          ...opts.bots.map((b) => h("option", { value: `bot:${b}` }, t("create.seat.bot", { bot: botLabel(b) })))));
        kind.value = i === 0 ? "human" : `bot:${level}`;
        const name = /** @type {HTMLInputElement} */ (h("input", { id: `device-name-${i}`, size: 10, autocomplete: i ? "off" : "nickname", maxlength: opts.limits.name, "aria-label": t("device.name_of", { n: i + 1 }), value: i === 0 ? rememberedName() : "", hidden: i !== 0 }));
        rows[i] = { kind, name };
      }
      shown.push(h("div", { class: "seat-row device-seat" }, h("label", { for: `device-seat-${i}` }, t("create.seat", { n: i + 1 })), rows[i].kind, rows[i].name));
    }
    seatsBox.replaceChildren(...shown);
  }
  drawSeats();
  const fields = ruleFields(opts);
  const status = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", id: "device-start" }, t("device.start"));
  return h("form", {
    class: "panel", id: "device-setup", "aria-labelledby": "device-setup-title",
    onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      status.textContent = "";
      const config = fields.read(status);
      if (!config) return;
      const used = rows.slice(0, state.players);
      const people = used.filter((r) => r.kind.value === "human").map((r) => r.name.value.trim());
      if (!people.length) return void (status.textContent = t("device.nobody"));
      const empty = used.find((r) => r.kind.value === "human" && !r.name.value.trim());
      if (empty) {
        status.textContent = t("device.name_needed");
        return empty.name.focus();
      }
      const seats = used.map((r) => (r.kind.value === "human" ? { kind: "human" } : { kind: "bot", bot: r.kind.value.slice(4) }));
      submit.disabled = true;
      // ?bot_delay=SECONDS: how long the bots wait before they move (1 s unless said).
      const delay = new URLSearchParams(location.search).get("bot_delay");
      const request = { table: { ...config, seats }, people, ...(delay === null ? {} : { bot_delay: Number(delay) }) };
      const answer = await /** @type {Engine} */ (engine).create(request);
      submit.disabled = false;
      if (answer.error) return void (status.textContent = errorText(answer.error));
      rememberName(people[0]);
      play(root, answer);
    },
  },
  h("h2", { id: "device-setup-title" }, t("device.setup")),
  h("div", { class: "create-grid" },
    h("div", {},
      h("div", { class: "field" }, h("label", { for: "device-players" }, t("create.players")), players),
      h("fieldset", { class: "field" }, h("legend", {}, t("create.seats")), h("p", { class: "hint" }, t("device.seats.hint")), seatsBox),
      fields.timerField, fields.hintsField),
    h("div", {}, fields.edition)),
  fields.options, status, submit);
}

/**
 * Play the device's table: each person's screen in turn, a "pass to" screen between them.
 * @param {HTMLElement} root
 * @param {Answer} first  the engine's answer once the table was made or restored
 * @param {boolean} [resumed]  a kept game: whoever holds the device now may not be its player
 */
function play(root, first, resumed = false) {
  const device = /** @type {Engine} */ (engine);
  const people = first.people;
  let record = first.record;
  /** @type {{close: () => void} | null} */
  let table = null;
  /** @type {DeviceConnection | null} */
  let connection = null;
  let turn = /** @type {number | null} */ (null);
  let playing = false;

  /** @param {number} seat */
  function show(seat) {
    table?.close();
    connection?.close();
    table = openTable(root, "device", null, {
      options: () => device.options(),
      device: { record: () => record },
      connect: (on) => {
        connection = new DeviceConnection(device, seat, {
          ...on,
          message: (m) => {
            if (m.type === "table") playing = m.phase === "playing";
            if ("turn" in m && m.turn !== undefined) turn = m.turn?.seat ?? null;
            on.message(m);
          },
          answered: (a) => {
            record = a.record;
            // Another person's turn on this device: hide this hand, and pass the device.
            const next = people.find((p) => p.seat === turn);
            if (playing && next && next.seat !== seat) pass(next);
          },
        });
        return connection;
      },
    });
  }

  /** @param {{seat: number, name: string}} who */
  function pass(who) {
    table?.close();
    connection?.close();
    table = null;
    connection = null;
    const go = h("button", { type: "button", class: "primary", id: "device-pass-ready", onclick: () => show(who.seat) }, t("device.pass.ready", { name: who.name }));
    root.replaceChildren(h("section", { class: "panel narrow device-pass", "aria-labelledby": "pass-title" },
      h("h1", { class: "page-title", id: "pass-title" }, t("device.pass.title", { name: who.name })),
      h("p", { class: "lead" }, t("device.pass.lead", { name: who.name })),
      go));
    window.scrollTo(0, 0);
    go.focus();
  }

  // A resumed game in pass-and-play opens on the "pass to" screen of whoever's turn it is.
  const due = people.find((p) => p.seat === first.summary.to_play) ?? people[0];
  if (resumed && people.length > 1) pass(due);
  else show(people[0].seat);
}

/** @param {number} a @param {number} b */
function range(a, b) {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}
