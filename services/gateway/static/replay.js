// The replay page: a finished match at any version, as any seat or a spectator.
import { api, el, header, param, say, token } from "./common.js";
import { nameComponents, renderView } from "./render.js";

const matchId = param("match");
const root = document.getElementById("app");
const notice = el("p", { class: "notice", hidden: true, role: "alert" });
const viewBox = el("div", { id: "view" });
const sentence = el("p", { class: "sentence", id: "sentence", "aria-live": "polite" });
const slider = el("input", { type: "range", id: "slider", min: 1, max: 1, value: 1, "aria-label": "Version" });
const at = el("output", { id: "at" });
const seat = el("select", { id: "as", "aria-label": "Read as" });
let last = 1;

async function show(version) {
  const v = Math.max(1, Math.min(last, version));
  try {
    const r = await api("GET", `/api/matches/${matchId}/replay?version=${v}${seat.value ? "&as=" + seat.value : ""}`);
    last = r.last_version;
    slider.max = last; slider.value = r.version;
    at.textContent = `version ${r.version} of ${last}`;
    sentence.textContent = r.line ? r.line.text : "(nothing this reader may see happened here)";
    viewBox.replaceChildren(renderView(r.view));
    return r;
  } catch (err) { say(notice, err.message); return null; }
}

function step(delta) { return () => show(Number(slider.value) + delta); }

async function main() {
  if (!token()) { location.href = `/?next=${encodeURIComponent(location.pathname + location.search)}`; return; }
  root.replaceChildren(header("Replay"), notice, el("main", {},
    el("section", { class: "panel controls" },
      el("button", { id: "first", onclick: () => show(1), "aria-label": "First" }, "|◀"),
      el("button", { id: "prev", onclick: step(-1), "aria-label": "Previous" }, "◀"),
      slider,
      el("button", { id: "next", onclick: step(1), "aria-label": "Next" }, "▶"),
      el("button", { id: "last", onclick: () => show(last), "aria-label": "Last" }, "▶|"),
      at, el("label", {}, " as ", seat)),
    sentence, viewBox));
  slider.oninput = () => show(Number(slider.value));
  document.addEventListener("keydown", (e) => {
    if (e.target === slider) return;
    if (e.key === "ArrowLeft") step(-1)();
    if (e.key === "ArrowRight") step(1)();
  });
  const first = await show(1);
  if (!first) return;
  try {
    nameComponents(await api("GET", `/api/games/${encodeURIComponent(first.view.game)}/components`));
    await show(1);
  } catch (err) { say(notice, err.message); }
  const names = first.view.names || [];
  seat.replaceChildren(el("option", { value: "" }, "my seat"), el("option", { value: "spectator" }, "spectator"),
    ...names.map((n, i) => el("option", { value: String(i) }, n)));
  seat.onchange = () => show(Number(slider.value));
}

main();
