// Every string a person reads comes from one catalog, /i18n/<lang>.json, which the server
// makes from the gettext catalogs: keys to texts with {placeholders}. Plurals are separate
// keys ending in .one / .other (and whatever other categories Intl.PluralRules gives a
// language), chosen by tn(). Each reader picks a language; it is remembered in this browser.

const CHOSEN = "ono99.lang";
let messages = {};
let lang = "en";
let languages = [{ code: "en", name: "English" }];

// The reader's language: the one they picked here before, else the server's pick from the
// browser's preferred languages.
export async function chooseLanguage() {
  const response = await fetch("/i18n/languages");
  const doc = await response.json();
  languages = doc.languages;
  const saved = localStorage.getItem(CHOSEN);
  return languages.some((l) => l.code === saved) ? saved : doc.default;
}

export function availableLanguages() {
  return languages;
}

export function rememberLanguage(code) {
  localStorage.setItem(CHOSEN, code);
}

export async function loadCatalog(code = "en") {
  const response = await fetch(`/i18n/${code}.json`);
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
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? paramText(params[name]) : whole));
}

// A negative whole number with the card's minus sign (U+2212), "total −3", as the terminal's
// catalog.fill writes every integer; anything else as it is.
function paramText(value) {
  return Number.isInteger(value) && value < 0 ? `\u2212${-value}` : String(value);
}

export function tn(key, count, params = {}) {
  const rule = new Intl.PluralRules(lang).select(count);
  const chosen = has(`${key}.${rule}`) ? `${key}.${rule}` : `${key}.other`;
  return t(chosen, { count: formatNumber(count), ...params });
}

// Latin digits in every language, as the cards print them (CLDR's default for Marathi is
// Devanagari digits; the terminal game makes the same choice through Babel).
export function formatNumber(n) {
  // One minus sign, the cards' own (U+2212), as the terminal writes it: "−10", "total −3".
  return new Intl.NumberFormat(`${lang}-u-nu-latn`).format(n).replace(/^[-\u2212]/, "\u2212");
}

export function listOf(items) {
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items);
}

export function formatPercent(p) {
  return new Intl.NumberFormat(`${lang}-u-nu-latn`, { style: "percent", maximumFractionDigits: 0 }).format(p);
}
