// The lobby: sign in, the matches waiting for me and my notices, quick play, create a
// table (options form from the game's schema), the open tables with filters, my own
// tables, ratings.
import { api, devSignIn, el, header, param, say, signInAgain, socketTo, token } from "./common.js";
import { label } from "./render.js";

const root = document.getElementById("app");
const notice = el("p", { class: "notice", hidden: true, role: "alert", id: "notice" });
let games = [];

function signInForm() {
  const name = el("input", { id: "name", name: "name", required: true, maxlength: 32, autocomplete: "nickname", autofocus: true });
  return el("main", { class: "narrow" }, el("section", { class: "panel" },
    el("h2", {}, "Sign in"),
    el("form", { id: "signin", onsubmit: async (e) => {
      e.preventDefault();
      try {
        await devSignIn(name.value);
        const next = param("next");
        location.href = next && next.startsWith("/") ? next : "/";
      } catch (err) { say(notice, err.message); }
    } }, el("label", { for: "name" }, "Your name "), name, " ", el("button", { class: "primary" }, "Sign in")),
    el("p", { class: "muted" }, "Development sign-in: a platform signs players in through the gateway's secret.")));
}

function gameSelect(id) {
  return el("select", { id, name: "game" }, games.map((g) => el("option", { value: g.name }, g.title)));
}

function seatsInput(id, game) {
  return el("input", { id, type: "number", min: game.min_players, max: game.max_players,
    value: Math.max(game.min_players, Math.min(2, game.max_players)) });
}

// One input per option, by its JSON Schema type: a select for an enum, a number input
// within the schema's range, a checkbox for a boolean; an optional number may be left
// empty (null).
function optionsForm(game) {
  const schema = game.options_schema;
  const resolve = (s) => (s && s.$ref ? schema.$defs[s.$ref.split("/").pop()] : s);
  const body = resolve(schema);
  const inputs = {};
  const box = el("fieldset", { class: "options", id: "create-options" }, el("legend", {}, "Options"));
  for (const [name, prop] of Object.entries(body.properties || {})) {
    let p = resolve(prop);
    let nullable = false;
    if (p.anyOf) {
      const kinds = p.anyOf.map(resolve);
      nullable = kinds.some((k) => k.type === "null");
      p = kinds.find((k) => k.type !== "null") || {};
    }
    const id = `opt-${name}`;
    const fallback = prop.default ?? p.default;
    let input;
    if (p.type === "boolean") input = el("input", { id, type: "checkbox", checked: fallback === true });
    else if (p.enum) input = el("select", { id }, p.enum.map((v) => el("option", { value: JSON.stringify(v), selected: v === fallback }, label(String(v)))));
    else if (p.type === "integer" || p.type === "number") {
      input = el("input", { id, type: "number", step: p.type === "integer" ? 1 : "any",
        min: p.minimum ?? (p.exclusiveMinimum !== undefined ? p.exclusiveMinimum + 1 : undefined),
        max: p.maximum ?? (p.exclusiveMaximum !== undefined ? p.exclusiveMaximum - 1 : undefined),
        required: !nullable, value: fallback ?? "", placeholder: nullable ? "any" : undefined });
    } else input = el("input", { id, type: "text", maxlength: p.maxLength ?? 100, value: fallback ?? "" });
    input.name = name;
    inputs[name] = [input, p, nullable];
    const range = input.min !== "" && input.max !== "" && input.type === "number" ? ` (${input.min}–${input.max})` : "";
    box.append(el("label", { for: id }, label(name), range, " ", input));
  }
  if (!Object.keys(inputs).length) box.append(el("span", { class: "muted" }, "none"));
  box.read = () => Object.fromEntries(Object.entries(inputs).map(([n, [input, p, nullable]]) => {
    if (p.type === "boolean") return [n, input.checked];
    if (p.enum) return [n, JSON.parse(input.value)];
    if (p.type === "integer" || p.type === "number") {
      return [n, input.value === "" && nullable ? null : Number(input.value)];
    }
    return [n, input.value];
  }));
  return box;
}

// The matches waiting for me, and my latest notices, pushed as they come.
function turnsPanel() {
  const list = el("ul", { class: "turns", id: "my-turns" });
  const feed = el("ul", { class: "feed", id: "my-notices" });
  const refresh = async () => {
    try {
      const rows = await api("GET", "/api/me/turns");
      list.replaceChildren(...(rows.length ? rows.map((r) => el("li", {},
        el("a", { href: `/table?match=${r.match_id}` }, r.title), " with ", r.names.join(", ")))
        : [el("li", { class: "muted" }, "No match is waiting for you.")]));
    } catch (err) { say(notice, err.message); }
  };
  const show = (n) => el("li", { "data-kind": n.kind, "data-match": n.match_id },
    el("a", { href: n.kind === "match_finished" ? `/replay?match=${n.match_id}` : `/table?match=${n.match_id}` }, n.text || n.kind));
  let retry = 500;
  const listen = () => {
    const socket = socketTo("/api/me/notices/live");
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      retry = 500;
      // The turns are read once the socket is open (a notice made before then comes
      // only in the hello's backlog), and again with every notice.
      // One line per match, its newest: ten "Your turn at Chicken!" for a match since
      // finished told nothing the newest line does not.
      if (m.kind === "hello") {
        const newest = m.notices.slice().reverse()
          .filter((n, i, all) => all.findIndex((o) => o.match_id === n.match_id) === i);
        feed.replaceChildren(...newest.map(show)); refresh();
      }
      if (m.kind === "notice") {
        feed.querySelectorAll("li").forEach((li) => { if (li.dataset.match === m.notice.match_id) li.remove(); });
        feed.prepend(show(m.notice)); refresh();
        // The other panels read it too: a table started or ended, a match to rate.
        document.dispatchEvent(new CustomEvent("tabletop:notice", { detail: m.notice }));
      }
    };
    socket.onclose = (e) => {
      if (e.code === 4401) { signInAgain(); return; }
      setTimeout(listen, retry); retry = Math.min(retry * 2, 10000);
    };
  };
  listen();
  return el("section", { class: "panel", id: "turns-panel" }, el("h2", {}, "Your turn"), list,
    el("h3", {}, "Notices"), feed);
}

// The time control (docs/tables.md): none, a limit per move or a time bank with an
// increment, in seconds to days, and what follows when a seat runs out, among the
// expiries this game can follow.
const UNITS = [["seconds", 1], ["minutes", 60], ["hours", 3600], ["days", 86400]];
const EXPIRIES = { lose: "the seat loses", bot: "a bot plays the move", skip: "the turn is skipped" };

function clockForm(game) {
  const kind = el("select", { id: "clock-kind" },
    el("option", { value: "" }, "no clock"),
    el("option", { value: "move" }, "a limit per move"),
    el("option", { value: "bank" }, "a time bank"));
  const amount = el("input", { id: "clock-seconds", type: "number", min: 1, value: 2, required: true });
  const unit = el("select", { id: "clock-unit", "aria-label": "unit" }, UNITS.map(([n, f]) => el("option", { value: f, selected: n === "minutes" }, n)));
  const increment = el("input", { id: "clock-increment", type: "number", min: 0, value: 0 });
  const expiry = el("select", { id: "clock-expiry" }, (game.clock_expiries || ["lose"]).map((x) => el("option", { value: x }, EXPIRIES[x] || x)));
  const time = el("span", {}, " ", el("label", { for: "clock-seconds" }, "time "), amount, " ", unit);
  const inc = el("span", {}, " ", el("label", { for: "clock-increment" }, "plus, each turn (seconds) "), increment);
  const then = el("span", {}, " ", el("label", { for: "clock-expiry" }, "when it runs out "), expiry);
  const sync = () => { time.hidden = inc.hidden = then.hidden = !kind.value; inc.hidden ||= kind.value !== "bank"; };
  kind.onchange = sync; sync();
  const box = el("fieldset", { class: "options", id: "create-clock" }, el("legend", {}, "Clock"),
    el("label", { for: "clock-kind" }, "play with "), kind, time, inc, then);
  box.read = () => {
    if (!kind.value) return null;
    const clock = { kind: kind.value, seconds: Math.round(Number(amount.value) * Number(unit.value)), expiry: expiry.value };
    if (kind.value === "bank" && Number(increment.value)) clock.increment = Number(increment.value);
    return clock;
  };
  return box;
}

function playPanel() {
  const qGame = gameSelect("quick-game");
  const qSeats = el("span");
  const syncQuick = () => qSeats.replaceChildren(seatsInput("quick-seats", games.find((g) => g.name === qGame.value)));
  qGame.onchange = syncQuick; syncQuick();
  const quick = el("form", { id: "quick", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const seated = await api("POST", "/api/quickplay", { game: qGame.value, seats: Number(document.getElementById("quick-seats").value) });
      location.href = `/table?match=${seated.match_id}`;
    } catch (err) { say(notice, err.message); }
  } }, el("label", { for: "quick-game" }, "Game "), qGame, " ", el("label", {}, "players ", qSeats), " ",
    el("button", { class: "primary", id: "quick-play" }, "Quick play"));

  const cGame = gameSelect("create-game");
  const cSeats = el("span");
  const cOptions = el("div");
  let form = null;
  let clock = null;
  const syncCreate = () => {
    const g = games.find((x) => x.name === cGame.value);
    cSeats.replaceChildren(seatsInput("create-seats", g));
    form = optionsForm(g);
    clock = clockForm(g);
    cOptions.replaceChildren(form, clock);
  };
  cGame.onchange = syncCreate; syncCreate();
  const create = el("form", { id: "create", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const body = { game: cGame.value, seats: Number(document.getElementById("create-seats").value), options: form.read(),
        unlisted: document.getElementById("create-unlisted").checked };
      const timed = clock.read();
      if (timed) body.clock = timed;
      const made = await api("POST", "/api/matches", body);
      location.href = `/table?match=${made.match_id}`;
    } catch (err) { say(notice, err.message); }
  } }, el("label", { for: "create-game" }, "Game "), cGame, " ", el("label", {}, "players ", cSeats), cOptions,
    el("p", {}, el("label", {}, el("input", { type: "checkbox", id: "create-unlisted" }),
      " Unlisted: in no lobby, only those I give its link to find it")),
    el("button", {}, "Open a table"));
  return el("section", { class: "panel" }, el("h2", {}, "Play"),
    el("p", { class: "muted" }, "Quick play seats you with others waiting for the same game; bots fill the seats nobody takes in time."),
    quick, el("h3", {}, "Or open a table"), create);
}

function listPanel() {
  const game = el("select", { id: "filter-game", "aria-label": "Game" }, el("option", { value: "" }, "every game"),
    games.map((g) => el("option", { value: g.name }, g.title)));
  const status = el("select", { id: "filter-status", "aria-label": "Status" },
    ["lobby", "playing", "finished"].map((s) => el("option", { value: s }, s)));
  const rows = el("tbody");
  const refresh = async () => {
    try {
      const found = await api("GET", `/api/matches?status=${status.value}${game.value ? "&game=" + game.value : ""}`);
      rows.replaceChildren(...(found.length ? found.map(row) : [el("tr", {}, el("td", { colspan: 4, class: "muted" }, "No tables."))]));
    } catch (err) { say(notice, err.message); }
  };
  game.onchange = refresh; status.onchange = refresh;
  refresh();
  setInterval(refresh, 5000);
  return el("section", { class: "panel" }, el("h2", {}, "Tables"),
    el("div", { class: "filters" }, game, " ", status, " ", el("button", { onclick: refresh }, "Refresh tables")),
    el("table", { class: "lobby" }, el("thead", {}, el("tr", {}, ["Game", "Players", "Status"].map((h) => el("th", {}, h)), el("th", {}, el("span", { class: "visually-hidden" }, "Open")))), rows));
}

// The tables I sit at, waiting or in play, and those I played to the end: a table
// closed in the browser is found again here.
function myTablesPanel() {
  const list = el("ul", { class: "turns", id: "my-tables" });
  const refresh = async () => {
    try {
      const rows = await api("GET", "/api/me/matches");
      list.replaceChildren(...(rows.length ? rows.map((s) => el("li", { "data-status": s.status },
        el("a", { href: `/${s.status === "finished" ? "replay" : "table"}?match=${s.match_id}` }, s.title),
        ` with ${seated(s)}: `,
        s.status === "lobby" ? `waiting, ${free(s)}` : s.status))
        : [el("li", { class: "muted" }, "You sit at no table yet.")]));
    } catch (err) { say(notice, err.message); }
  };
  refresh();
  // At once when a notice says one of my tables moved on; now and then for the rest
  // (a seat taken at my open table is no notice of mine).
  document.addEventListener("tabletop:notice", refresh);
  setInterval(refresh, 15000);
  return el("section", { class: "panel", id: "tables-panel" }, el("h2", {}, "Your tables"), list);
}

// A game's leaderboard, the caller's row marked, and the caller's own place in every
// game they have finished a match of (ratings: openskill's ordinal, mu - 3 sigma).
function standingsPanel(me) {
  const mine = el("ul", { class: "turns", id: "my-ratings" });
  const game = el("select", { id: "board-game", "aria-label": "Leaderboard of" },
    games.map((g) => el("option", { value: g.name }, g.title)));
  const rows = el("tbody");
  const bots = el("p", { class: "muted", id: "bots-rating" });
  const refresh = async () => {
    try {
      const name = encodeURIComponent(game.value);
      const [board, bot] = await Promise.all([api("GET", `/api/games/${name}/leaderboard`), api("GET", `/api/games/${name}/bots`)]);
      // The bots are off the board (it ranks people); how strong they play, all the same.
      bots.textContent = bot ? `Bots play at rating ${bot.rating.toFixed(2)} (${bot.played} played, ${bot.won} won).` : "";
      rows.replaceChildren(...(board.length ? board.map((r) =>
        el("tr", { class: r.player_id === me.player_id ? "mine" : "" }, el("td", {}, r.rank),
          // The tag tells apart two players who chose the same name.
          el("td", {}, r.name, " ", el("span", { class: "muted tag", title: "player tag" }, `#${r.tag}`)),
          el("td", {}, r.rating.toFixed(2)), el("td", {}, r.played), el("td", {}, r.won)))
        : [el("tr", {}, el("td", { colspan: 5, class: "muted" }, "Nobody has finished a match of this game yet."))]));
    } catch (err) { say(notice, err.message); }
  };
  let chosen = false;  // once the player picks a game, the board stays on it
  game.onchange = () => { chosen = true; refresh(); };
  const refreshAll = async () => {
    try {
      const rated = await api("GET", "/api/me/ratings");
      mine.replaceChildren(...(rated.length ? rated.map((r) => el("li", {}, el("b", {}, r.title),
        ` #${r.rank}, rating ${r.rating.toFixed(2)} (${r.played} played, ${r.won} won)`))
        : [el("li", { class: "muted" }, "Finish a match to get a rating.")]));
      if (rated.length && !chosen) game.value = rated.reduce((a, b) => (b.played > a.played ? b : a)).game;
    } catch (err) { say(notice, err.message); }
    await refresh();
  };
  refreshAll();
  // A match just finished is rated a moment later, by the ratings projector: asked
  // again a little after its notice, and now and then for other players' matches.
  document.addEventListener("tabletop:notice", (e) => {
    if (e.detail.kind === "match_finished") [1500, 5000, 12000].forEach((ms) => setTimeout(refreshAll, ms));
  });
  setInterval(refreshAll, 15000);
  return el("section", { class: "panel", id: "standings" }, el("h2", {}, "Ratings"),
    el("h3", {}, "Yours"), mine,
    el("h3", {}, "Leaderboard"),
    el("div", { class: "filters" }, game, " ", el("button", { onclick: refreshAll }, "Refresh ratings")),
    el("table", { class: "lobby" }, el("thead", {}, el("tr", {}, ["#", "Player", "Rating", "Played", "Won"].map((h) => el("th", {}, h)))), rows),
    bots);
}

function row(s) {
  const open = s.status === "finished"
    ? el("a", { class: "button", href: `/replay?match=${s.match_id}` }, "Replay")
    : el("a", { class: "button", href: `/table?match=${s.match_id}` }, s.status === "lobby" && s.free_seats ? "Sit down" : "Watch");
  return el("tr", {}, el("td", {}, s.title), el("td", {}, seated(s)),
    el("td", {}, s.status === "lobby" ? free(s) : s.status), el("td", {}, open));
}

// Who sits at the table: an empty seat is counted as free, not named.
function seated(s) { return s.names.filter((_, i) => s.players[i]).join(", ") || "nobody yet"; }
function free(s) { return s.free_seats === 1 ? "1 seat free" : `${s.free_seats} seats free`; }

async function main() {
  games = await api("GET", "/api/games");
  if (!token()) {
    root.replaceChildren(header("Welcome"), notice, signInForm());
    if (param("signin") === "again") say(notice, "Your sign-in has ended: sign in again to carry on.", "info");
    return;
  }
  const me = await api("GET", "/api/me");
  root.replaceChildren(header("Lobby"), notice, el("main", { class: "lobby-layout" },
    el("div", {}, turnsPanel(), myTablesPanel(), playPanel()), el("div", {}, listPanel(), standingsPanel(me))));
}

main().catch((err) => say(notice, err.message));
