// The place to play, on the home page: Play now (a seat at the public table waiting for your
// edition and number of players, or a new one that bots fill if nobody comes in time), and
// the public tables waiting for players, kept live by the server (/ws/lobby, docs/protocol.md).
import { api, saveToken } from "./api.js";
import { botLabel } from "./cards.js";
import { h } from "./dom.js";
import { errorText } from "./errors.js";
import { availableLanguages, listOf, t, tn } from "./i18n.js";

/** @typedef {import("./types.js").Options} Options */
/** @typedef {import("./types.js").Edition} Edition */
/** @typedef {import("./types.js").Listed} Listed */

const NAME = "ono99.name"; // the name last played under, offered again

export function rememberedName() {
  try {
    return localStorage.getItem(NAME) || "";
  } catch {
    return "";
  }
}

/** @param {string} name */
export function rememberName(name) {
  try {
    localStorage.setItem(NAME, name.trim());
  } catch {
    /* private mode: typed again next time */
  }
}

/**
 * Play now: name, edition, players and the bots for the seats nobody takes.
 * @param {Options} opts
 */
export function playNowForm(opts) {
  const name = h("input", { id: "play-name", name: "name", autocomplete: "nickname", maxlength: opts.limits.name, required: true, value: rememberedName() });
  const edition = h("select", { id: "play-edition" },
    .../** @type {Edition[]} */ (["2022", "1980"]).map((e) => h("option", { value: e }, t(`edition.${e}`))));
  const players = h("select", { id: "play-players" },
    ...Array.from({ length: opts.players.high - opts.players.low + 1 }, (_, i) => opts.players.low + i).map((n) =>
      h("option", { value: n, selected: n === opts.players.default }, tn("create.players.count", n))));
  const bot = h("select", { id: "play-bot" },
    ...opts.bots.map((b) => h("option", { value: b, selected: b === opts.stand_in }, botLabel(b))));
  const status = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary" }, t("play.submit"));
  const wait = Math.round(opts.quick?.wait ?? 20);
  return h("form", {
    class: "panel play-now",
    "aria-labelledby": "play-title",
    onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      status.textContent = "";
      submit.disabled = true;
      try {
        const seated = await api.quick({
          name: name.value,
          edition: /** @type {Edition} */ (edition.value),
          players: Number(players.value),
          bot: bot.value,
          lang: document.documentElement.lang || undefined,
        });
        rememberName(name.value);
        saveToken(seated.code, seated.token);
        location.assign(`/t/${seated.code}`);
      } catch (err) {
        status.textContent = errorText(err);
        submit.disabled = false;
        if (/** @type {import("./api.js").ApiError} */ (err).params?.field === "name" || /** @type {any} */ (err).code === "bad_name") name.focus();
      }
    },
  },
  h("h2", { id: "play-title" }, t("play.title")),
  h("p", { class: "hint" }, tn("play.lead", wait)),
  h("div", { class: "play-grid" },
    h("div", { class: "field field-wide" }, h("label", { for: "play-name" }, t("create.name")), name),
    h("div", { class: "field field-wide" }, h("label", { for: "play-edition" }, t("create.edition")), edition),
    h("div", { class: "field" }, h("label", { for: "play-players" }, t("create.players")), players),
    h("div", { class: "field" }, h("label", { for: "play-bot" }, t("play.bot")), bot)),
  status,
  submit);
}

/**
 * The public tables waiting for players, live: a line each, with Join and Watch.
 * @returns {{el: HTMLElement, stop: () => void}}
 */
export function publicTables() {
  const list = h("ul", { id: "public-tables", class: "public-tables", "aria-live": "polite" });
  const empty = h("p", { class: "hint", id: "public-none" }, t("public.none"));
  const el = h("section", { class: "panel public-panel", "aria-labelledby": "public-title" },
    h("h2", { id: "public-title" }, t("public.title")), empty, list);
  /** @type {WebSocket | null} */
  let ws = null;
  let stopped = false;
  let tries = 0;

  function open() {
    if (stopped) return;
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`);
    ws.onmessage = (event) => {
      tries = 0;
      try {
        const m = JSON.parse(event.data);
        if (m.type === "lobby") draw(m.tables);
      } catch (err) {
        (globalThis.reportError ?? console.error)(err);
      }
    };
    ws.onclose = () => {
      // The server restarted, or the network went: again, a little later each time.
      if (!stopped) setTimeout(open, Math.min(10_000, 500 * 2 ** tries++));
    };
  }

  /** @param {Listed[]} tables */
  function draw(tables) {
    empty.hidden = tables.length > 0;
    list.replaceChildren(...tables.map(line));
  }

  open();
  return {
    el,
    stop: () => {
      stopped = true;
      ws?.close();
    },
  };
}

/** @param {Listed} x */
function line(x) {
  const facts = [t(`edition.${x.edition}`), tn("create.players.count", x.players), tn("public.free", x.free)];
  if (x.bots) facts.push(tn("public.bots_seated", x.bots));
  if (x.spectators) facts.push(tn("public.watching", x.spectators));
  const lang = availableLanguages().find((l) => l.code === x.lang);
  const join = h("button", { type: "button", class: "primary small", onclick: () => joinNow(x.code, join) }, t("public.join"));
  return h("li", { class: "public-table", dataset: { code: x.code } },
    h("div", { class: "public-facts" },
      h("strong", {}, x.names.length ? t("public.with", { names: listOf(x.names) }) : t("public.empty")),
      h("span", { class: "hint" }, ` ${facts.join(" · ")}`),
      lang ? h("span", { class: "hint public-lang", lang: lang.code }, ` · ${lang.name}`) : null,
      x.quick && x.bot ? h("span", { class: "hint" }, ` · ${t("public.bots", { bot: botLabel(x.bot) })}`) : null),
    h("div", { class: "buttons" },
      join,
      h("a", { class: "button small", href: `/t/${x.code}#watch` }, t("public.watch"))));
}

/**
 * A tap joins a free seat under the name last played under (else the table's page asks one).
 * @param {string} code
 * @param {HTMLButtonElement} button
 */
async function joinNow(code, button) {
  const name = rememberedName();
  if (!name) {
    location.assign(`/t/${code}`);
    return;
  }
  button.disabled = true;
  try {
    const joined = await api.join(code, name);
    saveToken(code, joined.token);
    location.assign(`/t/${code}`);
  } catch {
    location.assign(`/t/${code}`); // taken meanwhile, or the name is: the page says so
  }
}
