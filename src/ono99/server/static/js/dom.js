// A tiny element builder, and the two screen-reader live regions.

/**
 * @typedef {string | number | boolean | null | undefined | ((event: Event) => void) | Record<string, string>} Attr
 * an attribute's value: false, null and undefined leave it out, true sets it empty; `on…` takes
 * a listener, `dataset` the data-* values; `class`, `text` and `value` set those properties
 */
/** @typedef {Node | string | number | boolean | null | undefined} Leaf  false, null and undefined add nothing */
/** @typedef {Leaf | (Leaf | Leaf[])[]} Child  a child, or arrays of them (flattened) */

/**
 * An element, e.g. h("button", { type: "button", onclick }, t("lobby.start")).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, Attr> | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = /** @type {string} */ (value);
    else if (key === "text") el.textContent = /** @type {string} */ (value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "value") /** @type {HTMLInputElement} */ (el).value = /** @type {string} */ (value);
    else el.setAttribute(key, /** @type {string} */ (value === true ? "" : value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** @type {Record<string, ReturnType<typeof setTimeout>>} */
const sayTimers = {};
/** @type {Record<string, string>} */
const saying = {};

// Tell screen readers something; assertive interrupts (used for "your turn"). The region is
// emptied first so that the same words twice are read twice; what comes within that moment
// is read together.
/** @param {string} text */
export function say(text, assertive = false) {
  const id = assertive ? "say-assertive" : "say-polite";
  const region = document.getElementById(id);
  if (!region) return;
  region.textContent = "";
  saying[id] = saying[id] ? `${saying[id]} ${text}` : text;
  clearTimeout(sayTimers[id]);
  sayTimers[id] = setTimeout(() => {
    region.textContent = saying[id];
    saying[id] = "";
  }, 50);
}

/** @param {string} text @param {string} [tone]  info, or the toast-* class of another */
export function toast(text, tone = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast toast-${tone}` }, text);
  box.append(item);
  setTimeout(() => item.remove(), 6000);
}

/** @param {string} text @returns {Promise<boolean>} */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * An SVG element, as h() makes HTML ones.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...Node} children
 */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}
