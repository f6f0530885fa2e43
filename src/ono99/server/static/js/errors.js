// Server and network errors in the reader's language: "error.<code>" with its params. A move
// the rules refuse carries the engine's reason (params.reason and its params), worded as the
// terminal game words it (ono99.i18n.refusal_text): "illegal.<reason>" inside "cant.<kind>".
import { cardLabel } from "./cards.js";
import { has, t } from "./i18n.js";

/** @typedef {import("./types.js").ErrorPayload} ErrorPayload */

/**
 * @param {unknown} err  an ApiError, an `error` message, or whatever was thrown
 * @param {string} [edition]  the table's, to word a refusal's cards
 * @returns {string}
 */
export function errorText(err, edition) {
  const error = /** @type {Partial<ErrorPayload> | null | undefined} */ (err);
  const code = error?.code || "unknown";
  const params = { ...(error?.params || {}) };
  if (code === "illegal" && edition && has(`illegal.${params.reason}`)) return refusalText(params, edition);
  if (params.option && has(`option.${params.option}`)) params.option = t(`option.${params.option}`);
  return has(`error.${code}`) ? t(`error.${code}`, params) : t("error.unknown", { code });
}

/** @param {Record<string, any>} params @param {string} edition */
function refusalText(params, edition) {
  const words = { ...params };
  if (typeof words.card === "string") words.card = cardLabel(words.card, edition);
  const reason = t(`illegal.${params.reason}`, words);
  const [kind, card] = String(params.action || "").split(" ");
  if (kind === "play") return t("cant.play", { card: cardLabel(card, edition), reason });
  return t(kind === "draw" ? "cant.draw" : "cant.discard", { reason });
}
