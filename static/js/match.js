// The match page: one snapshot, then a long-poll on /events; at the end, a round-by-round replay.

import { clear, format, h } from "./dom.js";
import * as M from "./model.js";
import { makeRenderer } from "./render.js";

const boot = JSON.parse(document.getElementById("wodi-boot").textContent);
const T = boot.t;
const API = `/api/matches/${encodeURIComponent(boot.match_id)}`;
const Q = boot.lang === "en" ? "?lang=en" : "";
const STEP_MS = 700; // one event at a readable pace; seats filling up go by faster
const QUICK_MS = 180;
const WAIT_S = 25;
const R = makeRenderer(T);
const baseTitle = document.title;

const $ = (id) => document.getElementById(id);
const ui = {
  head: $("match-head"), phase: $("phase"), round: $("round"), pk: $("pk"), alive: $("alive"), conn: $("conn"),
  connText: $("conn-text"), viewer: $("viewer"), result: $("result"), you: $("you"), players: $("players"),
  votes: $("votes"), votesCard: $("votes-card"), stream: $("stream"), streamEmpty: $("stream-empty"),
  replay: $("replay"), prev: $("replay-prev"), next: $("replay-next"), all: $("replay-all"), play: $("replay-play"),
  skip: $("replay-skip"), label: $("replay-label"), rounds: $("replay-rounds"), share: $("share"),
  grid: $("match-grid"), unlock: $("unlock"),
};

const state = {
  snap: null, // the latest snapshot: viewer layer, `you`, the live speaker's deadline
  events: [], // every event this viewer may see, in seq order
  roundOf: new Map(), // seq → round
  model: null,
  since: 0,
  view: "all", // "all", a round number, or "play"
  player: null, // the "play from the start" cursor
};

// ---- fetching -------------------------------------------------------------------------------------------

async function getJSON(url, timeoutMs = (WAIT_S + 15) * 1000) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" }, signal: abort.signal,
    });
    if (!response.ok) {
      const error = new Error(`HTTP ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return await response.json();
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function setConn(kind, text) {
  ui.conn.dataset.state = kind;
  ui.connText.textContent = text;
}

async function backOff(attempt) {
  const delay = Math.min(1000 * 2 ** attempt, 30000) * (0.8 + Math.random() * 0.4);
  for (let left = Math.ceil(delay / 1000); left > 0; left -= 1) {
    setConn("retry", format(T.reconnecting, { s: left }));
    await sleep(Math.min(1000, delay));
  }
}

// ---- state --------------------------------------------------------------------------------------------

function mergedLog(snap) {
  const bySeq = new Map();
  for (const list of [snap.public_log, snap.spectator_log, snap.you && snap.you.private_log]) {
    for (const ev of list || []) bySeq.set(ev.seq, ev);
  }
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

function load(snap) {
  state.snap = snap;
  state.events = mergedLog(snap);
  state.since = Math.max(snap.events_total || 0, state.since);
  showAll();
  if (M.isTerminal(snap.status)) setConn("ended", T.ended);
}

function ingest(events) {
  let fresh = 0;
  for (const ev of events) {
    if (ev.seq <= state.model.lastSeq) continue;
    state.events.push(ev);
    const round = M.apply(state.model, ev);
    state.roundOf.set(ev.seq, round);
    if (state.view === "all") appendItem(ev, state.model, round);
    fresh += 1;
  }
  return fresh;
}

// ---- rendering --------------------------------------------------------------------------------------------

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

function renderBoard(model) {
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
  renderReplayBar();
  tick();
}

function appendItem(ev, model, round) {
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
function replayInto(upToSeq, keep) {
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
function stickToBottom() {
  const bottom = () => { ui.stream.scrollTop = ui.stream.scrollHeight; };
  bottom();
  requestAnimationFrame(bottom);
  if (document.fonts) document.fonts.ready.then(bottom);
}

function tick() {
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

// ---- replay ------------------------------------------------------------------------------------------------

function rounds() {
  return [...new Set(state.roundOf.values())].filter((n) => n > 0).sort((a, b) => a - b);
}

function lastSeqOfRound(n) {
  let last = 0;
  for (const ev of state.events) if ((state.roundOf.get(ev.seq) || 0) <= n) last = ev.seq;
  return last;
}

function showAll() {
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

function step(delta) {
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
  state.player = { index: 0, model: M.newModel(state.snap), timer: null, paused: false };
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
    const round = M.apply(p.model, ev);
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

function togglePlay() {
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

// ---- live ----------------------------------------------------------------------------------------------------

let refreshing = null;

async function refreshSnapshot() {
  if (refreshing) return refreshing;
  refreshing = (async () => {
    try {
      const snap = await getJSON(API, 15000);
      if (!M.isTerminal(snap.status)) {
        state.snap = snap;
        if (state.view === "all") renderBoard(state.model);
      }
    } catch {
      // The next long-poll reports trouble; the snapshot only refines the countdown.
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

async function poll() {
  let attempt = 0;
  let probe = false; // after an error, ask without waiting, so "live" shows as soon as the server answers
  for (;;) {
    try {
      const page = await getJSON(`${API}/events?since=${state.since}&wait=${probe ? 0 : WAIT_S}`);
      attempt = 0;
      probe = false;
      setConn("live", T.live);
      const fresh = ingest(page.events || []);
      state.since = Math.max(state.since, page.next_since || 0);
      if (M.isTerminal(page.status)) {
        load(await getJSON(API)); // the end opens every card: reload the god view, in place
        return;
      }
      if (fresh) {
        renderBoard(state.model);
        refreshSnapshot();
      }
    } catch (error) {
      if (error.status === 404) {
        setConn("retry", T.not_found_title);
        return;
      }
      await backOff(attempt);
      attempt = Math.min(attempt + 1, 5);
      probe = true;
    }
  }
}

async function start() {
  for (let attempt = 0; ; attempt = Math.min(attempt + 1, 5)) {
    try {
      load(await getJSON(API));
      break;
    } catch (error) {
      if (error.status === 404) {
        setConn("retry", T.not_found_title);
        return;
      }
      await backOff(attempt);
    }
  }
  document.body.dataset.ready = "1";
  if (!M.isTerminal(state.snap.status)) {
    setConn("live", T.live);
    poll();
  }
}

ui.prev.addEventListener("click", () => step(-1));
ui.next.addEventListener("click", () => step(1));
ui.all.addEventListener("click", showAll);
ui.play.addEventListener("click", togglePlay);
ui.skip.addEventListener("click", showAll);
ui.share.addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(`${location.origin}${location.pathname}`);
    ui.share.textContent = T.copied;
  } catch {
    ui.share.textContent = `${location.origin}${location.pathname}`;
  }
});
setInterval(tick, 250);
start();
