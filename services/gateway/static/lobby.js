// The lobby: sign in, quick play, create a table (options form from the game's schema),
// the open tables with filters.
import { api, devSignIn, el, header, param, say, token } from "./common.js";
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

// One input per option, by its JSON Schema type.
function optionsForm(game) {
  const schema = game.options_schema;
  const ref = schema.$ref ? schema.$ref.split("/").pop() : null;
  const body = ref ? schema.$defs[ref] : schema;
  const inputs = {};
  const box = el("fieldset", { class: "options" }, el("legend", {}, "Options"));
  for (const [name, prop] of Object.entries(body.properties || {})) {
    let input;
    const p = prop.$ref ? schema.$defs[prop.$ref.split("/").pop()] : prop;
    if (p.type === "boolean") input = el("input", { type: "checkbox", checked: p.default || prop.default });
    else if (p.enum) input = el("select", {}, p.enum.map((v) => el("option", { value: JSON.stringify(v), selected: v === prop.default }, String(v))));
    else if (p.type === "integer") input = el("input", { type: "number", value: prop.default ?? "" });
    else input = el("input", { type: "text", maxlength: 100, value: prop.default ?? "" });
    input.name = name;
    inputs[name] = [input, p];
    box.append(el("label", {}, label(name), " ", input));
  }
  if (!Object.keys(inputs).length) box.append(el("span", { class: "muted" }, "none"));
  box.read = () => Object.fromEntries(Object.entries(inputs).map(([n, [input, p]]) => {
    if (p.type === "boolean") return [n, input.checked];
    if (p.enum) return [n, JSON.parse(input.value)];
    if (p.type === "integer") return [n, Number(input.value)];
    return [n, input.value];
  }));
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
  const syncCreate = () => {
    const g = games.find((x) => x.name === cGame.value);
    cSeats.replaceChildren(seatsInput("create-seats", g));
    form = optionsForm(g);
    cOptions.replaceChildren(form);
  };
  cGame.onchange = syncCreate; syncCreate();
  const create = el("form", { id: "create", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const made = await api("POST", "/api/matches", { game: cGame.value, seats: Number(document.getElementById("create-seats").value), options: form.read() });
      location.href = `/table?match=${made.match_id}`;
    } catch (err) { say(notice, err.message); }
  } }, el("label", { for: "create-game" }, "Game "), cGame, " ", el("label", {}, "players ", cSeats), cOptions,
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
    el("div", { class: "filters" }, game, " ", status, " ", el("button", { onclick: refresh }, "Refresh")),
    el("table", { class: "lobby" }, el("thead", {}, el("tr", {}, ["Game", "Players", "Status", ""].map((h) => el("th", {}, h)))), rows));
}

function row(s) {
  const open = s.status === "finished"
    ? el("a", { class: "button", href: `/replay?match=${s.match_id}` }, "Replay")
    : el("a", { class: "button", href: `/table?match=${s.match_id}` }, s.status === "lobby" && s.free_seats ? "Sit down" : "Watch");
  return el("tr", {}, el("td", {}, s.title), el("td", {}, s.names.join(", ")),
    el("td", {}, s.status === "lobby" ? `${s.free_seats} seat(s) free` : s.status), el("td", {}, open));
}

async function main() {
  games = await api("GET", "/api/games");
  if (!token()) { root.replaceChildren(header("Welcome"), notice, signInForm()); return; }
  root.replaceChildren(header("Lobby"), notice, el("main", { class: "lobby-layout" }, playPanel(), listPanel()));
}

main().catch((err) => say(notice, err.message));
