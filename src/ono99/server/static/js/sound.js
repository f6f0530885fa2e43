// Short sounds made on the spot with the Web Audio API (oscillators; nothing is downloaded).
// Browsers let a page make sound only after a tap or a key press, so the audio context is
// made at the first one. Muting is remembered in this browser.

const MUTED = "ono99.muted";
/** @type {AudioContext | null} */
let ctx = null;

export function isMuted() {
  return localStorage.getItem(MUTED) === "1";
}

/** @param {boolean} muted */
export function setMuted(muted) {
  localStorage.setItem(MUTED, muted ? "1" : "0");
}

// Called on the first pointerdown / keydown: from then on, sounds can play.
export function unlock() {
  if (ctx) {
    if (ctx.state === "suspended") ctx.resume();
    return;
  }
  // Older Safari names it webkitAudioContext.
  const Context = window.AudioContext || /** @type {{webkitAudioContext?: typeof AudioContext}} */ (window).webkitAudioContext;
  if (!Context) return;
  try {
    ctx = new Context();
  } catch {
    ctx = null;
  }
}

document.addEventListener("pointerdown", unlock, { capture: true });
document.addEventListener("keydown", unlock, { capture: true });

// Each sound: [frequency Hz, start s, length s, wave type, gain] notes.
/** @type {Record<string, [number, number, number, OscillatorType, number][]>} */
const SOUNDS = {
  card: [[520, 0, 0.06, "triangle", 0.25], [780, 0.03, 0.05, "triangle", 0.12]],
  turn: [[660, 0, 0.12, "sine", 0.22], [880, 0.13, 0.16, "sine", 0.22]],
  out: [[330, 0, 0.18, "sawtooth", 0.09], [220, 0.16, 0.28, "sawtooth", 0.09]],
  win: [[523, 0, 0.12, "square", 0.07], [659, 0.12, 0.12, "square", 0.07], [784, 0.24, 0.12, "square", 0.07], [1047, 0.36, 0.3, "square", 0.07]],
};

/** @type {string[]} */
export let played = []; // the names of the sounds made, for tests and the curious

/** @param {string} name */
export function sound(name) {
  if (isMuted() || !ctx || ctx.state !== "running") return;
  const notes = SOUNDS[name];
  if (!notes) return;
  played.push(name);
  if (played.length > 50) played = played.slice(-50);
  const now = ctx.currentTime;
  for (const [freq, start, length, type, gain] of notes) {
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    amp.gain.setValueAtTime(0, now + start);
    amp.gain.linearRampToValueAtTime(gain, now + start + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(amp).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}
