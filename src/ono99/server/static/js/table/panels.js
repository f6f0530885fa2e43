// The panels around the table: the game's header (title, tally, the tools), the play-by-play
// in its drawer, the host's seats, and the invitation to share.
import { copyText, h, svg, toast } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { isMuted, setMuted } from "../sound.js";
import { seatLine, tallyText } from "./words.js";

/** @typedef {import("./store.js").TableState} TableState */
/** @typedef {import("./actions.js").Context} Context */
/** @typedef {import("./story.js").Story} Story */

export const WIDE = window.matchMedia("(min-width: 900px)"); // the game's two columns (style.css)

/** @param {TableState} s */
export function connectionBadge(s) {
  const status = s.connection || "connecting";
  return h("span", { id: "conn", class: `conn conn-${status}`, role: "status" }, t(`conn.${status}`));
}

/** @param {TableState} s */
export function updateConnection(s) {
  const el = document.getElementById("conn");
  const status = s.connection || "connecting";
  if (el && el.textContent !== t(`conn.${status}`)) {
    el.textContent = t(`conn.${status}`);
    el.className = `conn conn-${status}`;
  }
}

function speakerIcon() {
  return svg("svg", { viewBox: "0 0 24 24", width: 22, height: 22, focusable: "false", "aria-hidden": "true" },
    svg("path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }),
    svg("path", { class: "sound-on", d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }),
    svg("path", { class: "sound-off", d: "M16 9l6 6M22 9l-6 6", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }));
}

/**
 * The game's header: its number and the tally, and the tools (log, sound, reactions, leave).
 * @param {Context} ctx
 * @param {Node | null} react  the reactions' button (reactions.js)
 * @param {() => void} openLog
 */
export function gameHeader(ctx, react, openLog) {
  const s = ctx.store.state;
  const tally = h("p", { id: "tally", class: "tally", hidden: true });
  const mute = h("button", { type: "button", id: "mute", class: "small icon", "aria-label": t("sound.mute"), title: t("sound.mute"), "aria-pressed": String(isMuted()), onclick: () => {
    setMuted(!isMuted());
    mute.setAttribute("aria-pressed", String(isMuted()));
  } }, speakerIcon());
  // A person may give up their seat and watch; the seat opens for anyone with the link.
  const leave = s.me.seat === null || ctx.device ? null : h("button", { type: "button", id: "leave", class: "small", onclick: () => {
    if (!confirm(t("seat.leave.confirm"))) return;
    ctx.leaving = true;
    ctx.send({ type: "leave" });
  } }, t("seat.leave"));
  const el = h("div", { class: "table-head game-head" },
    h("div", { class: "head-title" },
      // The connection's state beside the game's name: on a phone, a dot while all is well.
      h("div", { class: "head-line" },
        h("h1", { class: "page-title" }, t("game.title", { game: formatNumber(s.game?.game ?? 0) })),
        connectionBadge(s)),
      tally),
    h("div", { class: "head-tools" },
      h("button", { type: "button", id: "log-open", class: "small log-open", "aria-controls": "drawer", "aria-expanded": "false", onclick: openLog }, t("game.log")),
      mute, react, leave));
  /** @param {TableState} s */
  function update(s) {
    const text = tallyText(s);
    tally.hidden = !text;
    tally.textContent = text ? t("tally.title", { tally: text }) : "";
  }
  return { el, update };
}

/**
 * The play-by-play: beside the table on a wide screen, in a drawer on a phone.
 * @param {Story} story
 */
export function logDrawer(story) {
  const list = h("ol", { id: "log", class: "log-list", role: "log", "aria-live": "off", tabindex: "0", "aria-labelledby": "log-title" });
  const openButton = () => document.getElementById("log-open");
  const el = h("aside", { id: "drawer", class: "col-side drawer", "aria-labelledby": "log-title" },
    h("section", { class: "log panel" },
      h("div", { class: "log-head" },
        h("h2", { id: "log-title" }, t("game.log")),
        h("button", { type: "button", class: "small drawer-close", onclick: () => open(false) }, t("drawer.close"))),
      list));
  let shown = 0;

  /** @param {boolean} opened */
  function open(opened) {
    const button = openButton();
    el.classList.toggle("drawer-open", opened);
    button?.setAttribute("aria-expanded", String(opened));
    // Closed on a phone, it is out of sight and out of the tab order; on a wide screen it is
    // always the side panel (style.css), so it is never inert there.
    el.inert = !opened && !WIDE.matches;
    if (opened) {
      list.focus();
      list.scrollTop = list.scrollHeight;
    } else if (document.activeElement && el.contains(document.activeElement)) button?.focus();
  }

  /** @param {TableState} s */
  function update(s) {
    const lines = story.of(s);
    if (shown > lines.length || list.children.length !== shown) {
      list.replaceChildren();
      shown = 0;
    }
    if (shown === lines.length) return; // nothing new: no reading of the layout either
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    for (; shown < lines.length; shown++) list.append(h("li", { class: `tone-${lines[shown].tone}` }, lines[shown].text));
    if (atBottom || shown < 40) list.scrollTop = list.scrollHeight;
  }

  return { el, update, open, isOpen: () => el.classList.contains("drawer-open") };
}

/**
 * The host's seats, during and between games: open a person's seat (a stand-in plays it until
 * someone joins with the table's link), or give it a new personal link (a leaked one stops
 * working at once).
 * @param {Context} ctx
 */
export function hostSeats(ctx) {
  const el = h("div", { id: "host-seats" });
  /** @param {TableState} s */
  function update(s) {
    const table = s.table;
    const people = s.me.host && table && !ctx.device ? table.seats.filter((x) => x.kind === "human" && !x.open && x.seat !== s.me.seat) : [];
    if (!people.length) return el.replaceChildren();
    const open = el.querySelector("details")?.open ?? false;
    el.replaceChildren(h("details", { class: "panel host-seats", open },
      h("summary", {}, h("h2", {}, t("host.seats"))),
      h("ul", { class: "lobby-seats" }, ...people.map((x) => {
        const link = s.newLinks.get(x.seat);
        const url = link ? `${location.origin}/t/${ctx.code}#seat=${link}` : null;
        return h("li", { class: "lobby-seat" },
          h("span", { class: "seat-name" }, seatLine(s, x)),
          h("button", { type: "button", class: "small", onclick: () => ctx.send({ type: "seat", seat: x.seat, kind: "open" }) }, t("host.open_seat")),
          h("button", { type: "button", class: "small", onclick: () => ctx.send({ type: "relink", seat: x.seat, id: "relink" }) }, t("host.new_link")),
          url
            ? h("p", { class: "hint new-link" }, t("host.new_link_hint", { name: x.name }), " ",
                h("button", { type: "button", class: "small", onclick: async () => toast((await copyText(url)) ? t("copy.done") : t("copy.failed")) }, t("invite.copy_personal")))
            : null);
      }))));
  }
  return { el, update };
}

/**
 * The code and links to share. In the lobby it is a panel of its own; once the game is on, the
 * table matters more: it folds away on a phone (open on a wide screen, where it fits).
 * @param {Context} ctx
 * @param {{folded?: boolean}} [how]
 */
export function inviteBox(ctx, { folded = false } = {}) {
  const invite = `${location.origin}/t/${ctx.code}`;
  const pretty = ctx.code.replace(/(.{4})(?=.)/g, "$1-");
  const token = ctx.token();
  const personal = token ? `${invite}#seat=${token}` : null;
  /** @param {string} text @param {string} label */
  const copyButton = (text, label) =>
    h("button", { type: "button", class: "small", onclick: async () => toast((await copyText(text)) ? t("copy.done") : t("copy.failed")) }, label);
  const title = h("h2", { id: "invite-title" }, t("invite.title"));
  const body = [
    h("p", {}, t("invite.code"), " ", h("strong", { class: "code" }, pretty), " ", copyButton(pretty, t("invite.copy_code"))),
    h("p", {}, t("invite.link"), " ", h("a", { href: invite, class: "link" }, invite), " ", copyButton(invite, t("invite.copy_link")),
      // A phone shares the invite through its own share sheet (messages, mail, ...).
      "share" in navigator ? h("button", { type: "button", class: "small", id: "share", onclick: () => navigator.share({ title: "ONO 99", text: t("invite.share_text"), url: invite }).catch(() => {}) }, t("invite.share")) : null),
    personal ? h("p", { class: "hint" }, t("invite.personal"), " ", copyButton(personal, t("invite.copy_personal"))) : null,
  ];
  if (!folded) return h("section", { class: "panel invite", "aria-labelledby": "invite-title" }, title, ...body);
  return h("details", { class: "panel invite", open: WIDE.matches },
    h("summary", {}, title, h("span", { class: "hint summary-hint code" }, pretty)),
    ...body);
}
