// Server and network errors in the reader's language: "error.<code>" with its params.
import { has, t } from "./i18n.js";

export function errorText(err) {
  const code = err?.code || "unknown";
  const params = { ...(err?.params || {}) };
  if (params.option && has(`option.${params.option}`)) params.option = t(`option.${params.option}`);
  return has(`error.${code}`) ? t(`error.${code}`, params) : t("error.unknown", { code });
}
