// A player's page (/p/NAME): games and wins per edition and number of players, ratings, the
// recent games with their replays; to its holder, moving to another device and "forget me".
// And the leaderboard (/leaders): people and bots on one rating scale, per edition.
import { api, playerKey, savePlayerKey } from "./api.js";
import { botLabel } from "./cards.js";
import { h } from "./dom.js";
import { errorText } from "./errors.js";
import { formatNumber, language, t } from "./i18n.js";

/** @typedef {import("./types.js").Edition} Edition */
/** @typedef {import("./types.js").Profile} Profile */

/** @param {number} seconds */
function day(seconds) {
  return new Intl.DateTimeFormat(language(), { year: "numeric", month: "long", day: "numeric" }).format(new Date(seconds * 1000));
}

/** @param {string[]} heads @param {(string | Node)[][]} rows @param {string} label */
function table(heads, rows, label) {
  // In a box of its own that scrolls sideways, should a language's headings be wider than a phone.
  return h("div", { class: "facts-box" }, h(
    "table",
    { class: "facts", "aria-label": label },
    h("thead", {}, h("tr", {}, ...heads.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((x) => h("td", {}, x))))),
  ));
}

/** @param {HTMLElement} root @param {string} name */
export async function showProfile(root, name) {
  root.replaceChildren(h("p", { class: "loading" }, t("loading")));
  /** @type {Profile} */
  let p;
  try {
    p = await api.profile(name);
  } catch (err) {
    root.replaceChildren(h("p", { class: "error", role: "alert" }, errorText(err)));
    return;
  }
  document.title = `${p.name} · ${t("app.name")}`;
  const edition = (/** @type {Edition} */ e) => t(`edition.${e}`);
  root.replaceChildren(
    h("h1", { class: "page-title" }, p.name),
    h("p", { class: "lead" }, t("profile.since", { date: day(p.since) })),
    h("section", { class: "panel" },
      h("h2", {}, t("profile.ratings")),
      p.ratings.length
        ? table([t("profile.edition"), t("profile.rating"), t("profile.rated_games")],
            p.ratings.map((r) => [r.edition, formatNumber(Math.round(r.rating * 10) / 10), formatNumber(r.games)]),
            t("profile.ratings"))
        : h("p", { class: "hint" }, t("profile.no_rating")),
    ),
    h("section", { class: "panel" },
      h("h2", {}, t("profile.tally")),
      p.tally.length
        ? table([t("profile.edition"), t("profile.players"), t("profile.games"), t("profile.wins")],
            p.tally.map((x) => [x.edition, formatNumber(x.players), formatNumber(x.games), formatNumber(x.wins)]),
            t("profile.tally"))
        : h("p", { class: "hint" }, t("profile.none")),
    ),
    h("section", { class: "panel" },
      h("h2", {}, t("profile.recent")),
      p.recent.length
        ? h("ul", { class: "recent" }, ...p.recent.map((g) =>
            h("li", {},
              h("span", { class: g.won ? "won" : "" }, g.won ? t("profile.won") : t("profile.place", { place: g.place, players: g.players })),
              ` · ${edition(g.edition)} · ${day(g.finished)}`,
              g.rated && g.rating !== null ? ` · ${t("profile.rating")} ${formatNumber(Math.round(g.rating * 10) / 10)}` : "",
              " · ",
              h("a", { href: `/t/${g.code}/replay/${g.game}?seat=${g.seat}` }, t("profile.replay")))))
        : h("p", { class: "hint" }, t("profile.none")),
    ),
    await mine(p.name),
  );
}

// The holder's own page: another device, and forgetting. Asked of the server (the page's
// name alone does not say whose browser this is).
/** @param {string} name */
async function mine(name) {
  if (!playerKey()) return "";
  const me = await api.me().catch(() => null);
  if (!me || me.name !== name) return "";
  const linkBox = h("div", { class: "link-box", role: "status" });
  const status = h("p", { class: "form-error", role: "alert" });
  return h("section", { class: "panel", "aria-labelledby": "mine-title" },
    h("h2", { id: "mine-title" }, t("profile.yours")),
    h("button", {
      type: "button",
      id: "link-device",
      onclick: async () => {
        try {
          const made = await api.link();
          const url = `${location.origin}${made.link}`;
          linkBox.replaceChildren(
            h("p", {}, t("profile.link_made", { minutes: Math.round(made.seconds / 60) })),
            h("input", { readonly: true, value: url, class: "link-url", "aria-label": t("profile.link") }),
          );
        } catch (err) {
          status.textContent = errorText(err);
        }
      },
    }, t("profile.link")),
    linkBox,
    h("button", {
      type: "button",
      id: "forget-me",
      class: "danger",
      onclick: async () => {
        if (!confirm(t("profile.forget_confirm"))) return;
        try {
          await api.forget();
          savePlayerKey(null);
          location.assign("/");
        } catch (err) {
          status.textContent = errorText(err);
        }
      },
    }, t("profile.forget")),
    status,
  );
}

/** @param {HTMLElement} root */
export async function showLeaders(root) {
  const choice = /** @type {Edition} */ (new URLSearchParams(location.search).get("edition") === "1980" ? "1980" : "2022");
  const pick = h("select", { id: "leaders-edition", onchange: () => location.assign(`/leaders?edition=${pick.value}`) },
    .../** @type {Edition[]} */ (["2022", "1980"]).map((e) => h("option", { value: e, selected: e === choice }, t(`edition.${e}`))));
  root.replaceChildren(h("p", { class: "loading" }, t("loading")));
  let board;
  try {
    board = await api.leaders(choice);
  } catch (err) {
    root.replaceChildren(h("p", { class: "error", role: "alert" }, errorText(err)));
    return;
  }
  document.title = `${t("leaders.title")} · ${t("app.name")}`;
  root.replaceChildren(
    h("h1", { class: "page-title" }, t("leaders.title")),
    h("div", { class: "field" }, h("label", { for: "leaders-edition" }, t("profile.edition")), pick),
    board.leaders.length
      ? table([t("leaders.rank"), t("leaders.name"), t("profile.rating"), t("profile.rated_games")],
          board.leaders.map((row, i) => [
            formatNumber(i + 1),
            row.name !== null ? h("a", { href: `/p/${encodeURIComponent(row.name)}` }, row.name) : t("leaders.bot", { bot: botLabel(row.bot || "") }),
            formatNumber(Math.round(row.rating * 10) / 10),
            formatNumber(row.games),
          ]),
          t("leaders.title"))
      : h("p", { class: "hint" }, t("leaders.empty")),
  );
}
