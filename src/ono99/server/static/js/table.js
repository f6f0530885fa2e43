// A table: the lobby, the game and its end, over one websocket (docs/protocol.md).
import { api, savedToken, saveToken } from "./api.js";
import { botLabel, cardFace, cardLabel, cardsText } from "./cards.js";
import { copyText, h, say, toast } from "./dom.js";
import { errorText } from "./errors.js";
import { ruleFields } from "./home.js";
import { formatNumber, formatPercent, has, listOf, t, tn } from "./i18n.js";
import { Narrator, withBy } from "./log.js";
import { roundSummary } from "./round.js";
import { optionApplies, optionKey } from "./rules.js";
import { isMuted, setMuted, sound } from "./sound.js";

// The quick reactions the server accepts (session/table.py REACTIONS): nothing typed freely.
const REACTIONS = ["👍", "👏", "😮", "😂", "🎉", "😬", "🙈", "🔥"];
const TOKEN_FRAGMENT = /(?:^#|&)seat=([A-Za-z0-9_-]{16,64})/;
const WIDE = window.matchMedia("(min-width: 900px)"); // the game's two columns (style.css)
const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
const PACE_MS = 800; // one move on its own, from the card leaving its seat to the next move
const MIN_PACE_MS = 150; // the quickest a move is shown, when many wait behind it
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  el.append(...children);
  return el;
}

// The ring around a seat's avatar; its `pathLength` of 100 makes the dash offset a percentage.
function ringIcon() {
  return svg("svg", { class: "ring", viewBox: "0 0 44 44", focusable: "false" },
    svg("circle", { class: "ring-track", cx: 22, cy: 22, r: 20, pathLength: 100 }),
    svg("circle", { class: "ring-fill", cx: 22, cy: 22, r: 20, pathLength: 100, transform: "rotate(-90 22 22)" }));
}

// Two arrows chasing each other round the middle of the table: the direction of play.
function directionIcon() {
  const arrow = (rotate) =>
    svg("g", { transform: `rotate(${rotate} 50 50)` },
      svg("path", { d: "M 50 8 A 42 42 0 0 1 88 32", fill: "none", "stroke-width": 4, "stroke-linecap": "round" }),
      svg("path", { d: "M 80 28 L 89 34 L 91 23", fill: "none", "stroke-width": 4, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  return svg("svg", { viewBox: "0 0 100 100", focusable: "false" }, arrow(0), arrow(120), arrow(240));
}

function speakerIcon() {
  return svg("svg", { viewBox: "0 0 24 24", width: 22, height: 22, focusable: "false", "aria-hidden": "true" },
    svg("path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }),
    svg("path", { class: "sound-on", d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }),
    svg("path", { class: "sound-off", d: "M16 9l6 6M22 9l-6 6", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }));
}

// The table as the lobby and the join page show it: edition, players, rules, timer.
function rulesRows(table) {
  const r = table.rules;
  const rows = [[t("create.edition"), t(`edition.${r.edition}`)], [t("create.players"), formatNumber(r.players)]];
  const skip = new Set(["edition", "players"]);
  for (const [name, value] of Object.entries(r)) {
    if (skip.has(name) || !optionApplies(name, r.match)) continue;
    let shown;
    if (typeof value === "boolean") shown = value ? t("yes") : t("no");
    else if (typeof value === "number") shown = formatNumber(value);
    else shown = t(`option.${name}.${value}`);
    rows.push([t(optionKey(name, r.edition)), shown]);
  }
  rows.push([t("create.timer"), table.turn_seconds ? tn("create.timer.seconds", table.turn_seconds) : t("create.timer.off")]);
  rows.push([t("create.hints"), table.hints === false ? t("no") : t("yes")]);
  return rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]);
}

// What the host may change between games, as one text to compare two table messages by.
function rulesOf(table) {
  return JSON.stringify([table.rules, table.turn_seconds, table.hints]);
}

// The few facts that decide whether to sit down: edition, match format, timer, hints.
function keyFacts(table) {
  const r = table.rules;
  return [
    [t("create.edition"), t(`edition.${r.edition}`)],
    [t("option.match"), t(`option.match.${r.match}`)],
    [t("create.timer"), table.turn_seconds ? tn("create.timer.seconds", table.turn_seconds) : t("create.timer.off")],
    [t("create.hints"), table.hints === false ? t("no") : t("yes")],
  ].flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]);
}

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
  if (token || !info.seats.some((s) => s.open)) { // an open seat can be taken at any time
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
    // What you are joining, before you give your name: the rules and who sits where.
    h("section", { class: "panel narrow join-facts", "aria-label": t("lobby.rules") },
      h("ol", { class: "join-seats" }, ...info.seats.map((s) =>
        h("li", {}, t("seat.numbered", { n: s.seat + 1 }), ": ",
          s.open ? t("seat.open") : s.kind === "bot" ? t("lobby.join.bot", { name: s.name }) : s.name))),
      h("dl", { class: "rules-list" }, ...keyFacts(info)),
      h("details", {}, h("summary", {}, t("lobby.rules")), h("dl", { class: "rules-list" }, ...rulesRows(info)))),
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
    this.queue = []; // updates received and not yet shown (drain)
    this.epoch = 0; // a fresh state makes the queue's work in progress moot
    this.draining = false;
    this.hurrying = false;
    this.wake = null; // cuts the queue's current pause short (hurry)
    this.pile = []; // the last cards on the discard pile this round
    this.newLinks = new Map(); // seat -> a personal link the host just made for it
    this.lastCards = {}; // seat -> its last card, shown beside it until its next turn
    this.shownTotal = null;
    this.refusals = new Map(); // "moves|action" -> the server's refusal, worded
    this.probe = null; // a greyed card's move sent to learn why it is refused
    this.probes = 0;
    this.options = null;
    api.options().then((o) => {
      this.options = o;
      if (this.screen === "lobby") this.fillLobby();
    }, () => {});
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
    WIDE.addEventListener("change", () => this.openDrawer(false));
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
        // The link no longer holds a seat (given up here, or opened by the host): forget it
        // and watch instead.
        saveToken(this.code, null);
        this.token = null;
        toast(this.leaving ? t("seat.left") : t("error.bad_token"), this.leaving ? "good" : "bad");
        this.leaving = false;
        this.retry = 0;
      }
      if (e.code === 4404 || e.code === 4410) {
        // No such table, or it has closed (idle too long): nothing to reconnect to.
        const why = e.code === 4410 ? t("error.closed") : t("error.not_found");
        this.root.replaceChildren(h("p", { role: "alert" }, why));
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
        // The host changed the rules for the games to come: everyone is told.
        if (this.table && rulesOf(this.table) !== rulesOf(m)) toast(t("rules.changed"));
        this.table = m;
        // The host's countdown to the next game, if one runs: when it ends, on our clock.
        this.nextEnds = m.next && m.next.ms_left !== null ? performance.now() + m.next.ms_left : null;
        this.pauseEnds = m.pause ? performance.now() + m.pause.ms_left : null;
        if (!this.queue.length && !this.draining) this.setTurn(m.turn); // else the queue's own
        this.render();
        break;
      case "state":
        this.pending = null;
        this.probe = null;
        this.queue = [];
        this.epoch++;
        this.game = m.game ? { game: m.game, moves: m.moves, view: m.view, turn: m.turn } : null;
        this.latestView = m.view;
        this.startLog(m.log || [], m.by || []);
        this.rememberAll(m.log || [], m.view);
        this.setTurn(m.turn);
        this.render(true);
        break;
      case "update":
        if (!this.game || m.game !== this.game.game) return;
        m.arrived = performance.now();
        // A round that ended: its summary, from the view before and the events (round.js).
        const ended = roundSummary(this.latestView, m.events, m.view, this.table?.rules);
        if (ended) this.roundSummary = { ...ended, moves: m.moves };
        this.latestView = m.view;
        this.queue.push(m);
        // A draw owed under the draw penalty races the next card (X2, docs/protocol.md
        // "Timing"): the table jumps to the present so that the Draw button is live at once.
        if (m.view.legal.includes("draw")) this.hurry();
        this.drain();
        break;
      case "reaction":
        this.showReaction(m.seat, m.reaction);
        break;
      case "link":
        // The host gave a seat a new personal link: the old one no longer holds it.
        this.newLinks.set(m.seat, `${location.origin}/t/${this.code}#seat=${m.token}`);
        this.fillHostSeats();
        toast(t("host.new_link_made", { name: this.nameOf(m.seat) }), "good");
        break;
      case "hint":
        if (this.game && m.game === this.game.game && m.moves === this.game.moves) {
          this.hint = m;
          if (this.screen === "game") this.fillGame();
          const choice = m.actions.find((a) => a.action === m.choice);
          if (choice) say(t("hint.said", { move: this.actionLabel(choice.action), chance: formatPercent(choice.chance) }), true);
        }
        break;
      case "pong":
        // After a configure: no refusal came before this answer, so the rules are set.
        if (m.id === "configured" && !this.configureRefused) document.getElementById("rules-dialog")?.remove();
        break;
      case "error":
        if (m.id === "configure") {
          this.configureRefused = true;
          const status = document.querySelector("#rules-dialog .form-error");
          if (status) status.textContent = errorText(m, this.table?.rules?.edition);
          break;
        }
        if (m.id === "hint") {
          this.hint = null;
          toast(errorText(m, this.table?.rules?.edition), "bad");
          if (this.screen === "game") this.fillGame();
          break;
        }
        if (this.probe && m.id === this.probe.id) {
          // Why a greyed card cannot be played: the server's reason, shown by the hand.
          const text = errorText(m, this.table?.rules?.edition);
          if (m.code !== "stale") this.refusals.set(this.probe.key, text);
          this.probe = null;
          this.showRefusal(text);
          break;
        }
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

  setTurn(turn, arrived = performance.now()) {
    if (this.game) this.game.turn = turn;
    this.turnEnds = turn && turn.ms_left !== null && turn.ms_left !== undefined ? arrived + turn.ms_left : null;
    if (!this.timer) this.timer = setInterval(() => this.tick(), 250);
  }

  tick() {
    const paused = document.getElementById("pause-countdown");
    if (paused && this.table.pause) {
      const left = Math.max(0, Math.ceil((this.pauseEnds - performance.now()) / 1000));
      const text = t("round.next_in", { seconds: formatNumber(left) });
      if (paused.textContent !== text) paused.textContent = text;
    }
    const countdown = document.getElementById("next-countdown");
    if (countdown && this.nextEnds) {
      const text = tn("end.countdown", Math.max(0, Math.ceil((this.nextEnds - performance.now()) / 1000)));
      if (countdown.textContent !== text) countdown.textContent = text;
    }
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
    box.classList.toggle("timer-low", left < 5000);
    const seat = this.seatEls?.[turn.seat];
    if (seat && seat.classList.contains("seat-turn")) this.setRing(seat, left / (turn.seconds * 1000));
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
          h("dl", { id: "lobby-rules", class: "rules-list" }),
          h("div", { id: "lobby-rules-actions" }))),
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
      h("p", {}, t("invite.link"), " ", h("a", { href: invite, class: "link" }, invite), " ", copyButton(invite, t("invite.copy_link")),
        // A phone shares the invite through its own share sheet (messages, mail, ...).
        navigator.share ? h("button", { type: "button", class: "small", id: "share", onclick: () => navigator.share({ title: "ONO 99", text: t("invite.share_text"), url: invite }).catch(() => {}) }, t("invite.share")) : null),
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
        if (this.me.host && s.kind === "human" && !s.open && s.seat !== this.me.seat) {
          controls.push(h("button", { type: "button", class: "small", onclick: () => this.send({ type: "seat", seat: s.seat, kind: "open" }) }, t("host.open_seat")));
        }
        return h("li", { class: "lobby-seat" },
          h("span", { class: "seat-no" }, t("seat.numbered", { n: s.seat + 1 })),
          h("span", { class: "seat-name" }, this.seatLine(s)),
          controls.length ? h("span", { class: "seat-controls" }, ...controls) : null);
      }),
    );
    const rules = document.getElementById("lobby-rules");
    rules.replaceChildren(...this.rulesSummary());
    document.getElementById("lobby-rules-actions").replaceChildren(this.rulesButton() || "");
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

  // The host's "Change rules", in the lobby and between games: the create form's rule fields,
  // prefilled with the table's, sent as one `configure`.
  rulesButton() {
    if (!this.me.host || this.table.phase === "playing") return null;
    return h("button", { type: "button", id: "change-rules", class: "small", onclick: () => this.openRules() }, t("rules.change"));
  }

  async openRules() {
    document.getElementById("rules-dialog")?.remove();
    this.options = this.options || (await api.options());
    const fields = ruleFields(this.options, this.table);
    const status = h("p", { class: "form-error", role: "alert" });
    const box = h("form", {
      id: "rules-dialog", class: "rules-dialog panel", role: "dialog", "aria-labelledby": "rules-dialog-title",
      onsubmit: (e) => {
        e.preventDefault();
        status.textContent = "";
        const config = fields.read(status);
        if (!config) return;
        this.configureRefused = false;
        this.send({ type: "configure", config, id: "configure" });
        this.send({ type: "ping", id: "configured" });
      },
    },
      h("h2", { id: "rules-dialog-title" }, t("rules.change")),
      fields.edition, fields.timerField, fields.hintsField, fields.options, status,
      h("div", { class: "buttons" },
        h("button", { type: "submit", class: "primary", id: "rules-save" }, t("rules.save")),
        h("button", { type: "button", onclick: () => box.remove() }, t("rules.cancel"))));
    document.body.append(box);
    box.querySelector("input[name=edition]:checked")?.focus();
  }

  // Quick reactions: a fixed few, shown on the sender's seat for a few seconds.
  reactButton() {
    if (this.me.seat === null) return null;
    const menu = h("div", { id: "reactions", class: "reactions", role: "menu", hidden: true },
      ...REACTIONS.map((r) => h("button", { type: "button", class: "small reaction", role: "menuitem", onclick: () => {
        menu.hidden = true;
        this.send({ type: "react", reaction: r });
      } }, r)));
    const toggle = h("button", { type: "button", id: "react", class: "small icon", "aria-label": t("react.title"), title: t("react.title"), "aria-haspopup": "menu", onclick: () => { menu.hidden = !menu.hidden; } }, "🙂");
    return h("span", { class: "react-wrap" }, toggle, menu);
  }

  showReaction(seat, reaction) {
    if (!REACTIONS.includes(reaction)) return;
    const el = document.getElementById(`seat-${seat}`);
    if (!el) return;
    el.querySelector(".reaction-bubble")?.remove();
    const bubble = h("span", { class: "reaction-bubble", "aria-hidden": "true" }, reaction);
    el.append(bubble);
    say(t("react.said", { name: this.nameOf(seat), reaction }));
    setTimeout(() => bubble.remove(), 3000);
  }

  // Between games: who is ready for the next one, a Ready button, the host's Next game (a
  // countdown everyone sees when someone is not ready yet). Nothing starts under anyone.
  nextGame() {
    const next = this.table.next || { ready: [], waiting: [], ms_left: null };
    const me = this.me.seat;
    const ready = me !== null && next.ready.includes(me);
    const parts = [];
    if (next.ready.length) parts.push(t("end.ready_list", { names: listOf(next.ready.map((s) => this.nameOf(s))) }));
    if (next.waiting.length) parts.push(t("end.waiting_list", { names: listOf(next.waiting.map((s) => this.nameOf(s))) }));
    const buttons = [];
    if (me !== null && !ready) {
      buttons.push(h("button", { type: "button", id: "ready", class: "primary", onclick: () => this.send({ type: "ready" }) }, t("end.ready")));
    }
    if (this.me.host && this.nextEnds === null) {
      buttons.push(h("button", { type: "button", id: "again", class: me !== null && !ready ? "" : "primary", onclick: () => this.send({ type: "again" }) }, t("end.again")));
    }
    if (!this.me.host && ready) parts.push(t("end.wait_again"));
    return h("div", { class: "next-game" },
      h("p", { class: "hint", id: "next-status", "aria-live": "polite" }, parts.join(" ")),
      this.nextEnds !== null ? h("p", { id: "next-countdown", class: "countdown", role: "timer" }) : null,
      buttons.length ? h("div", { class: "buttons" }, ...buttons) : null);
  }

  // A person may give up their seat and watch; the seat opens for anyone with the link.
  leaveButton() {
    if (this.me.seat === null) return null;
    return h("button", { type: "button", id: "leave", class: "small", onclick: () => {
      if (!confirm(t("seat.leave.confirm"))) return;
      this.leaving = true;
      this.send({ type: "leave" });
    } }, t("seat.leave"));
  }

  // The host's seats, during and between games: open a person's seat (a stand-in plays it
  // until someone joins with the table's link), or give it a new personal link (a leaked
  // one stops working at once).
  fillHostSeats() {
    const box = document.getElementById("host-seats");
    const people = this.me.host ? this.table.seats.filter((s) => s.kind === "human" && !s.open && s.seat !== this.me.seat) : [];
    if (!people.length) return box.replaceChildren();
    const open = box.querySelector("details")?.open ?? false;
    box.replaceChildren(h("details", { class: "panel host-seats", open },
      h("summary", {}, h("h2", {}, t("host.seats"))),
      h("ul", { class: "lobby-seats" }, ...people.map((s) =>
        h("li", { class: "lobby-seat" },
          h("span", { class: "seat-name" }, this.seatLine(s)),
          h("button", { type: "button", class: "small", onclick: () => this.send({ type: "seat", seat: s.seat, kind: "open" }) }, t("host.open_seat")),
          h("button", { type: "button", class: "small", onclick: () => this.send({ type: "relink", seat: s.seat, id: "relink" }) }, t("host.new_link")),
          this.newLinks.has(s.seat)
            ? h("p", { class: "hint new-link" }, t("host.new_link_hint", { name: s.name }), " ",
                h("button", { type: "button", class: "small", onclick: async () => toast((await copyText(this.newLinks.get(s.seat))) ? t("copy.done") : t("copy.failed")) }, t("invite.copy_personal")))
            : null)))));
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
    return rulesRows(this.table);
  }


  // ---------------------------------------------------------------- the game

  // A card table: the seats around an oval, the piles and the total in its middle, your hand
  // below it; the play-by-play beside it on a wide screen, in a drawer on a phone.
  buildGame() {
    this.logShown = 0;
    const n = this.table.seats.length;
    const bottom = this.me.seat ?? 0; // your seat sits at the bottom, the others in seat order
    this.seatEls = this.table.seats.map((s) => this.buildSeat(s.seat, (s.seat - bottom + n) % n, n));
    this.root.append(
      h("div", { class: "table-head game-head" },
        h("div", { class: "head-title" },
          h("h1", { class: "page-title" }, t("game.title", { game: formatNumber(this.game.game) })),
          h("p", { id: "tally", class: "tally", hidden: true })),
        h("div", { class: "head-tools" },
          h("button", { type: "button", id: "log-open", class: "small log-open", "aria-controls": "drawer", "aria-expanded": "false", onclick: () => this.openDrawer(true) }, t("game.log")),
          h("button", { type: "button", id: "mute", class: "small icon", "aria-label": t("sound.mute"), title: t("sound.mute"), "aria-pressed": String(isMuted()), onclick: () => this.toggleMute() }, speakerIcon()),
          this.reactButton(),
          this.leaveButton(),
          h("span", { id: "conn", class: `conn conn-${this.connection}`, role: "status" }, t(`conn.${this.connection || "connecting"}`)))),
      h("div", { class: "game" },
        h("div", { class: "col-main" },
          h("section", { id: "end", class: "end panel", hidden: true, "aria-labelledby": "end-title" }),
          h("section", { id: "round-summary", class: "round-summary panel", hidden: true, role: "dialog", "aria-labelledby": "round-title" }),
          h("section", { class: "felt-wrap", "aria-label": t("game.status") },
            h("div", { id: "felt", class: `felt seats-${n}` },
              h("div", { class: "felt-oval", "aria-hidden": "true" }),
              h("div", { id: "dir", class: "dir", "aria-hidden": "true" }, directionIcon()),
              ...this.seatEls,
              h("div", { class: "center" },
                h("div", { class: "piles-row", "aria-hidden": "true" },
                  h("div", { id: "draw-pile", class: "pile pile-draw" }, h("span", { class: "card-back" }), h("span", { class: "pile-count", id: "draw-count" })),
                  h("div", { id: "discard", class: "pile pile-discard" })),
                h("div", { class: "total-box" },
                  h("span", { class: "total", id: "total", "aria-describedby": "total-label" }),
                  h("span", { class: "total-label", id: "total-label" }, t("game.total")))))),
          h("div", { class: "status-line" },
            h("p", { id: "turn", class: "turn" }),
            h("p", { id: "timer", class: "timer", hidden: true }, h("span", { class: "timer-text" })),
            h("p", { id: "direction", class: "direction", "aria-hidden": "true" }), // in #piles for screen readers
            h("p", { id: "piles", class: "sr-only" })),
          h("p", { id: "warning", class: "warning", hidden: true }),
          h("section", { class: "hand", "aria-labelledby": "hand-title" },
            h("div", { class: "hand-head" },
              h("h2", { id: "hand-title" }, t("hand.title")),
              h("p", { id: "hand-hint", class: "hint hand-hint" })),
            h("p", { id: "refusal", class: "refusal", hidden: true }),
            h("div", { id: "hand", class: "hand-cards", role: "group", "aria-labelledby": "hand-title" }),
            h("div", { id: "hand-actions", class: "buttons" }),
            h("p", { class: "hint keys" }, t("hand.keys")))),
        h("aside", { id: "drawer", class: "col-side drawer", "aria-labelledby": "log-title" },
          h("section", { class: "log panel" },
            h("div", { class: "log-head" },
              h("h2", { id: "log-title" }, t("game.log")),
              h("button", { type: "button", class: "small drawer-close", onclick: () => this.openDrawer(false) }, t("drawer.close"))),
            h("ol", { id: "log", class: "log-list", role: "log", "aria-live": "off", tabindex: "0", "aria-labelledby": "log-title" })))),
      h("div", { id: "host-seats" }),
      this.inviteBox({ folded: true }),
    );
    this.openDrawer(false);
  }

  // One seat on the rim of the table: `place` counts from yours (0, at the bottom) onwards in
  // seat order, clockwise on the screen.
  buildSeat(seat, place, n) {
    const angle = Math.PI / 2 + (place * 2 * Math.PI) / n;
    const cx = Math.cos(angle);
    const base = `seat${place === 0 && this.me.seat !== null ? " seat-me" : ""}${cx > 0.3 ? " seat-east" : ""}`;
    const el = h("div", { id: `seat-${seat}`, class: base, role: "group", dataset: { base } },
      h("div", { class: "seat-top" },
        h("div", { class: "avatar", "aria-hidden": "true" },
          ringIcon(),
          h("span", { class: "initial" }),
          h("span", { class: "owe-badge", hidden: true })),
        h("div", { class: "seat-last", "aria-hidden": "true" })),
      h("div", { class: "seat-body" },
        h("p", { class: "seat-title" }),
        h("div", { class: "backs", "aria-hidden": "true" }),
        h("p", { class: "seat-facts", "aria-hidden": "true" })),
      h("span", { class: "sr-only seat-said" }));
    el.style.setProperty("--cx", cx.toFixed(4));
    el.style.setProperty("--cy", Math.sin(angle).toFixed(4));
    return el;
  }

  openDrawer(open) {
    const drawer = document.getElementById("drawer");
    const button = document.getElementById("log-open");
    if (!drawer || !button) return;
    drawer.classList.toggle("drawer-open", open);
    button.setAttribute("aria-expanded", String(open));
    // Closed on a phone, it is out of sight and out of the tab order; on a wide screen it is
    // always the side panel (style.css), so it is never inert there.
    drawer.inert = !open && !WIDE.matches;
    if (open) document.getElementById("log")?.focus();
    else if (document.activeElement && drawer.contains(document.activeElement)) button.focus();
    if (open) {
      const list = document.getElementById("log");
      list.scrollTop = list.scrollHeight;
    }
  }

  toggleMute() {
    setMuted(!isMuted());
    const button = document.getElementById("mute");
    if (button) button.setAttribute("aria-pressed", String(isMuted()));
  }

  fillGame() {
    const v = this.game.view;
    const rules = this.table.rules;
    const seats = this.table.seats;
    const tally = this.tallyText();
    const tallyEl = document.getElementById("tally");
    tallyEl.hidden = !tally;
    tallyEl.textContent = tally ? t("tally.title", { tally }) : "";
    const totalEl = document.getElementById("total");
    totalEl.textContent = formatNumber(v.total);
    this.shownTotal = v.total;
    this.counting = (this.counting || 0) + 1; // a count-up still running stops here
    const turnEl = document.getElementById("turn");
    turnEl.textContent = v.over ? t("turn.over") : this.turnText(v);
    turnEl.classList.toggle("turn-mine", v.to_play === this.me.seat && !v.over);
    // A tab in the background still says when it is your turn.
    document.title = v.to_play === this.me.seat && !v.over ? t("app.title.your_turn") : t("app.title");
    const away = !v.over && v.to_play !== null && seats[v.to_play]?.kind === "human" && this.game.turn?.auto;
    if (away) turnEl.textContent += t("turn.auto");
    const direction = v.direction === "cw" ? t("direction.cw") : t("direction.ccw");
    document.getElementById("direction").textContent = direction;
    // The arrows round the middle turn over on a Reverse (a CSS transition).
    document.getElementById("dir").classList.toggle("dir-ccw", v.direction === "ccw");
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
      v.discard_top ? `${t("piles.top")} ${cardLabel(v.discard_top, rules.edition)}` : t("piles.empty"),
      ` · ${direction}`,
    );
    document.getElementById("draw-count").textContent = formatNumber(v.draw_pile);
    document.getElementById("draw-pile").classList.toggle("pile-empty", !v.draw_pile);
    this.fillPile(v, rules);
    this.fillHand(v, rules);
    this.fillSeats(v, seats, rules);
    this.fillLog();
    this.fillEnd(v);
    this.fillPause();
    this.fillHostSeats();
  }

  // The discard pile: the last few cards played this round, the newest on top.
  fillPile(v, rules) {
    let cards = this.pile.slice(-3);
    if (v.discard_top && cards[cards.length - 1] !== v.discard_top) cards = [...cards.slice(-2), v.discard_top];
    if (!v.discard_top) cards = [];
    document.getElementById("discard").replaceChildren(
      ...cards.map((c, i) => {
        const face = cardFace(c, rules.edition);
        face.classList.add("pile-card");
        face.style.setProperty("--i", String(cards.length - 1 - i));
        return face;
      }),
    );
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
    if (v.hand === null || this.me.seat === null) { // watching (a view of a seat just left, too)
      box.replaceChildren(h("p", { class: "hint" }, t("hand.spectator")));
      actions.replaceChildren();
      document.getElementById("hand-hint").textContent = "";
      return;
    }
    const legal = new Set(this.pending ? [] : v.legal);
    const hint = this.hint && this.hint.moves === this.game.moves && this.hint.game === this.game.game ? this.hint : null;
    const chances = new Map((hint?.actions || []).map((a) => [a.action, a.chance]));
    const chanceTag = (action) =>
      chances.has(action)
        ? h("span", { class: `chance${hint.choice === action ? " chance-best" : ""}`, title: t("hint.chance") }, formatPercent(chances.get(action)))
        : null;
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
            dataset: { index: String(i), card: name },
            onclick: () => (ok ? this.act(action) : this.why(action, label)),
          },
          cardFace(name, rules.edition),
          h("span", { class: "key", "aria-hidden": "true" }, String(i + 1)),
          ok ? chanceTag(action) : null,
        );
      }),
    );
    if (!v.hand.length) box.replaceChildren(h("p", { class: "hint" }, t("hand.empty")));
    const handHint = document.getElementById("hand-hint");
    const canPlay = v.hand.some((name) => legal.has(`play ${name}`));
    const out = !v.over && v.status[this.me.seat] !== "in";
    handHint.textContent = this.pending ? t("hand.sent") : canPlay ? t("hand.pick") : out ? t(`hand.${v.status[this.me.seat]}`) : "";
    const buttons = [];
    if (legal.has("draw")) {
      buttons.push(h("button", { type: "button", class: "primary draw", onclick: () => this.act("draw") }, t("hand.draw"), chanceTag("draw")));
    }
    if (legal.has("discard ono99")) {
      buttons.push(h("button", { type: "button", class: "primary discard", onclick: () => this.act("discard ono99") }, t("hand.discard"), chanceTag("discard ono99")));
    }
    // The expert's hint, as the terminal's `hint`: each move's chance of winning.
    if (this.table.hints !== false && v.to_play === this.me.seat && !v.over && legal.size > 1) {
      const asked = this.hintAsked === `${this.game.game}|${this.game.moves}`;
      buttons.push(h("button", { type: "button", id: "hint", class: "hint-button", disabled: asked, onclick: () => this.askHint() },
        hint ? t("hint.shown") : asked ? t("hint.thinking") : t("hint.ask")));
    }
    actions.replaceChildren(...buttons);
    if (focused !== null && focused !== undefined) {
      const again = box.querySelector(`[data-index="${focused}"]`) || box.querySelector("button");
      if (again) again.focus();
    }
  }

  askHint() {
    if (!this.game || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.hintAsked = `${this.game.game}|${this.game.moves}`;
    this.send({ type: "hint", id: "hint" });
    this.fillGame();
  }

  actionLabel(action) {
    const edition = this.table.rules.edition;
    if (action.startsWith("play ")) return cardLabel(action.slice(5), edition);
    return action === "draw" ? t("hand.draw") : t("hand.discard");
  }

  // Why a greyed card cannot be played, in words anyone can see: the client does not judge
  // the rules a second time, it asks the server, which refuses the move with the engine's
  // reason (docs/protocol.md, `error`), worded here as the terminal words it.
  why(action, label) {
    if (!this.game || this.game.view.hand === null) return;
    const key = `${this.game.moves}|${action}`;
    const known = this.refusals.get(key);
    if (known) return this.showRefusal(known);
    const asking = this.probe && performance.now() - this.probe.sent < 3000; // one at a time
    if (this.pending || asking || !this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return this.showRefusal(t("hand.cannot", { card: label }));
    }
    this.probe = { id: `why-${++this.probes}`, key, sent: performance.now() };
    this.send({ type: "act", action, moves: this.game.moves, id: this.probe.id });
  }

  showRefusal(text) {
    const box = document.getElementById("refusal");
    if (!box) return;
    box.textContent = text;
    box.hidden = false;
    say(text);
    clearTimeout(this.refusalTimer);
    this.refusalTimer = setTimeout(() => {
      box.hidden = true;
    }, 5000);
  }

  fillSeats(v, seats, rules) {
    const turn = this.game.turn;
    for (const s of seats) {
      const i = s.seat;
      const el = this.seatEls?.[i];
      if (!el) continue;
      const now = i === v.to_play && !v.over;
      el.className = `${el.dataset.base} seat-${v.status[i]}${now ? " seat-turn" : ""}${v.winners.includes(i) ? " seat-winner" : ""}`;
      el.toggleAttribute("aria-current", now);
      const name = s.name ?? t("seat.waiting");
      el.querySelector(".initial").textContent = Array.from(name)[0]?.toUpperCase() || "?";
      const title = s.seat === this.me.seat ? t("seat.you", { name }) : name;
      el.querySelector(".seat-title").replaceChildren(h("strong", {}, title));
      const facts = [];
      if (v.status[i] !== "in") facts.push(t(`status.${v.status[i]}`));
      if (v.tokens) facts.push(tn("seat.tokens", v.tokens[i]));
      if (v.scores) facts.push(t("seat.score", { score: formatNumber(v.scores[i]) }));
      if (v.owes_draw.includes(i)) facts.push(t("seat.owes_draw"));
      if (i === v.dealer) facts.push(t("seat.dealer"));
      el.querySelector(".seat-facts").textContent = facts.join(" · ");
      const backs = el.querySelector(".backs");
      const count = v.hand_sizes[i];
      if (backs.childElementCount !== Math.min(count, 8) + 1) {
        backs.replaceChildren(
          ...Array.from({ length: Math.min(count, 8) }, () => h("span", { class: "back" })),
          h("span", { class: "backs-count" }, formatNumber(count)),
        );
      } else backs.lastChild.textContent = formatNumber(count);
      const badge = el.querySelector(".owe-badge");
      const owes = now && v.owed === 2 ? "×2" : now && v.second_card ? "+1" : "";
      badge.hidden = !owes;
      badge.textContent = owes;
      const last = this.lastCards[i];
      el.querySelector(".seat-last").replaceChildren(...(last ? [cardFace(last, rules.edition, { small: true })] : []));
      // What a screen reader reads for the seat: everything the picture shows, in words.
      const said = [this.seatLine(s), tn("seat.cards", count), t(`status.${v.status[i]}`), ...facts.slice(v.status[i] !== "in" ? 1 : 0)];
      if (now && v.owed === 2) said.push(t("seat.owes.two"));
      else if (now && v.second_card) said.push(t("seat.owes.one"));
      if (last) said.push(t("seat.last", { card: cardLabel(last, rules.edition) }));
      if (now) said.push(t("seat.turn_now"));
      el.querySelector(".seat-said").textContent = said.join(" · ");
      if (!now) this.setRing(el, null);
      else if (!turn?.seconds) this.setRing(el, 1);
    }
  }

  // The ring around the avatar of the seat to play: full, emptying as its turn timer runs.
  setRing(el, fraction) {
    const ring = el.querySelector(".ring-fill");
    if (!ring) return;
    ring.style.strokeDashoffset = fraction === null ? "100" : String(100 - 100 * Math.max(0, Math.min(1, fraction)));
    el.classList.toggle("ring-low", fraction !== null && fraction < 0.2 && !!this.game?.turn?.seconds);
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

  // The finishing order, as the terminal game prints it (cli/play_screen.py, outro): the
  // winners, then the others from the last one out to the first, from the view's `winners`
  // and `out` (seats out of the game, in the order they left).
  // A seat neither winner nor out (possible in a points match) comes after them, by more
  // tokens or fewer points; the terminal lists those matches by seat instead.
  finishingOrder(v) {
    const order = [...v.winners, ...[...v.out].reverse().filter((s) => !v.winners.includes(s))];
    const rest = this.table.seats.map((s) => s.seat).filter((s) => !order.includes(s));
    const key = (s) => (v.tokens ? -v.tokens[s] : v.scores ? v.scores[s] : 0);
    rest.sort((a, b) => key(a) - key(b) || a - b);
    return [...order.slice(0, v.winners.length), ...rest, ...order.slice(v.winners.length)];
  }

  // The running tally across the table's games ("Mum 2 · Leo 1"), from the table message;
  // empty before any game at the table has finished.
  tallyText() {
    const wins = this.table.tally || [];
    if (!wins.some(Boolean)) return "";
    return this.table.seats.map((s) => `${s.name ?? t("seat.open")} ${formatNumber(wins[s.seat] || 0)}`).join(" · ");
  }

  // Between the rounds of a match: the round's summary, over the table, while the server holds
  // the next round (the table's `pause`) until everyone continues or the pause runs out.
  fillPause() {
    const box = document.getElementById("round-summary");
    const pause = this.table.pause;
    const s = this.roundSummary && this.roundSummary.round === pause?.round ? this.roundSummary : null;
    // Shown once the table has shown the move that ended the round (updates are queued).
    if (!pause || this.game?.view?.over || (s && this.game.moves < s.moves)) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const wasHidden = box.hidden;
    box.hidden = false;
    const nameOf = (seat) => this.table.seats[seat]?.name ?? this.nameOf(seat); // never "you loses"
    const items = [];
    for (const l of s?.lost || []) items.push(h("li", { class: "round-lost" }, t("round.lost_token", { name: nameOf(l.seat), left: formatNumber(l.left) })));
    for (const seat of s?.left || []) items.push(h("li", { class: "round-lost" }, t("round.left", { name: nameOf(seat) })));
    for (const r of s?.rows || []) {
      const parts = [];
      if (r.cards !== undefined) {
        if (r.cards) parts.push(t("round.cards", { points: formatNumber(r.cards) }));
        if (r.short) parts.push(t("round.short", { count: formatNumber(r.short), points: formatNumber(r.shortPoints) }));
        if (r.bust) parts.push(t("round.bust", { points: formatNumber(r.bust) }));
      }
      items.push(h("li", { dataset: { seat: String(r.seat) } },
        h("strong", {}, t("round.points", { name: nameOf(r.seat), points: formatNumber(r.points) })),
        parts.length ? ` = ${parts.join(" + ")}` : "",
        r.score !== null ? ` · ${t("seat.score", { score: formatNumber(r.score) })}` : ""));
    }
    const me = this.me.seat;
    const mine = me !== null && pause.waiting.includes(me);
    const others = pause.waiting.filter((x) => x !== me);
    box.replaceChildren(
      h("h2", { id: "round-title", tabindex: "-1" }, t("round.title", { round: formatNumber(pause.round) })),
      h("ul", { class: "round-rows" }, ...items),
      others.length ? h("p", { class: "hint", id: "round-waiting" }, t("round.waiting", { names: listOf(others.map((x) => this.nameOf(x))) })) : null,
      h("p", { id: "pause-countdown", class: "countdown", role: "timer" }),
      mine ? h("div", { class: "buttons" }, h("button", { type: "button", id: "continue", class: "primary", onclick: () => this.send({ type: "continue" }) }, t("round.continue"))) : null,
    );
    this.tick();
    if (wasHidden) (box.querySelector("#continue") || box.querySelector("h2")).focus();
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
    const seats = this.table.seats;
    const standings = this.finishingOrder(v).map((seat, i) => {
      const s = seats[seat];
      const place = winners.includes(seat) ? 1 : i + 1; // winners share the first place
      const facts = [];
      if (v.scores) facts.push(t("seat.score", { score: formatNumber(v.scores[seat]) }));
      if (v.tokens) facts.push(tn("seat.tokens", v.tokens[seat]));
      facts.push(winners.includes(seat) ? t("end.winner") : t(`status.${v.status[seat]}`));
      const name = seat === this.me.seat ? t("seat.you", { name: s.name }) : s.name;
      return h("li", { class: `standing${winners.includes(seat) ? " standing-winner" : ""}`, dataset: { seat: String(seat) } },
        h("span", { class: "place" }, has(`end.place.${place}`) ? t(`end.place.${place}`) : formatNumber(place)),
        h("span", { class: "standing-who" }, h("strong", {}, name), ` — ${facts.join(" · ")}`));
    });
    end.replaceChildren(
      h("h2", { id: "end-title", tabindex: "-1" }, title),
      h("ol", { class: "standings" }, ...standings),
      this.tallyText() ? h("p", { id: "end-tally", class: "tally" }, t("tally.title", { tally: this.tallyText() })) : null,
      this.nextGame(),
      h("div", { class: "buttons" },
        this.rulesButton(),
        h("a", { class: "button", href: `/t/${this.code}/replay/${game}` }, t("end.replay")),
        h("a", { class: "button", href: api.recordUrl(this.code, game), download: `ono99-${this.code}-game${game}.json` }, t("end.record")),
      ),
    );
    if (wasHidden) end.querySelector("h2").focus();
  }

  // ---------------------------------------------------------------- moves, one at a time

  // Updates are shown as a queue, each at a pace one can follow: the card travels from its
  // seat to the pile while the total counts up, then the table shows the new state. A long
  // queue (quick bots, a slow tab) goes faster, so the table is never far behind the game;
  // with reduced motion, or in a hidden tab, each update is shown at once.
  pace() {
    if (this.hurrying || REDUCED.matches || document.hidden) return 0;
    const waiting = this.queue.length; // behind the one about to be shown
    return waiting === 0 ? PACE_MS : Math.max(MIN_PACE_MS, (2 * PACE_MS) / (waiting + 2));
  }

  async drain() {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length) {
        const m = this.queue.shift();
        if (!this.game || m.game !== this.game.game) continue;
        await this.showUpdate(m, this.epoch);
      }
    } finally {
      this.draining = false;
      this.hurrying = false;
    }
  }

  // Show what is queued at once: the move on screen lands now, the rest without motion.
  hurry() {
    this.hurrying = true;
    if (this.wake) this.wake();
  }

  // A pause of the queue that hurry() cuts short.
  pause(ms) {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  async showUpdate(m, epoch) {
    const ms = this.pace();
    const cards = m.events.filter((ev) => ev.kind === "play" || ev.kind === "discard");
    if (ms > 0 && cards.length && this.screen === "game") {
      const step = (ms * 0.75) / cards.length;
      for (const ev of cards) {
        this.flyCard(ev, step);
        this.countTo(ev.total, step);
        sound("card");
        await this.pause(step);
        if (epoch !== this.epoch) return;
        if (this.hurrying) break;
      }
    } else if (cards.length) sound("card");
    if (epoch !== this.epoch || !this.game || m.game !== this.game.game) return;
    this.apply(m);
    if (ms > 0 && !this.hurrying) await this.pause(ms * 0.25);
  }

  apply(m) {
    const before = this.game.view;
    this.pending = null;
    this.game.moves = m.moves;
    this.game.view = m.view;
    this.remember(m.events, m.view, m.seat);
    this.addLog(withBy(m.events, [m.by]));
    this.setTurn(m.turn, m.arrived);
    this.render();
    // For benchmarks and tests: this update is now on screen (its card has landed).
    document.dispatchEvent(new CustomEvent("ono99:shown", { detail: { moves: m.moves, arrived: m.arrived } }));
    const kinds = new Set(m.events.map((ev) => ev.kind));
    if (kinds.has("over")) sound("win");
    else if (kinds.has("eliminated") || kinds.has("out_of_round") || kinds.has("left")) sound("out");
    else if (m.view.to_play === this.me.seat && (before.to_play !== this.me.seat || m.seat !== this.me.seat)) sound("turn");
  }

  // The table's memory of the round, from the public events: the last few cards on the
  // discard pile, and each seat's last card, which stays beside it until its next turn.
  remember(events, v, actor) {
    for (const ev of events) {
      if (ev.kind === "deal") {
        this.pile = [];
        this.lastCards = {};
      } else if (ev.kind === "play" || ev.kind === "discard") {
        this.pile.push(ev.card);
        if (this.pile.length > 6) this.pile.shift();
        this.lastCards[ev.seat] = ev.card;
      } else if (ev.kind === "reshuffle") {
        this.pile = this.pile.slice(-1);
      }
    }
    if (v && !v.over && v.to_play !== null && v.to_play !== actor) delete this.lastCards[v.to_play];
  }

  // The whole story so far (on connecting): who acted last decides whose card stays.
  rememberAll(log, v) {
    this.pile = [];
    this.lastCards = {};
    let actor = null;
    for (const ev of log) {
      if (["play", "discard", "draw"].includes(ev.kind)) actor = ev.seat;
      this.remember([ev], null, null);
    }
    if (v && !v.over && v.to_play !== null && v.to_play !== actor) delete this.lastCards[v.to_play];
  }

  // A copy of the card flies from the seat (or from your hand) to the discard pile.
  flyCard(ev, ms) {
    const target = document.getElementById("discard");
    let source = document.querySelector(`#seat-${ev.seat} .avatar`);
    if (ev.seat === this.me.seat) {
      const mine = document.querySelector(`#hand .hand-card[data-card="${CSS.escape(ev.card)}"]`);
      if (mine) {
        source = mine;
        mine.classList.add("leaving");
      }
    }
    if (!target || !source) return;
    const from = source.getBoundingClientRect();
    const to = target.getBoundingClientRect();
    const face = cardFace(ev.card, this.table.rules.edition);
    face.classList.add("flying");
    face.setAttribute("aria-hidden", "true");
    Object.assign(face.style, { left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px` });
    document.body.append(face);
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

  // The total counts up (or down) to its new value.
  countTo(total, ms) {
    const el = document.getElementById("total");
    if (!el) return;
    const from = this.shownTotal ?? total;
    const run = (this.counting = (this.counting || 0) + 1);
    const start = performance.now();
    const step = (now) => {
      if (run !== this.counting) return;
      const f = Math.min(1, (now - start) / ms);
      const eased = 1 - (1 - f) ** 3;
      el.textContent = formatNumber(Math.round(from + (total - from) * eased));
      if (f < 1) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
    this.shownTotal = total;
    el.classList.remove("total-bump");
    void el.offsetWidth; // restart the bump
    el.classList.add("total-bump");
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
    if (e.key === "Escape" && document.getElementById("drawer")?.classList.contains("drawer-open")) {
      this.openDrawer(false);
      return;
    }
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
      else this.why(`play ${card}`, cardLabel(card, this.table.rules.edition));
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
