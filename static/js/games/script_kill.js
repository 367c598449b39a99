// 剧本杀 (script_kill) on the match page: the twelve stages with their countdown, the DM's announcements, the
// public clue board, the table talk (speeches, clues and items shown to the table), the anchors word for word,
// the vote (its tally only after the end), the ending with the truth and the timeline review, and, for a seat
// holder, the character's private panels and the commands the server allows right now.
// The interface this implements is described at the top of ../match.js; the forms live in ./script_kill_play.js.
//
// The server filters what each viewer may see, so this module draws what arrives and never infers more: found
// clues, items and private chats appear only in the events (and the `you` of the snapshot) of those who may see
// them; the tally only in the terminal snapshot.
//
// Stable hooks for tests (besides the shell's ids, and `data-type` / `data-round` on every stream item):
//   [data-testid="sk-stage-bar"]     the twelve stages (li[data-stage], class "on" / "done"), data-current
//   [data-testid="sk-countdown"]     the current stage's countdown (.countdown[data-deadline])
//   [data-testid="sk-dm"]            the DM's latest announcement
//   [data-testid="sk-clue-board"]    the public clues: [data-testid="sk-clue"] (data-clue, data-key, data-source)
//   [data-testid="sk-anchors"]       the anchors so far: [data-testid="sk-anchor"] (data-stage), text verbatim
//   [data-testid="sk-vote"]          the vote: receipts while it runs, [data-testid="sk-tally-row"] after the end
//   [data-testid="sk-ending"]        the ending (data-ending = perfect | normal | failure, data-culprit)
//   [data-testid="sk-review"]        the truth, [data-testid="sk-review-step"] the timeline, sk-comment per player
//   stream: sk-stage, sk-speech, sk-clue-published, sk-clue-revealed, sk-anchor-item, sk-dm-event, sk-chat …
//   seat holder: sk-private (sk-my-character, sk-my-items, sk-my-clues, sk-my-chats), sk-actions with one
//   [data-testid="sk-action-<type>"] form per allowed action, sk-action-feedback

import { actionPanel } from "./script_kill_play.js";

export const STAGES = ["gm_init", "script_handout", "self_intro", "explore_r1", "discuss_r1", "anchor_r1",
  "explore_r2", "discuss_r2", "anchor_r2", "final_discuss", "final_vote", "ending"];
const SECONDS = {
  standard: [180, 300, 600, 900, 900, 600, 900, 900, 600, 900, 300, 720],
  compressed: [10, 30, 60, 75, 75, 20, 75, 75, 20, 60, 30, 30],
};
const ACT_OF = { prologue: [0, 1, 2], act1: [3, 4, 5], act2: [6, 7, 8], verdict: [9, 10, 11] };

export default function scriptKill(kit) {
  const { T, h, fill, format, clear, seatLabel, who, avatar } = kit;
  const play = actionPanel(kit);
  const top = h("div", { class: "sk-board-body" });
  const board = h("div", { class: "sk-board-body" });

  // ---- the model --------------------------------------------------------------------------------------------

  // The stage a sub_stage lights in the bar ("review" is the tail of stage 11).
  const stageIndex = (sub) => STAGES.indexOf(sub === "review" ? "ending" : sub);
  const subOf = (ev) => ev.sub_stage || ev.to_sub_stage || ev.to || null;

  // A clue or an item as a record, whether the event carries the record or only its id.
  function recordOf(value, ev) {
    if (value && typeof value === "object") return value;
    if (value === undefined || value === null) return null;
    return { id: String(value), text: ev.clue_text || ev.item_text || ev.text || "" };
  }

  function charOf(model, seat) {
    return model.characters.get(seat) || null;
  }

  function publish(m, rec, source, ev) {
    if (!rec || !rec.id) return;
    const kind = ev.item !== undefined && ev.clue === undefined ? "item" : "clue";
    const old = m.board.get(rec.id);
    m.board.set(rec.id, { ...(old || {}), ...rec, kind: old ? old.kind : kind, source: old ? old.source : source,
      seq: old ? old.seq : ev.seq });
  }

  function setStage(m, ev) {
    const sub = subOf(ev);
    if (sub) m.sub = sub;
    if (ev.round_no !== undefined) m.roundNo = ev.round_no;
    const deadline = ev.stage_deadline_ts ?? ev.deadline_ts;
    m.deadline = deadline ? Number(deadline) : null;
    if (ev.text) m.dm = { text: ev.text, seq: ev.seq };
    if (m.sub === "self_intro") m.spoken = new Set();
  }

  const HANDLERS = {
    stage_changed: setStage,
    speech(m, ev) {
      if (m.spoken) m.spoken.add(ev.seat);
      m.speeches += 1;
    },
    clue_published(m, ev) {
      publish(m, recordOf(ev.clue, ev), "dm", ev);
    },
    clue_revealed(m, ev) {
      publish(m, recordOf(ev.clue ?? ev.item, ev), ev.seat, ev);
    },
    anchor(m, ev) {
      const stage = subOf(ev) || ev.anchor || m.sub;
      if (!m.anchors.some((a) => a.stage === stage)) m.anchors.push({ stage, text: ev.text || "" });
    },
    dm_event(m, ev) {
      m.dm = { text: ev.text || "", seq: ev.seq };
    },
    vote_cast(m, ev) {
      if (ev.seat !== undefined && ev.seat !== null) m.voted.add(ev.seat);
    },
    vote_result(m, ev) {
      m.voteResult = ev;
    },
    ending(m, ev) {
      m.ending = { ...(m.ending || {}), ...ev };
      if (ev.culprit_seat !== undefined) m.culpritSeat = ev.culprit_seat;
    },
    review(m, ev) {
      m.review = { ...(m.review || {}), ...ev };
    },
    match_finished(m) {
      m.deadline = null;
    },
  };

  // ---- small pieces -----------------------------------------------------------------------------------------

  const chip = (cls, text, data = {}) => h("span", { class: `chip ${cls}`, text, data });
  const testid = (node, id, data = {}) => {
    if (node) Object.assign(node.dataset, { testid: id, ...data });
    return node;
  };
  const stageLabel = (sub) => T[`sk_stage_${sub === "review" ? "ending" : sub}`] || sub || "";

  function stageTotal(model) {
    const at = stageIndex(model.sub);
    const table = SECONDS[model.config.timing] || SECONDS.standard;
    return at >= 0 ? table[at] : 60;
  }

  // Self-introductions go in seat order, once each: the first seat that has not spoken has the floor.
  function speakerOf(model) {
    if (model.sub !== "self_intro" || !model.spoken) return null;
    const next = kit.M.seats(model).find((p) => !model.spoken.has(p.seat));
    return next ? next.seat : null;
  }

  function characterName(model, seat) {
    const c = charOf(model, seat);
    return c ? c.name : seatLabel(seat);
  }

  // "张管家 (2号)" as nodes: the character a seat plays, then the seat.
  function playedBy(model, seat) {
    if (seat === undefined || seat === null) return h("b", { text: T.sk_dm });
    const c = charOf(model, seat);
    return h("span", { class: "sk-who", data: { seat } }, avatar(seat, "xs"),
      h("b", { text: c ? c.name : seatLabel(seat) }), c ? h("span", { class: "muted", text: seatLabel(seat) }) : null);
  }

  function locationName(model, id) {
    const found = model.locations.get(id);
    return found ? found.name : id || "";
  }

  function clueCard(model, rec, { source = null, mine = false } = {}) {
    const tier = rec.tier ? chip(`sk-tier tier-${rec.tier}`, format(T.sk_tier, { n: rec.tier })) : null;
    const key = rec.is_key ? chip("sk-key", T.sk_key) : null;
    const where = rec.location ? chip("sk-where", locationName(model, rec.location)) : null;
    const kind = rec.kind === "item" || rec.type ? chip("sk-kind", rec.name || T.sk_item) : null;
    let from = null;
    if (source === "dm") from = h("span", { class: "sk-source", text: T.sk_published_by_dm });
    else if (source !== null && source !== undefined) {
      from = h("span", { class: "sk-source" }, fill(T.sk_shown_by, { who: playedBy(model, source) }));
    }
    return h("li", { class: `sk-clue${rec.is_key ? " key" : ""}${mine ? " mine" : ""}`,
      data: { testid: mine ? "sk-my-clue" : "sk-clue", clue: rec.id, key: Boolean(rec.is_key),
        source: source === null || source === undefined ? "" : String(source) } },
    h("div", { class: "sk-clue-tags" }, h("code", { class: "sk-id", text: rec.id }), tier, key, where, kind, from),
    h("p", { class: "sk-clue-text", text: rec.text || rec.name || "" }));
  }

  // ---- the board (the votes card) ---------------------------------------------------------------------------

  function stageBar(model, live) {
    const at = stageIndex(model.sub);
    const done = model.status === "finished";
    const bar = h("ol", { class: "sk-stages" }, STAGES.map((sub, i) => h("li", {
      class: i === at && !done ? "on" : i < at || done ? "done" : "", data: { stage: sub },
      title: stageLabel(sub),
    }, h("span", { class: "sk-stage-no", text: i }), h("span", { class: "sk-stage-name", text: stageLabel(sub) }))));
    const deadline = live ? model.liveDeadline : null;
    const countdown = testid(kit.turn(done ? T.sk_stage_over : at >= 0 ? stageLabel(model.sub) : T.phase_waiting,
      deadline, stageTotal(model)), "sk-countdown", { stage: model.sub || "" });
    return h("section", { class: "sk-stage-bar", data: { testid: "sk-stage-bar", current: model.sub || "" } },
      bar, countdown,
      model.dm ? h("p", { class: "sk-dm", data: { testid: "sk-dm" } },
        h("b", { text: `${T.sk_dm} · ` }), h("span", { text: model.dm.text })) : null);
  }

  function intro(model) {
    if (!model.script) return null;
    return h("details", { class: "sk-intro", open: model.sub === "script_handout" || model.sub === "gm_init" },
      h("summary", {}, h("b", { text: model.script.title || "" }), h("span", { class: "muted", text: ` · ${T.sk_intro}` })),
      h("p", { text: model.script.intro || "" }),
      model.locations.size ? h("p", { class: "sk-locations" }, `${T.sk_locations}: `,
        [...model.locations.values()].map((l) => chip("sk-where", l.name, { location: l.id }))) : null);
  }

  function anchors(model) {
    if (!model.anchors.length) return null;
    return h("section", { class: "sk-anchors", data: { testid: "sk-anchors" } },
      h("h3", { text: T.sk_anchors }),
      model.anchors.map((a) => h("blockquote", { class: "sk-anchor", data: { testid: "sk-anchor", stage: a.stage } },
        h("span", { class: "sk-anchor-stage", text: stageLabel(a.stage) }),
        h("p", { class: "sk-anchor-text", text: a.text }))));
  }

  function clueBoard(model) {
    const list = [...model.board.values()].sort((a, b) => a.seq - b.seq);
    return h("section", { class: "sk-board", data: { testid: "sk-clue-board", count: list.length } },
      h("h3", {}, T.sk_clue_board, h("span", { class: "muted", text: ` · ${list.length}` })),
      list.length ? h("ul", { class: "sk-clues" }, list.map((rec) => clueCard(model, rec, { source: rec.source })))
        : h("p", { class: "muted", text: T.sk_board_empty }));
  }

  function tallyRows(model, tally) {
    const rows = Object.entries(tally).map(([seat, n]) => [Number(seat), Number(n)]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const top = rows.length ? rows[0][1] : 0;
    return rows.map(([seat, n]) => h("div", { class: `flow-row${seat === model.culpritSeat ? " out" : ""}`,
      data: { testid: "sk-tally-row", seat, votes: n } },
    h("div", { class: "flow-target" }, playedBy(model, seat),
      seat === model.culpritSeat ? chip("sk-culprit", T.sk_culprit) : null),
    h("div", { class: "flow-bar" }, h("span", { class: "flow-fill", style: { width: `${Math.round((n / Math.max(top, 1)) * 100)}%` } })),
    h("b", { class: "flow-count", text: n })));
  }

  function votePanel(model) {
    const at = stageIndex(model.sub);
    if (at < STAGES.indexOf("final_vote") && !model.tally) return null;
    const body = [];
    if (model.tally) body.push(h("div", { class: "flow" }, tallyRows(model, model.tally)));
    else if (model.voted.size) {
      body.push(h("p", {}, fill(T.sk_vote_receipts, { names: kit.names(model, [...model.voted].sort()) })));
    } else body.push(h("p", { class: "muted", text: T.sk_vote_secret }));
    const out = model.voteResult && (model.voteResult.voted_out ?? model.voteResult.target);
    if (out !== undefined && out !== null) body.push(h("p", { class: "vote-result" }, fill(T.sk_voted_out, { who: playedBy(model, out) })));
    return h("section", { class: "sk-vote", data: { testid: "sk-vote", tally: Boolean(model.tally) } },
      h("h3", { text: T.sk_vote }), body);
  }

  // ---- the ending and the review ----------------------------------------------------------------------------

  function endingView(model, r) {
    const ending = r.ending || (model.ending && model.ending.ending) || null;
    if (!ending) return null;
    const culprit = model.culpritSeat;
    const text = (model.ending && (model.ending.ending_text || model.ending.text)) || "";
    return h("section", { class: `sk-ending ending-${ending}`, data: { testid: "sk-ending", ending, culprit: culprit ?? "" } },
      h("h3", { text: T[`sk_ending_${ending}`] || ending }),
      culprit !== null && culprit !== undefined ? h("p", { class: "sk-culprit-line" }, fill(T.sk_culprit_was, { who: playedBy(model, culprit) })) : null,
      text ? h("p", { class: "sk-ending-text", text }) : null);
  }

  function reviewView(model) {
    const rv = model.review;
    if (!rv) return null;
    const timeline = rv.timeline || [];
    const comments = rv.comments || rv.players || [];
    return h("section", { class: "sk-review", data: { testid: "sk-review" } },
      h("h3", { text: T.sk_review }),
      rv.truth ? h("p", { class: "sk-truth", data: { testid: "sk-truth" }, text: rv.truth }) : null,
      timeline.length ? h("ol", { class: "sk-timeline" }, timeline.map((step) => h("li", { data: { testid: "sk-review-step" } },
        h("span", { class: "sk-when", text: format(T.sk_day_time, { day: step.day, time: step.time || "" }) }),
        h("span", { text: step.text || "" })))) : null,
      comments.length ? h("ul", { class: "sk-comments" }, comments.map((c) => h("li", { data: { testid: "sk-comment", seat: c.seat } },
        playedBy(model, c.seat), h("span", { text: ` ${c.comment || c.text || ""}` })))) : null);
  }

  // ---- the stream -------------------------------------------------------------------------------------------

  function dmLine(ev, round, text, id, extra = "") {
    return testid(kit.item(ev, round, `system sk-dm-line ${extra}`, h("span", { class: "system-text" },
      h("b", { text: `${T.sk_dm} · ` }), h("span", { text }))), id);
  }

  function shownThing(ev) {
    const rec = recordOf(ev.clue ?? ev.item, ev);
    return rec ? rec.name || rec.text || rec.id : ev.text || "";
  }

  const ITEMS = {
    stage_changed: (ev, model, round) => testid(kit.item(ev, round, "divider sk-stage",
      h("span", { class: "sk-stage-title", text: stageLabel(subOf(ev)) }),
      ev.text ? h("span", { class: "sk-stage-text", text: ev.text }) : null), "sk-stage", { stage: subOf(ev) || "" }),
    script_handout: (ev, model, round) => dmLine(ev, round, T.sk_ev_handout, "sk-handout", "private"),
    speech: (ev, model, round) => testid(kit.bubble(model, ev, round, "sk-speech", ev.text,
      [kit.tag(characterName(model, ev.seat), "sk-role")]), "sk-speech"),
    clue_found: (ev, model, round) => testid(kit.system(ev, round, T.sk_ev_clue_found, {
      where: locationName(model, ev.location), text: shownThing(ev) }, "private"), "sk-clue-found"),
    item_obtained: (ev, model, round) => testid(kit.system(ev, round, T.sk_ev_item_obtained, { text: shownThing(ev) },
      "private"), "sk-item-obtained"),
    clue_published: (ev, model, round) => dmLine(ev, round, format(T.sk_ev_clue_published, { text: shownThing(ev) }),
      "sk-clue-published", "strong"),
    clue_revealed: (ev, model, round) => testid(kit.item(ev, round, "speech sk-revealed", avatar(ev.seat),
      h("div", { class: "bubble-wrap" },
        h("div", { class: "bubble-meta" }, h("b", { text: characterName(model, ev.seat) }),
          h("span", { class: "muted", text: seatLabel(ev.seat) }), kit.tag(T.sk_shows, "sk-shows")),
        h("div", { class: "bubble", text: shownThing(ev) }))), "sk-clue-revealed"),
    anchor: (ev, model, round) => testid(kit.item(ev, round, "sk-anchor-item",
      h("span", { class: "sk-anchor-kicker", text: `${T.sk_dm} · ${T.sk_anchor}` }),
      h("p", { class: "sk-anchor-text", text: ev.text || "" })), "sk-anchor-item"),
    dm_event: (ev, model, round) => dmLine(ev, round, ev.text || "", "sk-dm-event"),
    dm_message: (ev, model, round) => dmLine(ev, round, ev.text || "", "sk-dm-message", "private"),
    private_chat: (ev, model, round) => testid(kit.bubble(model, { ...ev, seat: ev.seat ?? ev.from_seat }, round, "sk-chat",
      ev.text, [kit.tag(format(T.sk_ev_chat, { from: characterName(model, ev.seat ?? ev.from_seat),
        to: characterName(model, ev.to ?? ev.to_seat) }), "sk-chat-tag")]), "sk-chat"),
    trade: (ev, model, round) => testid(kit.system(ev, round, T.sk_ev_trade, { from: playedBy(model, ev.seat ?? ev.from_seat),
      to: playedBy(model, ev.to ?? ev.to_seat), item: shownThing(ev) }), "sk-trade"),
    power_used: (ev, model, round) => testid(kit.system(ev, round, ev.result || ev.detail ? T.sk_ev_power_used_mine
      : T.sk_ev_power_used, { who: playedBy(model, ev.seat), power: ev.power_name || ev.name || "", text: ev.text || "" },
    "private"), "sk-power"),
    item_used: (ev, model, round) => testid(kit.system(ev, round, T.sk_ev_item_used, { who: playedBy(model, ev.seat),
      text: ev.text || shownThing(ev) }), "sk-item-used"),
    vote_cast: (ev, model, round) => testid(kit.system(ev, round, T.sk_ev_vote_cast, { target: playedBy(model, ev.target ?? ev.target_seat) },
      "private"), "sk-vote-cast"),
    vote_result: (ev, model, round) => testid(kit.system(ev, round, ev.second_vote || ev.tied ? T.sk_ev_vote_tied : T.sk_ev_vote_result,
      { who: playedBy(model, ev.voted_out ?? ev.target), names: kit.names(model, ev.tied || []) }, "strong"), "sk-vote-result"),
    ending: (ev, model, round) => testid(kit.item(ev, round, "sk-ending-item",
      h("b", { text: T[`sk_ending_${ev.ending}`] || ev.ending || "" }),
      h("p", { text: ev.ending_text || ev.text || "" })), "sk-ending-item", { ending: ev.ending || "" }),
    review: (ev, model, round) => dmLine(ev, round, ev.truth || ev.text || T.sk_review, "sk-review-item"),
  };

  // ---- the module -------------------------------------------------------------------------------------------

  return {
    steps: ["waiting", "prologue", "act1", "act2", "verdict", "finished"],

    stepOf(stage, model) {
      if (stage === "aborted" || stage === "finished") return "finished";
      const at = model ? stageIndex(model.sub) : -1;
      if (at <= 0) return at === 0 && model.status === "in_progress" ? "prologue" : "waiting";
      return Object.keys(ACT_OF).find((act) => ACT_OF[act].includes(at));
    },

    configLine(config) {
      return format(T.sk_config_line, { n: config.n_players, timing: T[`sk_timing_${config.timing || "standard"}`] || config.timing,
        script: config.script || "" });
    },

    roundLabel(model) {
      return stageLabel(model.sub) || format(T.round_counter, { n: model.round });
    },

    header(ui, model) {
      ui.pk.textContent = model.script ? model.script.title : "";
      ui.pk.hidden = !model.script;
    },

    init(model, snap) {
      Object.assign(model, {
        viewerSeat: snap.you ? snap.you.seat : null,
        script: snap.script || null,
        characters: new Map((snap.characters || []).map((c) => [c.seat, c])),
        locations: new Map((snap.unlocked_locations || []).map((l) => [l.id, l])),
        sub: null, roundNo: 0, dm: null, spoken: null, speeches: 0,
        board: new Map(), anchors: [], voted: new Set(), voteResult: null,
        ending: null, review: null, culpritSeat: null, tally: null, liveDeadline: null,
        snapStage: snap.sub_stage ? { sub: snap.sub_stage, deadline: snap.stage_deadline_ts || null } : null,
      });
      // The terminal snapshot (the god view at the end) holds what the log tells only in pieces.
      if (snap.status === "finished") {
        model.tally = snap.tally || null;
        model.review = snap.review || null;
        if (snap.ending) model.ending = typeof snap.ending === "object" ? snap.ending : { ending: snap.ending };
        const culprit = snap.culprit;
        const seat = culprit && typeof culprit === "object" ? culprit.seat
          : (snap.characters || []).find((c) => c.character === culprit)?.seat;
        model.culpritSeat = seat ?? null;
      }
    },

    apply(model, ev) {
      const handler = HANDLERS[ev.type];
      if (handler) handler(model, ev);
    },

    card(p, model, ctx) {
      const c = charOf(model, p.seat);
      const speaking = model.status === "in_progress" && speakerOf(model) === p.seat;
      const culprit = model.culpritSeat === p.seat;
      const extra = [];
      if (c && c.public) extra.push(h("p", { class: "sk-public", text: c.public }));
      if (speaking) extra.push(kit.turn(T.speaking, ctx.deadline, ctx.total));
      return {
        data: { game: "script_kill", character: c ? c.character : "", speaking, culprit, voted: model.voted.has(p.seat) },
        tags: [c ? chip("sk-role", c.name) : null, culprit ? chip("sk-culprit", T.sk_culprit) : null,
          model.spoken && model.spoken.has(p.seat) ? chip("sk-spoke", T.sk_introduced) : null],
        extra,
      };
    },

    turnTotal: stageTotal,

    currentSeat: speakerOf,

    // The board: the seat holder's forms (a node that stays put), then the stage bar, anchors, clues and vote.
    votes(ui, model, view) {
      const live = view === "all" && model.status === "in_progress";
      const fromSnap = model.snapStage && model.snapStage.sub === model.sub ? model.snapStage.deadline : null;
      model.liveDeadline = live ? model.deadline || fromSnap : null;
      const title = ui.votesCard.querySelector("h2");
      if (title) title.textContent = T.sk_board_title;
      ui.votesCard.hidden = false;
      if (play.slot.parentNode !== ui.votes) {
        clear(ui.votes);
        ui.votes.append(top, play.slot, board);
      }
      if (!live || !kit.seat || !kit.seat.held) play.hide();
      clear(top).append(stageBar(model, live));
      clear(board).append(intro(model) || "", anchors(model) || "", clueBoard(model), votePanel(model) || "");
    },

    result(model, r) {
      return [endingView(model, r), reviewView(model)];
    },

    you(me, snap) {
      return [chip("sk-role", me.character ? me.character.name : "", { testid: "sk-you-character" }), play.panels(me, snap)];
    },

    streamItem(ev, model, round) {
      const draw = ITEMS[ev.type];
      return draw ? draw(ev, model, round) : kit.common(ev, model, round) || kit.raw(ev, model, round);
    },
  };
}
