// The keyboard at the table: 1–9 play (or ask why not), D draws, X discards four ONO 99s,
// T says the total and the turn, H the hand, Escape closes the log's drawer.
import { cardLabel, cardsText } from "../cards.js";
import { say } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { turnText } from "./words.js";

/** @typedef {import("./actions.js").Context} Context */

/**
 * The key by its place on the keyboard, so that D, X, T, H and 1–9 work the same with a
 * Greek, Armenian or Devanagari layout as with a Latin one.
 * @param {{code?: string, key?: string}} e
 */
export function physicalKey(e) {
  const code = e.code || "";
  if (/^Key[A-Z]$/.test(code)) return code.slice(3).toLowerCase();
  if (/^(Digit|Numpad)[0-9]$/.test(code)) return code.slice(-1);
  return (e.key || "").toLowerCase();
}

/**
 * @param {Context} ctx
 * @param {{why: (action: string, label: string) => void}} hand
 * @param {{isOpen: () => boolean, open: (open: boolean) => void}} drawer
 * @returns {(e: KeyboardEvent) => void}
 */
export function tableKeys(ctx, hand, drawer) {
  return (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape" && drawer.isOpen()) {
      drawer.open(false);
      return;
    }
    const target = /** @type {HTMLElement | null} */ (e.target);
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    const s = ctx.store.state;
    const v = s.game?.view;
    if (!v || v.hand === null || !s.table || !document.getElementById("felt")) return;
    const edition = s.table.rules.edition;
    const key = physicalKey(e);
    if (key === "d" && v.legal.includes("draw")) ctx.act("draw");
    else if (key === "x" && v.legal.includes("discard ono99")) ctx.act("discard ono99");
    else if (/^[1-9]$/.test(key)) {
      const card = v.hand[Number(key) - 1];
      if (card === undefined) return;
      if (v.legal.includes(`play ${card}`)) ctx.act(`play ${card}`);
      else hand.why(`play ${card}`, cardLabel(card, edition));
    } else if (key === "t") say(`${t("say.total", { total: formatNumber(v.total) })} ${v.over ? t("turn.over") : turnText(s, v)}`);
    else if (key === "h") say(t("say.hand", { cards: cardsText(v.hand, edition) }));
    else return;
    e.preventDefault();
  };
}
