// The table's one websocket (docs/protocol.md): hello with the seat's token, messages in as
// objects, and a new connection after a drop, a little later each time (at most 10 s apart).

/** @typedef {import("../types.js").ServerMessage} ServerMessage */

/**
 * @typedef {object} ConnectionEvents
 * @property {(m: ServerMessage) => void} message
 * @property {(status: "connecting" | "online" | "offline") => void} status
 * @property {(code: number) => boolean} closed  a close the server meant; true: do not reconnect
 */

export class Connection {
  /**
   * @param {string} code
   * @param {() => string | null} token  the seat's token at the moment of connecting
   * @param {ConnectionEvents} on
   */
  constructor(code, token, on) {
    this.code = code;
    this.token = token;
    this.on = on;
    this.retry = 0;
    /** @type {WebSocket | null} */
    this.ws = null;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${this.code}`);
    this.ws = ws;
    this.on.status("connecting");
    ws.onopen = () => {
      const token = this.token();
      ws.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello" }));
    };
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "welcome") {
        this.retry = 0;
        this.on.status("online");
      }
      this.on.message(m);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      if (this.on.closed(e.code)) return;
      if (e.code === 4401) this.retry = 0; // watching now: at once
      this.on.status("offline");
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.open(), wait);
    };
  }

  get ready() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** @param {Record<string, unknown>} message */
  send(message) {
    if (this.ws && this.ready) this.ws.send(JSON.stringify(message));
  }
}
