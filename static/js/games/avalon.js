// 阿瓦隆 (Avalon) on the match page: the quest track, the leader and the proposed team, the vote reveal, the fails
// counted, the Lady of the Lake, the assassination, and every role at the end. The interface this implements is
// described at the top of ../match.js.
//
// The server filters what each viewer may see: a card choice is never shown before the end (only who played),
// a vote only once all are in, a seat's deal only to that seat, the evil seats' conference only to them.
//
// Stable hooks for tests (besides the shell's ids, and `data-type` / `data-round` on every stream item):
//   [data-testid="quest-track"]                 the five quests (data-quest, data-result, data-fails on each
//                                               [data-testid="quest-slot"]); data-rejections on the track
//   [data-testid="avalon-team"]                 the leader and the team on the table (data-leader, data-team)
//   [data-testid="avalon-vote-reveal"]          the last revealed vote (data-approved)
//   #players .player[data-game="avalon"]        a card: data-leader, data-on-team, data-voted, data-played, data-role
//   The seat holder's controls: avalon-team-pick-<seat>, avalon-propose, avalon-propose-text, avalon-speak-input,
//   avalon-speak-send, avalon-skip, avalon-vote-approve, avalon-vote-reject, avalon-quest-success,
//   avalon-quest-fail, avalon-lady-<seat>, avalon-confer-input, avalon-confer-send, avalon-assassinate-<seat>,
//   avalon-you-role, avalon-you-sees

export default function avalon(kit) {
  const { T, h, fill, format, clear, M, who, names, roleChip, seatLabel } = kit;
  const EVIL = ["assassin", "morgana", "mordred", "oberon", "minion"];
  const sideOf = (role) => (role ? (EVIL.includes(role) ? "evil" : "good") : null);
  const list = (seats) => (seats || []).map((s) => seatLabel(s)).join(T.av_sep);

  // ---- the model --------------------------------------------------------------------------------------------

  function setPhase(m, phase) {
    Object.assign(m, { phase, stage: phase, status: "in_progress" });
  }

  const HANDLERS = {
    match_started(m, ev) {
      Object.assign(m, { sizes: ev.quest_sizes || m.sizes, needs: ev.fails_needed || m.needs, lady: ev.lady_seat ?? null });
    },
    role_dealt(m, ev) {
      const p = m.players.get(ev.seat);
      if (p) p.role = ev.role;
    },
    roles_dealt(m, ev) {
      for (const [seat, role] of Object.entries(ev.roles || {})) {
        const p = m.players.get(Number(seat));
        if (p) p.role = role;
      }
    },
    proposal_opened(m, ev) {
      setPhase(m, "propose");
      Object.assign(m, { quest: ev.quest, round: ev.quest, proposal: ev.proposal, leader: ev.leader_seat, team: [],
        speaker: null, voted: new Set(), played: new Set() });
    },
    team_proposed(m, ev) {
      setPhase(m, "discuss");
      m.team = ev.team || [];
    },
    speaker_up(m, ev) {
      m.speaker = ev.seat;
    },
    vote_opened(m) {
      setPhase(m, "vote");
      Object.assign(m, { speaker: null, voted: new Set() });
    },
    vote_cast(m, ev) {
      m.voted.add(ev.seat);
    },
    votes_revealed(m, ev) {
      m.proposals.push(ev);
    },
    quest_started(m) {
      setPhase(m, "quest");
      m.played = new Set();
    },
    card_played(m, ev) {
      m.played.add(ev.seat);
    },
    quest_resolved(m, ev) {
      m.quests.push(ev);
    },
    lady_opened(m, ev) {
      setPhase(m, "lady");
      m.lady = ev.seat;
    },
    lady_examined(m, ev) {
      m.lady = ev.target_seat;
    },
    assassination_opened(m, ev) {
      setPhase(m, "assassinate");
      m.assassin = ev.assassin_seat;
    },
    assassination(m, ev) {
      m.target = ev.target_seat;
    },
    match_finished(m, ev) {
      HANDLERS.roles_dealt(m, ev);
    },
  };

  // ---- drawing pieces ---------------------------------------------------------------------------------------

  const testid = (node, id, data = {}) => {
    if (node) Object.assign(node.dataset, { testid: id, ...data });
    return node;
  };

  function questTrack(model) {
    const slots = [0, 1, 2, 3, 4].map((i) => {
      const q = model.quests[i];
      const size = (model.sizes || [])[i];
      const two = (model.needs || [])[i] === 2;
      const current = !q && model.quest === i + 1 && model.status === "in_progress";
      return testid(h("li", { class: `quest-slot ${q ? q.result : ""}${current ? " current" : ""}` },
        h("b", { class: "quest-size", text: size ?? "?" }),
        h("span", { class: "quest-label", text: q ? (q.result === "success" ? T.av_success : T.av_fail) : format(T.av_quest_n, { n: i + 1 }) }),
        q ? h("span", { class: "quest-fails", text: format(T.av_fails, { n: q.fails }) }) : null,
        two ? h("span", { class: "quest-two", text: T.av_two_fails }) : null),
      "quest-slot", { quest: i + 1, result: q ? q.result : "", fails: q ? q.fails : "" });
    });
    const rejected = model.status === "in_progress" ? Math.max(0, (model.proposal || 1) - 1) : 0;
    const track = h("ol", { class: "quest-track" }, slots);
    const rejections = h("div", { class: "rejections" }, h("span", { class: "muted", text: T.av_rejections }),
      [1, 2, 3, 4, 5].map((k) => h("i", { class: `rej${k <= rejected ? " on" : ""}${k === 5 ? " last" : ""}` })));
    return testid(h("div", { class: "avalon-track" }, track, rejections), "quest-track", { rejections: rejected });
  }

  function teamLine(model) {
    if (model.leader === null || model.leader === undefined || !["propose", "discuss", "vote", "quest"].includes(model.stage)) return null;
    return testid(h("div", { class: "avalon-team" },
      h("span", {}, fill(T.av_leader_line, { name: who(model, model.leader), n: model.proposal })),
      model.team.length ? h("span", {}, fill(T.av_team_line, { team: names(model, model.team) }))
        : h("span", { class: "muted", text: format(T.av_team_pending, { n: (model.sizes || [])[model.quest - 1] }) })),
    "avalon-team", { leader: model.leader, team: model.team.join(",") });
  }

  function voteReveal(model, ev) {
    return testid(h("div", { class: `vote-reveal ${ev.approved ? "approved" : "rejected"}` },
      h("b", { text: ev.approved ? T.av_approved : T.av_rejected }),
      h("div", { class: "vote-side" }, h("span", { class: "chip approve", text: `${T.av_approve} ${ev.approve.length}` }),
        names(model, ev.approve)),
      h("div", { class: "vote-side" }, h("span", { class: "chip reject", text: `${T.av_reject} ${ev.reject.length}` }),
        names(model, ev.reject))),
    "avalon-vote-reveal", { approved: ev.approved });
  }

  function roster(model, r) {
    const winners = r.winning_seats || [];
    return h("ul", { class: "roster", data: { testid: "avalon-roster" } }, M.seats(model).map((p) => {
      const role = (r.roles || {})[String(p.seat)] || p.role;
      return h("li", { class: `roster-row side-${sideOf(role)}`, data: { seat: p.seat, role: role || "", won: winners.includes(p.seat) } },
        kit.avatar(p.seat, "xs"), h("b", { text: p.display_name }), roleChip(role),
        r.assassin_target === p.seat ? h("span", { class: "chip target", text: T.av_named }) : null);
    }));
  }

  // ---- the stream -------------------------------------------------------------------------------------------

  const ITEMS = {
    match_started: (ev, model, round) => kit.system(ev, round, T.av_ev_started, { n: ev.n_players,
      sizes: (ev.quest_sizes || []).join("-") }, "strong"),
    role_dealt: (ev, model, round) => testid(kit.system(ev, round, T.av_ev_role, { role: roleChip(ev.role),
      sees: seesText(ev) }, "private"), "avalon-role-dealt"),
    proposal_opened: (ev, model, round) => kit.item(ev, round, "divider",
      h("span", {}, fill(T.av_ev_proposal, { q: ev.quest, n: ev.proposal, name: who(model, ev.leader_seat), size: ev.team_size }))),
    team_proposed: (ev, model, round) => testid(ev.text
      ? kit.bubble(model, ev, round, "proposal", ev.text, [kit.tag(format(T.av_tag_team, { team: list(ev.team) }), "team")])
      : kit.system(ev, round, ev.auto ? T.av_ev_team_auto : T.av_ev_team, { name: who(model, ev.seat), team: names(model, ev.team) }),
    "avalon-proposal", { team: (ev.team || []).join(",") }),
    speech: (ev, model, round) => testid(kit.bubble(model, ev, round, "", ev.text), "avalon-speech"),
    speech_skipped: (ev, model, round) => kit.system(ev, round, T.av_ev_skipped, { name: who(model, ev.seat) }, "quiet"),
    speaker_up: () => null,
    vote_opened: (ev, model, round) => kit.system(ev, round, T.av_ev_vote_opened, { team: names(model, ev.team) }),
    vote_cast: (ev, model, round) => kit.system(ev, round, T.av_ev_voted, { name: who(model, ev.seat) }, "quiet"),
    votes_revealed: (ev, model, round) => kit.item(ev, round, "vote-result", voteReveal(model, ev)),
    quest_started: (ev, model, round) => kit.system(ev, round, T.av_ev_quest, { q: ev.quest, team: names(model, ev.team) }),
    card_played: (ev, model, round) => kit.system(ev, round, T.av_ev_card, { name: who(model, ev.seat) }, "quiet"),
    card_chosen: (ev, model, round) => kit.system(ev, round, T.av_ev_card_chosen, { name: who(model, ev.seat),
      card: ev.card === "fail" ? T.av_fail_card : T.av_success_card }, "god"),
    quest_resolved: (ev, model, round) => testid(kit.item(ev, round, `quest-result ${ev.result}`,
      h("span", { class: "system-text" }, fill(ev.result === "success" ? T.av_ev_quest_success : T.av_ev_quest_fail,
        { q: ev.quest, fails: ev.fails, need: ev.fails_needed }))), "avalon-quest-result", { result: ev.result, fails: ev.fails }),
    lady_opened: (ev, model, round) => kit.system(ev, round, T.av_ev_lady_opened, { name: who(model, ev.seat) }),
    lady_examined: (ev, model, round) => kit.system(ev, round, T.av_ev_lady, { name: who(model, ev.seat), target: who(model, ev.target_seat) }),
    lady_result: (ev, model, round) => kit.system(ev, round, T.av_ev_lady_result, { target: who(model, ev.target_seat),
      side: T[`camp_${ev.side}`] || ev.side }, "private"),
    assassination_opened: (ev, model, round) => kit.system(ev, round, T.av_ev_assassin, { name: who(model, ev.assassin_seat) }, "strong"),
    evil_conferred: (ev, model, round) => testid(kit.bubble(model, ev, round, "confer", ev.text, [kit.tag(T.av_tag_confer, "confer")]),
      "avalon-confer"),
    assassination: (ev, model, round) => testid(kit.system(ev, round, ev.merlin ? T.av_ev_hit : T.av_ev_miss,
      { name: who(model, ev.seat), target: who(model, ev.target_seat) }, "strong"), "avalon-assassination", { target: ev.target_seat }),
  };

  function seesText(me) {
    if (me.evil_seats) return format(me.role === "merlin" ? T.av_sees_evil : T.av_sees_allies, { seats: list(me.evil_seats) || T.av_nobody });
    if (me.merlin_candidates) return format(T.av_sees_candidates, { seats: list(me.merlin_candidates) });
    return "";
  }

  // ---- the seat holder's controls ---------------------------------------------------------------------------

  function mySide(me) {
    const out = [testid(roleChip(me.role), "avalon-you-role"),
      me.side ? h("span", { class: `chip side-${me.side}`, text: T[`camp_${me.side}`] || me.side }) : null];
    const sees = seesText(me);
    if (sees) out.push(testid(h("span", { class: "chip sees", text: sees }), "avalon-you-sees"));
    for (const c of me.lady_results || []) {
      out.push(h("span", { class: "chip lady", text: format(T.av_lady_found, { seat: seatLabel(c.target_seat), side: T[`camp_${c.side}`] }) }));
    }
    return out;
  }

  function textBox(id, placeholder) {
    return h("input", { type: "text", class: "text-input", maxlength: 500, "data-testid": id, placeholder });
  }

  function controls(me, snap, model, ctx) {
    const action = me.next_action;
    const row = (...children) => h("div", { class: "avalon-controls" }, children);
    if (action === "propose") {
      const offer = ctx.allowed("propose");
      const picked = new Set();
      const text = textBox("avalon-propose-text", T.av_propose_hint);
      const send = h("button", { type: "button", class: "btn", "data-testid": "avalon-propose", disabled: true,
        text: format(T.av_propose, { n: offer.team_size }),
        onclick: () => ctx.send({ type: "propose", team: [...picked].sort((a, b) => a - b), ...(text.value.trim() ? { text: text.value.trim() } : {}) }) });
      const picks = offer.targets.map((seat) => h("button", { type: "button", class: "btn-soft pick", "aria-pressed": "false",
        "data-testid": `avalon-team-pick-${seat}`, text: seatLabel(seat), onclick: (event) => {
          if (picked.has(seat)) picked.delete(seat); else picked.add(seat);
          event.currentTarget.setAttribute("aria-pressed", String(picked.has(seat)));
          send.disabled = picked.size !== offer.team_size;
        } }));
      return [h("p", { text: format(T.av_pick, { n: offer.team_size }) }), row(picks), text, row(send)];
    }
    if (action === "speak") {
      const box = textBox("avalon-speak-input", T.av_speak_hint);
      return [row(box), row(
        h("button", { type: "button", class: "btn", "data-testid": "avalon-speak-send", text: T.av_speak,
          onclick: () => (box.value.trim() ? ctx.send({ type: "speak", text: box.value.trim() })
            : ctx.say(T.av_speak_empty, "error")) }),
        h("button", { type: "button", class: "btn-soft", "data-testid": "avalon-skip", text: T.av_skip,
          onclick: () => ctx.send({ type: "skip" }) }))];
    }
    if (action === "vote") {
      return [h("p", {}, fill(T.av_vote_on, { team: names(model, snap.team || []) })), row(
        h("button", { type: "button", class: "btn approve", "data-testid": "avalon-vote-approve", text: T.av_approve,
          onclick: () => ctx.send({ type: "vote", choice: "approve" }) }),
        h("button", { type: "button", class: "btn-soft reject", "data-testid": "avalon-vote-reject", text: T.av_reject,
          onclick: () => ctx.send({ type: "vote", choice: "reject" }) }))];
    }
    if (action === "quest") {
      const cards = (me.allowed_actions || []).filter((a) => a.type === "quest").map((a) => a.card);
      return [h("p", { text: T.av_quest_hint }), row(cards.map((card) => h("button", { type: "button",
        class: card === "fail" ? "btn-danger" : "btn", "data-testid": `avalon-quest-${card}`,
        text: card === "fail" ? T.av_fail_card : T.av_success_card, onclick: () => ctx.send({ type: "quest", card }) })))];
    }
    if (action === "lady") {
      return [h("p", { text: T.av_lady_hint }), row(ctx.allowed("lady").targets.map((seat) => h("button", { type: "button",
        class: "btn-soft", "data-testid": `avalon-lady-${seat}`, text: seatLabel(seat),
        onclick: () => ctx.send({ type: "lady", target_seat: seat }) })))];
    }
    const out = [];
    if (action === "assassinate") {
      out.push(h("p", { text: T.av_assassin_hint }), row(ctx.allowed("assassinate").targets.map((seat) => h("button", {
        type: "button", class: "btn-danger", "data-testid": `avalon-assassinate-${seat}`, text: seatLabel(seat),
        onclick: () => ctx.send({ type: "assassinate", target_seat: seat }) }))));
    }
    if (ctx.allowed("confer")) {
      const box = textBox("avalon-confer-input", T.av_confer_hint);
      out.push(row(box, h("button", { type: "button", class: "btn-soft", "data-testid": "avalon-confer-send", text: T.av_confer,
        onclick: async () => { if (box.value.trim() && await ctx.send({ type: "confer", text: box.value.trim() })) box.value = ""; } })));
    }
    return out;
  }

  // ---- the page ---------------------------------------------------------------------------------------------

  return {
    steps: (config) => ["waiting", "propose", "discuss", "vote", "quest", ...(config.lady_of_the_lake ? ["lady"] : []),
      "assassinate", "finished"],
    stepOf: (stage) => (stage === "aborted" ? "finished" : stage),
    configLine: (config) => format(T.av_config_line, { n: config.n_players,
      roles: Object.entries(config.roles || {}).map(([r, k]) => (k > 1 ? `${kit.roleLabel(r)}×${k}` : kit.roleLabel(r))).join(T.av_sep),
      lady: config.lady_of_the_lake ? T.av_with_lady : "" }),
    roundLabel: (model) => format(T.av_round, { q: model.quest, n: model.proposal }),
    init(model, snap) {
      Object.assign(model, { quest: 1, proposal: 1, leader: null, team: [], speaker: null, voted: new Set(),
        played: new Set(), quests: [], proposals: [], sizes: snap.quest_sizes || [], needs: snap.fails_needed || [],
        lady: null, assassin: null, target: null });
    },
    apply(model, ev) {
      const handler = HANDLERS[ev.type];
      if (handler) handler(model, ev);
    },
    currentSeat: (model) => (model.stage === "discuss" ? model.speaker : model.stage === "propose" ? model.leader : null),
    turnTotal: (model) => (["vote", "quest"].includes(model.stage) ? model.config.vote_timeout
      : model.stage === "assassinate" ? model.config.assassin_timeout : model.config.speak_timeout),
    card(p, model, ctx) {
      const round = ["propose", "discuss", "vote", "quest"].includes(model.stage);
      const leader = round && model.leader === p.seat;
      const onTeam = round && model.team.includes(p.seat);
      const voted = model.stage === "vote" && model.voted.has(p.seat);
      const played = model.stage === "quest" && model.played.has(p.seat);
      const tags = [kit.statusChip(p), roleChip(p.role),
        leader ? h("span", { class: "chip leader", text: T.av_leader }) : null,
        onTeam ? h("span", { class: "chip on-team", text: T.av_on_team }) : null,
        voted ? h("span", { class: "chip voted", text: T.voted }) : null,
        played ? h("span", { class: "chip played", text: T.av_played }) : null,
        model.lady === p.seat && model.status === "in_progress" ? h("span", { class: "chip lady", text: T.av_lady }) : null];
      const extra = model.stage === "discuss" && model.speaker === p.seat ? [kit.turn(T.speaking, ctx.deadline, ctx.total)] : [];
      return { data: { game: "avalon", leader, onTeam, voted, played, role: p.role || "" }, tags, extra };
    },
    votes(ui, model) {
      clear(ui.votes);
      ui.votesCard.hidden = false;
      const last = model.proposals[model.proposals.length - 1];
      ui.votes.append(questTrack(model));
      const team = teamLine(model);
      if (team) ui.votes.append(team);
      if (model.stage === "vote") ui.votes.append(h("p", { class: "votes-in", text: format(T.votes_in, { n: model.voted.size, m: model.players.size }) }));
      if (last) ui.votes.append(voteReveal(model, last));
    },
    result: (model, r) => [model.status === "finished" ? roster(model, r) : null],
    you: (me) => mySide(me),
    play(me, snap, model, ctx) {
      const offered = (me.allowed_actions || []).map((a) => a.type).join(",");
      return { key: `${snap.phase}:${snap.quest_no}:${snap.proposal_no}:${me.next_action}:${offered}`,
        draw: () => [h("div", { class: "you-row" }, mySide(me)), ...controls(me, snap, model, ctx)] };
    },
    streamItem(ev, model, round) {
      const draw = ITEMS[ev.type];
      return draw ? draw(ev, model, round) : kit.common(ev, model, round) || kit.raw(ev, model, round);
    },
  };
}
