// Players who come back, with no password (docs/protocol.md, "Players"): on the home page,
// keep a name on this server (the browser gets the key that holds it) or see whom you play
// as; and the page another device opens to get a key of the same profile (/link#CODE).
import { api, playerKey, savePlayerKey } from "./api.js";
import { h } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { rememberName, rememberedName } from "./play.js";

/** @typedef {import("./types.js").Me} Me */

/**
 * The home page's player panel: whom this browser plays as, or a name to keep.
 * @param {number} most  the longest name
 */
export function playerPanel(most) {
  const panel = h("section", { class: "panel player", "aria-labelledby": "player-title" });
  const draw = (/** @type {Me | null} */ me) => {
    panel.replaceChildren(
      h("h2", { id: "player-title" }, t("player.title")),
      ...(me ? known(me) : registerForm(most, draw)),
    );
  };
  draw(null);
  if (playerKey()) {
    api.me().then(draw, () => draw(null)); // an unknown key is forgotten by api.js
  }
  return panel;
}

/** @param {Me} me */
function known(me) {
  return [
    h("p", { class: "player-as" }, t("player.as", { name: me.name })),
    h(
      "p",
      { class: "player-links" },
      h("a", { href: me.profile, id: "my-profile" }, t("player.profile")),
      " · ",
      h("a", { href: "/leaders" }, t("player.leaders")),
    ),
  ];
}

/** @param {number} most @param {(me: Me) => void} done */
function registerForm(most, done) {
  const name = h("input", { id: "player-name", name: "name", autocomplete: "nickname", maxlength: most, required: true, value: rememberedName() });
  const status = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit" }, t("player.register"));
  return [
    h("p", { class: "hint", id: "player-hint" }, t("player.register_hint")),
    h(
      "form",
      {
        class: "player-form",
        onsubmit: async (/** @type {Event} */ e) => {
          e.preventDefault();
          status.textContent = "";
          submit.disabled = true;
          try {
            const me = await api.register(name.value);
            savePlayerKey(me.key);
            rememberName(me.name);
            for (const id of ["play-name", "create-name"]) {
              const other = /** @type {HTMLInputElement | null} */ (document.getElementById(id));
              if (other) other.value = me.name;
            }
            done(me);
          } catch (err) {
            status.textContent = errorText(err);
          } finally {
            submit.disabled = false;
          }
        },
      },
      h("div", { class: "field" }, h("label", { for: "player-name" }, t("player.name")), name),
      submit,
      status,
    ),
    h("p", { class: "player-links" }, h("a", { href: "/leaders" }, t("player.leaders"))),
  ];
}

/**
 * /link#CODE: this device takes a key of the profile whose holder made the link.
 * @param {HTMLElement} root
 */
export async function showLink(root) {
  const code = decodeURIComponent(location.hash.slice(1));
  history.replaceState(null, "", "/link"); // the code is used once: not left in the address
  root.replaceChildren(h("p", { class: "loading" }, t("loading")));
  try {
    const me = await api.claim(code);
    savePlayerKey(me.key);
    rememberName(me.name);
    root.replaceChildren(
      h("h1", { class: "page-title" }, t("link.title")),
      h("p", { class: "lead", role: "status" }, t("link.done", { name: me.name })),
      h("p", {}, h("a", { href: "/", class: "button primary" }, t("link.home"))),
    );
  } catch (err) {
    root.replaceChildren(
      h("h1", { class: "page-title" }, t("link.title")),
      h("p", { class: "error", role: "alert" }, errorText(err)),
      h("p", {}, h("a", { href: "/" }, t("link.home"))),
    );
  }
}
