// The home page: create a table (edition, every rule option, seats, timer), or join by code.
import { api, saveToken } from "./api.js";
import { botLabel } from "./cards.js";
import { h, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
import { errorText } from "./errors.js";
import { playNowForm, publicTables, rememberName, rememberedName } from "./play.js";
import { playerPanel } from "./player.js";
import { optionApplies, optionKey } from "./rules.js";

/** @typedef {import("./types.js").CreateRequest} CreateRequest */
/** @typedef {import("./types.js").Edition} Edition */
/** @typedef {import("./types.js").OptionSpec} OptionSpec */
/** @typedef {import("./types.js").Options} Options */
/** @typedef {import("./types.js").Rules} Rules */
/** @typedef {import("./types.js").SeatSetup} SeatSetup */
/** @typedef {import("./types.js").TableConfig} TableConfig */
/** @typedef {import("./types.js").TableFacts} TableFacts */

/** @type {(() => void) | undefined} */
let stopWatching; // the lobby's websocket, closed when the page is drawn again

/** @param {HTMLElement} root */
export async function showHome(root) {
  root.replaceChildren(h("p", { class: "loading" }, t("loading")));
  let opts;
  try {
    opts = await api.options();
  } catch (err) {
    root.replaceChildren(h("p", { class: "error", role: "alert" }, errorText(err)));
    return;
  }
  stopWatching?.();
  const lobby = publicTables();
  stopWatching = lobby.stop;
  root.replaceChildren(
    h("h1", { class: "page-title" }, t("home.title")),
    h("p", { class: "lead" }, t("home.lead")),
    h("div", { class: "home-grid" }, playNowForm(opts), h("div", { class: "home-side" }, lobby.el, playerPanel(opts.limits.name))),
    h("div", { class: "home-grid" }, createForm(opts), h("div", { class: "home-side" }, joinForm(), offlinePanel())),
  );
}

// No network, or nobody else: the game on this device (offline.js), with bots or passed round.
function offlinePanel() {
  return h("section", { class: "panel", id: "offline-panel", "aria-labelledby": "offline-title" },
    h("h2", { id: "offline-title" }, t("device.home.title")),
    h("p", { class: "hint" }, t("device.home.lead")),
    h("p", {}, h("a", { class: "button", href: "/offline" }, t("device.home.go"))));
}

/** @param {string} id @param {string} label @param {HTMLElement} control @param {string} [hint] */
function field(id, label, control, hint) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    control,
    hint ? h("p", { class: "hint", id: `${id}-hint` }, hint) : null,
  );
}

/** @param {Options} opts */
function createForm(opts) {
  const state = { players: opts.players.default };
  const name = h("input", {
    id: "create-name",
    name: "name",
    autocomplete: "nickname",
    maxlength: opts.limits.name,
    required: true,
    value: rememberedName(),
  });
  // A public table is listed on the home page for anyone to join (private: by its link only).
  const open = h("input", { type: "checkbox", id: "create-public", "aria-describedby": "create-public-hint" });
  // A public table's games are always rated; a private one's when the host says so.
  const rated = h("input", { type: "checkbox", id: "create-rated", "aria-describedby": "create-rated-hint" });
  const players = h(
    "select",
    { id: "create-players", onchange: () => { state.players = Number(players.value); drawSeats(); } },
    ...range(opts.players.low, opts.players.high).map((n) =>
      h("option", { value: n, selected: n === state.players }, tn("create.players.count", n)),
    ),
  );
  const seatsBox = h("div", { class: "seat-rows" });
  /** @type {HTMLSelectElement[]} */
  const seatChoices = []; // the select of each seat, kept across redraws
  function drawSeats() {
    const rows = [];
    for (let i = 0; i < state.players; i++) {
      if (!seatChoices[i]) {
        seatChoices[i] = h(
          "select",
          { id: `create-seat-${i}` },
          h("option", { value: "human" }, t("create.seat.human")),
          ...opts.bots.map((b) => h("option", { value: `bot:${b}` }, t("create.seat.bot", { bot: botLabel(b) }))),
        );
        seatChoices[i].value = i === 0 ? "human" : `bot:${opts.bots.includes("greedy") ? "greedy" : opts.bots[0]}`;
      }
      rows.push(
        h("div", { class: "seat-row" }, h("label", { for: `create-seat-${i}` }, t("create.seat", { n: i + 1 })), seatChoices[i]),
      );
    }
    seatsBox.replaceChildren(...rows);
  }
  drawSeats();
  const fields = ruleFields(opts);
  const status = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary" }, t("create.submit"));
  const form = h(
    "form",
    {
      class: "panel",
      "aria-labelledby": "create-title",
      onsubmit: async (e) => {
        e.preventDefault();
        status.textContent = "";
        const config = fields.read(status);
        if (!config) return;
        /** @type {SeatSetup[]} */
        const seats = seatChoices.slice(0, state.players).map((s) =>
          s.value === "human" ? { kind: "human" } : { kind: "bot", bot: s.value.slice(4) },
        );
        /** @type {CreateRequest} */
        const body = { ...config, seats };
        if (name.value.trim()) body.name = name.value;
        if (open.checked) Object.assign(body, { public: true, lang: document.documentElement.lang || undefined });
        else if (rated.checked) body.rated = true;
        submit.disabled = true;
        // A busy server sets new tables up in turn (docs/deploy.md): say so if it takes a while.
        const slow = setTimeout(() => { submit.textContent = t("create.waiting"); }, 1000);
        try {
          const made = await api.create(body);
          if (body.name) rememberName(body.name);
          saveToken(made.code, made.token);
          location.assign(`/t/${made.code}`);
        } catch (err) {
          clearTimeout(slow);
          submit.textContent = t("create.submit");
          status.textContent = errorText(err);
          submit.disabled = false;
          if (/** @type {import("./api.js").ApiError} */ (err).params?.field === "name") name.focus();
        }
      },
    },
    h("h2", { id: "create-title" }, t("create.title")),
    // Two columns on a wide screen, so that the Create button shows without scrolling.
    h("div", { class: "create-grid" },
      h("div", {},
        field("create-name", t("create.name"), name, t("create.name.hint")),
        field("create-players", t("create.players"), players),
        fields.timerField,
        fields.hintsField,
        h("div", { class: "field field-check" },
          open,
          h("label", { for: "create-public" }, t("create.public")),
          h("p", { class: "hint", id: "create-public-hint" }, t("create.public.hint"))),
        h("div", { class: "field field-check" },
          rated,
          h("label", { for: "create-rated" }, t("create.rated")),
          h("p", { class: "hint", id: "create-rated-hint" }, t("create.rated.hint")))),
      h("div", {},
        fields.edition,
        h("fieldset", { class: "field" }, h("legend", {}, t("create.seats")), h("p", { class: "hint" }, t("create.seats.hint")), seatsBox))),
    fields.options,
    status,
    submit,
  );
  return form;
}

// The rule fields of a table: the edition, every option, the turn timer and hints. The create
// form holds them, and so does the host's "Change rules" at the table (``current``: the
// table's, prefilled). ``read(status)`` gives {rules, turn_seconds, hints}, or null after
// saying in ``status`` what is wrong.
/**
 * @param {Options} opts
 * @param {Pick<TableFacts, "rules" | "turn_seconds" | "hints"> | null} [current]
 */
export function ruleFields(opts, current = null) {
  /** @type {{edition: Edition}} */
  const state = { edition: current?.rules?.edition || "2022" };
  const edition = h(
    "fieldset",
    { class: "field choices" },
    h("legend", {}, t("create.edition")),
    .../** @type {Edition[]} */ (["2022", "1980"]).map((e) =>
      h(
        "label",
        { class: "choice" },
        h("input", {
          type: "radio",
          name: "edition",
          value: e,
          checked: e === state.edition,
          onchange: () => {
            state.edition = e;
            fillOptions(opts.editions[e]);
          },
        }),
        " ",
        t(`edition.${e}`),
      ),
    ),
  );
  const turn = current ? current.turn_seconds : opts.turn.default;
  const choices = opts.turn.choices.includes(turn) ? opts.turn.choices : [...opts.turn.choices, turn].sort((a, b) => a - b);
  const timer = h(
    "select",
    { id: "create-timer" },
    ...choices.map((s) =>
      h("option", { value: s, selected: s === turn }, s ? tn("create.timer.seconds", s) : t("create.timer.off")),
    ),
  );
  // The expert's hint (the Hint button at the table): on unless the host switches it off.
  const hints = h("input", { type: "checkbox", id: "create-hints", checked: current ? current.hints !== false : true, "aria-describedby": "create-hints-hint" });
  /** @type {Record<string, {spec: OptionSpec, control: HTMLInputElement | HTMLSelectElement, wrapper: HTMLElement}>} */
  const optionControls = {};
  const optionsBox = h("div", { class: "options-grid" });
  for (const spec of opts.options) {
    const id = `opt-${spec.name}`;
    let control;
    let wrapper;
    if (spec.type === "bool") {
      control = h("input", { type: "checkbox", id, "aria-describedby": `${id}-hint` });
      wrapper = h(
        "div",
        { class: "field field-check" },
        control,
        h("label", { for: id, class: "option-label" }, t(optionKey(spec.name, state.edition))),
        h("p", { class: "hint option-help", id: `${id}-hint` }, t(`${optionKey(spec.name, state.edition)}.help`)),
      );
    } else {
      if (spec.type === "int") {
        control = h("input", { type: "number", id, min: spec.low, max: spec.high, step: 1, inputmode: "numeric", "aria-describedby": `${id}-hint` });
      } else {
        control = h(
          "select",
          { id, "aria-describedby": `${id}-hint` },
          ...spec.choices.map((c) => h("option", { value: c }, t(`option.${spec.name}.${c}`))),
        );
      }
      wrapper = field(id, t(`option.${spec.name}`), control, t(`option.${spec.name}.help`));
    }
    optionsBox.append(wrapper);
    optionControls[spec.name] = { spec, control, wrapper };
    if (spec.name === "match") control.addEventListener("change", () => showApplicable());
  }
  // Options of one match format (tokens, target, ...) show only for that format.
  function showApplicable() {
    const match = optionControls.match?.control.value;
    for (const { spec, wrapper } of Object.values(optionControls)) wrapper.hidden = !optionApplies(spec.name, match);
  }
  /** @param {Partial<Rules>} values */
  function fillOptions(values) {
    for (const { spec, control, wrapper } of Object.values(optionControls)) {
      const value = byName(values)[spec.name] ?? byName(opts.editions[state.edition])[spec.name];
      if (spec.type === "bool") {
        /** @type {HTMLInputElement} */ (control).checked = Boolean(value);
        // The edition's own words (its Play 2 card is the Double Play in 1980).
        /** @type {HTMLElement} */ (wrapper.querySelector(".option-label")).textContent = t(optionKey(spec.name, state.edition));
        /** @type {HTMLElement} */ (wrapper.querySelector(".option-help")).textContent = t(`${optionKey(spec.name, state.edition)}.help`);
      } else control.value = String(value);
    }
    showApplicable();
  }
  fillOptions(current?.rules || opts.editions[state.edition]);
  /** @param {HTMLElement} status @returns {TableConfig | null} */
  function read(status) {
    /** @type {Record<string, unknown>} */
    const rules = { edition: state.edition };
    const defaults = byName(opts.editions[state.edition]);
    for (const { spec, control, wrapper } of Object.values(optionControls)) {
      if (wrapper.hidden) continue; // not for this match format: the default stands
      let value;
      if (spec.type === "bool") value = /** @type {HTMLInputElement} */ (control).checked;
      else if (spec.type === "int") value = Number(control.value);
      else value = control.value;
      if (spec.type === "int" && !Number.isInteger(value)) {
        status.textContent = t("create.bad_number", { option: t(`option.${spec.name}`) });
        control.focus();
        return null;
      }
      if (value !== defaults[spec.name]) rules[spec.name] = value;
    }
    return { rules: /** @type {Partial<Rules>} */ (rules), turn_seconds: Number(timer.value), hints: hints.checked };
  }
  return {
    edition,
    timerField: field("create-timer", t("create.timer"), timer, t("create.timer.hint", { bot: botLabel(opts.stand_in) })),
    hintsField: h("div", { class: "field field-check" },
      hints,
      h("label", { for: "create-hints" }, t("create.hints")),
      h("p", { class: "hint", id: "create-hints-hint" }, t("create.hints.hint"))),
    options: h("details", { class: "options", open: Boolean(current) },
      h("summary", {}, h("span", {}, t("create.options")), h("span", { class: "hint summary-hint" }, t("create.options.hint"))),
      optionsBox),
    read,
  };
}

function joinForm() {
  const code = h("input", { id: "join-code", autocomplete: "off", autocapitalize: "none", spellcheck: "false", required: true });
  const status = h("p", { class: "form-error", role: "alert" });
  return h(
    "form",
    {
      class: "panel",
      "aria-labelledby": "join-title",
      onsubmit: (e) => {
        e.preventDefault();
        let text = code.value.trim();
        const link = text.match(/\/t\/([^/#?]+)/);
        if (link) text = link[1];
        const clean = text.toLowerCase().replace(/[\s-]/g, "");
        if (!/^[2-9a-z]{12}$/.test(clean)) {
          status.textContent = t("join.bad_code");
          code.focus();
          return;
        }
        location.assign(`/t/${clean}`);
      },
    },
    h("h2", { id: "join-title" }, t("join.title")),
    field("join-code", t("join.code"), code, t("join.code.hint")),
    status,
    h("button", { type: "submit" }, t("join.submit")),
  );
}

/**
 * Rules as the form reads them: option by name (`spec.name`).
 * @param {Partial<Rules>} rules
 */
function byName(rules) {
  return /** @type {Record<string, unknown>} */ (rules);
}

/** @param {number} a @param {number} b */
function range(a, b) {
  /** @type {number[]} */
  const out = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}

export { toast };
