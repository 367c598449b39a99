// The seat holder's panel: what a person who holds a seat in this browser (./seat.js) sees in the `you` card —
// whose turn it is and the countdown, the game's own controls, a line for the server's answers, leaving behind a
// confirmation, and after the end of a quick-start match the "again" buttons. A visitor without a seat in a waiting room
// with an open seat gets the form that takes one as a guest (the invite link's page). The host (seat 0) of a waiting
// room sees the invite link to share and, once the bots may take every open seat (`BOT_SEATS`), a button that calls
// them in (`POST /fill`) instead of waiting.
//
// The game draws its controls with `page.play(me, snap, model, ctx) → {key, draw() → nodes}`: the shell calls
// `draw` only when `key` changes and keeps the nodes otherwise (so a half-typed message survives every redraw).
// `ctx` = {send(body) → Promise<answer|null>, allowed(type) → the allowed action or null, say(text, kind),
// seatNo}. Without `page.play` the shell still shows the turn, the countdown and leaving.

import { append, clear, format, h } from "../dom.js";
import * as M from "./model.js";
import { lastSettings, options, quickStart, withAnotherCategory } from "../quickstart.js";
import { behind, BOT_SEATS, game, kit, Q, seat, SEATS_FOR, T } from "./page.js";
import { friendly, keepSeat } from "./seat.js";

let refresh = () => Promise.resolve();
let drawn = { key: null, el: null };
// `moment`: the phase and next action the notice was first drawn in; an error is cleared once they change.
let notice = { text: "", kind: "", moment: null };
let sending = false;

// live.js hands over how to re-read the snapshot (it owns the long-poll); the panel calls it after each action.
export function onRefresh(fn) {
  refresh = fn;
}

const allowedOf = (me) => (type) => (me.allowed_actions || []).find((a) => a.type === type) || null;

function say(text, kind = "info") {
  notice = { text: text || "", kind, moment: null };
  const el = document.getElementById("play-message");
  if (el) {
    el.textContent = notice.text;
    el.dataset.kind = kind;
    el.hidden = !notice.text;
  }
}

// Post one action with the seat's token; the answer, or null after showing the refusal in words.
// A press while an action is on its way (a double-click) sends nothing: the first answer decides.
async function send(body) {
  if (sending) return null;
  sending = true;
  say(T.play_sending, "info");
  try {
    const answer = await seat.act(body);
    say("", "info");
    await refresh();
    return answer;
  } catch (error) {
    say(error.message, "error");
    await refresh();
    return null;
  } finally {
    sending = false;
  }
}

// A refusal stays until the table moves on (another phase or next action), not into the phases after it.
function keepNotice(moment) {
  if (notice.kind !== "error") return;
  if (notice.moment === null) notice.moment = moment;
  else if (notice.moment !== moment) notice = { text: "", kind: "", moment: null };
}

export function playContext(me) {
  return { send, say, allowed: allowedOf(me), seatNo: me.seat };
}

function turnLine(me, snap, model) {
  const mine = (me.allowed_actions || []).find((a) => a.deadline_ts && a.type !== "concede");
  const current = game.currentSeat ? game.currentSeat(model) : snap.current_speaker_seat ?? null;
  const total = (game.turnTotal && game.turnTotal(model)) || 60;
  if (me.your_turn) {
    const label = T[`next_${me.next_action}`] || me.next_action;
    return kit.turn(label, (mine && mine.deadline_ts) || snap.deadline_ts, total);
  }
  if (current !== null && current !== undefined && current !== me.seat) {
    const p = model.players.get(current);
    return kit.turn(format(T.play_waiting_for, { name: p ? p.display_name : kit.seatLabel(current) }),
      snap.deadline_ts, total);
  }
  return kit.turn(T[`next_${me.next_action}`] || me.next_action, model.deadline, total);
}

function concedeBox(me) {
  if (!allowedOf(me)("concede")) return null;
  const confirm = h("span", { class: "concede-confirm", hidden: true },
    h("span", { class: "muted", text: T.play_concede_sure }),
    h("button", { type: "button", class: "btn-danger", "data-testid": "concede-confirm", text: T.play_concede_yes,
      onclick: async () => { await seat.concede().catch((error) => say(error.message, "error")); await refresh(); } }),
    h("button", { type: "button", class: "btn-soft", text: T.play_cancel, onclick: () => { confirm.hidden = true; } }));
  return h("div", { class: "concede" },
    h("button", { type: "button", class: "btn-ghost", "data-testid": "concede", text: T.play_concede,
      onclick: () => { confirm.hidden = false; } }),
    confirm);
}

function keep(el, key, draw) {
  if (drawn.key === key && drawn.el) return drawn.el;
  drawn = { key, el: draw() };
  return drawn.el;
}

// After the end of a quick-start match: 再来一局 (same settings), 换词 (another category), 调难度 (the form).
const offered = new Map(); // game → a promise: does its quick start offer categories

function againBox() {
  const quick = (seat.record && seat.record.quick) || null;
  if (!quick) return null;
  const lang = Q ? "en" : "zh";
  const run = (button, settings) => async () => {
    button.disabled = true;
    try {
      await quickStart(await settings(), T, lang);
    } catch (error) {
      say(error.message, "error");
      button.disabled = false;
    }
  };
  const again = h("button", { type: "button", class: "btn", "data-testid": "play-again", text: T.play_again });
  const other = h("button", { type: "button", class: "btn-soft", "data-testid": "play-switch", text: T.play_switch });
  again.addEventListener("click", run(again, async () => ({ ...quick, name: (lastSettings() || quick).name })));
  other.addEventListener("click", run(other, async () => ({ ...quick,
    choices: withAnotherCategory(await options(quick.game), quick.choices || {}) })));
  other.hidden = true; // only a game whose quick start offers categories (of words) has another to switch to
  if (!offered.has(quick.game)) offered.set(quick.game, options(quick.game).then((o) => (o.categories || []).length > 0));
  offered.get(quick.game).then((some) => { other.hidden = !some; }).catch(() => {});
  return h("div", { class: "play-after" }, h("b", { text: T.play_after }), again, other,
    h("a", { class: "btn-soft", "data-testid": "play-tune", href: `/play?game=${encodeURIComponent(quick.game)}${Q ? "&lang=en" : ""}`,
      text: T.play_tune }));
}

// The host of a waiting room: the invite link, who sits already, and calling the bots in for the open seats.
function hostBox(snap, model) {
  if (snap.status !== "waiting" || snap.you.seat !== 0) return null;
  const n = model.config.n_players;
  const taken = model.players.size;
  const open = n - taken;
  const link = `${location.origin}/match/${encodeURIComponent(snap.match_id)}${Q}`;
  const input = h("input", { type: "text", class: "text-input", readonly: true, value: link, "data-testid": "invite-link",
    "aria-label": T.play_invite_title, onfocus: (event) => event.target.select() });
  const copy = h("button", { type: "button", class: "btn-soft", "data-testid": "invite-copy", text: T.play_invite_copy,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        say(T.play_invite_copied, "info");
      } catch {
        input.select();
      }
    } });
  const parts = [h("h3", { text: T.play_invite_title }), h("p", { class: "muted", text: T.play_invite_hint }),
    h("div", { class: "invite-row" }, input, copy),
    h("p", { "data-testid": "invite-seated", data: { taken, open }, text: format(T.play_invite_seated, { taken, n }) })];
  const cap = BOT_SEATS ?? open;
  if (SEATS_FOR !== "people" && open > cap) {
    parts.push(h("p", { class: "muted", "data-testid": "fill-needs", text: format(T.play_fill_needs, { n: open - cap, cap }) }));
  } else if (SEATS_FOR !== "people" && open > 0) {
    const button = h("button", { type: "button", class: "btn", "data-testid": "fill-now", text: format(T.play_fill, { n: open }) });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await seat.post("/fill", {});
        say(T.play_fill_sent, "info");
      } catch (error) {
        say(error.message, "error");
        button.disabled = false;
      }
      await refresh();
    });
    parts.push(button);
  }
  return h("div", { class: "invite-box", "data-testid": "invite-box" }, parts);
}

// The `you` card for the seat this browser holds.
export function drawSeat(el, snap, model) {
  const me = snap.you;
  const ctx = playContext(me);
  const own = game.play ? game.play(me, snap, model, ctx) : { key: "none", draw: () => [] };
  const controls = keep(el, `${own.key}`, () => h("div", { class: "play-controls" }, own.draw()));
  // The board follows the event stream; the controls come with the seat's view, read a moment later. Until that
  // view has seen the phase the board shows, its controls are the phase that ended: a press would act in the new
  // one (a `ready` or an approval names no phase), so they wait, dimmed and inert.
  const waiting = behind(snap);
  controls.inert = waiting;
  controls.dataset.behind = String(waiting);
  keepNotice(`${snap.status}|${snap.phase}|${me.next_action}`);
  const message = h("p", { class: "play-message", id: "play-message", "data-testid": "play-message", role: "status",
    data: { kind: notice.kind }, hidden: !notice.text, text: notice.text });
  const ended = M.isTerminal(snap.status);
  const head = h("div", { class: "you-row play-head" },
    kit.avatar(me.seat),
    h("span", { class: "chip mine", text: `${T.you_seat} ${kit.seatLabel(me.seat)}` }),
    ended || me.your_turn ? null
      : h("span", { class: "chip next", text: `${T.you_next}: ${T[`next_${me.next_action}`] || me.next_action}` }));
  const children = [h("h2", { text: T.play_title }), head];
  if (!ended) children.push(turnLine(me, snap, model));
  // Keep the controls node itself in the tree: moving it keeps focus and typed text.
  for (const node of [...el.childNodes]) if (node !== controls) node.remove();
  el.prepend(...children);
  if (controls.parentNode !== el) el.append(controls);
  append(el, [hostBox(snap, model), message, ended ? againBox() : concedeBox(me)]);
  el.dataset.seat = me.seat;
  el.dataset.action = me.next_action;
}

// ---- taking a seat through the invite link ---------------------------------------------------------------------

const NAME_KEY = "wodi.guest_name";

export function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

export function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // not kept: the field starts empty next time
  }
}

export function canTakeSeat(snap, model) {
  return snap.status === "waiting" && !snap.you && model.players.size < model.config.n_players;
}

export function drawJoin(el, matchId) {
  if (el.dataset.join === "1") return;
  clear(el);
  el.dataset.join = "1";
  const input = h("input", { type: "text", class: "text-input", maxlength: 32, "data-testid": "join-name",
    placeholder: T.play_name_hint, value: savedName(), "aria-label": T.play_name });
  const message = h("p", { class: "play-message", "data-testid": "join-message", hidden: true });
  const button = h("button", { type: "submit", class: "btn", "data-testid": "join-submit", text: T.play_take_seat });
  const form = h("form", { class: "join-form" }, input, button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      Object.assign(message, { hidden: false, textContent: T.play_name_needed });
      return;
    }
    button.disabled = true;
    try {
      const answer = await joinAsGuest(matchId, name);
      saveName(name);
      delete el.dataset.join;
      clear(el);
      await refresh(answer);
    } catch (error) {
      Object.assign(message, { hidden: false, textContent: error.message });
      button.disabled = false;
    }
  });
  append(el, [h("h2", { text: T.play_join_title }), h("p", { class: "muted", text: T.play_join_hint }), form, message]);
}

async function joinAsGuest(matchId, name) {
  const response = await fetch(`/api/matches/${encodeURIComponent(matchId)}/join`, {
    method: "POST", credentials: "same-origin", cache: "no-store",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ player: { name } }),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(friendly(T, data.error, data.message));
  }
  keepSeat(matchId, { play_token: data.play_token, seat: data.seat, name });
  return data;
}
