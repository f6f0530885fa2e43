// Type that fits its box: a card's name on the pile or beside a seat is set smaller until it
// fits, rather than broken inside a word ("Հակադ / արձ") or run out of its box. Only a word too
// long for the smallest size (no language of ours has one) is broken, as a last resort.

const SMALLEST = 0.6; // of the type's own size: below it nobody reads it

/** @param {HTMLElement} el */
function over(el) {
  return el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
}

/**
 * Set the type of each of `els` smaller, step by step, until nothing in it runs out of it.
 * All of them are measured together: every step writes the sizes of those still over, then reads
 * them all, so the browser lays the page out once a step rather than once an element a step
 * (a throttled phone spent most of a six-seat game's last second in those layouts).
 * An element not laid out (hidden, not in the page) is left as it is.
 * @param {Iterable<HTMLElement>} els
 */
export function fitAll(els) {
  const all = [...els];
  for (const el of all) {
    el.style.fontSize = "";
    el.classList.remove("fit-break");
    el.classList.add("fitted");
  }
  let left = all
    .filter((el) => el.isConnected && el.clientWidth && over(el))
    .map((el) => ({ el, size: parseFloat(getComputedStyle(el).fontSize) }));
  for (let f = 0.9; f >= SMALLEST - 1e-9 && left.length; f -= 0.1) {
    for (const { el, size } of left) el.style.fontSize = `${(size * f).toFixed(2)}px`;
    left = left.filter(({ el }) => over(el));
  }
  for (const { el } of left) el.classList.add("fit-break");
}

/** Fit one element's type to its box (see `fitAll`). @param {HTMLElement} el */
export function fit(el) {
  fitAll([el]);
}

// A phone turned on its side: everything fitted is fitted again, once the page has settled.
let pending = false;
if (typeof window !== "undefined") {
  window.addEventListener("resize", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fitAll(/** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".fitted")));
    });
  });
}
