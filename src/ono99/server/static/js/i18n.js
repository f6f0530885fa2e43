// Every string a person reads comes from one catalog, /i18n/<lang>.json, which the server
// makes from the gettext catalogs: keys to texts with {placeholders}. Plurals are separate
// keys ending in .one / .other (and whatever other categories Intl.PluralRules gives a
// language), chosen by tn(). Each reader picks a language; it is remembered in this browser.

/** @typedef {import("./types.js").Languages} Languages */

const CHOSEN = "ono99.lang";
/** @type {Record<string, string>} */
let messages = {};
let lang = "en";
/** @type {Languages["languages"]} */
let languages = [{ code: "en", name: "English" }];

// The reader's language: the one they picked here before, else the server's pick from the
// browser's preferred languages.
/** @returns {Promise<string>} */
export async function chooseLanguage() {
  const response = await fetch("/i18n/languages");
  /** @type {Languages} */
  const doc = await response.json();
  languages = doc.languages;
  const saved = localStorage.getItem(CHOSEN);
  return languages.some((l) => l.code === saved) ? /** @type {string} */ (saved) : doc.default;
}

export function availableLanguages() {
  return languages;
}

/** @param {string} code */
export function rememberLanguage(code) {
  localStorage.setItem(CHOSEN, code);
}

/** @param {string} [code] */
export async function loadCatalog(code = "en") {
  const response = await fetch(`/i18n/${code}.json`);
  messages = await response.json();
  lang = code;
  document.documentElement.lang = code;
}

export function language() {
  return lang;
}

/** @param {string} key */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

/**
 * The catalog's text for `key`, its {placeholders} filled from `params`.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
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
/** @param {any} value  a number, a word: anything a message is filled with */
function paramText(value) {
  return Number.isInteger(value) && value < 0 ? `\u2212${-value}` : String(value);
}

/**
 * The plural form of `key` for `count` ({count} is filled in, in Latin digits).
 * @param {string} key
 * @param {number} count
 * @param {Record<string, unknown>} [params]
 */
export function tn(key, count, params = {}) {
  const rule = formats(`plural:${lang}`, () => new Intl.PluralRules(lang)).select(count);
  const chosen = has(`${key}.${rule}`) ? `${key}.${rule}` : `${key}.other`;
  return t(chosen, { count: formatNumber(count), ...params });
}

/** @type {Map<string, any>} */
const made = new Map();

/**
 * An Intl formatter, made once per kind and language (making one costs more than using it:
 * a slow phone spent a tenth of a busy game's last seconds making number formats).
 * @template T
 * @param {string} key
 * @param {() => T} make
 * @returns {T}
 */
function formats(key, make) {
  let f = made.get(key);
  if (f === undefined) {
    f = make();
    made.set(key, f);
  }
  return f;
}

// Latin digits in every language, as the cards print them (CLDR's default for Marathi is
// Devanagari digits; the terminal game makes the same choice through Babel).
/** @param {number} n */
export function formatNumber(n) {
  // One minus sign, the cards' own (U+2212), as the terminal writes it: "−10", "total −3".
  return formats(`number:${lang}`, () => new Intl.NumberFormat(`${lang}-u-nu-latn`)).format(n).replace(/^[-\u2212]/, "\u2212");
}

/** @param {string[]} items */
export function listOf(items) {
  return formats(`list:${lang}`, () => new Intl.ListFormat(lang, { style: "long", type: "conjunction" })).format(items);
}

/** @param {number} p  0 to 1 */
export function formatPercent(p) {
  return formats(`percent:${lang}`, () => new Intl.NumberFormat(`${lang}-u-nu-latn`, { style: "percent", maximumFractionDigits: 0 })).format(p);
}
