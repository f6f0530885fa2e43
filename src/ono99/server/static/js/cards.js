// Cards as a player reads them. Every card shows its name in text; colour is only a second cue.
import { has, t } from "./i18n.js";
import { h } from "./dom.js";

const KEYS = {
  "-10": "card.minus10",
  reverse: "card.reverse",
  play2: "card.play2",
  hold: "card.hold",
  ono99: "card.ono99",
};

export function cardLabel(name, edition) {
  if (/^\d+$/.test(name)) return t("card.number", { n: name });
  if (name === "play2" && edition === "1980") return t("card.doubleplay");
  return t(KEYS[name] || "card.unknown", { name });
}

export function cardKind(name) {
  if (/^\d+$/.test(name)) return "number";
  return { "-10": "minus", reverse: "reverse", play2: "play2", hold: "hold", ono99: "ono99" }[name] || "number";
}

// A symbol drawn beside the name (hidden from screen readers: the name says it all).
const SYMBOLS = { reverse: "⇄", play2: "×2", hold: "‖", ono99: "✖" };

export function cardFace(name, edition, { small = false } = {}) {
  const kind = cardKind(name);
  return h(
    "span",
    { class: `card card-${kind}${small ? " card-small" : ""}` },
    SYMBOLS[kind] ? h("span", { class: "card-symbol", "aria-hidden": "true" }, SYMBOLS[kind]) : null,
    h("span", { class: "card-name" }, cardLabel(name, edition)),
  );
}

export function cardsText(names, edition) {
  return names.length ? names.map((n) => cardLabel(n, edition)).join(", ") : t("cards.none");
}

export function botLabel(bot) {
  return has(`bot.${bot}`) ? t(`bot.${bot}`) : t("bot.other", { bot });
}
