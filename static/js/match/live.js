// Live: the first snapshot, then a long-poll on /events until the end, which reloads the god view.

import * as M from "./model.js";
import { appendItem, renderBoard } from "./board.js";
import { backOff, getJSON } from "./fetching.js";
import { API, behind, game, setConn, state, T, WAIT_S } from "./page.js";
import { onRefresh } from "./play.js";
import { showAll } from "./replay.js";

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
    const phase = state.model.phase;
    const round = M.apply(state.model, ev, game);
    if (state.model.phase !== phase) state.phaseSeq = ev.seq;
    state.roundOf.set(ev.seq, round);
    if (state.view === "all") appendItem(ev, state.model, round);
    fresh += 1;
  }
  return fresh;
}

let refreshing = null;
let again = false; // events arrived while a read was on its way: that read may predate them, so read once more
let asked = 0; // snapshot reads started: an answer is used only if no later read started (a join changes the viewer)

async function refreshSnapshot() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    try {
      do {
        again = false;
        const ticket = ++asked;
        try {
          const snap = await getJSON(API, 15000);
          if (ticket === asked && !M.isTerminal(snap.status)) {
            state.snap = snap;
            if (state.view === "all") renderBoard(state.model);
          }
        } catch {
          // The next long-poll reports trouble. While the seat's controls wait for this read (the stream has shown
          // a phase the last snapshot had not), the table may be waiting on this seat: read again in a second.
          if (behind(state.snap)) setTimeout(refreshSnapshot, 1000);
        }
      } while (again);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

// After the seat holder acts: the seat's own view now, without waiting for the long-poll.
onRefresh(async () => {
  const ticket = ++asked;
  try {
    const snap = await getJSON(API, 15000);
    if (ticket !== asked) return;
    state.snap = snap;
  } catch {
    return;
  }
  if (state.view === "all") renderBoard(state.model);
});

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

export async function start() {
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
