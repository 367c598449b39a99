// The board: header, players, votes, result, `you` and the event stream, drawn from one model.

import { clear, format } from "../dom.js";
import * as M from "../model.js";
import { makeRenderer } from "../render.js";
import { baseTitle, Q, state, T, ui } from "./page.js";

const R = makeRenderer(T);
const afterRender = [];

// Parts drawn by other modules (the replay bar) hook in here, so the board imports none of them.
export function whenRendered(draw) {
  afterRender.push(draw);
}

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
    if (model.stage !== "speak" || snap.current_speaker_seat === M.currentSpeaker(model)) return snap.deadline_ts;
  }
  return model.deadline;
}

function panelRound(model) {
  if (typeof state.view === "number") return state.view;
  for (let n = model.round; n >= 1; n -= 1) {
    const rec = model.rounds.get(n);
    if (rec && rec.ballots.length) return n;
  }
  return model.round || null;
}

export function renderBoard(model) {
  const stage = model.stage;
  const total = stage === "vote" ? model.config.vote_timeout : model.config.speak_timeout;
  const ctx = {
    q: Q, speaker: M.currentSpeaker(model), deadline: liveDeadline(model), total,
    ballot: stage === "vote" ? M.latestBallot(model, model.round) : null, viewerLabel: viewerLabel(),
  };
  R.header(ui, model, ctx);
  ui.grid.dataset.stage = model.stage;
  if (ui.unlock) ui.unlock.hidden = !(state.snap && state.snap.viewer_role === "anonymous" && !M.isTerminal(state.snap.status));
  const phase = T[`phase_${model.stage}`] || "";
  document.title = `${model.round ? `${format(T.round_counter, { n: model.round })} · ${phase}` : phase} · ${baseTitle}`;
  R.players(ui.players, model, ctx);
  R.votes(ui, model, panelRound(model));
  R.result(ui.result, model);
  R.you(ui.you, state.view === "all" ? state.snap : null);
  for (const draw of afterRender) draw();
  tick();
}

export function appendItem(ev, model, round) {
  const node = R.streamItem(ev, model, round);
  if (!node) return false;
  const list = ui.stream;
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 120;
  list.append(node);
  ui.streamEmpty.hidden = true;
  if (nearBottom) list.scrollTo({ top: list.scrollHeight, behavior: "smooth" });
  return true;
}

// Fold the log up to `upToSeq` into a fresh model, re-rendering the stream items that pass `keep` as it goes
// (each item is drawn from the model as it stood at that event).
export function replayInto(upToSeq, keep) {
  const model = M.newModel(state.snap);
  clear(ui.stream);
  for (const ev of state.events) {
    if (ev.seq > upToSeq) break;
    const round = M.apply(model, ev);
    state.roundOf.set(ev.seq, round);
    if (keep(round)) {
      const node = R.streamItem(ev, model, round);
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
