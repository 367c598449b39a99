// The replay of a finished match: round by round, everything at once, or played from the start.

import { clear, format, h } from "../dom.js";
import * as M from "./model.js";
import { appendItem, renderBoard, replayInto, stickToBottom, whenRendered } from "./board.js";
import { game, state, T, ui } from "./page.js";

const STEP_MS = 700; // one event at a readable pace; seats filling up go by faster
const QUICK_MS = 180;

function rounds() {
  return [...new Set(state.roundOf.values())].filter((n) => n > 0).sort((a, b) => a - b);
}

function lastSeqOfRound(n) {
  let last = 0;
  for (const ev of state.events) if ((state.roundOf.get(ev.seq) || 0) <= n) last = ev.seq;
  return last;
}

export function showAll() {
  stopPlaying();
  state.view = "all";
  state.model = replayInto(Infinity, () => true);
  renderBoard(state.model);
  stickToBottom();
}

function showRound(n) {
  stopPlaying();
  const first = rounds()[0];
  state.view = n;
  const model = replayInto(lastSeqOfRound(n), (r) => r === n || (n === first && r < first));
  ui.stream.scrollTop = 0;
  renderBoard(model);
}

export function step(delta) {
  const list = rounds();
  if (!list.length) return;
  if (state.view === "all" || state.view === "play") {
    showRound(delta > 0 ? list[0] : list[list.length - 1]);
    return;
  }
  const at = list.indexOf(state.view) + delta;
  if (at >= 0 && at < list.length) showRound(list[at]);
}

function startPlaying() {
  stopPlaying();
  state.view = "play";
  state.player = { index: 0, model: M.newModel(state.snap, game), timer: null, paused: false };
  clear(ui.stream);
  ui.streamEmpty.hidden = true;
  renderBoard(state.player.model);
  playNext();
}

// Apply events until one shows something, render, and come back in STEP_MS.
function playNext() {
  const p = state.player;
  if (!p || p.paused) return;
  let shown = false;
  let quick = false;
  while (!shown && p.index < state.events.length) {
    const ev = state.events[p.index];
    p.index += 1;
    const round = M.apply(p.model, ev, game);
    shown = appendItem(ev, p.model, round);
    quick = ev.type === "player_joined";
  }
  renderBoard(p.model);
  if (p.index >= state.events.length) {
    state.player = null;
    state.view = "all";
    renderBoard(state.model);
    return;
  }
  p.timer = setTimeout(playNext, quick ? QUICK_MS : STEP_MS);
}

function stopPlaying() {
  if (state.player) clearTimeout(state.player.timer);
  state.player = null;
}

export function togglePlay() {
  const p = state.player;
  if (!p) {
    startPlaying();
    return;
  }
  p.paused = !p.paused;
  if (p.paused) clearTimeout(p.timer);
  else playNext();
  renderReplayBar();
}

function renderReplayBar() {
  const finished = state.model && M.isTerminal(state.model.status) && state.snap && M.isTerminal(state.snap.status);
  const list = finished ? rounds() : [];
  ui.replay.hidden = !list.length;
  if (!list.length) return;
  const view = state.view;
  const playing = view === "play";
  ui.label.dataset.round = String(view);
  ui.label.textContent = typeof view === "number" ? format(T.replay_of, { n: view, total: list.length })
    : playing ? `▶ ${T.play}` : "";
  ui.prev.disabled = !list.length || view === list[0];
  ui.next.disabled = !list.length || view === list[list.length - 1];
  ui.all.classList.toggle("on", view === "all");
  ui.play.textContent = playing ? (state.player && state.player.paused ? `▶ ${T.resume}` : `❚❚ ${T.pause}`) : `▶ ${T.play}`;
  ui.skip.hidden = !playing;
  if (ui.rounds.childElementCount !== list.length) {
    clear(ui.rounds);
    for (const n of list) {
      ui.rounds.append(h("button", { type: "button", class: "round-pill", data: { round: n }, text: format(T.replay_round, { n }),
        onclick: () => showRound(n) }));
    }
  }
  for (const pill of ui.rounds.children) pill.classList.toggle("on", Number(pill.dataset.round) === view);
}

whenRendered(renderReplayBar);
