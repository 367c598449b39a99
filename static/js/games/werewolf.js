// 狼人杀 (werewolf) on the match page: night and day, who died each dawn, day speeches, votes and PKs, the
// hunter's shot, last words, the wolves' talk and the night roles' private events, and every role at the end.
// The interface this implements is described at the top of ../match.js.
//
// The server filters what each viewer may see, so this module draws what arrives and never infers more: the
// wolves' whispers and kill choices appear for a wolf and for god views (spectators, everyone after the end); a
// seer's result and a witch's knowledge for that seat and god views; how a seat died at night only when an event
// says so (the god-only `night_resolved`, or a god snapshot's `death_cause`).
//
// Stable hooks for tests (besides the shell's ids, and `data-type` / `data-round` on every stream item):
//   #players .player[data-game="werewolf"]      a card; data-seat, data-alive (shell), data-role, data-camp (what
//                                                the viewer knows), data-out ("night" | "vote" | "shot" | "conceded"),
//                                                data-speaking, data-acting ("shoot" | "last_words"), data-voted
//   [data-testid="ww-night"]                     the stream divider that opens night N (data-round)
//   [data-testid="ww-dawn"]                      dawn: who died (data-dead = "3,5", "" for a peaceful night)
//   [data-testid="ww-day"]                       the divider that opens day N's speeches (data-pk on a PK)
//   [data-testid="ww-speech"]                    a day speech;  [data-testid="ww-last-words"]  last words
//   [data-testid="ww-vote"]                      a vote;        [data-testid="ww-exile"]       a vote's result
//   [data-testid="ww-whisper"]                   a wolf's whisper (only where the viewer may see it)
//   [data-testid="ww-wolf-choice"]               a wolf's kill choice;  [data-testid="ww-wolves-decided"]  the pack's
//   [data-testid="ww-seer-result"], [data-testid="ww-seer-pass"], [data-testid="ww-witch"], [data-testid="ww-guard"]
//                                                the night roles' events (a witch's or guard's pass included)
//   [data-testid="ww-night-resolved"]            the god-only account of the night
//   [data-testid="ww-hunter-shot"]               the hunter's shot (data-target);  [data-testid="ww-hunter-passed"]
//   [data-testid="ww-roster"], [data-testid="ww-roster-row"]   the roles at the end (a row: data-seat, data-role,
//                                                data-won)
//   [data-testid="ww-you-role"], [data-testid="ww-you-fellows"], [data-testid="ww-you-checks"],
//   [data-testid="ww-you-potions"]               the viewer's own seat
//   [data-testid="recap"]                        the end's account: each night's and day's deaths, and the seat's
//                                                own role and outcome ([data-testid="recap-mine"])
//   The seat holder's controls are ./werewolf_play.js's (its header lists their hooks).

import makePlay from "./werewolf_play.js";

export default function werewolf(kit) {
  const { T, h, fill, format, clear, M, who, names, roleChip, seatLabel, avatar } = kit;
  const GODS = ["seer", "witch", "hunter", "guard"];
  const campOf = (role) => (role ? (role === "werewolf" ? "werewolf" : "village") : null);

  // ---- the model --------------------------------------------------------------------------------------------

  function newNight() {
    return { choices: new Map(), split: null, decided: null, seer: null, witchKnows: null, witch: null,
      guard: null, resolved: null, dead: null };
  }

  function roundRec(model, n) {
    if (!model.rounds.has(n)) {
      model.rounds.set(n, { n, night: newNight(), ballots: [], ties: [], abstained: [], result: null, shot: null });
    }
    return model.rounds.get(n);
  }

  // The ballots of a round are the shell's fold (kit.ballots): the main vote and its PK revote.
  const latestBallot = (model, n) => kit.lastBallot(model.rounds.get(n));

  // Where the floor is, as the public events say it (phase_started, and the event that passed the floor).
  function currentSpeaker(model) {
    return model.stage === "speak" ? model.speaker : null;
  }

  function setRole(model, seat, role) {
    const p = model.players.get(seat);
    if (p && role) Object.assign(p, { role, camp: campOf(role) });
  }

  function phaseStarted(m, ev) {
    m.pk = Boolean(ev.pk);
    m.acting = null;
    if (m.stage === "night") {
      roundRec(m, m.round);
      m.after = null;
      m.pkCandidates = [];
    } else if (m.stage === "speak") {
      m.speaker = ev.current_speaker_seat ?? null;
      m.after = "night";
      if (m.pk) m.pkCandidates = [...(ev.speaking_order || [])];
    } else if (m.stage === "vote") {
      kit.ballots.opened(roundRec(m, m.round), { ...ev, pk: m.pk });
    } else if (m.stage === "hunter" || m.stage === "last_words") {
      m.acting = ev.seat ?? null;
      m.after = roundRec(m, m.round).result ? "vote" : "night";
    }
  }

  function spoke(m, ev) {
    if (!("next_speaker_seat" in ev)) return;
    m.speaker = ev.next_speaker_seat;
    if (ev.deadline_ts) m.deadline = ev.deadline_ts;
  }

  function out(m, seat, round, how, role, camp) {
    M.knockOut(m, seat, role, round);
    const p = m.players.get(seat);
    if (!p) return;
    p.out = how;
    if (camp) p.revealed_camp = camp;
  }

  const HANDLERS = {
    roles_dealt(m, ev) {
      for (const a of ev.assignment || []) setRole(m, a.seat, a.role);
    },
    role_assigned(m, ev) {
      setRole(m, ev.seat, ev.role);
    },
    wolf_pack(m, ev) {
      m.pack = ev.wolf_seats || [];
      for (const seat of m.pack) setRole(m, seat, "werewolf");
    },
    phase_started: phaseStarted,
    your_turn_to_speak(m, ev) {
      m.deadline = ev.deadline_ts || m.deadline;
    },
    speech_posted: spoke,
    speech_skipped: spoke,
    wolf_kill_chosen(m, ev) {
      roundRec(m, ev.round).night.choices.set(ev.seat, ev.target_seat ?? null);
    },
    pack_split(m, ev) {
      roundRec(m, ev.round).night.split = ev.choices || {};
    },
    wolves_decided(m, ev) {
      roundRec(m, ev.round).night.decided = { target: ev.target_seat ?? null, by: ev.by };
    },
    night_action_recorded(m, ev) {
      const night = roundRec(m, ev.round).night;
      const role = m.players.get(ev.seat)?.role;
      if (ev.action === "guard" || (ev.action === "pass" && role === "guard")) night.guard = ev;
      if (["save", "poison"].includes(ev.action) || (ev.action === "pass" && role === "witch")) night.witch = ev;
      if (ev.action === "pass" && role === "seer") night.seer = { pass: true };
    },
    seer_result(m, ev) {
      roundRec(m, ev.round).night.seer = { target: ev.target_seat, camp: ev.camp };
      m.checks.set(ev.target_seat, ev.camp);
    },
    witch_informed(m, ev) {
      roundRec(m, ev.round).night.witchKnows = { victim: ev.victim_seat ?? null };
    },
    night_resolved(m, ev) {
      roundRec(m, ev.round).night.resolved = ev;
      for (const [seat, cause] of Object.entries(ev.deaths || {})) m.causes.set(Number(seat), cause);
    },
    night_result(m, ev) {
      roundRec(m, ev.round).night.dead = ev.dead_seats || [];
    },
    player_eliminated(m, ev) {
      const how = ev.cause === "vote" ? "vote" : ev.cause === "shot" ? "shot" : "night";
      out(m, ev.seat, ev.round, how, ev.revealed_role, ev.revealed_camp);
    },
    vote_cast(m, ev) {
      kit.ballots.cast(roundRec(m, ev.round), ev);
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
        out(m, ev.eliminated_seat, ev.round, "vote", ev.revealed_role, ev.revealed_camp);
      }
    },
    hunter_shot(m, ev) {
      roundRec(m, ev.round).shot = ev;
      const p = m.players.get(ev.seat);
      if (p) Object.assign(p, { revealed_role: ev.revealed_role || "hunter", revealed_camp: "village" });
    },
    hunter_passed(m, ev) {
      roundRec(m, ev.round).shot = ev;
    },
    last_words_posted(m) {
      m.acting = null;
    },
    last_words_skipped(m) {
      m.acting = null;
    },
    player_conceded(m, ev) {
      const p = m.players.get(ev.seat);
      if (p) Object.assign(p, { out: "conceded", revealed_camp: ev.revealed_camp || campOf(ev.revealed_role) });
      spoke(m, ev);
      if (m.stage !== "vote") return;
      kit.ballots.left(roundRec(m, m.round), m.pk, ev.seat);
    },
    match_finished(m, ev) {
      Object.assign(m, { acting: null, pk: false });
      for (const [seat, role] of Object.entries(ev.roles || {})) setRole(m, Number(seat), role);
    },
    match_aborted(m) {
      Object.assign(m, { acting: null, pk: false });
    },
  };

  // ---- chips --------------------------------------------------------------------------------------------------

  const chip = (cls, text, data = {}) => h("span", { class: `chip ${cls}`, text, data });

  function campChip(camp) {
    return camp ? chip(`camp-chip team-${camp}`, T[`ww_team_${camp}`] || camp) : null;
  }

  // What the viewer knows of a card: the role, else the camp alone (reveal_role_on_death "team", a seer's check).
  function cardIdentity(p, model) {
    const role = p.role || p.revealed_role;
    if (role) return roleChip(role);
    const camp = p.revealed_camp || model.checks.get(p.seat);
    return campChip(camp);
  }

  function statusChip(p, model) {
    if (p.alive) return chip("status-alive", T.alive);
    if (p.conceded || p.out === "conceded") return chip("status-out", T.conceded);
    const key = { night: T.ww_out_night, vote: T.ww_out_vote, shot: T.ww_out_shot }[p.out] || T.eliminated_in;
    const cause = p.out === "night" ? model.causes.get(p.seat) || model.known.get(p.seat)?.death_cause : null;
    return [chip("status-out", format(key, { n: p.out_round })),
      cause ? chip(`cause cause-${cause}`, T[`ww_cause_${cause}`] || cause, { cause }) : null];
  }

  // The night's marks on a card, from what the viewer was shown of the night being played.
  function nightChips(p, model) {
    if (model.stage !== "night") return [];
    const night = model.rounds.get(model.round)?.night;
    if (!night) return [];
    const chips = [];
    if (night.choices.has(p.seat)) {
      const target = night.choices.get(p.seat);
      chips.push(chip("ww-mark kill-choice", target === null ? T.ww_mark_no_kill : format(T.ww_mark_kill_choice,
        { seat: seatLabel(target) }), { target: target ?? "" }));
    }
    if (night.decided && night.decided.target === p.seat) chips.push(chip("ww-mark knifed", T.ww_mark_knifed));
    if (night.seer && night.seer.target === p.seat) {
      chips.push(chip(`ww-mark checked team-${night.seer.camp}`, format(T.ww_mark_checked,
        { camp: T[`ww_team_${night.seer.camp}`] })));
    }
    if (night.guard && night.guard.target_seat === p.seat) chips.push(chip("ww-mark guarded", T.ww_mark_guarded));
    if (night.witch && night.witch.target_seat === p.seat) {
      const saved = night.witch.action === "save";
      chips.push(chip(`ww-mark ${saved ? "saved" : "poisoned"}`, saved ? T.ww_mark_saved : T.ww_mark_poisoned));
    }
    return chips;
  }

  // ---- the votes panel --------------------------------------------------------------------------------------

  function resultLine(model, ev, cls) {
    let text;
    if (ev.eliminated_seat === null || ev.eliminated_seat === undefined) {
      text = fill(ev.reason === "no_votes" ? T.ww_exile_none : T.ww_exile_noop);
    } else {
      const shown = ev.revealed_role ? roleChip(ev.revealed_role) : campChip(ev.revealed_camp);
      const key = ev.tie_break_applied === "random" ? T.ww_exile_random : T.ww_exile;
      text = fill(key, { name: who(model, ev.eliminated_seat) });
      if (shown) text.push(document.createTextNode(" "), shown);
    }
    return h("p", { class: cls, data: { eliminated: ev.eliminated_seat ?? "", testid: "ww-exile" } }, text);
  }

  function ballotOf(model, n, b, isLast, result) {
    const title = format(b.pk ? T.ww_votes_round_pk : T.ww_votes_day, { n });
    const resolved = isLast && result;
    return kit.ballotView(model, n, title, b, {
      counts: resolved && result.vote_breakdown ? result.vote_breakdown : null,
      out: resolved ? result.eliminated_seat : null,
    });
  }

  function panelRound(model, view) {
    if (typeof view === "number") return view;
    for (let n = model.round; n >= 1; n -= 1) {
      const rec = model.rounds.get(n);
      if (rec && rec.ballots.length) return n;
    }
    return model.round || null;
  }

  // ---- the result and "you" ---------------------------------------------------------------------------------

  function deathNote(p, model) {
    if (p.alive) return h("span", { class: "muted", text: T.ww_survived });
    return h("span", { class: "roster-death" }, statusChip(p, model));
  }

  function roster(model, r) {
    const roles = r.roles || {};
    return h("ul", { class: "roster", id: "roster", data: { testid: "ww-roster" } }, M.seats(model).map((p) => {
      const won = (r.winning_seats || []).includes(p.seat);
      const role = roles[String(p.seat)] || p.role || p.revealed_role;
      return h("li", { class: `roster-row ${won ? "won" : "lost"}`,
        data: { seat: p.seat, role: role || "", won, testid: "ww-roster-row" } },
      avatar(p.seat, "xs"),
      h("b", { text: p.display_name }),
      roleChip(role),
      deathNote(p, model),
      h("span", { class: `outcome outcome-${won ? "win" : "lose"}`, text: won ? T.winner : T.loser }));
    }));
  }

  // The end's account, round by round, from what the page was shown (after the end that is everything).
  function recapNight(model, n, night) {
    const dead = night.dead || [];
    const parts = [h("b", { text: format(T.ww_recap_night, { n }) }), " "];
    parts.push(...(dead.length ? fill(T.ww_ev_dawn_dead, { names: names(model, dead) }) : fill(T.ww_ev_dawn_peaceful)));
    return h("li", { class: "recap-line night", data: { round: n, dead: dead.join(",") } }, parts);
  }

  function recapDay(model, n, rec) {
    const exile = resultLine(model, rec.result, "recap-exile");
    delete exile.dataset.testid; // the votes panel's line carries the hook
    const parts = [h("b", { text: format(T.ww_recap_day, { n }) }), " ", exile];
    if (rec.shot && rec.shot.target_seat !== undefined && rec.shot.target_seat !== null) {
      parts.push(h("span", {}, fill(T.ww_ev_hunter_shot, { name: who(model, rec.shot.seat), target: who(model, rec.shot.target_seat) })));
    }
    return h("li", { class: "recap-line day", data: { round: n } }, parts);
  }

  function recap(model, r) {
    if (model.status !== "finished") return null;
    const lines = [];
    for (const n of [...model.rounds.keys()].sort((a, b) => a - b)) {
      const rec = model.rounds.get(n);
      if (rec.night.dead) lines.push(recapNight(model, n, rec.night));
      if (rec.result) lines.push(recapDay(model, n, rec));
    }
    const mine = kit.seat && kit.seat.held && kit.seat.record ? kit.seat.record.seat : null;
    const role = mine === null || mine === undefined ? null : (r.roles || {})[String(mine)];
    const won = (r.winning_seats || []).includes(mine);
    return h("section", { class: "recap ww-recap", data: { testid: "recap" } },
      h("h3", { text: T.ww_recap_title }),
      role ? h("p", { class: `recap-mine ${won ? "won" : "lost"}`, data: { testid: "recap-mine", won } },
        fill(won ? T.ww_recap_you_won : T.ww_recap_you_lost, { role: roleChip(role) })) : null,
      h("ol", { class: "recap-lines" }, lines));
  }

  // ---- the stream -------------------------------------------------------------------------------------------

  const testid = (node, id, data = {}) => {
    if (node) Object.assign(node.dataset, { testid: id, ...data });
    return node;
  };

  function listOf(seats) {
    return (seats || []).map((s) => seatLabel(s)).join(T.ww_list_sep);
  }

  function compositionText(composition) {
    const c = composition || {};
    const gods = GODS.filter((g) => c[g]).map((g) => T[`role_${g}`]);
    return format(T.ww_composition, { w: c.werewolf || 0, v: c.villager || 0, gods: gods.join(T.ww_list_sep) });
  }

  function phaseItem(ev, model, round) {
    const stage = M.stageOf(ev.phase);
    if (stage === "night") {
      return testid(kit.item(ev, round, "divider night", h("span", { text: format(T.ww_ev_night, { n: ev.round_index }) })),
        "ww-night");
    }
    if (stage === "speak" && !ev.pk) {
      return testid(kit.item(ev, round, "divider day", h("span", { text: format(T.ww_ev_day, { n: ev.round_index }) })),
        "ww-day");
    }
    if (stage === "speak") {
      return testid(kit.item(ev, round, "divider pk", h("span", {}, fill(T.ww_ev_pk_start,
        { names: names(model, ev.speaking_order) }))), "ww-day", { pk: "true" });
    }
    if (stage === "vote") {
      return ev.pk ? kit.system(ev, round, T.ww_ev_vote_pk, { names: names(model, model.pkCandidates) }, "phase")
        : kit.system(ev, round, T.ev_vote_start, {}, "phase");
    }
    if (stage === "hunter") return kit.system(ev, round, T.ww_ev_hunter_turn, { name: who(model, ev.seat) }, "phase");
    return null;
  }

  function dawnItem(ev, model, round) {
    const dead = ev.dead_seats || [];
    const text = dead.length ? fill(T.ww_ev_dawn_dead, { names: names(model, dead) }) : fill(T.ww_ev_dawn_peaceful);
    return testid(kit.item(ev, round, "dawn", h("span", { class: "system-text" }, text)), "ww-dawn",
      { dead: dead.join(",") });
  }

  function nightResolvedItem(ev, model, round) {
    const parts = [];
    const add = (key, values) => {
      if (parts.length) parts.push(T.ww_list_sep);
      parts.push(...fill(key, values));
    };
    add(ev.wolves_target === null || ev.wolves_target === undefined ? T.ww_nr_no_kill : T.ww_nr_kill,
      { seat: seatLabel(ev.wolves_target) });
    if (ev.guarded !== null && ev.guarded !== undefined) add(T.ww_nr_guard, { seat: seatLabel(ev.guarded) });
    if (ev.saved) add(T.ww_nr_saved, {});
    if (ev.poisoned !== null && ev.poisoned !== undefined) add(T.ww_nr_poison, { seat: seatLabel(ev.poisoned) });
    if (ev.seer_checked !== null && ev.seer_checked !== undefined) add(T.ww_nr_check, { seat: seatLabel(ev.seer_checked) });
    return testid(kit.item(ev, round, "system god", h("span", { class: "system-text" },
      h("b", { text: `${T.ww_god_view} · ` }), parts)), "ww-night-resolved");
  }

  function actionItem(ev, model, round) {
    const name = who(model, ev.seat);
    const target = ev.target_seat === null || ev.target_seat === undefined ? null : who(model, ev.target_seat);
    const role = model.players.get(ev.seat)?.role;
    if (ev.action === "check") return null; // its seer_result says more
    if (ev.action === "guard") return testid(kit.system(ev, round, T.ww_ev_guard, { name, target }, "night-role"), "ww-guard");
    if (ev.action === "save") return testid(kit.system(ev, round, T.ww_ev_save, { name, target }, "night-role"), "ww-witch");
    if (ev.action === "poison") return testid(kit.system(ev, round, T.ww_ev_poison, { name, target }, "night-role"), "ww-witch");
    const id = role === "witch" ? "ww-witch" : role === "guard" ? "ww-guard" : "ww-seer-pass";
    return testid(kit.system(ev, round, T.ww_ev_night_pass, { name, role: roleChip(role) }, "night-role"), id);
  }

  const ITEMS = {
    match_started: (ev, model, round) => kit.system(ev, round, T.ww_ev_started,
      { n: ev.n_players, composition: compositionText(ev.composition), rule: T[`ww_rule_${ev.win_rule}`] || ev.win_rule },
      "strong"),
    roles_dealt: (ev, model, round) => kit.item(ev, round, "system god", h("span", { class: "system-text" },
      h("b", { text: `${T.ww_god_view} · ` }), T.ww_ev_roles_dealt,
      (ev.assignment || []).map((a) => h("span", { class: "dealt" }, ` ${seatLabel(a.seat)}`, roleChip(a.role))))),
    // A seat's own card; a god view has them all in roles_dealt already.
    role_assigned: (ev, model, round) => (model.viewerSeat === ev.seat
      ? kit.system(ev, round, T.ww_ev_role_assigned, { role: roleChip(ev.role) }, "god") : null),
    wolf_pack: (ev, model, round) => kit.system(ev, round, T.ww_ev_wolf_pack, { names: names(model, ev.wolf_seats) }, "wolf"),
    phase_started: phaseItem,
    whisper_received: (ev, model, round) => testid(kit.bubble(model, ev, round, "whisper", ev.text,
      [kit.tag(format(T.ww_ev_whisper, { from: seatLabel(ev.from_seat), to: seatLabel(ev.to_seat) }), "whisper")]),
    "ww-whisper"),
    wolf_kill_chosen: (ev, model, round) => testid(kit.system(ev, round,
      ev.target_seat === null || ev.target_seat === undefined ? T.ww_ev_wolf_no_kill : T.ww_ev_wolf_choice,
      { name: who(model, ev.seat), target: ev.target_seat === null ? null : who(model, ev.target_seat) }, "wolf"),
    "ww-wolf-choice", { target: ev.target_seat ?? "" }),
    pack_split: (ev, model, round) => testid(kit.system(ev, round, T.ww_ev_pack_split, {
      choices: Object.entries(ev.choices || {}).map(([w, t]) => `${seatLabel(Number(w))}→${t === null ? T.ww_none : seatLabel(t)}`)
        .join(T.ww_list_sep),
    }, "wolf"), "ww-pack-split"),
    wolves_decided: (ev, model, round) => testid(kit.system(ev, round,
      ev.target_seat === null || ev.target_seat === undefined ? T.ww_ev_wolves_no_kill
        : ev.by === "deadline" ? T.ww_ev_wolves_decided_deadline : T.ww_ev_wolves_decided,
      { target: ev.target_seat === null ? null : who(model, ev.target_seat) }, "wolf strong"),
    "ww-wolves-decided", { target: ev.target_seat ?? "" }),
    night_action_recorded: actionItem,
    seer_result: (ev, model, round) => testid(kit.system(ev, round, T.ww_ev_seer_result, {
      name: who(model, ev.seat), target: who(model, ev.target_seat),
      camp: chip(`team-${ev.camp}`, T[`ww_team_${ev.camp}`] || ev.camp),
    }, "night-role"), "ww-seer-result", { target: ev.target_seat, camp: ev.camp }),
    witch_informed: (ev, model, round) => testid(kit.system(ev, round,
      ev.victim_seat === null || ev.victim_seat === undefined ? T.ww_ev_witch_no_victim : T.ww_ev_witch_informed,
      { name: who(model, ev.seat), target: ev.victim_seat === null ? null : who(model, ev.victim_seat) }, "night-role"),
    "ww-witch"),
    night_resolved: nightResolvedItem,
    night_result: dawnItem,
    player_eliminated: (ev, model, round) => {
      // A vote's or a shot's death is told by its own event; a night death only shows what the card revealed.
      if (ev.cause || !(ev.revealed_role || ev.revealed_camp)) return null;
      const shown = ev.revealed_role ? roleChip(ev.revealed_role) : campChip(ev.revealed_camp);
      return kit.system(ev, round, T.ww_ev_card_shown, { name: who(model, ev.seat), card: shown });
    },
    speech_posted: (ev, model, round) => testid(kit.bubble(model, ev, round, "", ev.text, ev.pk ? [kit.tag(T.pk, "pk")] : []),
      "ww-speech"),
    speech_skipped: (ev, model, round) => kit.system(ev, round, ev.reason === "timeout" ? T.ev_speech_timeout
      : T.ev_speech_skipped, { name: who(model, ev.seat) }),
    vote_cast: (ev, model, round) => testid(kit.item(ev, round, "vote",
      h("span", { class: "vote-text" }, fill(T.ev_vote_cast, { voter: who(model, ev.seat), target: who(model, ev.target_seat) })),
      ev.comment ? h("span", { class: "vote-comment", text: ev.comment }) : null), "ww-vote"),
    vote_abstained: (ev, model, round) => ((ev.seats || []).length
      ? kit.system(ev, round, T.ev_vote_abstained, { names: names(model, ev.seats) }) : null),
    votes_voided: (ev, model, round) => kit.system(ev, round, T.ev_votes_voided,
      { target: who(model, ev.target_seat), names: names(model, ev.voter_seats) }),
    vote_tied: (ev, model, round) => kit.system(ev, round, T.ev_vote_tied, { names: names(model, ev.tied_seats) }, "strong"),
    round_resolved: (ev, model, round) => kit.item(ev, round, "resolved", resultLine(model, ev, "resolved-text")),
    hunter_shot: (ev, model, round) => testid(kit.system(ev, round, T.ww_ev_hunter_shot,
      { name: who(model, ev.seat), target: who(model, ev.target_seat) }, "strong shot"), "ww-hunter-shot",
    { target: ev.target_seat }),
    hunter_passed: (ev, model, round) => testid(kit.system(ev, round, ev.reason === "timeout" ? T.ww_ev_hunter_timeout
      : T.ww_ev_hunter_passed, { name: who(model, ev.seat) }), "ww-hunter-passed"),
    last_words_posted: (ev, model, round) => testid(kit.bubble(model, ev, round, "last-words", ev.text,
      [kit.tag(T.ev_last_words, "lw")]), "ww-last-words"),
    last_words_skipped: (ev, model, round) => kit.system(ev, round, T.ev_last_words_skipped, { name: who(model, ev.seat) }),
  };

  function youChips(me) {
    const out = [testid(roleChip(me.role), "ww-you-role"), campChip(me.camp)];
    if (me.role === "werewolf" && me.fellow_wolves) {
      out.push(testid(chip("wolf-pack", format(T.ww_you_fellows, { seats: listOf(me.fellow_wolves.filter((s) => s !== me.seat)) })),
        "ww-you-fellows"));
    }
    if (me.seer_checks && me.seer_checks.length) {
      out.push(testid(chip("checks", format(T.ww_you_checks, {
        checks: me.seer_checks.map((c) => `${seatLabel(c.seat)} ${T[`ww_team_${c.camp}`] || c.camp}`).join(T.ww_list_sep),
      })), "ww-you-checks"));
    }
    if (me.potions) {
      const mark = (has) => (has ? "✓" : "✗");
      out.push(testid(chip("potions", format(T.ww_you_potions,
        { save: mark(me.potions.antidote), poison: mark(me.potions.poison) })), "ww-you-potions"));
    }
    if (me.night_victim !== null && me.night_victim !== undefined) {
      out.push(chip("night-victim", format(T.ww_you_victim, { seat: seatLabel(me.night_victim) })));
    }
    if (me.last_guarded !== null && me.last_guarded !== undefined) {
      out.push(chip("guarded", format(T.ww_you_last_guarded, { seat: seatLabel(me.last_guarded) })));
    }
    return out;
  }

  const P = makePlay(kit, youChips);

  // ---- the module -------------------------------------------------------------------------------------------

  return {
    steps: ["waiting", "night", "dawn", "speak", "vote", "finished"],

    // The dead who act (a hunter's shot, last words) belong to the dawn after a night, or to the vote they followed.
    stepOf(stage, model) {
      if (stage === "aborted") return "finished";
      if (stage === "hunter" || stage === "last_words") return model && model.after === "vote" ? "vote" : "dawn";
      return stage;
    },

    configLine(config) {
      return format(T.ww_config_line, { n: config.n_players, composition: compositionText(config.roles),
        rule: T[`ww_rule_${config.win_rule}`] || config.win_rule || "" });
    },

    roundLabel(model) {
      return format(model.stage === "night" ? T.ww_round_night : T.ww_round_day, { n: model.round });
    },

    header(ui, model) {
      ui.pk.textContent = T.pk;
      ui.pk.hidden = !model.pk;
    },

    init(model, snap) {
      Object.assign(model, {
        viewerSeat: snap.you ? snap.you.seat : null,
        pk: false,
        speaker: null,
        pkCandidates: [],
        acting: null, // the dead seat shooting or saying its last words
        after: null, // "night" or "vote": what the dead who act follow
        rounds: new Map(),
        pack: [],
        checks: new Map(), // seat → camp, from the seer results the viewer was shown
        causes: new Map(), // seat → how it died at night, from the god-only night_resolved
      });
    },

    player(p, row) {
      p.camp = row.camp || campOf(row.role) || null;
      p.revealed_camp = null;
      p.out = null;
    },

    apply(model, ev) {
      const handler = HANDLERS[ev.type];
      if (handler) handler(model, ev);
    },

    currentSeat: currentSpeaker,

    turnTotal(model) {
      if (model.stage === "night") return model.config.night_timeout;
      return model.stage === "vote" ? model.config.vote_timeout : model.config.speak_timeout;
    },

    card(p, model, ctx) {
      const speaking = currentSpeaker(model) === p.seat;
      const acting = model.acting === p.seat ? model.stage : null;
      const b = model.stage === "vote" ? latestBallot(model, model.round) : null;
      const votedFor = b ? b.votes.get(p.seat) : undefined;
      const received = b ? [...b.votes.values()].filter((t) => t === p.seat).length : 0;
      const extra = [];
      if (speaking || acting) {
        const label = speaking ? T.speaking : acting === "hunter" ? T.ww_shooting : T.ww_last_words_pending;
        extra.push(kit.turn(label, ctx.deadline, ctx.total));
      }
      if (b && (votedFor !== undefined || received)) {
        extra.push(h("div", { class: "vote-line" },
          votedFor !== undefined ? h("span", { class: "chip voted", data: { target: votedFor } },
            `${T.voted} → ${seatLabel(votedFor)}`) : null,
          received ? h("span", { class: "chip received", text: format(T.votes_received, { n: received }) }) : null));
      }
      const vote = ctx.me && p.alive ? P.voteButton(p, ctx) : null;
      if (vote) extra.push(vote);
      const role = p.role || p.revealed_role;
      return {
        data: {
          game: "werewolf", speaking, acting: acting === "hunter" ? "shoot" : acting || "", role: role || "",
          camp: p.camp || p.revealed_camp || model.checks.get(p.seat) || "", out: p.alive ? "" : p.out || "",
          voted: votedFor !== undefined,
        },
        tags: [statusChip(p, model), cardIdentity(p, model), ...nightChips(p, model)],
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
      return [model.status === "finished" ? roster(model, r) : null, recap(model, r)];
    },

    play: P.play,

    you: youChips,

    streamItem(ev, model, round) {
      const draw = ITEMS[ev.type];
      return draw ? draw(ev, model, round) : kit.common(ev, model, round);
    },
  };
}
