// A generic renderer for any game's view: the view is plain JSON, drawn by its shape.
// Lists of players become seat panels, lists of lists grids, things with a `face`
// dice, lists of strings cards (null: a face-down card), numbers and flags small facts.
import { el } from "./common.js";

const DIE_PIPS = { 1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅" };

export function label(key) {
  // A map keyed by component ids (a card's price, say) reads by the components' names.
  if (Object.hasOwn(componentNames, key)) return componentNames[key];
  return String(key).replace(/_/g, " ");
}

function isScalar(v) { return v === null || ["string", "number", "boolean"].includes(typeof v); }

function seatName(names, i) { return names && names[i] !== undefined ? names[i] : `seat ${i + 1}`; }

// Which fields hold seats: those the game annotates `Seat` (the view's `seat_keys`),
// and the usual names for seats. The JSON counts seats from 0; people read names.
const SEAT_NAMED = /(^|_)(seat|holder|winner|player|target|you|reader|starter|dealer|initiator|resolver|declared)s?$/;
let seatKeys = new Set();
// Which lists hold one entry per seat: those the game annotates `BySeat` (the view's
// `seat_lists`); each entry is drawn in its seat's panel, under the player's name.
let seatLists = new Set();
// What the table calls each of the game's components, by id (GET /api/games/{game}/
// components): a card reads "Baron Goro (Terra, Human)", not "agent 52".
let componentNames = {};

export function nameComponents(names) { componentNames = names || {}; }

export function isSeatKey(key) { return SEAT_NAMED.test(key) || seatKeys.has(key); }

// A seat as people read it: its player's name, or its number counted from 1.
export function seatLabel(names, v) {
  return typeof v === "number" && Number.isInteger(v) ? seatName(names, v) : pretty(v);
}

function card(v) {
  if (v === null) return el("span", { class: "card back", title: "face down" }, "🂠");
  return el("span", { class: "card", "data-id": v }, pretty(v));
}

export function pretty(v) {
  if (typeof v !== "string") return String(v);
  if (Object.hasOwn(componentNames, v)) return componentNames[v];
  // Component ids read better without their game prefix ("ll-guard-3" -> "guard 3"), and
  // words joined for the JSON apart again ("double_chicken" -> "double chicken").
  return v.replace(/^[a-z]{2,3}-/, "").replace(/[-_]/g, " ");
}

function isDie(v) {
  return v && typeof v === "object" && !Array.isArray(v) && ("face" in v || "pips" in v);
}

function die(v) {
  const face = v.face ?? v.pips;
  const shown = typeof face === "number" && DIE_PIPS[face] ? DIE_PIPS[face] : pretty(face);
  const colour = v.colour || v.color || "";
  return el("span", { class: `die ${colour}`, title: JSON.stringify(v) }, shown,
    el("small", {}, colour ? ` ${colour}` : ""));
}

function isGrid(v) {
  return Array.isArray(v) && v.length > 0 && v.every((row) => Array.isArray(row) && row.every(isScalar))
    && v.some((row) => row.length > 1);
}

function grid(v) {
  return el("table", { class: "grid" }, el("tbody", {},
    v.map((row) => el("tr", {}, row.map((c) => el("td", {}, c === null ? "·" : pretty(c)))))));
}

// One entry per seat: a list named for seats, or whose entries say their seat.
function isSeatList(key, v, names) {
  return Array.isArray(v) && v.length === names.length && v.length > 0
    && v.every((x) => x && typeof x === "object" && !Array.isArray(x) && !isDie(x))
    && (/^(players|seats|hands|boards|sheets)$/.test(key) || seatLists.has(key)
      || v.every((x) => "seat" in x));
}

export function value(v, names, key = "") {
  if (v === null) return el("span", { class: "muted" }, "—");
  if (typeof v === "boolean") return el("span", { class: v ? "yes" : "no" }, v ? "yes" : "no");
  if (typeof v === "number") {
    if (isSeatKey(key) && Number.isInteger(v) && v >= 0) {
      return el("span", { class: "seatref" }, seatName(names, v));
    }
    return el("span", { class: "num" }, String(v));
  }
  if (typeof v === "string") return el("span", {}, pretty(v));
  if (Array.isArray(v)) {
    if (v.length === 0) return el("span", { class: "muted" }, "none");
    if (v.every(isDie)) return el("span", { class: "dice" }, v.map(die));
    if (isGrid(v)) return grid(v);
    const hand = /hand|deck|cards|pile|draw/.test(key);
    if (v.every((x) => x === null || typeof x === "string") && (hand || v.some((x) => x !== null))) {
      return el("span", { class: "cards" }, v.map(card));
    }
    if (v.every(isScalar)) return el("span", { class: "list" }, v.map((x) => value(x, names, key)));
    return el("div", { class: "sub" }, v.map((x) => value(x, names, key)));
  }
  if (isDie(v)) return die(v);
  return facts(v, names);
}

export function facts(obj, names) {
  return el("dl", { class: "facts" }, Object.entries(obj).map(([k, v]) => [
    el("dt", {}, label(k)), el("dd", {}, value(v, names, k)),
  ]));
}

// The whole view: header facts (status, whose turn, scores), then seats, then the rest.
export function renderView(view) {
  const names = view.names || [];
  const table = view.table || {};
  const you = view.you;
  seatKeys = new Set(view.seat_keys || []);
  seatLists = new Set(view.seat_lists || []);
  const out = el("div", { class: "view" });
  const turn = (view.to_act || []).map((s) => (s === you ? "you" : seatName(names, s)));
  out.append(el("section", { class: "panel status", "aria-live": "polite" },
    el("div", {}, el("b", {}, view.title || view.game),
      ` · ${view.status}${view.unlisted ? " · unlisted" : ""} · version ${view.version}`),
    view.status === "playing"
      ? el("div", { class: turn.includes("you") ? "turn mine" : "turn" },
        "To act: ", turn.join(", ") || "nobody")
      : null,
    view.status === "closed"
      ? el("div", { id: "closed" }, "This table was closed before its match began.")
      : null,
    options(view.options),
    view.outcome ? outcome(view.outcome, names, you) : null));

  const seats = el("section", { class: "panel seats" }, el("h2", {}, "Seats"));
  const seatList = Object.entries(table).find(([k, v]) => isSeatList(k, v, names));
  // The game's other lists of one entry per seat join the seat panels too, each entry
  // under its own label: a hand beside its player's name rather than in a bare list.
  const bySeat = Object.entries(table).filter(([k, v]) => seatLists.has(k) && Array.isArray(v)
    && v.length === names.length && !(seatList && k === seatList[0]));
  const scores = Array.isArray(table.scores) && table.scores.length === names.length ? table.scores : null;
  names.forEach((name, i) => {
    const mine = i === you;
    const info = seatList ? { ...seatList[1][i] } : {};
    delete info.seat;
    for (const [k, v] of bySeat) info[k] = v[i];
    const absent = (view.conceded || []).includes(i);
    const box = el("div", { class: `seat${mine ? " mine" : ""}${(view.to_act || []).includes(i) ? " acting" : ""}`,
      "data-seat": i },
      el("h3", {}, mine ? `${name} (you)` : name, scores ? el("span", { class: "score" }, ` ${scores[i]} ${Math.abs(scores[i]) === 1 ? "pt" : "pts"}`) : null,
        absent ? el("span", { class: "absent" }, " · absent") : null),
      view.clock ? seatClock(view.clock, i, view.status) : null,
      Object.keys(info).length ? facts(info, names) : null);
    seats.append(box);
  });
  out.append(seats);

  const rest = Object.fromEntries(Object.entries(table).filter(([k]) =>
    !(seatList && k === seatList[0]) && !(scores && k === "scores")
    && !bySeat.some(([key]) => key === k)));
  if (Object.keys(rest).length) {
    out.append(el("section", { class: "panel table" }, el("h2", {}, "Table"), facts(rest, names)));
  }
  return out;
}

// The options the table was opened with, under its status.
function options(chosen) {
  const entries = Object.entries(chosen || {});
  if (!entries.length) return null;
  const shown = (v) => (v === true ? "yes" : v === false ? "no" : v === null ? "any" : pretty(v));
  return el("div", { class: "options muted", id: "table-options" },
    "Options: ", entries.map(([k, v]) => `${label(k)}: ${shown(v)}`).join(", "));
}

function outcome(o, names, you) {
  const rows = names.map((n, i) => ({ n: i === you ? `${n} (you)` : n, rank: o.ranks[i], score: o.scores[i] }))
    .sort((a, b) => a.rank - b.rank);
  return el("ol", { class: "outcome" }, rows.map((r) => el("li", {}, `${r.n}: rank ${r.rank}, ${r.score} points`)));
}

// How a command reads on its button: its kind, then its fields.
export function describeCommand(choice, cmd, names) {
  const parts = Object.entries(cmd).filter(([k]) => k !== "type").map(([k, v]) => {
    let shown = v;
    if (v === null) return null;
    if (Array.isArray(v) && v.length === 0) shown = "none";
    else if (isSeatKey(k)) {
      shown = Array.isArray(v) ? v.map((s) => seatLabel(names, s)).join(" & ") : seatLabel(names, v);
    } else if (Array.isArray(v)) shown = v.map(pretty).join(", ");
    else shown = pretty(v);
    return `${label(k)} ${shown}`;
  }).filter(Boolean);
  return choice.title.replace(/([a-z])([A-Z])/g, "$1 $2") + (parts.length ? ": " + parts.join(", ") : "");
}

// A seat's clock: its time left, counting down in the browser while it runs, from the
// server's numbers (`since` and `server_now` are the server's clock: the page keeps
// the difference to its own).
function seatClock(clock, seat, status) {
  const running = status === "playing" && (clock.running || []).includes(seat);
  const attrs = { class: `clock${running ? " running" : ""}`, "data-seat": seat, role: "timer",
    "aria-label": "time left" };
  if (running) attrs["data-deadline"] = String(clock.since + clock.remaining[seat]);
  return el("div", attrs, formatLeft(clock.remaining[seat]));
}

export function formatLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  if (d) return `${d}d ${h}h ${pad(m)}m`;
  if (h) return `${h}:${pad(m)}:${pad(s % 60)}`;
  return `${m}:${pad(s % 60)}`;
}

// Every running clock on the page, at `serverNow` (the server's time, estimated).
export function tickClocks(root, serverNow) {
  for (const node of root.querySelectorAll(".clock.running")) {
    const left = Number(node.dataset.deadline) - serverNow;
    node.textContent = formatLeft(left);
    node.classList.toggle("low", left < 10_000);
  }
}
