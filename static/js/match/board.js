// The board: header, players, votes, result, `you` and the event stream, drawn from one model. The frame is
// the same for every game; what goes inside a card, the votes panel, the result and the stream is the game's.

import { append, clear, format, h } from "../dom.js";
import * as M from "./model.js";
import { baseTitle, behind, game, kit, Q, SEATS_FOR, seat, state, T, ui } from "./page.js";
import { canTakeSeat, drawJoin, drawSeat } from "./play.js";

const afterRender = [];

// Parts drawn by other modules (the replay bar) hook in here, so the board imports none of them.
export function whenRendered(draw) {
  afterRender.push(draw);
}

const { seatLabel } = kit;
const stepOf = (stage, model) => (game.stepOf ? game.stepOf(stage, model) : stage === "aborted" ? "finished" : stage);

function viewerLabel() {
  const snap = state.snap;
  if (!snap) return "";
  if (M.isTerminal(snap.status)) return T.viewer_god_end;
  return T[`viewer_${snap.viewer_role}`] || snap.viewer_role;
}

// The live countdown: the snapshot knows the current turn's deadline; the public log only the phase's.
function liveDeadline(model) {
  if (state.view !== "all" || M.isTerminal(model.status)) return null;
  const snap = state.snap;
  if (snap && snap.phase === model.phase && snap.deadline_ts) {
    const turn = game.currentSeat ? game.currentSeat(model) : null;
    if ((snap.current_speaker_seat ?? null) === (turn ?? null)) return snap.deadline_ts;
  }
  return model.deadline;
}

// ---- header --------------------------------------------------------------------------------------------------

// A game's phase bar: its `steps`, or `steps(config)` where the room's options add or drop a step.
const stepsOf = (model) => (typeof game.steps === "function" ? game.steps(model.config) : game.steps);

function drawSteps(model) {
  if (ui.phase.childElementCount) return;
  for (const step of stepsOf(model)) ui.phase.append(h("li", { data: { step }, text: T[`phase_${step}`] || step }));
}

function header(model) {
  drawSteps(model);
  ui.phase.dataset.stage = model.stage;
  const steps = stepsOf(model);
  const at = steps.indexOf(stepOf(model.stage, model));
  for (const li of ui.phase.children) {
    const mine = steps.indexOf(li.dataset.step);
    li.className = mine === at ? "on" : mine < at ? "done" : "";
  }
  if (model.stage === "aborted") ui.phase.lastElementChild.textContent = T.phase_aborted;
  ui.title.textContent = format(T.match_heading, { game: T.game_title || state.snap.game, n: model.config.n_players });
  ui.config.textContent = game.configLine(model.config);
  ui.round.dataset.round = model.round;
  ui.round.textContent = !model.round ? T.phase_waiting
    : game.roundLabel ? game.roundLabel(model) : format(T.round_counter, { n: model.round });
  ui.pk.hidden = true;
  const alive = M.seats(model).filter((p) => p.alive).length;
  ui.alive.textContent = format(T.alive_count, { alive, total: model.config.n_players });
  ui.head.dataset.status = model.status;
  ui.viewer.textContent = viewerLabel();
  if (game.header) game.header(ui, model);
}

// ---- players -------------------------------------------------------------------------------------------------

const mine = (p) => seat.held && state.snap && state.snap.you && state.snap.you.seat === p.seat;

function playerCard(model, p, ctx) {
  const winners = model.result && model.result.winning_seats;
  const outcome = winners ? (winners.includes(p.seat) ? "win" : "lose") : "";
  const own = game.card(p, model, ctx);
  const card = h("article", { class: "player", data: { seat: p.seat, alive: p.alive, ...own.data, outcome } },
    h("div", { class: "player-top" },
      kit.avatar(p.seat),
      h("div", { class: "player-id" },
        p.is_guest ? h("span", { class: "player-name", text: p.display_name })
          : h("a", { class: "player-name", href: `/agents/${encodeURIComponent(p.name)}${Q}`, text: p.display_name }),
        h("div", { class: "player-handle" },
          h("span", { text: seatLabel(p.seat) }),
          p.is_official ? h("span", { class: "badge-official", text: T.official }) : null,
          p.is_human ? h("span", { class: "badge-human", text: p.is_guest ? T.guest : T.human }) : null,
          mine(p) ? h("span", { class: "chip mine", text: T.play_you }) : null)),
      outcome ? h("span", { class: `outcome outcome-${outcome}`, text: outcome === "win" ? T.winner : T.loser }) : null),
    h("div", { class: "player-tags" }, own.tags || []),
    own.extra || []);
  return card;
}

function players(model, ctx) {
  const el = ui.players;
  const cards = M.seats(model).map((p) => playerCard(model, p, ctx));
  for (let i = model.players.size; i < model.config.n_players; i += 1) {
    cards.push(h("article", { class: "player empty" },
      h("div", { class: "player-top" }, h("span", { class: "avatar empty", text: "?" }),
        h("div", { class: "player-id" }, h("span", { class: "player-name", text: T.open_seat })))));
  }
  // Rebuild only the cards that changed, so animations on the others keep running.
  const old = [...el.children];
  cards.forEach((card, i) => {
    if (old[i] && old[i].outerHTML === card.outerHTML) return;
    if (old[i]) old[i].replaceWith(card);
    else el.append(card);
  });
  old.slice(cards.length).forEach((node) => node.remove());
}

// ---- result and "you" ----------------------------------------------------------------------------------------

function result(model) {
  const el = ui.result;
  const r = model.result;
  el.hidden = !r;
  if (!r) return;
  const camp = r.winner_camp || "none";
  clear(el);
  el.dataset.camp = camp;
  append(el, [
    h("div", { class: "result-main" },
      h("div", { class: "result-kicker", text: model.status === "aborted" ? T.ev_match_aborted : T.game_over }),
      h("div", { class: `result-camp camp-${camp}`, id: "winner", text: T[`camp_${camp}`] || camp }),
      r.reason ? h("p", { class: "result-reason", text: T[`reason_${r.reason}`] || r.reason }) : null,
      // The server's summary is written in one language; where the page words the reason itself, it says enough.
      r.summary && !T[`reason_${r.reason}`] ? h("p", { class: "result-summary", id: "summary", text: r.summary }) : null),
    game.result(model, r)]);
}

function you(snap, model) {
  const el = ui.you;
  const me = snap && snap.you;
  el.classList.toggle("play", Boolean(me && seat.held));
  if (me && seat.held) {
    if (seat.record && seat.record.seat !== me.seat) seat.remember({ seat: me.seat });
    el.hidden = false;
    drawSeat(el, snap, model);
    return;
  }
  if (snap && SEATS_FOR !== "agents" && canTakeSeat(snap, model)) {
    el.hidden = false;
    drawJoin(el, snap.match_id);
    return;
  }
  delete el.dataset.join;
  el.hidden = !me;
  if (!me) return;
  clear(el);
  el.append(h("h2", { text: T.you_title }),
    h("div", { class: "you-row" },
      kit.avatar(me.seat),
      h("span", { class: "chip", text: `${T.you_seat} ${seatLabel(me.seat)}` }),
      game.you(me, snap),
      h("span", { class: "chip next", text: `${T.you_next}: ${T[`next_${me.next_action}`] || me.next_action}` })));
}

// ---- the whole board -----------------------------------------------------------------------------------------

export function renderBoard(model) {
  const total = (game.turnTotal && game.turnTotal(model)) || 60;
  const me = state.view === "all" && state.snap && seat.held && !M.isTerminal(model.status) && !behind(state.snap)
    ? state.snap.you : null;
  const ctx = { q: Q, deadline: liveDeadline(model), total, view: state.view, me: me || null };
  header(model);
  ui.grid.dataset.stage = model.stage;
  if (ui.unlock) ui.unlock.hidden = !(state.snap && state.snap.viewer_role === "anonymous" && !M.isTerminal(state.snap.status));
  const phase = T[`phase_${model.stage}`] || T[`phase_${stepOf(model.stage, model)}`] || model.phase;
  document.title = `${model.round ? `${format(T.round_counter, { n: model.round })} · ${phase}` : phase} · ${baseTitle}`;
  players(model, ctx);
  game.votes(ui, model, state.view);
  result(model);
  you(state.view === "all" ? state.snap : null, model);
  for (const draw of afterRender) draw();
  tick();
}

// Where a smooth scroll to the bottom is heading while it runs: a burst of events (a night's worth arrives in one
// long-poll) keeps following the stream instead of stopping after the first item.
let heading = null;
ui.stream.addEventListener("scrollend", () => { heading = null; });

export function appendItem(ev, model, round) {
  const node = game.streamItem(ev, model, round);
  if (!node) return false;
  const list = ui.stream;
  const nearBottom = list.scrollHeight - Math.max(list.scrollTop, heading ?? 0) - list.clientHeight < 120;
  list.append(node);
  ui.streamEmpty.hidden = true;
  if (nearBottom) {
    heading = list.scrollHeight - list.clientHeight;
    list.scrollTo({ top: list.scrollHeight, behavior: "smooth" });
  }
  return true;
}

// Fold the log up to `upToSeq` into a fresh model, re-rendering the stream items that pass `keep` as it goes
// (each item is drawn from the model as it stood at that event).
export function replayInto(upToSeq, keep) {
  const model = M.newModel(state.snap, game);
  clear(ui.stream);
  for (const ev of state.events) {
    if (ev.seq > upToSeq) break;
    const round = M.apply(model, ev, game);
    state.roundOf.set(ev.seq, round);
    if (keep(round)) {
      const node = game.streamItem(ev, model, round);
      if (node) ui.stream.append(node);
    }
  }
  ui.streamEmpty.hidden = ui.stream.childElementCount > 0;
  return model;
}

// Late web fonts reflow the list, so scroll again once they are in.
export function stickToBottom() {
  const bottom = () => { ui.stream.scrollTop = ui.stream.scrollHeight; };
  bottom();
  requestAnimationFrame(bottom);
  if (document.fonts) document.fonts.ready.then(bottom);
}

export function tick() {
  const now = Date.now() / 1000;
  for (const el of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Number(el.dataset.deadline) - now);
    if (el.classList.contains("countdown")) {
      const s = Math.ceil(left);
      el.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    } else {
      const share = Math.min(1, left / Math.max(1, Number(el.dataset.total) || 60));
      el.style.setProperty("width", `${(share * 100).toFixed(1)}%`);
    }
  }
}
