// The one page: it reads the address and shows home, a table, or a replay.
import { availableLanguages, chooseLanguage, language, loadCatalog, rememberLanguage, t } from "./i18n.js";
import { h } from "./dom.js";
import { showHome } from "./home.js";
import { showLink } from "./player.js";
import { showLeaders, showProfile } from "./profile.js";
import { showReplay } from "./replay.js";
import { showTable } from "./table/page.js";

async function main() {
  await loadCatalog(await chooseLanguage());
  document.title = t("app.title");
  // index.html holds these, and #app below.
  /** @type {HTMLElement} */ (document.getElementById("skip")).textContent = t("nav.skip");
  /** @type {HTMLElement} */ (document.getElementById("bar")).replaceChildren(
    h("a", { href: "/", class: "brand" }, t("app.name")),
    h(
      "nav",
      { "aria-label": t("nav.label") },
      h("a", { href: "/" }, t("nav.new_table")),
      h("a", { href: `/rules/${language()}`, target: "_blank", rel: "noopener" }, t("nav.rules")),
    ),
    languagePicker(),
  );
  const root = /** @type {HTMLElement} */ (document.getElementById("app"));
  const path = location.pathname;
  // The exported app (`ono99 app export`): no server, so every page is the game on this device.
  // Its modules load only there: the online pages stay as light as they were.
  const standalone = !!document.documentElement.dataset.standalone;
  if (standalone || path === "/offline") return (await import("./offline.js")).showOffline(root, standalone);
  let m = path.match(/^\/t\/([^/]+)\/replay\/(\d+)\/?$/);
  if (m) return showReplay(root, m[1], Number(m[2]));
  m = path.match(/^\/t\/([^/]+)\/?$/);
  if (m) return showTable(root, m[1]);
  m = path.match(/^\/p\/([^/]+)\/?$/);
  if (m) return showProfile(root, decodeURIComponent(m[1]));
  if (path === "/leaders") return showLeaders(root);
  if (path === "/link") return showLink(root);
  return showHome(root);
}

// The picker names each language in itself; a change reloads the page in the new language
// (a seat at a table is kept: its token is in this browser).
function languagePicker() {
  const select = h(
    "select",
    {
      id: "language",
      "aria-label": t("nav.language"),
      onchange: (/** @type {Event} */ event) => {
        rememberLanguage(/** @type {HTMLSelectElement} */ (event.target).value);
        location.reload();
      },
    },
    availableLanguages().map(({ code, name }) =>
      h("option", { value: code, lang: code, selected: code === language() }, name),
    ),
  );
  return h("label", { class: "language" }, h("span", { class: "sr-only" }, t("nav.language")), select);
}

main();

// The installed app's service worker (server/installable.py), once the page has loaded, so
// that keeping the shell never competes with showing it. Without it the page works the same.
if ("serviceWorker" in navigator) {
  addEventListener("load", () => {
    navigator.serviceWorker
      .register("/sw.js")
      .catch((error) => console.warn("no service worker:", error));
  });
}
