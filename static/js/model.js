// The match as the page understands it: a pure fold over the event log, so live, a replayed round and
// "play from the start" all render from the same state.

const TERMINAL = new Set(["finished", "aborted"]);

export function newModel(snap) {
  const known = new Map(snap.players.map((p) => [p.seat, p]));
  return {
    config: snap.config,
    known, // seat → what the snapshot says about it (is_official; role and word when the viewer may see them)
    players: new Map(),
    status: "waiting",
    phase: "waiting",
    stage: "waiting",
    round: 0,
    pk: false,
    deadline: null,
    order: [],
    spoken: new Set(),
    pkCandidates: [],
    pending: null, // the seat voted out while its last words / guess are awaited
    rounds: new Map(),
    wordpair: snap.wordpair || (snap.result && snap.result.wordpair) || null,
    result: null,
    whispers: 0,
    lastSeq: 0,
  };
}

export function stageOf(phase) {
  return String(phase || "waiting").split("_round_")[0];
}

export function roundRec(model, n) {
  if (!model.rounds.has(n)) {
    model.rounds.set(n, { n, ballots: [], ties: [], abstained: [], result: null, guess: null, lastWords: null });
  }
  return model.rounds.get(n);
}

// The ballot of a round: the main vote (pk=false) or its PK revote.
export function ballot(model, n, pk) {
  const rec = roundRec(model, n);
  let found = rec.ballots.find((b) => b.pk === pk);
  if (!found) {
    found = { pk, voters: [], votes: new Map(), comments: new Map() };
    rec.ballots.push(found);
  }
  return found;
}

function addPlayer(model, seat, name, displayName) {
  if (model.players.has(seat)) return;
  const extra = model.known.get(seat) || {};
  model.players.set(seat, {
    seat, name, display_name: displayName || name, is_official: Boolean(extra.is_official),
    role: extra.role || null, word: extra.word || null,
    alive: true, revealed_role: null, out_round: null, conceded: false,
  });
}

function knockOut(model, seat, role, round, conceded) {
  const player = model.players.get(seat);
  if (!player) return;
  Object.assign(player, { alive: false, revealed_role: role || player.revealed_role, out_round: round, conceded });
}

function deadlineAfter(model, ev) {
  const at = Date.parse(ev.ts);
  return Number.isNaN(at) ? null : Math.ceil(at / 1000 + Number(model.config.speak_timeout || 0));
}

const HANDLERS = {
  match_created(m, ev) {
    for (const p of ev.players || []) addPlayer(m, p.seat, p.name, p.display_name);
  },
  player_joined(m, ev) {
    addPlayer(m, ev.seat, ev.name, ev.display_name);
  },
  match_started(m) {
    m.status = "in_progress";
  },
  roles_dealt(m, ev) {
    for (const r of ev.roles || []) {
      const p = m.players.get(r.seat);
      if (p) Object.assign(p, { role: r.role, word: r.word });
    }
    m.wordpair = ev.wordpair || m.wordpair;
  },
  role_assigned(m, ev) {
    const p = m.players.get(ev.seat);
    if (p) Object.assign(p, { role: ev.role, word: ev.word });
  },
  phase_started(m, ev) {
    m.status = "in_progress";
    m.phase = ev.phase;
    m.stage = stageOf(ev.phase);
    m.round = ev.round_index;
    m.pk = Boolean(ev.pk);
    m.deadline = ev.deadline_ts || null;
    m.pending = null;
    if (m.stage === "speak") {
      m.order = ev.speaking_order || [];
      m.spoken = new Set();
      if (m.pk) m.pkCandidates = [...m.order];
    } else if (m.stage === "vote") {
      const living = [...m.players.values()].filter((p) => p.alive).map((p) => p.seat);
      ballot(m, m.round, m.pk).voters = living.filter((s) => !(m.pk && m.pkCandidates.includes(s)));
    } else if (m.stage === "reveal") {
      const result = roundRec(m, m.round).result;
      m.pending = ev.deadline_ts && result && result.eliminated_seat !== null ? result.eliminated_seat : null;
      m.pk = false;
      m.pkCandidates = [];
    }
  },
  your_turn_to_speak(m, ev) {
    m.deadline = ev.deadline_ts || m.deadline;
  },
  speech_posted(m, ev) {
    m.spoken.add(ev.seat);
    m.deadline = deadlineAfter(m, ev);
  },
  speech_skipped(m, ev) {
    m.spoken.add(ev.seat);
    m.deadline = deadlineAfter(m, ev);
  },
  vote_cast(m, ev) {
    const b = ballot(m, ev.round, Boolean(ev.pk));
    b.votes.set(ev.seat, ev.target_seat);
    if (ev.comment) b.comments.set(ev.seat, ev.comment);
  },
  vote_warning(m, ev) {
    m.deadline = ev.deadline_ts || m.deadline;
  },
  vote_abstained(m, ev) {
    roundRec(m, ev.round).abstained.push(...(ev.seats || []));
  },
  votes_voided(m, ev) {
    for (const b of roundRec(m, ev.round).ballots) {
      for (const seat of ev.voter_seats || []) if (b.votes.get(seat) === ev.target_seat) b.votes.delete(seat);
    }
  },
  vote_tied(m, ev) {
    roundRec(m, ev.round).ties.push(ev);
    m.pkCandidates = ev.tied_seats || [];
  },
  round_resolved(m, ev) {
    roundRec(m, ev.round).result = ev;
    if (ev.eliminated_seat !== null && ev.eliminated_seat !== undefined) {
      knockOut(m, ev.eliminated_seat, ev.revealed_role, ev.round, false);
    }
  },
  word_guessed(m, ev) {
    roundRec(m, ev.round).guess = ev;
    if (!m.config.last_words) m.pending = null;
  },
  last_words_posted(m, ev) {
    roundRec(m, ev.round).lastWords = ev;
    m.pending = null;
  },
  last_words_skipped(m, ev) {
    roundRec(m, ev.round).lastWords = ev;
    m.pending = null;
  },
  player_conceded(m, ev) {
    knockOut(m, ev.seat, ev.revealed_role, ev.round || m.round, true);
    if (m.stage === "vote") {
      const b = ballot(m, m.round, m.pk);
      b.voters = b.voters.filter((s) => s !== ev.seat);
      b.votes.delete(ev.seat);
    }
  },
  whisper_sent(m, ev) {
    m.whispers = ev.count || m.whispers + 1;
  },
  match_finished(m, ev) {
    Object.assign(m, { status: "finished", phase: "finished", stage: "finished", deadline: null, pending: null });
    m.result = ev;
    m.wordpair = ev.wordpair || m.wordpair;
  },
  match_aborted(m, ev) {
    Object.assign(m, { status: "aborted", phase: "aborted", stage: "aborted", deadline: null, pending: null });
    m.result = ev;
  },
};

// Apply one event; returns the round it belongs to (0 before the first round).
export function apply(model, ev) {
  const round = ev.round ?? ev.round_index ?? model.round;
  model.lastSeq = Math.max(model.lastSeq, ev.seq);
  const handler = HANDLERS[ev.type];
  if (handler) handler(model, ev);
  return round;
}

export function isTerminal(status) {
  return TERMINAL.has(status);
}

export function seats(model) {
  return [...model.players.values()].sort((a, b) => a.seat - b.seat);
}

export function currentSpeaker(model) {
  if (model.stage !== "speak") return null;
  return model.order.find((s) => !model.spoken.has(s) && model.players.get(s)?.alive) ?? null;
}

// The ballot the vote panel should show for round n: the PK revote once it exists, else the main vote.
export function latestBallot(model, n) {
  const rec = model.rounds.get(n);
  if (!rec || !rec.ballots.length) return null;
  return rec.ballots[rec.ballots.length - 1];
}
