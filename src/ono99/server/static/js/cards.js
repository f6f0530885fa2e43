// Cards as a player reads them. Every card shows its name in text; colour is only a second cue.
import { has, t } from "./i18n.js";
import { h } from "./dom.js";

/** @type {Record<string, string>} */
const KEYS = {
  "-10": "card.minus10",
  reverse: "card.reverse",
  play2: "card.play2",
  hold: "card.hold",
  ono99: "card.ono99",
};

/**
 * A card's name in the reader's language.
 * @param {string} name  N1: "7", "-10", "reverse", "play2", "hold", "ono99"
 * @param {string} [edition]
 * @returns {string}
 */
export function cardLabel(name, edition) {
  if (/^\d+$/.test(name)) return t("card.number", { n: name });
  if (name === "play2" && edition === "1980") return t("card.doubleplay");
  return t(KEYS[name] || "card.unknown", { name });
}

/** @param {string} name @returns {string} */
export function cardKind(name) {
  if (/^\d+$/.test(name)) return "number";
  return /** @type {Record<string, string>} */ ({ "-10": "minus", reverse: "reverse", play2: "play2", hold: "hold", ono99: "ono99" })[name] || "number";
}

// A symbol drawn beside the name (hidden from screen readers: the name says it all).
/** @type {Record<string, string>} */
const SYMBOLS = { reverse: "⇄", play2: "×2", hold: "‖", ono99: "✖" };

/** @param {string} name @param {string} [edition] @param {{small?: boolean}} [options] */
export function cardFace(name, edition, { small = false } = {}) {
  const kind = cardKind(name);
  const label = cardLabel(name, edition);
  // A name with a word of more than six letters ("Հակադարձ", "रिव्हर्स") is set smaller where
  // cards are small (style.css): it must fit on one line, not break inside the word.
  const long = Array.from(label.split(/\s+/), (word) => Array.from(word).length).some((n) => n > 6);
  return h(
    "span",
    { class: `card card-${kind}${small ? " card-small" : ""}${long ? " card-long" : ""}` },
    SYMBOLS[kind] ? h("span", { class: "card-symbol", "aria-hidden": "true" }, SYMBOLS[kind]) : null,
    h("span", { class: "card-name" }, label),
  );
}

/** @param {string[]} names @param {string} [edition] */
export function cardsText(names, edition) {
  return names.length ? names.map((n) => cardLabel(n, edition)).join(", ") : t("cards.none");
}

/** @param {string} bot */
export function botLabel(bot) {
  return has(`bot.${bot}`) ? t(`bot.${bot}`) : t("bot.other", { bot });
}
