// The match as the page understands it: a pure fold over the event log, so live, a replayed round and
// "play from the start" all render from the same state. This file folds what every game shares (seats,
// status, phase, round, the end); the page module folds the rest into the same object (`game.init`/`apply`).

const TERMINAL = new Set(["finished", "aborted"]);

export function newModel(snap, game) {
  const model = {
    config: snap.config,
    known: new Map(snap.players.map((p) => [p.seat, p])), // seat → the snapshot's row (role, … when visible)
    players: new Map(),
    status: "waiting",
    phase: "waiting",
    stage: "waiting",
    round: 0,
    deadline: null,
    result: null,
    lastSeq: 0,
  };
  game.init(model, snap);
  return model;
}

export function stageOf(phase) {
  return String(phase || "waiting").split("_round_")[0];
}

function addPlayer(model, game, seat, name, displayName) {
  if (model.players.has(seat)) return;
  const row = model.known.get(seat) || {};
  const player = {
    seat, name, display_name: displayName || name, is_official: Boolean(row.is_official),
    is_guest: Boolean(row.is_guest), is_human: Boolean(row.is_human || row.is_guest),
    role: row.role || null, alive: true, revealed_role: null, out_round: null, conceded: false,
  };
  model.players.set(seat, player);
  if (game.player) game.player(player, row);
}

// A seat leaves play (voted out, killed, conceded); `role` is what the table learns of it, if anything.
export function knockOut(model, seat, role, round, conceded = false) {
  const player = model.players.get(seat);
  if (!player) return;
  Object.assign(player, { alive: false, revealed_role: role || player.revealed_role, out_round: round, conceded });
}

const COMMON = {
  match_created(m, ev, game) {
    for (const p of ev.players || []) addPlayer(m, game, p.seat, p.name, p.display_name);
  },
  player_joined(m, ev, game) {
    addPlayer(m, game, ev.seat, ev.name, ev.display_name);
  },
  match_started(m) {
    m.status = "in_progress";
  },
  phase_started(m, ev) {
    Object.assign(m, { status: "in_progress", phase: ev.phase, stage: stageOf(ev.phase), round: ev.round_index,
      deadline: ev.deadline_ts || null });
  },
  player_conceded(m, ev) {
    knockOut(m, ev.seat, ev.revealed_role, ev.round || m.round, true);
  },
  match_finished(m, ev) {
    Object.assign(m, { status: "finished", phase: "finished", stage: "finished", deadline: null, result: ev });
  },
  match_aborted(m, ev) {
    Object.assign(m, { status: "aborted", phase: "aborted", stage: "aborted", deadline: null, result: ev });
  },
};

// Apply one event (the shared fields, then the game's); returns the round it belongs to (0 before the first).
export function apply(model, ev, game) {
  const round = ev.round ?? ev.round_index ?? model.round;
  model.lastSeq = Math.max(model.lastSeq, ev.seq);
  const common = COMMON[ev.type];
  if (common) common(model, ev, game);
  game.apply(model, ev);
  return round;
}

export function isTerminal(status) {
  return TERMINAL.has(status);
}

export function seats(model) {
  return [...model.players.values()].sort((a, b) => a.seat - b.seat);
}
