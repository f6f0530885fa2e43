// The table's connection when the table is on this device (device.js): the same three calls
// as the websocket's (table/connection.js: open, ready, send), so the table page is the same
// one that plays online. It wakes the engine when the table wants (a bot's move, a timer) and
// tells the page whose turn it is, for pass-and-play.

/** @typedef {import("../types.js").ServerMessage} ServerMessage */
/** @typedef {import("./device.js").Engine} Engine */
/** @typedef {import("./device.js").Answer} Answer */

/**
 * @typedef {object} DeviceEvents
 * @property {(m: ServerMessage) => void} message
 * @property {(status: "connecting" | "online" | "offline") => void} status
 * @property {(answer: Answer) => void} answered  after each answer's messages (whose turn, the record)
 */

export class DeviceConnection {
  /**
   * @param {Engine} engine
   * @param {number} seat  whose screen this is
   * @param {DeviceEvents} on
   */
  constructor(engine, seat, on) {
    this.engine = engine;
    this.seat = seat;
    this.on = on;
    this.token = () => null; // no links on one device: the engine knows whose screen it is
    this.open_ = false;
    this.closed = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  open() {
    this.on.status("connecting");
    this.engine.hello(this.seat).then((a) => {
      this.open_ = true;
      this.deliver(a);
      this.on.status("online");
    }, (err) => this.failed(err));
  }

  get ready() {
    return this.open_ && !this.closed;
  }

  /** @param {Record<string, unknown>} message */
  send(message) {
    if (!this.ready) return;
    this.engine.handle(message).then((a) => this.deliver(a), (err) => this.failed(err));
  }

  /** This screen is done (the device passed to someone else): no more messages, no wakes. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** @param {Answer} a */
  deliver(a) {
    if (this.closed) return;
    for (const text of a.messages) this.on.message(JSON.parse(text));
    clearTimeout(this.timer);
    if (a.wakeIn !== null) {
      this.timer = setTimeout(() => {
        if (!this.closed) this.engine.wake().then((b) => this.deliver(b), (err) => this.failed(err));
      }, a.wakeIn);
    }
    this.on.answered(a);
  }

  /** @param {Error} err */
  failed(err) {
    console.error("the offline engine failed:", err);
    this.on.status("offline");
  }
}
