// A table: the lobby, the game and its end, over one websocket (docs/protocol.md).
import { api, savedToken, saveToken } from "./api.js";
import { botLabel, cardFace, cardLabel, cardsText } from "./cards.js";
import { copyText, h, say, toast } from "./dom.js";
import { errorText } from "./errors.js";
import { formatNumber, listOf, t, tn } from "./i18n.js";
import { Narrator, withBy } from "./log.js";
import { optionApplies } from "./rules.js";

const TOKEN_FRAGMENT = /(?:^#|&)seat=([A-Za-z0-9_-]{16,64})/;
const WIDE = window.matchMedia("(min-width: 900px)"); // the game's two columns (style.css)

export async function showTable(root, rawCode) {
  const code = rawCode.toLowerCase().replace(/[\s-]/g, "");
  // A personal link (#seat=TOKEN) is remembered, then taken out of the address bar so that
  // copying the address never hands someone else your seat.
  const fromLink = location.hash.match(TOKEN_FRAGMENT);
  if (fromLink) {
    saveToken(code, fromLink[1]);
    history.replaceState(null, "", location.pathname);
  }
  root.replaceChildren(h("p", { class: "loading" }, t("loading")));
  let info;
  try {
    info = await api.table(code);
  } catch (err) {
    root.replaceChildren(
      h("h1", { class: "page-title" }, t("table.missing.title")),
      h("p", { role: "alert" }, errorText(err)),
      h("p", {}, h("a", { href: "/" }, t("nav.home"))),
    );
    return;
  }
  const token = savedToken(code);
  if (token || info.phase !== "lobby" || !info.seats.some((s) => s.open)) {
    new TableView(root, code, token).connect();
    return;
  }
  showJoin(root, code, info);
}

function showJoin(root, code, info) {
  const name = h("input", { id: "join-name", autocomplete: "nickname", maxlength: 24, required: true });
  const status = h("p", { class: "form-error", role: "alert" });
  const taken = info.seats.filter((s) => !s.open).map((s) => (s.kind === "bot" ? t("lobby.join.bot", { name: s.name }) : s.name));
  root.replaceChildren(
    h("h1", { class: "page-title" }, t("lobby.join.title")),
    h("p", {}, t("lobby.join.lead", { players: taken.length ? listOf(taken) : t("nobody") })),
    h(
      "form",
      {
        class: "panel narrow",
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            const joined = await api.join(code, name.value);
            saveToken(code, joined.token);
            new TableView(root, code, joined.token).connect();
          } catch (err) {
            status.textContent = errorText(err);
            name.focus();
          }
        },
      },
      h("div", { class: "field" }, h("label", { for: "join-name" }, t("lobby.join.name")), name),
      status,
      h("div", { class: "buttons" },
        h("button", { type: "submit", class: "primary" }, t("lobby.join.submit")),
        h("button", { type: "button", onclick: () => new TableView(root, code, null).connect() }, t("lobby.join.watch")),
      ),
    ),
  );
  name.focus();
}

class TableView {
  constructor(root, code, token) {
    this.root = root;
    this.code = code;
    this.token = token;
    this.me = { seat: null, host: false };
    this.table = null; // the latest "table" message
    this.game = null; // {game, moves, view, turn}
    this.log = []; // [{text, tone}]
    this.spoken = 0; // log lines already read out to screen readers
    this.narrator = null;
    this.retry = 0;
    this.timer = null;
    this.turnEnds = null; // performance.now() at which the turn timer runs out
    this.warned = false;
    this.screen = null;
    this.last = { total: null, toPlay: null, owed: null, phase: null };
    this.pending = null; // an action sent and not yet answered: no second one meanwhile
    this.options = null;
    api.options().then((o) => {
      this.options = o;
      if (this.screen === "lobby") this.fillLobby();
    }, () => {});
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
  }

  // ---------------------------------------------------------------- the connection

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${this.code}`);
    this.ws = ws;
    this.setStatus("connecting");
    ws.onopen = () => {
      const hello = { type: "hello" };
      if (this.token) hello.token = this.token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => this.onMessage(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      if (e.code === 4401) {
        // The link no longer holds a seat: forget it and watch instead.
        saveToken(this.code, null);
        this.token = null;
        toast(t("error.bad_token"), "bad");
      }
      if (e.code === 4404) {
        this.root.replaceChildren(h("p", { role: "alert" }, t("error.not_found")));
        return;
      }
      this.setStatus("offline");
      this.pending = null;
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  onMessage(m) {
    switch (m.type) {
      case "welcome":
        this.retry = 0;
        this.me = { seat: m.seat, host: m.host };
        this.setStatus("online");
        break;
      case "table":
        this.table = m;
        this.setTurn(m.turn);
        this.render();
        break;
      case "state":
        this.pending = null;
        this.game = m.game ? { game: m.game, moves: m.moves, view: m.view, turn: m.turn } : null;
        this.startLog(m.log || [], m.by || []);
        this.setTurn(m.turn);
        this.render(true);
        break;
      case "update":
        if (!this.game || m.game !== this.game.game) return;
        this.pending = null;
        this.game.moves = m.moves;
        this.game.view = m.view;
        this.addLog(withBy(m.events, [m.by]));
        this.setTurn(m.turn);
        this.render();
        break;
      case "error":
        if (this.pending) {
          this.pending = null;
          if (this.screen === "game") this.fillGame();
        }
        toast(errorText(m, this.table?.rules?.edition), "bad");
        say(errorText(m, this.table?.rules?.edition), true);
        break;
      default:
        break;
    }
  }

  act(action) {
    if (!this.game || this.pending || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.pending = action;
    this.send({ type: "act", action, moves: this.game.moves });
    this.fillGame(); // the hand waits for the answer: a double click sends nothing twice
  }

  // ---------------------------------------------------------------- names and the log

  names() {
    return (this.table?.seats || []).map((s) => s.name ?? t("seat.waiting"));
  }

  nameOf(seat) {
    if (seat === this.me.seat) return t("you");
    return this.names()[seat] ?? t("seat.numbered", { n: seat + 1 });
  }

  startLog(events, by) {
    this.log = [];
    this.logShown = 0;
    this.spoken = 0;
    if (!this.table) return;
    this.narrator = new Narrator(this.names(), this.me.seat, this.table.rules);
    this.addLog(withBy(events, by));
    this.spoken = this.log.length; // the story so far is on screen; read out what comes next
  }

  addLog(pairs) {
    if (!this.narrator && this.table) this.narrator = new Narrator(this.names(), this.me.seat, this.table.rules);
    if (!this.narrator) return;
    this.narrator.names = this.names();
    for (const { ev, by } of pairs) this.log.push(this.narrator.line(ev, by));
  }

  // The log lines not yet read out (the last few: bots can be quick), then none until more.
  freshLines() {
    const lines = this.log.slice(Math.max(this.spoken, this.log.length - 3)).map((l) => l.text);
    this.spoken = this.log.length;
    return lines;
  }

  // ---------------------------------------------------------------- the turn timer

  setTurn(turn) {
    if (this.game) this.game.turn = turn;
    this.turnEnds = turn && turn.ms_left !== null && turn.ms_left !== undefined ? performance.now() + turn.ms_left : null;
    if (!this.timer) this.timer = setInterval(() => this.tick(), 250);
  }

  tick() {
    const box = document.getElementById("timer");
    if (!box) return;
    const turn = this.game?.turn;
    if (!turn || this.turnEnds === null || !turn.seconds) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const left = Math.max(0, this.turnEnds - performance.now());
    const seconds = Math.ceil(left / 1000);
    const text = box.querySelector(".timer-text");
    const next = tn("timer.left", seconds);
    if (text.textContent !== next) text.textContent = next;
    box.querySelector(".timer-fill").style.width = `${Math.min(100, (100 * left) / (turn.seconds * 1000))}%`;
    box.classList.toggle("timer-low", left < 5000);
    if (turn.seat === this.me.seat && seconds <= 10 && seconds > 0 && !this.warned) {
      this.warned = true;
      say(tn("timer.warning", seconds), true);
    }
  }

  // ---------------------------------------------------------------- screens

  setStatus(status) {
    this.connection = status;
    const el = document.getElementById("conn");
    if (el) {
      el.textContent = t(`conn.${status}`);
      el.className = `conn conn-${status}`;
    }
  }

  render(fresh = false) {
    if (!this.table) return;
    const phase = this.table.phase;
    const screen = phase === "lobby" || !this.game ? "lobby" : "game";
    if (screen !== this.screen || fresh) {
      const moved = screen !== this.screen;
      this.screen = screen;
      this.root.replaceChildren();
      if (screen === "lobby") this.buildLobby();
      else this.buildGame();
      // A new screen starts at its top: the host who scrolled down to Start sees the table,
      // not whatever of the game lies where the button was.
      if (moved) window.scrollTo(0, 0);
    }
    if (screen === "lobby") this.fillLobby();
    else this.fillGame();
    this.tick(); // the timer shows at once, not at its next beat
    this.announce();
  }

  header(title) {
    return h(
      "div",
      { class: "table-head" },
      h("h1", { class: "page-title" }, title),
      h("span", { id: "conn", class: `conn conn-${this.connection}`, role: "status" }, t(`conn.${this.connection || "connecting"}`)),
    );
  }

  // ---------------------------------------------------------------- the lobby

  buildLobby() {
    // Seats and the Start button first (no scrolling for the host), the invite beside them
    // on a wide screen and above them on a phone, the rules last.
    this.root.append(
      this.header(t("lobby.title")),
      h("div", { class: "lobby" },
        this.inviteBox(),
        h("section", { class: "panel lobby-seats-panel", "aria-labelledby": "seats-title" },
          h("h2", { id: "seats-title" }, t("lobby.seats")),
          h("ul", { id: "lobby-seats", class: "lobby-seats" }),
          h("div", { id: "lobby-actions", class: "lobby-actions" })),
        h("section", { class: "panel lobby-rules-panel", "aria-labelledby": "rules-title" },
          h("h2", { id: "rules-title" }, t("lobby.rules")),
          h("dl", { id: "lobby-rules", class: "rules-list" }))),
    );
  }

  // The code and links to share. In the lobby it is a panel of its own; once the game is on,
  // the table matters more: it folds away on a phone (open on a wide screen, where it fits).
  inviteBox({ folded = false } = {}) {
    const invite = `${location.origin}/t/${this.code}`;
    const pretty = this.code.replace(/(.{4})(?=.)/g, "$1-");
    const personal = this.token ? `${invite}#seat=${this.token}` : null;
    const copyButton = (text, label) =>
      h("button", { type: "button", class: "small", onclick: async () => toast((await copyText(text)) ? t("copy.done") : t("copy.failed")) }, label);
    const title = h("h2", { id: "invite-title" }, t("invite.title"));
    const body = [
      h("p", {}, t("invite.code"), " ", h("strong", { class: "code" }, pretty), " ", copyButton(pretty, t("invite.copy_code"))),
      h("p", {}, t("invite.link"), " ", h("a", { href: invite, class: "link" }, invite), " ", copyButton(invite, t("invite.copy_link"))),
      personal
        ? h("p", { class: "hint" }, t("invite.personal"), " ", copyButton(personal, t("invite.copy_personal")))
        : null,
    ];
    if (!folded) return h("section", { class: "panel invite", "aria-labelledby": "invite-title" }, title, ...body);
    return h(
      "details",
      { class: "panel invite", open: WIDE.matches },
      h("summary", {}, title, h("span", { class: "hint summary-hint code" }, pretty)),
      ...body,
    );
  }

  fillLobby() {
    const list = document.getElementById("lobby-seats");
    const table = this.table;
    list.replaceChildren(
      ...table.seats.map((s) => {
        const controls = [];
        if (this.me.host && s.open) {
          const pick = h("select", { class: "small", "aria-label": t("lobby.bot_for", { n: s.seat + 1 }) },
            ...this.bots().map((b) => h("option", { value: b, selected: b === this.options?.stand_in }, botLabel(b))));
          controls.push(pick, h("button", { type: "button", class: "small", onclick: () => this.send({ type: "seat", seat: s.seat, kind: "bot", bot: pick.value }) }, t("lobby.make_bot")));
        }
        if (this.me.host && s.kind === "bot") {
          controls.push(h("button", { type: "button", class: "small", onclick: () => this.send({ type: "seat", seat: s.seat, kind: "human" }) }, t("lobby.make_open")));
        }
        return h("li", { class: "lobby-seat" },
          h("span", { class: "seat-no" }, t("seat.numbered", { n: s.seat + 1 })),
          h("span", { class: "seat-name" }, this.seatLine(s)),
          controls.length ? h("span", { class: "seat-controls" }, ...controls) : null);
      }),
    );
    const rules = document.getElementById("lobby-rules");
    rules.replaceChildren(...this.rulesSummary());
    const actions = document.getElementById("lobby-actions");
    const waiting = table.seats.filter((s) => s.open).length;
    if (this.me.host) {
      actions.replaceChildren(
        h("button", { type: "button", class: "primary", disabled: waiting > 0, "aria-describedby": "start-hint", onclick: () => this.send({ type: "start" }) }, t("lobby.start")),
        h("p", { id: "start-hint", class: "hint" }, waiting ? tn("lobby.waiting", waiting) : t("lobby.ready")),
      );
    } else {
      actions.replaceChildren(h("p", { class: "hint" }, this.me.seat === null ? t("lobby.watching") : t("lobby.wait_host")));
    }
  }

  bots() {
    const seen = new Set(["random", "greedy"]);
    for (const s of this.table.seats) if (s.bot) seen.add(s.bot);
    return this.options?.bots || [...seen];
  }

  seatLine(s) {
    if (s.open) return t("seat.open");
    const parts = [s.seat === this.me.seat ? t("seat.you", { name: s.name }) : s.name];
    if (s.kind === "bot") parts.push(t("seat.bot", { bot: botLabel(s.bot) }));
    else if (s.away) parts.push(t("seat.away"));
    else if (!s.connected) parts.push(t("seat.offline"));
    if (s.seat === this.table.host_seat) parts.push(t("seat.host"));
    return parts.join(" · ");
  }

  rulesSummary() {
    const r = this.table.rules;
    const rows = [[t("create.edition"), t(`edition.${r.edition}`)], [t("create.players"), formatNumber(r.players)]];
    const skip = new Set(["edition", "players"]);
    for (const [name, value] of Object.entries(r)) {
      if (skip.has(name) || !optionApplies(name, r.match)) continue;
      let shown;
      if (typeof value === "boolean") shown = value ? t("yes") : t("no");
      else if (typeof value === "number") shown = formatNumber(value);
      else shown = t(`option.${name}.${value}`);
      rows.push([t(`option.${name}`), shown]);
    }
    rows.push([t("create.timer"), this.table.turn_seconds ? tn("create.timer.seconds", this.table.turn_seconds) : t("create.timer.off")]);
    return rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]);
  }

  // ---------------------------------------------------------------- the game

  buildGame() {
    this.logShown = 0;
    this.root.append(
      this.header(t("game.title", { game: formatNumber(this.game.game) })),
      h("div", { class: "game" },
        h("div", { class: "col-main" },
          h("section", { class: "status panel", "aria-label": t("game.status") },
            h("div", { class: "total-box" },
              h("span", { class: "total-label", id: "total-label" }, t("game.total")),
              h("span", { class: "total", id: "total", "aria-describedby": "total-label" })),
            h("div", { class: "status-side" },
              h("p", { id: "turn", class: "turn" }),
              h("div", { id: "timer", class: "timer", hidden: true },
                h("span", { class: "timer-text" }),
                h("span", { class: "timer-bar", "aria-hidden": "true" }, h("span", { class: "timer-fill" }))),
              h("p", { id: "direction", class: "direction" }),
              h("p", { id: "warning", class: "warning", hidden: true }),
              h("p", { id: "piles", class: "piles" }))),
          h("section", { id: "end", class: "end panel", hidden: true, "aria-labelledby": "end-title" }),
          h("section", { class: "hand panel", "aria-labelledby": "hand-title" },
            h("h2", { id: "hand-title" }, t("hand.title")),
            h("p", { id: "hand-hint", class: "hint hand-hint" }),
            h("div", { id: "hand", class: "hand-cards", role: "group", "aria-labelledby": "hand-title" }),
            h("div", { id: "hand-actions", class: "buttons" }),
            h("p", { class: "hint keys" }, t("hand.keys")))),
        h("div", { class: "col-side" },
          h("section", { class: "seats panel", "aria-labelledby": "seats-title" },
            h("h2", { id: "seats-title" }, t("game.players")),
            h("ul", { id: "seats", class: "seat-list" })),
          h("section", { class: "log panel", "aria-labelledby": "log-title" },
            h("h2", { id: "log-title" }, t("game.log")),
            h("ol", { id: "log", class: "log-list", role: "log", "aria-live": "off", tabindex: "0", "aria-labelledby": "log-title" })))),
      this.inviteBox({ folded: true }),
    );
  }

  fillGame() {
    const v = this.game.view;
    const rules = this.table.rules;
    const seats = this.table.seats;
    document.getElementById("total").textContent = formatNumber(v.total);
    const turnEl = document.getElementById("turn");
    turnEl.textContent = v.over ? t("turn.over") : this.turnText(v);
    turnEl.classList.toggle("turn-mine", v.to_play === this.me.seat && !v.over);
    // A tab in the background still says when it is your turn.
    document.title = v.to_play === this.me.seat && !v.over ? t("app.title.your_turn") : t("app.title");
    const away = !v.over && v.to_play !== null && seats[v.to_play]?.kind === "human" && this.game.turn?.auto;
    if (away) turnEl.textContent += t("turn.auto");
    document.getElementById("direction").textContent = v.direction === "cw" ? t("direction.cw") : t("direction.ccw");
    const warning = document.getElementById("warning");
    const warnings = [];
    const play2 = cardLabel("play2", rules.edition);
    const mine = v.to_play === this.me.seat;
    if (!v.over && v.owed === 2) {
      warnings.push(mine ? t("warning.play2.you", { card: play2 }) : t("warning.play2", { card: play2, name: this.nameOf(v.to_play) }));
    } else if (!v.over && v.second_card) {
      // P1: the first of the two owed cards is down; say so until the second one is.
      warnings.push(mine ? t("warning.second.you", { card: play2 }) : t("warning.second", { card: play2, name: this.nameOf(v.to_play) }));
    }
    if (v.owes_draw.includes(this.me.seat)) warnings.push(t("warning.draw"));
    warning.hidden = warnings.length === 0;
    warning.textContent = warnings.join(" ");
    document.getElementById("piles").replaceChildren(
      tn("piles.draw", v.draw_pile),
      " · ",
      ...(v.discard_top ? [t("piles.top"), " ", cardFace(v.discard_top, rules.edition, { small: true })] : [t("piles.empty")]),
    );
    this.fillHand(v, rules);
    this.fillSeats(v, seats, rules);
    this.fillLog();
    this.fillEnd(v);
  }

  // Whose turn it is, and how many cards they still owe: two after a Play 2, then one more.
  turnText(v) {
    if (v.to_play === this.me.seat) return v.owed === 2 ? t("turn.you.two") : v.second_card ? t("turn.you.second") : t("turn.you");
    const name = this.nameOf(v.to_play);
    return v.owed === 2 ? t("turn.other.two", { name }) : v.second_card ? t("turn.other.second", { name }) : t("turn.other", { name });
  }

  fillHand(v, rules) {
    const box = document.getElementById("hand");
    const focused = box.contains(document.activeElement) ? document.activeElement.dataset.index : null;
    const actions = document.getElementById("hand-actions");
    if (v.hand === null) {
      box.replaceChildren(h("p", { class: "hint" }, t("hand.spectator")));
      actions.replaceChildren();
      document.getElementById("hand-hint").textContent = "";
      return;
    }
    const legal = new Set(this.pending ? [] : v.legal);
    box.replaceChildren(
      ...v.hand.map((name, i) => {
        const action = `play ${name}`;
        const ok = legal.has(action);
        const label = cardLabel(name, rules.edition);
        return h(
          "button",
          {
            type: "button",
            class: `hand-card${ok ? " playable" : ""}`,
            "aria-disabled": ok ? null : "true",
            "aria-label": ok ? t("hand.play", { card: label, key: i + 1 }) : t("hand.cannot", { card: label }),
            dataset: { index: String(i) },
            onclick: () => (ok ? this.act(action) : say(t("hand.cannot", { card: label }))),
          },
          cardFace(name, rules.edition),
          h("span", { class: "key", "aria-hidden": "true" }, String(i + 1)),
        );
      }),
    );
    if (!v.hand.length) box.replaceChildren(h("p", { class: "hint" }, t("hand.empty")));
    const hint = document.getElementById("hand-hint");
    const canPlay = v.hand.some((name) => legal.has(`play ${name}`));
    const out = !v.over && v.status[this.me.seat] !== "in";
    hint.textContent = this.pending ? t("hand.sent") : canPlay ? t("hand.pick") : out ? t(`hand.${v.status[this.me.seat]}`) : "";
    const buttons = [];
    if (legal.has("draw")) {
      buttons.push(h("button", { type: "button", class: "primary draw", onclick: () => this.act("draw") }, t("hand.draw")));
    }
    if (legal.has("discard ono99")) {
      buttons.push(h("button", { type: "button", class: "primary discard", onclick: () => this.act("discard ono99") }, t("hand.discard")));
    }
    actions.replaceChildren(...buttons);
    if (focused !== null && focused !== undefined) {
      const again = box.querySelector(`[data-index="${focused}"]`) || box.querySelector("button");
      if (again) again.focus();
    }
  }

  fillSeats(v, seats, rules) {
    document.getElementById("seats").replaceChildren(
      ...seats.map((s) => {
        const i = s.seat;
        const facts = [tn("seat.cards", v.hand_sizes[i]), t(`status.${v.status[i]}`)];
        if (v.tokens) facts.push(tn("seat.tokens", v.tokens[i]));
        if (v.scores) facts.push(t("seat.score", { score: formatNumber(v.scores[i]) }));
        if (v.owes_draw.includes(i)) facts.push(t("seat.owes_draw"));
        if (i === v.dealer) facts.push(t("seat.dealer"));
        const turn = i === v.to_play && !v.over;
        return h(
          "li",
          { class: `seat${turn ? " seat-turn" : ""} seat-${v.status[i]}`, "aria-current": turn ? "true" : null },
          h("p", { class: "seat-title" },
            turn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : null,
            h("strong", {}, this.seatLine(s)),
            turn ? h("span", { class: "sr-only" }, t("seat.turn_now")) : null),
          h("p", { class: "seat-facts" }, facts.join(" · ")),
          v.laid_down[i].length
            ? h("p", { class: "laid" }, t("seat.laid_down"), " ", ...v.laid_down[i].map((c) => cardFace(c, rules.edition, { small: true })))
            : null,
        );
      }),
    );
  }

  fillLog() {
    const list = document.getElementById("log");
    if (this.logShown > this.log.length || list.children.length !== this.logShown) {
      list.replaceChildren();
      this.logShown = 0;
    }
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    for (; this.logShown < this.log.length; this.logShown++) {
      const line = this.log[this.logShown];
      list.append(h("li", { class: `tone-${line.tone}` }, line.text));
    }
    if (atBottom || this.logShown < 40) list.scrollTop = list.scrollHeight;
  }

  fillEnd(v) {
    const end = document.getElementById("end");
    if (!v.over) {
      end.hidden = true;
      end.replaceChildren();
      return;
    }
    const wasHidden = end.hidden;
    end.hidden = false;
    const winners = v.winners;
    const title = winners.includes(this.me.seat)
      ? t("end.you_win")
      : winners.length === 1
        ? t("end.wins", { name: this.nameOf(winners[0]) })
        : t("end.share", { names: listOf(winners.map((w) => this.nameOf(w))) });
    const game = this.game.game;
    const standings = this.table.seats.map((s) => {
      const facts = [];
      if (v.scores) facts.push(t("seat.score", { score: formatNumber(v.scores[s.seat]) }));
      if (v.tokens) facts.push(tn("seat.tokens", v.tokens[s.seat]));
      facts.push(winners.includes(s.seat) ? t("end.winner") : t(`status.${v.status[s.seat]}`));
      const name = s.seat === this.me.seat ? t("seat.you", { name: s.name }) : s.name;
      return h("li", { class: winners.includes(s.seat) ? "standing-winner" : null }, h("strong", {}, name), ` — ${facts.join(" · ")}`);
    });
    end.replaceChildren(
      h("h2", { id: "end-title", tabindex: "-1" }, title),
      h("ol", { class: "standings" }, ...standings),
      h("div", { class: "buttons" },
        this.me.host
          ? h("button", { type: "button", class: "primary", onclick: () => this.send({ type: "again" }) }, t("end.again"))
          : h("p", { class: "hint" }, t("end.wait_again")),
        h("a", { class: "button", href: `/t/${this.code}/replay/${game}` }, t("end.replay")),
        h("a", { class: "button", href: api.recordUrl(this.code, game), download: `ono99-${this.code}-game${game}.json` }, t("end.record")),
      ),
    );
    if (wasHidden) end.querySelector("h2").focus();
  }

  // ---------------------------------------------------------------- screen readers

  announce() {
    const v = this.game?.view;
    const phase = this.table?.phase;
    if (phase !== this.last.phase) {
      if (phase === "playing" && this.last.phase !== null) say(t("say.started"));
      this.last.phase = phase;
    }
    if (!v) return;
    // What happened (the new log lines), the total, and whose turn it is now.
    const parts = this.freshLines();
    if (v.total !== this.last.total) parts.push(t("say.total", { total: formatNumber(v.total) }));
    const turnChanged = v.to_play !== this.last.toPlay || v.owed !== this.last.owed;
    if (v.over && this.last.toPlay !== null) parts.push(document.getElementById("end-title")?.textContent || t("turn.over"));
    else if (turnChanged && v.to_play !== null) {
      if (v.to_play === this.me.seat) {
        this.warned = false;
        say([...parts, this.turnText(v)].join(" "), true);
        parts.length = 0;
      } else {
        parts.push(this.turnText(v));
      }
    }
    if (v.owes_draw.includes(this.me.seat)) parts.push(t("warning.draw"));
    this.last.total = v.total;
    this.last.toPlay = v.over ? null : v.to_play;
    this.last.owed = v.owed;
    if (parts.length) say(parts.join(" "));
  }

  // ---------------------------------------------------------------- keyboard

  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    const v = this.game?.view;
    if (!v || v.hand === null || this.screen !== "game") return;
    const key = physicalKey(e);
    if (key === "d" && v.legal.includes("draw")) {
      this.act("draw");
      e.preventDefault();
    } else if (key === "x" && v.legal.includes("discard ono99")) {
      this.act("discard ono99");
      e.preventDefault();
    } else if (/^[1-9]$/.test(key)) {
      const card = v.hand[Number(key) - 1];
      if (card === undefined) return;
      if (v.legal.includes(`play ${card}`)) this.act(`play ${card}`);
      else say(t("hand.cannot", { card: cardLabel(card, this.table.rules.edition) }));
      e.preventDefault();
    } else if (key === "t") {
      say(`${t("say.total", { total: formatNumber(v.total) })} ${document.getElementById("turn")?.textContent || ""}`);
      e.preventDefault();
    } else if (key === "h") {
      say(t("say.hand", { cards: cardsText(v.hand, this.table.rules.edition) }));
      e.preventDefault();
    }
  }
}

// The key by its place on the keyboard, so that D, X, T, H and 1–9 work the same with a
// Greek, Armenian or Devanagari layout as with a Latin one.
function physicalKey(e) {
  const code = e.code || "";
  if (/^Key[A-Z]$/.test(code)) return code.slice(3).toLowerCase();
  if (/^(Digit|Numpad)[0-9]$/.test(code)) return code.slice(-1);
  return (e.key || "").toLowerCase();
}
