// The play-by-play log: structured events from the server, worded here in the reader's
// language, with "You" for the reader's own seat. The terminal's narrator (ono99.cli.render)
// is its twin: tests/test_narrators.py runs both on the same games, in every language, and
// wants the same line, tone and catalog keys for every event.
import { t, tn, listOf } from "./i18n.js";
import { cardLabel, cardsText } from "./cards.js";

/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").Rules} Rules */
/** @typedef {"play" | "info" | "round" | "bad" | "over"} Tone */
/** @typedef {{text: string, tone: Tone}} Line */

const ACTION_KINDS = new Set(["play", "discard", "draw"]);

export class Narrator {
  /**
   * @param {(string | null | undefined)[]} names  per seat
   * @param {number | null} me  the reader's seat (null for a spectator)
   * @param {Partial<Rules>} rules  the table's rules
   */
  constructor(names, me, rules) {
    this.names = names;
    this.me = me;
    this.rules = rules;
    this.direction = "cw";
    /** @type {number[]} */
    this.scores = new Array(names.length).fill(0);
    /** @type {Set<number>} */
    this.gone = new Set(); // out of the game
    /** @type {Set<number>} */
    this.resting = new Set(); // out of the current round (points)
  }

  // Seats still playing this round: with two, a Reverse only passes the turn back.
  playing() {
    const n = this.rules.players ?? this.names.length;
    return n - new Set([...this.gone, ...this.resting]).size;
  }

  /** @param {number} seat */
  name(seat) {
    return this.names[seat] ?? t("seat.numbered", { n: seat + 1 });
  }

  /**
   * The key for a seat's event: "log.play" or, for the reader, "log.play.you".
   * @param {string} key
   * @param {number | null | undefined} seat
   * @param {Record<string, unknown>} [params]
   */
  say(key, seat, params = {}) {
    const you = seat !== undefined && seat !== null && seat === this.me;
    return t(you ? `${key}.you` : key, { name: this.name(/** @type {number} */ (seat)), ...params });
  }

  /** @param {string} name */
  card(name) {
    return cardLabel(name, this.rules.edition);
  }

  /**
   * One event as a line; `by` says who chose an action ("timer", "away": the stand-in).
   * @param {GameEvent} ev
   * @param {string | null | undefined} by
   * @returns {Line}
   */
  line(ev, by) {
    let text = this.text(ev);
    if (ACTION_KINDS.has(ev.kind) && (by === "timer" || by === "away")) {
      text += t(by === "timer" ? "log.by.timer" : "log.by.away");
    }
    return { text, tone: tone(ev) };
  }

  /** @param {GameEvent} ev @returns {string} */
  text(ev) {
    const s = ev.seat;
    switch (ev.kind) {
      case "deal":
        this.direction = "cw";
        this.resting.clear();
        return this.say("log.deal", s, { round: ev.round });
      case "play": {
        const card = this.card(ev.card);
        if (ev.how === "bust") return this.say("log.bust", s, { card, total: ev.total });
        let text = this.say("log.play", s, { card, total: ev.total });
        if (ev.card === "reverse") {
          this.direction = this.direction === "cw" ? "ccw" : "cw";
          if (this.playing() > 2) text += t(this.direction === "cw" ? "log.now.cw" : "log.now.ccw");
        }
        if (ev.how === "deflect") text += t("log.deflect", { card: this.card("play2") });
        else if (ev.card === "play2") text += t("log.play2", { card: this.card("play2") });
        return text;
      }
      case "discard":
        return this.say("log.discard", s, { total: ev.total });
      case "draw":
        return this.say("log.draw", s);
      case "lost_draw":
        return this.say("log.lost_draw", s);
      case "reshuffle":
        return tn("log.reshuffle", ev.cards);
      case "eliminated":
        this.gone.add(ev.seat);
        return this.say("log.eliminated", s, {
          total: ev.total,
          cards: cardsText(ev.hand || [], this.rules.edition),
        });
      case "out_of_round":
        this.resting.add(ev.seat);
        return this.say("log.out_of_round", s);
      case "round_end":
        if (ev.points === null || ev.points === undefined) {
          return this.say("log.round_end.tokens", s, { round: ev.round, total: ev.total });
        }
        return t("log.round_end.points", {
          round: ev.round,
          scores: listOf(
            /** @type {string[]} */ (ev.points
              .map((points, seat) => {
                this.scores[seat] += points;
                return !this.gone.has(seat) && (points || this.scores[seat])
                  ? t("log.score", { name: this.name(seat), points, score: this.scores[seat] })
                  : null;
              })
              .filter(Boolean)),
          ),
        });
      case "lost_token":
        return this.say("log.lost_token", s, { left: ev.tokens_left });
      case "left":
        this.gone.add(ev.seat);
        if (this.rules.match === "points") {
          return this.say("log.left.points", s, { score: this.scores[ev.seat], target: this.rules.target });
        }
        return this.say("log.left.tokens", s);
      case "over":
        return this.result(ev.winners);
      default: // a kind newer than this client
        return t("log.unknown", { kind: /** @type {{kind: string}} */ (ev).kind });
    }
  }

  /** @param {number[]} winners */
  result(winners) {
    if (winners.length === 1) return this.say("log.over.one", winners[0]);
    return t("log.over.many", { names: listOf(winners.map((w) => (w === this.me ? t("you") : this.name(w)))) });
  }
}

/** @param {GameEvent} ev @returns {Tone} */
function tone(ev) {
  if (["eliminated", "out_of_round", "lost_token", "left", "lost_draw"].includes(ev.kind)) return "bad";
  if (ev.kind === "play" && ev.how === "bust") return "bad";
  // A tokens round ends at the seat that could not play: bad news, as a bust is.
  if (ev.kind === "round_end" && (ev.points === null || ev.points === undefined)) return "bad";
  if (ev.kind === "deal" || ev.kind === "round_end") return "round";
  if (ev.kind === "over") return "over";
  if (ev.kind === "draw" || ev.kind === "reshuffle") return "info";
  return "play";
}

// Pair each event of a log with who chose its action: `by` lists one entry per action, in
// order, and each action starts with a play, discard or draw event.
/**
 * @param {GameEvent[]} events
 * @param {readonly string[]} by
 * @param {number} [firstAction]  the index in `by` of the first action among `events`
 * @returns {{ev: GameEvent, by: string | null}[]}
 */
export function withBy(events, by, firstAction = 0) {
  let i = firstAction;
  return events.map((ev) => {
    if (ACTION_KINDS.has(ev.kind)) return { ev, by: by[i++] };
    return { ev, by: null };
  });
}
