// 谁是卧底 on the match page: words, civilians / undercovers / blanks, PK revotes, whispers, last words and
// the blank's guess. The interface this implements is described at the top of ../match.js.

import makePlay from "./undercover/play.js";

export default function undercover(kit) {
  const { T, h, fill, format, clear, M, who, names, roleChip, seatLabel, avatar } = kit;
  const P = makePlay(kit); // the seat holder's controls, the host, debate and the recap

  // ---- the model --------------------------------------------------------------------------------------------

  function roundRec(model, n) {
    if (!model.rounds.has(n)) {
      model.rounds.set(n, { n, ballots: [], ties: [], abstained: [], result: null, guess: null, lastWords: null });
    }
    return model.rounds.get(n);
  }

  // The ballots of a round are the shell's fold (kit.ballots): the main vote and its PK revote.
  const latestBallot = (model, n) => kit.lastBallot(model.rounds.get(n));

  // Where the floor is, as the public events say it (phase_started, and the event that passed the floor).
  function currentSpeaker(model) {
    return model.stage === "speak" ? model.speaker : null;
  }

  function floorPassed(m, ev) {
    if (!("next_speaker_seat" in ev)) return;
    m.speaker = ev.next_speaker_seat;
    if (ev.deadline_ts) m.deadline = ev.deadline_ts;
  }

  function phaseStarted(m, ev) {
    m.pk = Boolean(ev.pk);
    m.pending = null;
    if (m.stage === "speak") {
      m.speaker = ev.current_speaker_seat ?? null;
      if (m.pk) m.pkCandidates = [...(ev.speaking_order || [])];
    } else if (m.stage === "vote") {
      kit.ballots.opened(roundRec(m, m.round), ev);
    } else if (m.stage === "reveal") {
      const result = roundRec(m, m.round).result;
      m.pending = ev.deadline_ts && result && result.eliminated_seat !== null ? result.eliminated_seat : null;
      m.pk = false;
      m.pkCandidates = [];
    }
  }

  function lastWords(m, ev) {
    roundRec(m, ev.round).lastWords = ev;
    m.pending = null;
  }

  const HANDLERS = {
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
    phase_started: phaseStarted,
    your_turn_to_speak(m, ev) {
      m.deadline = ev.deadline_ts || m.deadline;
    },
    speech_posted: floorPassed,
    speech_skipped: floorPassed,
    vote_cast(m, ev) {
      kit.ballots.cast(roundRec(m, ev.round), ev);
    },
    vote_warning(m, ev) {
      m.deadline = ev.deadline_ts || m.deadline;
    },
    vote_abstained(m, ev) {
      roundRec(m, ev.round).abstained.push(...(ev.seats || []));
    },
    votes_voided(m, ev) {
      kit.ballots.voided(roundRec(m, ev.round), ev);
    },
    vote_tied(m, ev) {
      roundRec(m, ev.round).ties.push(ev);
      m.pkCandidates = ev.tied_seats || [];
    },
    round_resolved(m, ev) {
      roundRec(m, ev.round).result = ev;
      if (ev.eliminated_seat !== null && ev.eliminated_seat !== undefined) {
        M.knockOut(m, ev.eliminated_seat, ev.revealed_role, ev.round);
      }
    },
    word_guessed(m, ev) {
      roundRec(m, ev.round).guess = ev;
      if (!m.config.last_words) m.pending = null;
    },
    last_words_posted: lastWords,
    last_words_skipped: lastWords,
    player_conceded(m, ev) {
      floorPassed(m, ev);
      if (m.stage !== "vote") return;
      kit.ballots.left(roundRec(m, m.round), m.pk, ev.seat);
    },
    whisper_sent(m, ev) {
      m.whispers = ev.count || m.whispers + 1;
    },
    match_finished(m, ev) {
      m.pending = null;
      m.wordpair = ev.wordpair || m.wordpair;
    },
    recap_rewritten(m, ev) {
      // The LLM's rewrite in persona, recorded after the end: the recap shows it instead of the rule text.
      if (!m.result || !m.result.recap) return;
      const rewritten = { players: ev.players || [], best: ev.best, blunder: ev.blunder };
      m.result = { ...m.result, recap: { ...m.result.recap, rewritten } };
    },
    match_aborted(m) {
      m.pending = null;
    },
  };

  // ---- the votes panel --------------------------------------------------------------------------------------

  function resultLine(model, ev, cls) {
    let text;
    if (ev.eliminated_seat === null || ev.eliminated_seat === undefined) {
      text = fill(ev.reason === "candidate_conceded" ? T.ev_round_candidate_conceded : T.ev_round_noop);
    } else {
      const key = ev.tie_break_applied === "random" ? T.ev_round_out_random : T.ev_round_out;
      text = fill(key, { name: who(model, ev.eliminated_seat), role: roleChip(ev.revealed_role) });
    }
    return h("p", { class: cls, data: { eliminated: ev.eliminated_seat ?? "" } }, text);
  }

  function ballotOf(model, n, b, isLast, result) {
    const title = format(b.pk ? T.votes_round_pk : T.votes_round, { n });
    const resolved = isLast && result;
    return kit.ballotView(model, n, title, b, {
      counts: resolved && result.vote_breakdown ? result.vote_breakdown : null,
      out: resolved ? result.eliminated_seat : null,
    });
  }

  // The round the panel shows: the one being viewed, else the latest round that has a ballot.
  function panelRound(model, view) {
    if (typeof view === "number") return view;
    for (let n = model.round; n >= 1; n -= 1) {
      const rec = model.rounds.get(n);
      if (rec && rec.ballots.length) return n;
    }
    return model.round || null;
  }

  // ---- the result and "you" ---------------------------------------------------------------------------------

  function roster(model, r) {
    return h("ul", { class: "roster", id: "roster" }, M.seats(model).map((p) => {
      const won = (r.winning_seats || []).includes(p.seat);
      return h("li", { class: `roster-row ${won ? "won" : "lost"}`, data: { seat: p.seat } },
        avatar(p.seat, "xs"),
        h("b", { text: p.display_name }),
        roleChip(p.role || p.revealed_role),
        h("span", { class: "roster-word", text: p.word || (p.role ? T.word_none : "") }),
        h("span", { class: `outcome outcome-${won ? "win" : "lose"}`, text: won ? T.winner : T.loser }));
    }));
  }

  function wordpair(pair) {
    return h("div", { class: "wordpair", id: "wordpair" },
      h("div", { class: "word-tile civ" }, h("small", { text: T.civilian_word }), h("b", { text: pair.civilian })),
      h("span", { class: "vs", text: "vs" }),
      h("div", { class: "word-tile uc" }, h("small", { text: T.undercover_word }), h("b", { text: pair.undercover })));
  }

  // ---- the stream -------------------------------------------------------------------------------------------

  function phaseItem(ev, model, round) {
    const stage = M.stageOf(ev.phase);
    if (stage === "speak" && !ev.pk) {
      return kit.item(ev, round, "divider", h("span", { text: format(T.ev_round_start, { n: ev.round_index }) }));
    }
    if (stage === "speak") {
      return kit.item(ev, round, "divider pk", h("span", {}, fill(T.ev_pk_start, { n: ev.round_index, names: names(model, ev.speaking_order) })));
    }
    if (stage === "vote") {
      return ev.pk ? kit.system(ev, round, T.ev_vote_start_pk, { names: names(model, model.pkCandidates) }, "phase")
        : kit.system(ev, round, T.ev_vote_start, {}, "phase");
    }
    return null;
  }

  function guessItem(ev, model, round) {
    const key = ev.guess === null || ev.guess === undefined ? T.ev_word_guessed_none
      : ev.correct ? T.ev_word_guessed_right : T.ev_word_guessed_wrong;
    return kit.system(ev, round, key, { name: who(model, ev.seat), guess: ev.guess }, ev.correct ? "strong" : "");
  }

  const ITEMS = {
    match_started: (ev, model, round) => kit.system(ev, round, ev.n_blank ? T.ev_match_started_blank : T.ev_match_started,
      { n: ev.n_players, u: ev.n_undercover, b: ev.n_blank }, "strong"),
    roles_dealt: (ev, model, round) => (ev.wordpair
      ? kit.system(ev, round, T.ev_roles_dealt, { c: ev.wordpair.civilian, u: ev.wordpair.undercover }, "god") : null),
    fellow_role_hint: (ev, model, round) => kit.system(ev, round, T.ev_fellow_hint, { note: ev.note }, "god"),
    fellow_role_revealed: (ev, model, round) => kit.system(ev, round, T.ev_fellow_revealed, { names: names(model, ev.fellow_seats) }, "god"),
    phase_started: phaseItem,
    speech_posted: (ev, model, round) => kit.bubble(model, ev, round, "", ev.text, ev.pk ? [kit.tag(T.pk, "pk")] : []),
    speech_skipped: (ev, model, round) => kit.system(ev, round, ev.reason === "timeout" ? T.ev_speech_timeout : T.ev_speech_skipped,
      { name: who(model, ev.seat) }),
    vote_cast: (ev, model, round) => kit.item(ev, round, "vote",
      h("span", { class: "vote-text" }, fill(T.ev_vote_cast, { voter: who(model, ev.seat), target: who(model, ev.target_seat) })),
      ev.comment ? h("span", { class: "vote-comment", text: ev.comment }) : null),
    vote_warning: (ev, model, round) => kit.system(ev, round, T.ev_vote_warning, { n: ev.missing_count, names: names(model, ev.missing_seats) }),
    vote_abstained: (ev, model, round) => ((ev.seats || []).length
      ? kit.system(ev, round, T.ev_vote_abstained, { names: names(model, ev.seats) }) : null),
    votes_voided: (ev, model, round) => kit.system(ev, round, T.ev_votes_voided,
      { target: who(model, ev.target_seat), names: names(model, ev.voter_seats) }),
    vote_tied: (ev, model, round) => kit.system(ev, round, T.ev_vote_tied, { names: names(model, ev.tied_seats) }, "strong"),
    round_resolved: (ev, model, round) => kit.item(ev, round, "resolved", resultLine(model, ev, "resolved-text")),
    word_guessed: guessItem,
    last_words_posted: (ev, model, round) => kit.bubble(model, ev, round, "last-words", ev.text, [kit.tag(T.ev_last_words, "lw")]),
    last_words_skipped: (ev, model, round) => kit.system(ev, round, T.ev_last_words_skipped, { name: who(model, ev.seat) }),
    whisper_received: (ev, model, round) => kit.bubble(model, ev, round, "whisper", ev.text,
      [kit.tag(format(T.ev_whisper, { from: seatLabel(ev.from_seat), to: seatLabel(ev.to_seat) }), "whisper")]),
    whisper_sent: (ev, model, round) => kit.system(ev, round, T.ev_whisper_sent, { n: ev.count }),
    host_commentary: (ev, model, round) => P.hostItem(ev, model, round),
    recap_rewritten: (ev, model, round) => kit.system(ev, round, T.uc_recap_rewritten, {}, "quiet"),
  };

  // The debate extension's events: a message is a bubble, a pass a quiet line.
  function debateItem(ev, model, round) {
    if (typeof ev.text === "string" && ev.text) return P.debateItem(ev, model, round);
    if (ev.seat === undefined || ev.seat === null) return null;
    return kit.system(ev, round, T.uc_debate_passed, { name: who(model, ev.seat) }, "quiet");
  }

  // ---- the module -------------------------------------------------------------------------------------------

  return {
    steps: ["waiting", "speak", "vote", "reveal", "finished"],

    // The debate extension's phase belongs to the talking part of the round.
    stepOf(stage) {
      if (stage === "debate") return "speak";
      return stage === "aborted" ? "finished" : stage;
    },

    configLine(config) {
      return format(config.n_blank ? T.config_line : T.config_line_no_blank,
        { n: config.n_players, u: config.n_undercover, b: config.n_blank, max: config.max_rounds });
    },

    roundLabel(model) {
      return format(T.round_counter_max, { n: model.round, max: model.config.max_rounds });
    },

    header(ui, model) {
      ui.pk.textContent = T.pk;
      ui.pk.hidden = !model.pk;
    },

    init(model, snap) {
      Object.assign(model, {
        pk: false,
        speaker: null,
        pkCandidates: [],
        pending: null, // the seat voted out while its last words / guess are awaited
        rounds: new Map(),
        wordpair: snap.wordpair || (snap.result && snap.result.wordpair) || null,
        whispers: 0,
      });
    },

    player(p, row) {
      p.word = row.word || null;
    },

    apply(model, ev) {
      const handler = HANDLERS[ev.type];
      if (handler) handler(model, ev);
    },

    currentSeat: currentSpeaker,

    turnTotal(model) {
      return model.stage === "vote" ? model.config.vote_timeout : model.config.speak_timeout;
    },

    card(p, model, ctx) {
      const role = p.role || p.revealed_role;
      const speaking = currentSpeaker(model) === p.seat;
      const pending = model.pending === p.seat;
      const b = model.stage === "vote" ? latestBallot(model, model.round) : null;
      const votedFor = b ? b.votes.get(p.seat) : undefined;
      const received = b ? [...b.votes.values()].filter((t) => t === p.seat).length : 0;
      const word = p.word ? h("span", { class: "chip word", text: p.word })
        : p.role === "blank" ? h("span", { class: "chip word", text: T.word_none }) : null;
      const extra = [];
      const voteButton = ctx.me && p.alive ? P.voteButton(p, ctx) : null;
      if (voteButton) extra.push(voteButton);
      if (speaking || pending) extra.push(kit.turn(speaking ? T.speaking : T.last_words_pending, ctx.deadline, ctx.total));
      if (b && (votedFor !== undefined || received)) {
        extra.push(h("div", { class: "vote-line" },
          votedFor !== undefined ? h("span", { class: "chip voted", data: { target: votedFor } },
            `${T.voted} → ${seatLabel(votedFor)}`) : null,
          received ? h("span", { class: "chip received", text: format(T.votes_received, { n: received }) }) : null));
      }
      return {
        data: { speaking, pending, role: role || "", voted: votedFor !== undefined, votable: Boolean(voteButton) },
        tags: [kit.statusChip(p), roleChip(role), word],
        extra,
      };
    },

    votes(ui, model, view) {
      const n = panelRound(model, view);
      const rec = n ? model.rounds.get(n) : null;
      clear(ui.votes);
      if (!rec || !rec.ballots.length) {
        ui.votesCard.hidden = model.stage !== "speak";
        ui.votes.append(h("p", { class: "muted", text: T.votes_waiting }));
        return;
      }
      ui.votesCard.hidden = false;
      rec.ballots.forEach((b, i) => ui.votes.append(ballotOf(model, n, b, i === rec.ballots.length - 1, rec.result)));
      if (rec.abstained.length) {
        ui.votes.append(h("p", { class: "abstained" }, `${T.abstained}: `, names(model, rec.abstained)));
      }
      if (rec.result) ui.votes.append(resultLine(model, rec.result, "vote-result"));
    },

    result(model, r) {
      const pair = r.wordpair || model.wordpair;
      return [pair ? wordpair(pair) : null, model.status === "finished" ? roster(model, r) : null,
        P.recap(model, r, kit.seat && kit.seat.record ? kit.seat.record.seat : null)];
    },

    play: P.play,

    you(me) {
      return [roleChip(me.role), me.word ? h("span", { class: "chip word", text: `${T.you_word}: ${me.word}` }) : null];
    },

    streamItem(ev, model, round) {
      const draw = ITEMS[ev.type];
      if (!draw && String(ev.type).startsWith("debate")) return debateItem(ev, model, round);
      return draw ? draw(ev, model, round) : kit.common(ev, model, round);
    },
  };
}
