// Shared by every page: the player token, calls to the API, small DOM helpers.
const TOKEN = "tabletop.token";
const NAME = "tabletop.name";

export function token() { return localStorage.getItem(TOKEN); }
export function myName() { return localStorage.getItem(NAME); }
export function signOut() { localStorage.removeItem(TOKEN); localStorage.removeItem(NAME); }

// A token the gateway no longer takes (expired, or signed with a secret since changed):
// forget it and sign in again, then come back here.
export function signInAgain() {
  signOut();
  location.href = `/?signin=again&next=${encodeURIComponent(location.pathname + location.search)}`;
}

export async function devSignIn(name) {
  const answer = await api("POST", "/api/signin/dev", { name });
  localStorage.setItem(TOKEN, answer.token);
  localStorage.setItem(NAME, answer.name);
  return answer;
}

export class ApiError extends Error {
  constructor(status, detail) { super(detail); this.status = status; }
}

export async function api(method, path, body) {
  const headers = { "content-type": "application/json" };
  const t = token();
  if (t) headers.authorization = `Bearer ${t}`;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    if (response.status === 401 && t) signInAgain();
    let detail = (data && data.detail) || response.statusText;
    if (data && data.extra) detail += " " + JSON.stringify(data.extra);
    throw new ApiError(response.status, detail);
  }
  return data;
}

// el("div", {class: "x", onclick: f}, child, "text", ...)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// A socket to the gateway, signed in through its subprotocols: the token travels in a
// header, never in the address, which proxies write to their logs (sockets.py).
export function socketTo(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return new WebSocket(`${scheme}://${location.host}${path}`, ["tabletop", `bearer.${token()}`]);
}

export function param(name) { return new URLSearchParams(location.search).get(name); }

export function say(target, message, kind = "error") {
  target.textContent = message;
  target.className = `notice ${kind}`;
  target.hidden = !message;
}

export function header(title) {
  const who = myName();
  return el("header", { class: "top" },
    el("a", { href: "/", class: "brand" }, "tabletop"),
    el("h1", { class: "title" }, title),
    who ? el("span", { class: "who" }, "Signed in as ", el("b", {}, who), " ",
      signOutButton("/api/me/signout", "Ends your sign-in on this device", "Sign out"), " ",
      signOutButton("/api/me/signout/everywhere", "Ends your sign-ins on every device",
        "Sign out everywhere"))
      : null);
}

function signOutButton(path, title, label) {
  return el("button", { class: "link", title, onclick: async () => {
    // The token is ended at the gateway too: a copy of it left anywhere is useless.
    try { await api("POST", path); } catch { /* ended already */ }
    signOut(); location.href = "/";
  } }, label);
}
