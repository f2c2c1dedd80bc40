// The table page: the caller's view, the commands legal now, the history, live.
import { api, el, header, param, say, signInAgain, socketTo, token } from "./common.js";
import { chatPanel } from "./chat.js";
import { describeCommand, isSeatKey, label, nameComponents, pretty, renderView, seatLabel, tickClocks } from "./render.js";

const matchId = param("match");
const root = document.getElementById("app");
const state = { view: null, commands: [], version: 0, seat: null, socket: null, retry: 500, skew: 0 };

const live = el("span", { class: "live off", role: "status", id: "live" }, "connecting…");
const notice = el("p", { class: "notice", hidden: true, id: "notice", role: "alert" });
const viewBox = el("div", { id: "view" });
const actions = el("section", { class: "panel actions", id: "actions", "aria-label": "Your moves" });
// Scrolled by itself: focusable, so a keyboard can scroll it too.
const historyList = el("ol", { class: "history", id: "history", tabindex: 0, "aria-label": "History" });
let chat = null;  // made once signed in: it opens a socket of its own

function render() {
  viewBox.replaceChildren(state.view ? renderView(state.view) : el("p", {}, "Loading…"));
  const clock = state.view && state.view.clock;
  // The server's clock minus the page's, so the clocks count down from its numbers.
  if (clock && clock.server_now) state.skew = clock.server_now - Date.now();
  tickClocks(viewBox, Date.now() + state.skew);
  renderActions();
  if (chat) chat.seated(state.seat);
}

setInterval(() => tickClocks(viewBox, Date.now() + state.skew), 250);

// An unlisted table is in no lobby: its link is how the others find it.
function invite() {
  const link = `${location.origin}/table?match=${matchId}`;
  const field = el("input", { id: "invite-link", type: "text", readonly: true, value: link,
    "aria-label": "The table's link", onfocus: (e) => e.target.select() });
  const copy = el("button", { id: "invite-copy", onclick: async () => {
    field.select();
    try { await navigator.clipboard.writeText(link); copy.textContent = "Copied"; }
    catch { copy.textContent = "Select and copy it"; }  // no clipboard outside https
  } }, "Copy");
  return el("div", { class: "invite" },
    el("p", {}, "This table is unlisted: give its link to whoever you want at it."), field, " ", copy);
}

function lobbyButtons() {
  const v = state.view;
  const out = [];
  const seated = state.seat !== null && state.seat !== undefined;
  if (v.status === "lobby") {
    if (!seated) out.push(el("button", { onclick: () => act("join") }, "Join this table"));
    else {
      const free = v.players.filter((p) => p === null).length;
      if (free) out.push(el("button", { onclick: () => act("bots") }, "Add a bot"));
      else out.push(el("button", { class: "primary", onclick: () => act("start") }, "Start the match"));
      out.push(el("button", { onclick: () => act("leave") }, "Leave"));
    }
  }
  if (v.status === "playing" && seated && v.undo === state.seat) {
    // The match lets me take back my last move (it drew no chance and showed nothing).
    out.push(el("button", { id: "undo", onclick: () => act("undo") }, "Undo"));
  }
  if (v.status === "playing" && seated && !v.conceded.includes(state.seat)) {
    out.push(el("button", { class: "danger", onclick: () => {
      if (confirm("Concede this match?")) act("concede");
    } }, "Concede"));
  }
  if (v.status === "closed") out.push(el("a", { class: "button", href: "/" }, "Find another table"));
  if (v.status === "finished") {
    out.push(el("a", { class: "button", href: `/replay?match=${matchId}` }, "Open the replay"));
    out.push(...rematchButtons(v, seated));
  }
  if (v.rematch_of) {
    out.push(el("a", { class: "button", href: `/table?match=${v.rematch_of}` }, "The match before"));
  }
  return out;
}

// Offer a rematch, or answer one; once everyone accepted, a link to the new match.
function rematchButtons(v, seated) {
  const talk = v.rematch;
  if (talk && talk.match_id) {
    return [el("a", { class: "button primary", id: "rematch-link", href: `/table?match=${talk.match_id}` }, "Go to the rematch")];
  }
  if (!seated) return [];
  const open = talk && talk.declined === null;
  if (!open) return [el("button", { id: "rematch-offer", onclick: () => act("rematch") }, "Offer a rematch")];
  if (talk.accepted.includes(state.seat)) return [el("span", { class: "muted" }, "Rematch offered: waiting for the others…")];
  return [
    el("button", { class: "primary", id: "rematch-accept", onclick: () => act("rematch/accept") }, "Accept the rematch"),
    el("button", { id: "rematch-decline", onclick: () => act("rematch/decline") }, "Decline"),
  ];
}

function renderActions() {
  if (!state.view) return;
  const names = state.view.names || [];
  const watching = state.seat === null || state.seat === undefined;
  const body = [el("h2", {}, watching ? "Watching" : "Your moves")];
  if (!state.commands.length) {
    const mine = state.view.status === "playing" && (state.view.to_act || []).includes(state.seat);
    const waiting = watching
      ? "You are watching: what the rules hide from the table stays hidden from you."
      : "Waiting for the others…";
    body.push(el("p", { class: "muted", id: "waiting" },
      state.view.status === "playing" && !mine ? waiting : ""));
  }
  for (const choice of state.commands) {
    if (choice.count <= 12) {
      body.push(el("div", { class: "choice" }, choice.legal.map((cmd) =>
        el("button", { class: "move", onclick: () => play(cmd) }, describeCommand(choice, cmd, names)))));
    } else {
      body.push(commandForm(choice, names));
    }
  }
  if (state.view.unlisted && state.view.status === "lobby") body.push(invite());
  body.push(el("div", { class: "choice lifecycle" }, lobbyButtons()));
  actions.replaceChildren(...body);
}

// A form from the command's schema: each field offers the values legal now.
function commandForm(choice, names) {
  const fields = Object.keys(choice.schema.properties || {});
  const selects = {};
  const form = el("form", { class: "command-form", onsubmit: (e) => {
    e.preventDefault();
    const cmd = { type: choice.type };
    for (const f of fields) cmd[f] = JSON.parse(selects[f].value);
    play(cmd);
  } }, el("b", {}, choice.title.replace(/([a-z])([A-Z])/g, "$1 $2")));
  for (const f of fields) {
    const values = [...new Set(choice.legal.map((c) => JSON.stringify(c[f] ?? null)))];
    const select = el("select", { name: f, "aria-label": label(f) }, values.map((v) => {
      const parsed = JSON.parse(v);
      const seatly = isSeatKey(f);
      const shown = Array.isArray(parsed) ? parsed.map((x) => (seatly ? seatLabel(names, x) : pretty(x))).join(" & ")
        : parsed === null ? "—" : seatly ? seatLabel(names, parsed) : pretty(parsed);
      return el("option", { value: v }, shown || "—");
    }));
    // Choosing one field moves the others to the first legal command with that value.
    select.onchange = () => {
      const match = choice.legal.find((c) => JSON.stringify(c[f] ?? null) === select.value);
      if (!match) return;
      for (const other of fields) if (other !== f) selects[other].value = JSON.stringify(match[other] ?? null);
    };
    selects[f] = select;
    form.append(el("label", {}, label(f), " ", select));
  }
  form.append(el("button", { type: "submit", class: "move" }, "Play"));
  return form;
}

function addLines(lines) {
  for (const line of lines) {
    historyList.append(el("li", { "data-version": line.version }, line.text));
  }
  historyList.scrollTop = historyList.scrollHeight;
}

async function act(what) {
  say(notice, "");
  try {
    await api("POST", `/api/matches/${matchId}/${what}`, {});
  } catch (err) { say(notice, err.message); }
}

async function play(move) {
  say(notice, "");
  const commandId = crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);
  try {
    const reply = await api("POST", `/api/matches/${matchId}/commands`, { command_id: commandId, move });
    if (reply.status === "rejected") say(notice, reply.message);
  } catch (err) { say(notice, err.message); }
}

function connect() {
  const socket = socketTo(`/api/matches/${matchId}/live?since=${state.version}`);
  state.socket = socket;
  socket.onopen = () => { live.textContent = "live"; live.className = "live on"; state.retry = 500; };
  socket.onmessage = (msg) => {
    const m = JSON.parse(msg.data);
    if (m.kind === "hello" || m.kind === "update") {
      // One message per batch: its events, the view after them, whether it is my turn.
      if (m.events.length) addLines(m.events);
      state.view = m.view; state.commands = m.commands; state.version = m.version; state.seat = m.seat;
      render();
      if (m.your_turn) {
        document.title = "Your turn · tabletop";
        // The first move takes the focus only from nothing: not from a line being
        // typed in the chat, nor from the history being scrolled.
        const first = actions.querySelector("button.move");
        const idle = !document.activeElement || document.activeElement === document.body;
        if (first && idle) first.focus();
      }
    } else if (m.kind === "error") say(notice, m.message);
  };
  socket.onclose = (e) => {
    live.textContent = "offline, reconnecting…"; live.className = "live off";
    if (e.code === 4401) { signInAgain(); return; }
    // No such match, or a request the server refuses as asked: asking again cannot help
    // (its error message is on the page already).
    if (e.code === 4404 || e.code === 4400) { live.textContent = "offline"; return; }
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  };
}

async function main() {
  if (!token()) { location.href = `/?next=${encodeURIComponent(location.pathname + location.search)}`; return; }
  chat = chatPanel(matchId);
  root.replaceChildren(header("Table"), el("section", { class: "bar", "aria-label": "Connection" }, live, el("code", {}, matchId), chat.badge), notice,
    el("main", { class: "table-layout" }, viewBox, el("div", { class: "side" }, actions,
      el("section", { class: "panel" }, el("h2", {}, "History"), historyList), chat)));
  try {
    const h = await api("GET", `/api/matches/${matchId}/history`);
    addLines(h.lines);
    state.version = h.version;
    const t = await api("GET", `/api/matches/${matchId}`);
    nameComponents(await api("GET", `/api/games/${encodeURIComponent(t.view.game)}/components`));
    state.view = t.view; state.commands = t.commands; state.seat = t.seat;
    render();
  } catch (err) { say(notice, err.message); return; }
  connect();
}

main();
