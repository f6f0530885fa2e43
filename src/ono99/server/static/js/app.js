// The one page: it reads the address and shows home, a table, or a replay.
import { loadCatalog, t } from "./i18n.js";
import { h } from "./dom.js";
import { showHome } from "./home.js";
import { showReplay } from "./replay.js";
import { showTable } from "./table.js";

async function main() {
  await loadCatalog("en");
  document.title = t("app.title");
  document.getElementById("skip").textContent = t("nav.skip");
  document.getElementById("bar").replaceChildren(
    h("a", { href: "/", class: "brand" }, t("app.name")),
    h("nav", { "aria-label": t("nav.label") }, h("a", { href: "/" }, t("nav.new_table"))),
  );
  const root = document.getElementById("app");
  const path = location.pathname;
  let m = path.match(/^\/t\/([^/]+)\/replay\/(\d+)\/?$/);
  if (m) return showReplay(root, m[1], Number(m[2]));
  m = path.match(/^\/t\/([^/]+)\/?$/);
  if (m) return showTable(root, m[1]);
  return showHome(root);
}

main();
