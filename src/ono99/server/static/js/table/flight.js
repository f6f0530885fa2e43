// A move in motion: a copy of each card flies from its seat (or from your hand) to the pile
// while the total counts to its new value. What the queue (queue.js) calls before it shows an
// update; nothing here changes the state.
import { cardFace } from "../cards.js";
import { fit } from "../fit.js";
import { formatNumber } from "../i18n.js";
import { sound } from "../sound.js";

/** @typedef {import("./store.js").Store} Store */
/** @typedef {import("./store.js").Queued} Queued */

let counting = 0; // a count-up still running stops when a newer one starts

/**
 * The update's cards, one after another, in `ms` all told.
 * @param {Store} store
 * @param {Queued} m
 * @param {number} ms
 * @param {(ms: number) => Promise<void>} sleep  the queue's pause (cut short when it hurries)
 */
export async function animate(store, m, ms, sleep) {
  const cards = m.events.filter((ev) => ev.kind === "play" || ev.kind === "discard");
  if (!cards.length || !document.getElementById("felt")) return;
  const step = ms / cards.length;
  for (const ev of cards) {
    if (ev.card === undefined || ev.seat === undefined) continue;
    flyCard(store, ev.seat, ev.card, step);
    countTo(ev.total ?? 0, step);
    sound("card");
    await sleep(step);
  }
}

/**
 * @param {Store} store
 * @param {number} seat
 * @param {string} card
 * @param {number} ms
 */
function flyCard(store, seat, card, ms) {
  const target = document.getElementById("discard");
  let source = document.querySelector(`#seat-${seat} .avatar`);
  if (seat === store.state.me.seat) {
    const mine = document.querySelector(`#hand .hand-card[data-card="${CSS.escape(card)}"]`);
    if (mine) {
      source = mine;
      mine.classList.add("leaving");
    }
  }
  const edition = store.state.table?.rules.edition;
  if (!target || !source || !edition) return;
  const from = source.getBoundingClientRect();
  const to = target.getBoundingClientRect();
  const face = cardFace(card, edition);
  face.classList.add("flying");
  face.setAttribute("aria-hidden", "true");
  Object.assign(face.style, { left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px` });
  document.body.append(face);
  fit(face);
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const flight = face.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(.55) rotate(-12deg)`, opacity: 0.7 },
      { transform: "translate(0, 0) scale(1) rotate(0)", opacity: 1 },
    ],
    { duration: ms, easing: "cubic-bezier(.25,.8,.35,1)", fill: "forwards" },
  );
  const done = () => face.remove();
  flight.onfinish = () => setTimeout(done, 60);
  setTimeout(done, ms + 400);
}

/**
 * @param {number} total
 * @param {number} ms
 */
function countTo(total, ms) {
  const el = document.getElementById("total");
  if (!el) return;
  const from = Number(el.dataset.total ?? total);
  const run = ++counting;
  const start = performance.now();
  /** @param {number} now */
  const step = (now) => {
    if (run !== counting) return;
    const f = Math.min(1, (now - start) / ms);
    const eased = 1 - (1 - f) ** 3;
    el.textContent = formatNumber(Math.round(from + (total - from) * eased));
    if (f < 1) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
  el.dataset.total = String(total);
  el.classList.remove("total-bump");
  void el.offsetWidth; // restart the bump
  el.classList.add("total-bump");
}

// The total is set without counting: any count-up still running stops.
export function stopCounting() {
  counting++;
}
