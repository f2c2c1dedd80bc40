// Table chat: the latest lines, then each new one pushed; the seated players may talk.
import { api, el, say, signInAgain, socketTo } from "./common.js";

const MAX_CHARS = 300;
// The players I muted, by id, on every table of this browser: their lines are hidden
// from me alone (the table still gets them; muting tells no one).
const MUTED = "tabletop.muted";

export function chatPanel(matchId) {
  const lines = el("ol", { class: "chat", id: "chat-lines", "aria-live": "polite", tabindex: 0, "aria-label": "Chat lines" });
  const problem = el("p", { class: "notice", hidden: true, role: "alert" });
  const text = el("input", { id: "chat-text", type: "text", maxlength: MAX_CHARS, autocomplete: "off",
    "aria-label": "Say at the table", placeholder: "Say something to the table" });
  const form = el("form", { id: "chat-form", class: "chat-form", onsubmit: async (e) => {
    e.preventDefault();
    if (!text.value.trim()) return;
    say(problem, "");
    try {
      await api("POST", `/api/matches/${matchId}/chat`, { text: text.value });
      text.value = "";
    } catch (err) { say(problem, err.message); }
  } }, text, " ", el("button", { type: "submit" }, "Say"));
  const spectating = el("p", { class: "muted", id: "chat-spectating" }, "Only the players seated here may talk.");
  const mutedList = el("p", { class: "muted", id: "chat-muted", hidden: true });
  const panel = el("section", { class: "panel", id: "chat", "aria-label": "Table chat" },
    el("h2", {}, "Chat"), lines, problem, form, spectating, mutedList);
  let mySeat = null;
  const seen = new Set();
  // Lines said while the panel is out of sight (below the board on a phone) are counted
  // on a link to it, at the top of the page.
  let unread = 0;
  let inSight = false;
  const badge = el("a", { href: "#chat", id: "chat-unread", class: "unread", hidden: true });
  const count = (n) => { unread = n; badge.hidden = !n; badge.textContent = `Chat: ${n} new`; };
  new IntersectionObserver((entries) => { inSight = entries.some((e) => e.isIntersecting); if (inSight) count(0); })
    .observe(panel);

  // Hide or show each line by whether its writer is muted, and list the muted writers
  // met at this table, each with a button to hear them again.
  // Read once a page (player id -> name), written back on each change.
  const muted = new Map(JSON.parse(localStorage.getItem(MUTED) || "[]"));
  const showMuted = () => {
    localStorage.setItem(MUTED, JSON.stringify([...muted]));
    lines.querySelectorAll("li").forEach((li) => { li.hidden = muted.has(li.dataset.player); });
    const here = [...muted].filter(([id]) => lines.querySelector(`li[data-player="${CSS.escape(id)}"]`));
    mutedList.hidden = !here.length;
    mutedList.replaceChildren("Muted: ", ...here.flatMap(([id, name], i) => [i ? ", " : "", name, " ",
      el("button", { class: "small", "aria-label": `Unmute ${name}`, onclick: () => { muted.delete(id); showMuted(); } }, "Unmute")]));
  };
  const mute = (line) => { muted.set(line.player, line.name); showMuted(); };

  const add = (line, fresh) => {
    if (seen.has(line.id)) return;
    seen.add(line.id);
    const silenced = muted.has(line.player);
    if (fresh && !inSight && !silenced) count(unread + 1);
    const at = new Date(line.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    lines.append(el("li", { "data-seat": line.seat, "data-id": line.id, "data-player": line.player, hidden: silenced },
      el("span", { class: "muted" }, at), " ", el("b", {}, line.name), ": ", line.text,
      el("button", { class: "small mute", "aria-label": `Mute ${line.name}`, title: `Hide ${line.name}'s lines from you`,
        hidden: line.seat === mySeat, onclick: () => mute(line) }, "Mute")));
    if (silenced) showMuted();
    lines.scrollTop = lines.scrollHeight;
  };

  let retry = 500;
  const listen = () => {
    const socket = socketTo(`/api/matches/${matchId}/chat/live`);
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      retry = 500;
      if (m.kind === "hello") m.lines.forEach((line) => add(line, false));
      else if (m.kind === "line") add(m.line, true);
      else if (m.kind === "removed") lines.querySelectorAll("li").forEach((li) => { if (li.dataset.id === m.id) li.remove(); });
      else if (m.kind === "error" && /chat is off/i.test(m.message)) panel.hidden = true;
    };
    socket.onclose = (e) => {
      if (e.code === 4401) { signInAgain(); return; }
      if (e.code === 4404) return;  // no such match, or no chat here: asking again cannot help
      setTimeout(listen, retry); retry = Math.min(retry * 2, 8000);
    };
  };
  listen();
  // Who may talk follows the seat, which changes as players sit down and leave.
  panel.seated = (seat) => {
    const seated = seat !== null && seat !== undefined;
    form.hidden = !seated; spectating.hidden = seated;
    mySeat = seated ? seat : null;
    // No muting myself: my own lines have no Mute button.
    lines.querySelectorAll("li").forEach((li) => { li.querySelector(".mute").hidden = String(mySeat) === li.dataset.seat; });
  };
  panel.seated(null);
  panel.badge = badge;
  return panel;
}
