// A tiny element builder, and the two screen-reader live regions.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "value") el.value = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

const sayTimers = {};
const saying = {};

// Tell screen readers something; assertive interrupts (used for "your turn"). The region is
// emptied first so that the same words twice are read twice; what comes within that moment
// is read together.
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

export function toast(text, tone = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast toast-${tone}` }, text);
  box.append(item);
  setTimeout(() => item.remove(), 6000);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
