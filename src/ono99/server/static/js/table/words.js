// The table's facts in the reader's words, worked out from the state alone: who a seat is,
// whose turn it is, the rules, the tally, the finishing order. Every view asks here; none of
// them words these a second time.
import { botLabel } from "../cards.js";
import { h } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";
import { optionApplies, optionKey } from "../rules.js";

/** @typedef {import("./store.js").TableState} TableState */
/** @typedef {import("../types.js").TableMessage} TableMessage */
/** @typedef {import("../types.js").SeatInfo} SeatInfo */
/** @typedef {import("../types.js").View} View */

/**
 * Each seat's name: a seat whose person left keeps their name until someone takes it.
 * @param {TableState} s
 * @returns {string[]}
 */
export function names(s) {
  return (s.table?.seats || []).map((seat) => seat.name ?? t("seat.waiting"));
}

/**
 * A seat as the reader says it: "You" for their own.
 * @param {TableState} s
 * @param {number} seat
 */
export function nameOf(s, seat) {
  if (seat === s.me.seat) return t("you");
  return names(s)[seat] ?? t("seat.numbered", { n: seat + 1 });
}

/**
 * A seat's name as others say it (never "you loses"), e.g. in the round's summary.
 * @param {TableState} s
 * @param {number} seat
 */
export function thirdPerson(s, seat) {
  return s.table?.seats[seat]?.name ?? nameOf(s, seat);
}

/**
 * One seat's line in the lobby and the host's list: name, bot, away, host.
 * @param {TableState} s
 * @param {SeatInfo} seat
 */
export function seatLine(s, seat) {
  if (seat.open && seat.left && seat.name) return t("seat.left_by", { name: seat.name });
  if (seat.open) return t("seat.open");
  const name = seat.name ?? t("seat.waiting");
  const parts = [seat.seat === s.me.seat ? t("seat.you", { name }) : name];
  if (seat.kind === "bot") parts.push(t("seat.bot", { bot: botLabel(seat.bot ?? "") }));
  else if (seat.away) parts.push(t("seat.away"));
  else if (!seat.connected) parts.push(t("seat.offline"));
  if (seat.seat === s.table?.host_seat) parts.push(t("seat.host"));
  return parts.join(" · ");
}

/**
 * Whose turn it is, and how many cards they still owe: two after a Play 2, then one more.
 * @param {TableState} s
 * @param {View} v
 */
export function turnText(s, v) {
  if (v.to_play === s.me.seat) return v.owed === 2 ? t("turn.you.two") : v.second_card ? t("turn.you.second") : t("turn.you");
  const name = nameOf(s, v.to_play ?? 0);
  return v.owed === 2 ? t("turn.other.two", { name }) : v.second_card ? t("turn.other.second", { name }) : t("turn.other", { name });
}

/**
 * The table as the lobby and the join page show it: edition, players, rules, timer.
 * @param {import("../types.js").TableFacts} table
 */
export function rulesRows(table) {
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
  rows.push(...timerAndHints(table));
  return rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]);
}

/**
 * The few facts that decide whether to sit down: edition, match format, timer, hints.
 * @param {import("../types.js").TableFacts} table
 */
export function keyFacts(table) {
  const r = table.rules;
  return [
    [t("create.edition"), t(`edition.${r.edition}`)],
    [t("option.match"), t(`option.match.${r.match}`)],
    ...timerAndHints(table),
  ].flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]);
}

/** @param {import("../types.js").TableFacts} table */
function timerAndHints(table) {
  return [
    [t("create.timer"), table.turn_seconds ? tn("create.timer.seconds", table.turn_seconds) : t("create.timer.off")],
    [t("create.hints"), table.hints === false ? t("no") : t("yes")],
  ];
}

/**
 * What the host may change between games, as one text to compare two table messages by.
 * @param {import("../types.js").TableFacts} table
 */
export function rulesOf(table) {
  return JSON.stringify([table.rules, table.turn_seconds, table.hints]);
}

/**
 * The running tally across the table's games ("Mum 2 · Leo 1"); empty before any game at the
 * table has finished. A seat whose person left is still theirs here.
 * @param {TableState} s
 */
export function tallyText(s) {
  const wins = s.table?.tally || [];
  if (!wins.some(Boolean)) return "";
  return (s.table?.seats || []).map((seat) => `${seat.name ?? t("seat.open")} ${formatNumber(wins[seat.seat] || 0)}`).join(" · ");
}

/**
 * The finishing order, as the terminal game prints it (cli/play_screen.py, outro): the
 * winners, then the others from the last one out to the first, from the view's `winners` and
 * `out`. A seat neither winner nor out (possible in a points match) comes after the winners,
 * by more tokens or fewer points.
 * @param {number[]} seats  every seat's number
 * @param {View} v
 */
export function finishingOrder(seats, v) {
  const order = [...v.winners, ...[...v.out].reverse().filter((s) => !v.winners.includes(s))];
  const rest = seats.filter((s) => !order.includes(s));
  /** @param {number} s */
  const key = (s) => (v.tokens ? -v.tokens[s] : v.scores ? v.scores[s] : 0);
  rest.sort((a, b) => key(a) - key(b) || a - b);
  return [...order.slice(0, v.winners.length), ...rest, ...order.slice(v.winners.length)];
}
