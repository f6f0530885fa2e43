// The game's play-by-play in the reader's words: the shown events, narrated once each by the
// log's narrator (log.js), for the log drawer and the screen-reader announcements alike.
import { Narrator } from "../log.js";
import { names } from "./words.js";

/** @typedef {import("./store.js").TableState} TableState */
/** @typedef {{text: string, tone: string}} Line */

export class Story {
  constructor() {
    /** @type {Line[]} */
    this.lines = [];
    this.epoch = -1;
    /** @type {Narrator | null} */
    this.narrator = null;
  }

  /**
   * Every line of the game on screen (new ones narrated as they come).
   * @param {TableState} s
   * @returns {Line[]}
   */
  of(s) {
    if (!s.table) return this.lines;
    if (s.epoch !== this.epoch || s.events.length < this.lines.length) {
      this.epoch = s.epoch;
      this.lines = [];
      this.narrator = new Narrator(names(s), s.me.seat, s.table.rules);
    }
    const narrator = /** @type {Narrator} */ (this.narrator);
    narrator.names = names(s);
    for (const { ev, by } of s.events.slice(this.lines.length)) this.lines.push(narrator.line(ev, by));
    return this.lines;
  }
}
