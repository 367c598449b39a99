// 剧本杀 (script_kill) on the match page: the twelve stages with their countdown, the DM's announcements, the
// public clue board, the table talk (speeches, clues and items shown to the table), the anchors word for word,
// the vote (its tally only after the end), the ending with the truth and the timeline review, and, for a seat
// holder, the character's private panels and the commands the server allows right now.
// The interface this implements is described at the top of ../match.js (`play`: ../match/play.js); the seat
// holder's panels and forms live in ./script_kill_play.js.
//
// The server filters what each viewer may see, so this module draws what arrives and never infers more: found
// clues, items and private chats appear only in the events (and the `you` of the snapshot) of those who may see
// them; the DM's tally only once the vote is over (the `ending` event and the terminal snapshot carry it).
//
// Stable hooks for tests (besides the shell's ids, and `data-type` / `data-round` on every stream item):
//   [data-testid="sk-stage-bar"]     the twelve stages (li[data-stage], class "on" / "done"), data-current
//   [data-testid="sk-countdown"]     the current stage's countdown (.countdown[data-deadline])
//   [data-testid="sk-dm"]            the DM's latest announcement
//   [data-testid="sk-clue-board"]    the public clues (data-count): [data-testid="sk-clue"] (data-clue, data-key,
//                                    data-source = "dm" or the seat that showed it)
//   [data-testid="sk-anchors"]       the anchors so far: [data-testid="sk-anchor"] (data-stage), .sk-anchor-text verbatim
//   [data-testid="sk-vote"]          the vote (data-tally): [data-testid="sk-tally-row"] (data-seat, data-votes) only
//                                    after the end; [data-testid="sk-voted-out"]
//   [data-testid="sk-ending"]        the ending (data-ending = perfect | normal | failure, data-culprit), sk-key-share
//   [data-testid="sk-review"]        sk-truth, [data-testid="sk-review-step"] the timeline, sk-comment per player
//   #players .player[data-game="script_kill"]   data-character, data-speaking, data-ready, data-culprit
//   stream: sk-stage (data-stage), sk-speech, sk-handout, sk-clue-found, sk-item-obtained, sk-dm-notice,
//           sk-investigated, sk-clue-published, sk-clue-revealed, sk-anchor-item, sk-dm-event, sk-chat, sk-trade,
//           sk-power-result, sk-item-used, sk-vote-cast, sk-vote-result, sk-ending-item, sk-review-item
//   seat holder (./script_kill_play.js): sk-private (sk-my-character, sk-my-items, sk-my-clues with sk-my-clues-row
//           [data-id], sk-my-chats with sk-my-chat, sk-investigations-left, sk-my-power), sk-actions with one
//           [data-testid="sk-action-<type>"] per allowed action (buttons sk-send-<type>, data-location / data-target;
//           text boxes sk-text-<type>; selects sk-field-<name>), and sk-action-feedback

import { actionPanel } from "./script_kill_play.js";

const STAGES = ["gm_init", "script_handout", "self_intro", "explore_r1", "discuss_r1", "anchor_r1",
  "explore_r2", "discuss_r2", "anchor_r2", "final_discuss", "final_vote", "review"];
const SECONDS = {
  standard: [180, 300, 600, 900, 900, 600, 900, 900, 600, 900, 300, 720],
  compressed: [10, 30, 60, 75, 75, 20, 75, 75, 20, 60, 30, 30],
};
const ACT_OF = { prologue: [0, 1, 2], act1: [3, 4, 5], act2: [6, 7, 8], verdict: [9, 10, 11] };

export default function scriptKill(kit) {
  let scriptTitle = null; // the script's title (the snapshot's), for the config line
  const { T, h, fill, format, clear, seatLabel, avatar } = kit;
  const play = actionPanel(kit);
  const top = h("div", { class: "sk-board-body" });
  const board = h("div", { class: "sk-board-body" });

  // ---- the model --------------------------------------------------------------------------------------------

  // The stage a sub_stage lights in the bar (stage 11 is the ending and its review).
  const stageIndex = (sub) => STAGES.indexOf(sub === "ending" ? "review" : sub);
  const subOf = (ev) => ev.sub_stage || null;

  function charOf(model, seat) {
    return model.characters.get(seat) || null;
  }

  // A clue (or an item shown to the table) on the public board; the first to make it public keeps the credit.
  function publish(m, rec, source, ev) {
    if (!rec || !rec.id || m.board.has(rec.id)) return;
    m.board.set(rec.id, { ...rec, kind: ev.item ? "item" : "clue", source, seq: ev.seq });
  }

  function setStage(m, ev) {
    const sub = subOf(ev);
    // The stage is the match's phase: the shell's fields follow it, so the header and title name the stage.
    // Round n is act n; the prologue's stages go with act 1, as the replay groups them.
    Object.assign(m, { sub, phase: sub, stage: sub, status: "in_progress", round: Math.max(1, ev.round_no ?? ev.round ?? 1),
      roundNo: ev.round_no ?? ev.round ?? m.roundNo, deadline: ev.deadline_ts ? Number(ev.deadline_ts) : null,
      dm: ev.text ? { text: ev.text, seq: ev.seq } : m.dm, speaker: null, ready: new Set() });
  }

  function dmSays(m, ev) {
    if (ev.text) m.dm = { text: ev.text, seq: ev.seq };
  }

  const HANDLERS = {
    match_started(m, ev) {
      for (const c of ev.characters || []) if (!m.characters.has(c.seat)) m.characters.set(c.seat, c);
      if (!m.script) m.script = { id: ev.script_id, title: ev.title, intro: ev.intro };
    },
    stage_changed: setStage,
    speaker_changed(m, ev) {
      m.speaker = ev.seat ?? null;
    },
    speech(m, ev) {
      if (m.sub === "self_intro") m.spoken.add(ev.seat);
    },
    player_ready(m, ev) {
      m.ready.add(ev.seat);
    },
    location_unlocked(m, ev) {
      if (ev.location && ev.location.id) m.locations.set(ev.location.id, ev.location);
      dmSays(m, ev);
    },
    clue_published(m, ev) {
      publish(m, ev.clue, "dm", ev);
      dmSays(m, ev);
    },
    clue_revealed(m, ev) {
      publish(m, ev.clue || ev.item, ev.seat, ev);
    },
    anchor(m, ev) {
      const stage = ev.anchor || m.sub;
      if (!m.anchors.some((a) => a.stage === stage)) m.anchors.push({ stage, text: ev.text || "", hint: ev.hint || "" });
    },
    dm_event: dmSays,
    vote_opened(m, ev) {
      m.vote = { round: ev.vote_round, candidates: ev.candidates || [] };
      dmSays(m, ev);
    },
    vote_result(m, ev) {
      m.voteResult = ev;
      dmSays(m, ev);
    },
    ending(m, ev) {
      m.ending = ev;
      m.culpritSeat = ev.culprit_seat ?? m.culpritSeat;
      if (ev.tally) m.tally = ev.tally;
    },
    review(m, ev) {
      const rv = m.review || (m.review = { truth: "", timeline: [], comments: [] });
      if (ev.part === "truth") rv.truth = ev.text || "";
      else if (ev.part === "timeline") rv.timeline = ev.timeline || [];
      else if (ev.part === "comment") rv.comments.push({ seat: ev.seat, text: ev.text || "" });
    },
    match_finished(m, ev) {
      m.deadline = null;
      m.culpritSeat = ev.culprit_seat ?? m.culpritSeat;
    },
  };

  // ---- small pieces -----------------------------------------------------------------------------------------

  // The DM's own lines already say 【DM】; the page says it once.
  const unprefixed = (text) => String(text || "").replace(/^【DM】/, "");

  const chip = (cls, text, data = {}) => h("span", { class: `chip ${cls}`, text, data });
  const testid = (node, id, data = {}) => {
    if (node) Object.assign(node.dataset, { testid: id, ...data });
    return node;
  };
  const stageLabel = (sub) => T[`sk_stage_${sub === "ending" ? "review" : sub}`] || sub || "";

  function stageTotal(model) {
    const at = stageIndex(model.sub);
    const table = SECONDS[model.config.timing] || SECONDS.standard;
    return at >= 0 ? table[at] : 60;
  }

  // Self-introductions go in seat order, once each; the DM names who has the floor.
  function speakerOf(model) {
    return model.sub === "self_intro" && model.status === "in_progress" ? model.speaker : null;
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

  function clueCard(model, rec, source) {
    const tier = rec.tier ? chip(`sk-tier tier-${rec.tier}`, format(T.sk_tier, { n: rec.tier })) : null;
    const key = rec.is_key ? chip("sk-key", T.sk_key) : null;
    const where = rec.location ? chip("sk-where", locationName(model, rec.location)) : null;
    const kind = rec.kind === "item" || rec.type ? chip("sk-kind", rec.name || T.sk_item) : null;
    let from = null;
    if (source === "dm") from = h("span", { class: "sk-source", text: T.sk_published_by_dm });
    else if (source !== null && source !== undefined) {
      from = h("span", { class: "sk-source" }, fill(T.sk_shown_by, { who: playedBy(model, source) }));
    }
    return h("li", { class: `sk-clue${rec.is_key ? " key" : ""}`,
      data: { testid: "sk-clue", clue: rec.id, key: Boolean(rec.is_key),
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
        h("b", { text: `${T.sk_dm} · ` }), h("span", { text: unprefixed(model.dm.text) })) : null);
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
      list.length ? h("ul", { class: "sk-clues" }, list.map((rec) => clueCard(model, rec, rec.source)))
        : h("p", { class: "muted", text: T.sk_board_empty }));
  }

  // The DM's count of the deciding vote (the last round of the tally), with who named whom.
  function tallyRows(model, round) {
    const counts = Object.entries(round.counts || {}).map(([seat, n]) => [Number(seat), Number(n)])
      .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const top = counts.length ? counts[0][1] : 0;
    const voters = Object.entries(round.votes || {}).map(([voter, target]) => [Number(voter), target]);
    return counts.map(([seat, n]) => h("div", { class: `flow-row${seat === model.culpritSeat ? " out" : ""}`,
      data: { testid: "sk-tally-row", seat, votes: n } },
    h("div", { class: "flow-target" }, playedBy(model, seat),
      seat === model.culpritSeat ? chip("sk-culprit", T.sk_culprit) : null),
    h("div", { class: "flow-bar" },
      h("span", { class: "flow-fill", style: { width: `${Math.round((n / Math.max(top, 1)) * 100)}%` } }),
      h("span", { class: "flow-voters" }, voters.filter(([, t]) => t === seat).map(([v]) => h("span", {
        class: "flow-voter", data: { voter: v }, title: format(T.vote_arrow, { voter: seatLabel(v), target: seatLabel(seat) }),
      }, avatar(v, "xs"))))),
    h("b", { class: "flow-count", text: n })));
  }

  function votePanel(model) {
    const tally = model.tally && model.tally.length ? model.tally : null;
    if (!tally && stageIndex(model.sub) < STAGES.indexOf("final_vote")) return null;
    const body = [];
    if (tally) {
      tally.forEach((round, i) => body.push(h("div", { class: "flow", data: { round: round.vote_round } },
        tally.length > 1 ? h("div", { class: "flow-title", text: format(T.sk_vote_round, { n: round.vote_round ?? i + 1 }) }) : null,
        tallyRows(model, round))));
    } else {
      const candidates = model.vote ? model.vote.candidates : [];
      body.push(h("p", { class: "muted", text: T.sk_vote_secret }));
      if (model.vote && model.vote.round > 1) body.push(h("p", {}, fill(T.sk_vote_second, { names: kit.names(model, candidates) })));
    }
    const out = model.voteResult ? model.voteResult.out : null;
    if (out !== undefined && out !== null) {
      body.push(h("p", { class: "vote-result", data: { testid: "sk-voted-out", seat: out } },
        fill(T.sk_voted_out, { who: playedBy(model, out) })));
    }
    return h("section", { class: "sk-vote", data: { testid: "sk-vote", tally: Boolean(tally) } },
      h("h3", { text: T.sk_vote }), body);
  }

  // ---- the ending and the review ----------------------------------------------------------------------------

  function endingView(model, r) {
    const ending = r.ending || (model.ending && model.ending.ending) || null;
    if (!ending) return null;
    const e = model.ending || {};
    const culprit = model.culpritSeat ?? r.culprit_seat ?? null;
    return h("section", { class: `sk-ending ending-${ending}`, data: { testid: "sk-ending", ending, culprit: culprit ?? "" } },
      h("h3", { text: T[`sk_ending_${ending}`] || ending }),
      culprit !== null ? h("p", { class: "sk-culprit-line" }, fill(T.sk_culprit_was, { who: playedBy(model, culprit) })) : null,
      e.key_clues_total ? h("p", { class: "sk-key-share", data: { testid: "sk-key-share" },
        text: format(T.sk_key_share, { found: e.key_clues_found, total: e.key_clues_total }) }) : null,
      e.text ? h("p", { class: "sk-ending-text", text: e.text }) : null);
  }

  function reviewView(model) {
    const rv = model.review;
    if (!rv) return null;
    const timeline = rv.timeline || [];
    const comments = rv.comments || [];
    return h("section", { class: "sk-review", data: { testid: "sk-review" } },
      h("h3", { text: T.sk_review }),
      rv.truth ? h("p", { class: "sk-truth", data: { testid: "sk-truth" }, text: rv.truth }) : null,
      timeline.length ? h("ol", { class: "sk-timeline" }, timeline.map((step) => h("li", { data: { testid: "sk-review-step" } },
        h("span", { class: "sk-when", text: format(T.sk_day_time, { day: step.day, time: step.time || "" }) }),
        h("span", { text: step.text || "" })))) : null,
      comments.length ? h("ul", { class: "sk-comments" }, comments.map((c) => h("li", { data: { testid: "sk-comment", seat: c.seat } },
        avatar(c.seat, "xs"), h("span", { text: ` ${c.text}` })))) : null);
  }

  // ---- the stream -------------------------------------------------------------------------------------------

  function dmLine(ev, round, text, id, extra = "") {
    return testid(kit.item(ev, round, `system sk-dm-line ${extra}`, h("span", { class: "system-text" },
      h("b", { text: `${T.sk_dm} · ` }), h("span", { text: unprefixed(text) }))), id);
  }

  const shown = (ev) => (ev.clue ? ev.clue.text : ev.item ? `「${ev.item.name}」${ev.item.text || ""}` : ev.text || "");
  const whereOf = (model, how) => (how && how.startsWith("investigate:") ? locationName(model, how.slice(12)) : "");
  const quiet = (ev, round, id) => testid(kit.item(ev, round, "system quiet", h("span", { class: "system-text", text: ev.text || "" })), id);

  function foundItem(ev, model, round) {
    const where = whereOf(model, ev.how);
    const what = ev.clue ? ev.clue.text : `「${ev.item.name}」`;
    const key = ev.clue ? T.sk_ev_clue_found : T.sk_ev_item_obtained;
    const from = ev.how && ev.how.startsWith("trade:") ? playedBy(model, Number(ev.how.slice(6))) : null;
    return testid(kit.system(ev, round, from ? T.sk_ev_item_traded : where ? key : T.sk_ev_learned,
      { where, text: what, from }, "private"), ev.clue ? "sk-clue-found" : "sk-item-obtained", { clue: ev.clue ? ev.clue.id : "" });
  }

  function peekText(result) {
    if (!result) return "";
    const recs = [...(result.clues || []), ...(result.items || [])];
    if (recs.length) return recs.map((r) => r.name ? `「${r.name}」` : r.text).join(T.sk_sep);
    if (result.clue) return result.clue;
    if (result.location) return locationName({ locations: new Map() }, result.location);
    if (result.extra_investigations) return format(T.sk_extra_searches, { n: result.extra_investigations });
    return T.sk_nothing;
  }

  const ITEMS = {
    match_started: (ev, model, round) => kit.system(ev, round, T.sk_ev_started, { title: ev.title || "" }, "strong"),
    characters_dealt: () => null,
    stage_changed: (ev, model, round) => testid(kit.item(ev, round, "divider sk-stage",
      h("span", { class: "sk-stage-title", text: `${STAGES.indexOf(subOf(ev))} · ${stageLabel(subOf(ev))}` }),
      ev.text ? h("span", { class: "sk-stage-text", text: ev.text }) : null), "sk-stage", { stage: subOf(ev) || "" }),
    speaker_changed: () => null,
    script_handout: (ev, model, round) => dmLine(ev, round, format(T.sk_ev_handout, { name: ev.name || "" }), "sk-handout", "private"),
    speech: (ev, model, round) => testid(kit.bubble(model, ev, round, "sk-speech", ev.text,
      [kit.tag(characterName(model, ev.seat), "sk-role")]), "sk-speech"),
    player_ready: (ev, model, round) => testid(kit.system(ev, round, T.sk_ev_ready, { who: playedBy(model, ev.seat), n: ev.ready || "" },
      "quiet"), "sk-ready"),
    investigated: (ev, model, round) => quiet(ev, round, "sk-investigated"),
    clue_found: foundItem,
    item_obtained: foundItem,
    dm_notice: (ev, model, round) => dmLine(ev, round, ev.text || "", "sk-dm-notice", "private"),
    location_unlocked: (ev, model, round) => dmLine(ev, round, ev.text || "", "sk-unlocked"),
    clue_published: (ev, model, round) => testid(dmLine(ev, round, format(T.sk_ev_clue_published, { text: shown(ev) }),
      "sk-clue-published", "strong"), "sk-clue-published", { clue: ev.clue ? ev.clue.id : "" }),
    clue_revealed: (ev, model, round) => testid(kit.item(ev, round, "speech sk-revealed", avatar(ev.seat),
      h("div", { class: "bubble-wrap" },
        h("div", { class: "bubble-meta" }, h("b", { text: characterName(model, ev.seat) }),
          h("span", { class: "muted", text: seatLabel(ev.seat) }), kit.tag(ev.clue ? T.sk_shows_clue : T.sk_shows_item, "sk-shows")),
        h("div", { class: "bubble", text: shown(ev) }))), "sk-clue-revealed", { clue: (ev.clue || ev.item || {}).id || "" }),
    anchor: (ev, model, round) => testid(kit.item(ev, round, "sk-anchor-item",
      h("span", { class: "sk-anchor-kicker", text: `${T.sk_dm} · ${stageLabel(ev.anchor)}` }),
      h("p", { class: "sk-anchor-text", text: ev.text || "" }),
      ev.hint ? h("p", { class: "sk-anchor-hint", text: `${T.sk_hint}: ${ev.hint}` }) : null), "sk-anchor-item", { stage: ev.anchor || "" }),
    dm_event: (ev, model, round) => dmLine(ev, round, ev.text || "", "sk-dm-event"),
    private_chat: (ev, model, round) => testid(kit.bubble(model, ev, round, "sk-chat", ev.text,
      [kit.tag(format(T.sk_ev_chat, { from: characterName(model, ev.seat), to: characterName(model, ev.to) }), "sk-chat-tag")]),
    "sk-chat", { to: ev.to }),
    trade: (ev, model, round) => testid(kit.system(ev, round, T.sk_ev_trade, { from: playedBy(model, ev.seat),
      to: playedBy(model, ev.to), item: ev.item ? ev.item.name : "" }, "private"), "sk-trade"),
    trade_made: (ev, model, round) => quiet(ev, round, "sk-trade-made"),
    power_used: (ev, model, round) => quiet(ev, round, "sk-power-used"),
    power_result: (ev, model, round) => testid(kit.system(ev, round, T.sk_ev_power_result,
      { power: ev.power_name || ev.power, text: peekText(ev.result) }, "private"), "sk-power-result"),
    item_used: (ev, model, round) => testid(kit.system(ev, round, T.sk_ev_item_used,
      { item: ev.item_name || ev.item, text: peekText(ev.result) }, "private"), "sk-item-used"),
    vote_opened: (ev, model, round) => dmLine(ev, round, ev.text || "", "sk-vote-opened", "strong"),
    vote_cast: (ev, model, round) => dmLine(ev, round, ev.text || "", "sk-vote-cast", "private"),
    vote_result: (ev, model, round) => dmLine(ev, round, ev.text || "", "sk-vote-result", "strong"),
    ending: (ev, model, round) => testid(kit.item(ev, round, `sk-ending-item ending-${ev.ending}`,
      h("b", { text: T[`sk_ending_${ev.ending}`] || ev.ending || "" }),
      h("p", { text: ev.text || "" })), "sk-ending-item", { ending: ev.ending || "" }),
    review: (ev, model, round) => (ev.part === "comment" ? testid(kit.system(ev, round, "{text}", { text: ev.text || "" }, "quiet"), "sk-review-comment")
      : dmLine(ev, round, ev.text || "", "sk-review-item")),
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
      return format(T.sk_config_line, { n: config.n_players || 6, timing: T[`sk_timing_${config.timing || "standard"}`] || config.timing,
        script: scriptTitle || config.script || "" });
    },

    roundLabel(model) {
      return stageLabel(model.sub) || format(T.round_counter, { n: model.round });
    },

    header(ui, model) {
      ui.pk.textContent = model.script ? model.script.title : "";
      ui.pk.hidden = !model.script;
    },

    init(model, snap) {
      scriptTitle = snap.script ? snap.script.title : null; // the config names the script by its id
      Object.assign(model, {
        config: { n_players: 6, ...snap.config }, // a script is written for six
        viewerSeat: snap.you ? snap.you.seat : null,
        script: snap.script || null,
        characters: new Map((snap.characters || []).map((c) => [c.seat, c])),
        locations: new Map((snap.unlocked_locations || []).map((l) => [l.id, l])),
        sub: snap.status === "waiting" ? "gm_init" : null, roundNo: 0, dm: null, speaker: null, spoken: new Set(), ready: new Set(),
        board: new Map(), anchors: [], vote: null, voteResult: null,
        ending: null, review: null, culpritSeat: null, tally: null, liveDeadline: null,
        snapStage: snap.sub_stage ? { sub: snap.sub_stage, deadline: snap.stage_deadline_ts || null } : null,
      });
      // The terminal snapshot (the god view at the end) holds the DM's tally, which no event showed before.
      if (snap.status === "finished") {
        model.tally = snap.tally || null;
        model.culpritSeat = (snap.characters || []).find((c) => c.character === snap.culprit)?.seat ?? null;
      }
    },

    apply(model, ev) {
      const handler = HANDLERS[ev.type];
      if (handler) handler(model, ev);
    },

    card(p, model, ctx) {
      const c = charOf(model, p.seat);
      const speaking = speakerOf(model) === p.seat;
      const culprit = model.culpritSeat === p.seat;
      const extra = [];
      if (c && c.public) extra.push(h("p", { class: "sk-public", text: c.public }));
      if (speaking) extra.push(kit.turn(T.speaking, ctx.deadline, ctx.total));
      const ready = model.status === "in_progress" && model.ready.has(p.seat);
      return {
        data: { game: "script_kill", character: c ? c.character : "", speaking, culprit, ready },
        tags: [p.conceded ? chip("status-out", T.conceded) : null,
          c ? chip("sk-role", c.name) : null, culprit ? chip("sk-culprit", T.sk_culprit) : null,
          model.sub === "self_intro" && model.spoken.has(p.seat) ? chip("sk-spoke", T.sk_introduced) : null,
          ready ? chip("sk-ready", T.sk_ready) : null],
        extra,
      };
    },

    turnTotal: stageTotal,

    currentSeat: speakerOf,

    // The board: the stage bar and its countdown, then the anchors, the clue board and the vote.
    votes(ui, model, view) {
      const live = view === "all" && model.status === "in_progress";
      const fromSnap = model.snapStage && model.snapStage.sub === model.sub ? model.snapStage.deadline : null;
      model.liveDeadline = live ? model.deadline || fromSnap : null;
      const title = ui.votesCard.querySelector("h2");
      if (title) title.textContent = T.sk_board_title;
      ui.votesCard.hidden = false;
      if (top.parentNode !== ui.votes) {
        clear(ui.votes);
        ui.votes.append(top, board);
      }
      clear(top).append(stageBar(model, live));
      // The ending and review open the board while the review stage runs; once finished they head the page.
      const closing = model.ending && !model.result ? [endingView(model, {}), reviewView(model)] : [];
      clear(board).append(...closing.filter(Boolean), intro(model) || "", anchors(model) || "", clueBoard(model),
        votePanel(model) || "");
    },

    result(model, r) {
      return [endingView(model, r), reviewView(model)];
    },

    you(me, snap) {
      return [chip("sk-role", me.character ? me.character.name : "", { testid: "sk-you-character" }), play.panels(me, snap)];
    },

    play: (me, snap) => play.play(me, snap),

    streamItem(ev, model, round) {
      const draw = ITEMS[ev.type];
      return draw ? draw(ev, model, round) : kit.common(ev, model, round) || kit.raw(ev, model, round);
    },
  };
}
