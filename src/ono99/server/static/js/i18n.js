// Every string a person reads comes from one catalog (i18n/<lang>.json): keys to texts with
// {placeholders}. Plurals are separate keys ending in .one / .other (and whatever other
// categories Intl.PluralRules gives a language), chosen by tn().

let messages = {};
let lang = "en";

export async function loadCatalog(code = "en") {
  const response = await fetch(`/static/i18n/${code}.json`);
  messages = await response.json();
  lang = code;
  document.documentElement.lang = code;
}

export function language() {
  return lang;
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

export function t(key, params = {}) {
  let text = messages[key];
  if (text === undefined) {
    console.warn(`i18n: no message for ${key}`);
    text = key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function tn(key, count, params = {}) {
  const rule = new Intl.PluralRules(lang).select(count);
  const chosen = has(`${key}.${rule}`) ? `${key}.${rule}` : `${key}.other`;
  return t(chosen, { count: formatNumber(count), ...params });
}

export function formatNumber(n) {
  return new Intl.NumberFormat(lang).format(n);
}

export function listOf(items) {
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items);
}
