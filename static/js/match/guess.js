// Spectators guess (issue 33): a logged-in spectator of a live match names the seats they think hide (one guess a
// round, replaced when sent again in the same round); at the end the guesses come back scored. Game-agnostic: the
// seats are the snapshot's players. Only where the server takes guesses (`open`): a casual match whose spectators
// see every role offers none.

import { clear, format, h } from "../dom.js";
import { whenRendered } from "./board.js";
import * as M from "./model.js";
import { API, kit, state, T } from "./page.js";

const panel = document.getElementById("guess");
const picked = new Set();
let mine = null; // the latest answer of GET …/guesses
let asked = null; // the status it was read for
let sending = false;

async function load(status) {
  asked = status;
  try {
    const response = await fetch(`${API}/guesses`, { credentials: "same-origin" });
    mine = response.ok ? await response.json() : null;
  } catch {
    mine = null;
  }
  draw();
}

async function send() {
  sending = true;
  draw();
  try {
    const response = await fetch(`${API}/guesses`, {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seats: [...picked].sort((a, b) => a - b) }),
    });
    const body = await response.json();
    panel.dataset.message = response.ok ? "" : (body.error && body.error.message) || String(response.status);
    if (response.ok) picked.clear();
  } finally {
    sending = false;
    await load(state.snap.status);
  }
}

function scored(g) {
  return h("li", { data: { round: g.round } },
    h("span", { class: "chip", text: format(T.guess_round, { n: g.round }) }),
    h("span", { text: ` ${g.spectator}: ${g.seats.map((s) => kit.seatLabel(s)).join(" ")}` }),
    g.points === null ? null : h("b", { class: "guess-points", text: ` ${format(T.guess_points, { n: g.points })}` }));
}

function draw() {
  const snap = state.snap;
  if (!panel || !snap) return;
  // open: the server takes guesses here (its spectators do not see the roles while the match runs)
  const live = snap.status === "in_progress" && snap.viewer_role === "spectator" && Boolean(mine && mine.open);
  const ended = M.isTerminal(snap.status) && mine && mine.guesses.length;
  panel.hidden = !(live || ended);
  if (panel.hidden) return;
  clear(panel);
  panel.append(h("h2", { text: T.guess_title }));
  if (live) {
    panel.append(h("p", { class: "muted small", text: T.guess_hint }));
    const row = h("div", { class: "guess-seats" }, snap.players.map((p) => h("button", {
      type: "button", class: `btn-soft guess-seat${picked.has(p.seat) ? " on" : ""}`, text: kit.seatLabel(p.seat),
      data: { testid: `guess-seat-${p.seat}` }, "aria-pressed": String(picked.has(p.seat)),
      onclick: () => { picked.has(p.seat) ? picked.delete(p.seat) : picked.add(p.seat); draw(); },
    })));
    const submit = h("button", { type: "button", class: "btn", text: sending ? T.play_sending : T.guess_send,
      data: { testid: "guess-submit" }, onclick: send });
    submit.disabled = sending || picked.size === 0;
    panel.append(row, submit);
    if (panel.dataset.message) panel.append(h("p", { class: "guess-error", text: panel.dataset.message }));
  }
  const list = mine ? mine.guesses : [];
  if (list.length) panel.append(h("ol", { class: "guess-list", data: { testid: "guess-list" } }, list.map(scored)));
}

whenRendered(() => {
  const snap = state.snap;
  if (!snap || !panel) return;
  if (asked !== snap.status) load(snap.status);
  else draw();
});
