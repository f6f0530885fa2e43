// Type that fits its box: a card's name on the pile or beside a seat is set smaller until it
// fits, rather than broken inside a word ("Հակադ / արձ") or run out of its box. Only a word too
// long for the smallest size (no language of ours has one) is broken, as a last resort.

const SMALLEST = 0.6; // of the type's own size: below it nobody reads it

/** @param {HTMLElement} el */
function over(el) {
  return el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
}

/**
 * Set `el`'s type smaller, step by step, until nothing in it runs out of it.
 * An element not laid out (hidden, not in the page) is left as it is.
 * @param {HTMLElement} el
 */
export function fit(el) {
  el.style.fontSize = "";
  el.classList.remove("fit-break");
  el.classList.add("fitted");
  if (!el.isConnected || !el.clientWidth || !over(el)) return;
  const size = parseFloat(getComputedStyle(el).fontSize);
  for (let f = 0.9; f >= SMALLEST - 1e-9; f -= 0.1) {
    el.style.fontSize = `${(size * f).toFixed(2)}px`;
    if (!over(el)) return;
  }
  el.classList.add("fit-break");
}

// A phone turned on its side: everything fitted is fitted again, once the page has settled.
let pending = false;
if (typeof window !== "undefined") {
  window.addEventListener("resize", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      for (const el of document.querySelectorAll(".fitted")) fit(/** @type {HTMLElement} */ (el));
    });
  });
}
