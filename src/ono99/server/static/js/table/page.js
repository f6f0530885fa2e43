// The address /t/CODE: the table itself when this browser holds a seat there (or every seat is
// taken: then one watches), else the page that asks for a name before sitting down.
import { api, savedToken, saveToken } from "../api.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { listOf, t } from "../i18n.js";
import { openTable } from "./view.js";
import { keyFacts, rulesRows } from "./words.js";

/** @typedef {import("../types.js").TableInfo} TableInfo */

const TOKEN_FRAGMENT = /(?:^#|&)seat=([A-Za-z0-9_-]{16,64})/;

/**
 * @param {HTMLElement} root
 * @param {string} rawCode  the code as typed or linked (any case, with dashes or spaces)
 */
export async function showTable(root, rawCode) {
  const code = rawCode.toLowerCase().replace(/[\s-]/g, "");
  // A personal link (#seat=TOKEN) is remembered, then taken out of the address bar so that
  // copying the address never hands someone else your seat.
  const fromLink = location.hash.match(TOKEN_FRAGMENT);
  if (fromLink) {
    saveToken(code, fromLink[1]);
    history.replaceState(null, "", location.pathname);
  }
  root.replaceChildren(h("p", { class: "loading" }, t("loading")));
  /** @type {TableInfo} */
  let info;
  try {
    info = await api.table(code);
  } catch (err) {
    root.replaceChildren(
      h("h1", { class: "page-title" }, t("table.missing.title")),
      h("p", { role: "alert" }, errorText(err)),
      h("p", {}, h("a", { href: "/" }, t("nav.home"))),
    );
    return;
  }
  const token = savedToken(code);
  // #watch (the lobby's Watch): straight to the table, as a spectator unless seated here.
  const watch = location.hash === "#watch";
  if (watch) history.replaceState(null, "", location.pathname);
  if (token || watch || !info.seats.some((s) => s.open)) { // an open seat can be taken at any time
    openTable(root, code, token);
    return;
  }
  showJoin(root, code, info);
}

/**
 * What you are joining, before you give your name: the rules and who sits where.
 * @param {HTMLElement} root
 * @param {string} code
 * @param {TableInfo} info
 */
function showJoin(root, code, info) {
  const name = h("input", { id: "join-name", autocomplete: "nickname", maxlength: 24, required: true });
  const status = h("p", { class: "form-error", role: "alert" });
  const taken = info.seats.filter((s) => !s.open).map((s) => (s.kind === "bot" ? t("lobby.join.bot", { name: s.name }) : s.name ?? ""));
  root.replaceChildren(
    h("h1", { class: "page-title" }, t("lobby.join.title")),
    h("p", {}, t("lobby.join.lead", { players: taken.length ? listOf(taken) : t("nobody") })),
    h("section", { class: "panel narrow join-facts", "aria-label": t("lobby.rules") },
      h("ol", { class: "join-seats" }, ...info.seats.map((s) =>
        h("li", {}, t("seat.numbered", { n: s.seat + 1 }), ": ",
          s.open ? t("seat.open") : s.kind === "bot" ? t("lobby.join.bot", { name: s.name }) : s.name))),
      h("dl", { class: "rules-list" }, ...keyFacts(info)),
      h("details", {}, h("summary", {}, t("lobby.rules")), h("dl", { class: "rules-list" }, ...rulesRows(info)))),
    h(
      "form",
      {
        class: "panel narrow",
        onsubmit: async (/** @type {Event} */ e) => {
          e.preventDefault();
          try {
            const joined = await api.join(code, name.value);
            saveToken(code, joined.token);
            openTable(root, code, joined.token);
          } catch (err) {
            status.textContent = errorText(err);
            name.focus();
          }
        },
      },
      h("div", { class: "field" }, h("label", { for: "join-name" }, t("lobby.join.name")), name),
      status,
      h("div", { class: "buttons" },
        h("button", { type: "submit", class: "primary" }, t("lobby.join.submit")),
        h("button", { type: "button", onclick: () => openTable(root, code, null) }, t("lobby.join.watch")),
      ),
    ),
  );
  name.focus();
}
