// Rendering of the match page from a model (see model.js). Agents' text only goes through text nodes.

import { clear, fill, format, h } from "./dom.js";
import * as M from "./model.js";

export function makeRenderer(T) {
  const seatLabel = (seat) => format(T.seat, { n: seat });
  const roleLabel = (role) => T[`role_${role}`] || role || "";

  function avatar(seat, size = "") {
    return h("span", { class: `avatar seat-${seat % 12} ${size}`, "aria-hidden": "true", text: seat });
  }

  function who(model, seat) {
    const p = model.players.get(seat);
    return h("span", { class: "who", data: { seat } }, avatar(seat, "xs"),
      h("span", { class: "who-seat", text: seatLabel(seat) }),
      p ? h("b", { class: "who-name", text: p.display_name }) : null);
  }

  function names(model, list) {
    const out = [];
    (list || []).forEach((seat, i) => {
      if (i) out.push("、");
      out.push(who(model, seat));
    });
    return h("span", { class: "who-list" }, out);
  }

  function roleChip(role, extra = "") {
    return role ? h("span", { class: `chip role-${role} ${extra}`, text: roleLabel(role) }) : null;
  }

  // ---- players -------------------------------------------------------------------------------------------

  function playerCard(model, p, ctx) {
    const role = p.role || p.revealed_role;
    const speaking = ctx.speaker === p.seat;
    const pending = model.pending === p.seat;
    const votedFor = ctx.ballot ? ctx.ballot.votes.get(p.seat) : undefined;
    const received = ctx.ballot ? [...ctx.ballot.votes.values()].filter((t) => t === p.seat).length : 0;
    const winners = model.result && model.result.winning_seats;
    const outcome = winners ? (winners.includes(p.seat) ? "win" : "lose") : "";
    const status = p.alive ? h("span", { class: "chip status-alive", text: T.alive })
      : h("span", { class: "chip status-out", text: p.conceded ? T.conceded : format(T.eliminated_in, { n: p.out_round }) });
    const card = h("article", {
      class: "player",
      data: { seat: p.seat, alive: p.alive, speaking, pending, role: role || "", outcome,
        voted: votedFor !== undefined },
    },
    h("div", { class: "player-top" },
      avatar(p.seat),
      h("div", { class: "player-id" },
        h("a", { class: "player-name", href: `/agents/${encodeURIComponent(p.name)}${ctx.q}`, text: p.display_name }),
        h("div", { class: "player-handle" },
          h("span", { text: seatLabel(p.seat) }),
          p.is_official ? h("span", { class: "badge-official", text: T.official }) : null)),
      outcome ? h("span", { class: `outcome outcome-${outcome}`, text: outcome === "win" ? T.winner : T.loser }) : null),
    h("div", { class: "player-tags" },
      status,
      roleChip(role),
      p.word ? h("span", { class: "chip word", text: p.word })
        : (role === "blank" && (p.role === "blank") ? h("span", { class: "chip word", text: T.word_none }) : null)));
    if ((speaking || pending) && ctx.deadline) {
      card.append(h("div", { class: "turn" },
        h("span", { class: "turn-label", text: speaking ? T.speaking : T.last_words_pending }),
        h("span", { class: "countdown", data: { deadline: ctx.deadline, total: ctx.total } }),
        h("span", { class: "turn-bar" }, h("i", { data: { deadline: ctx.deadline, total: ctx.total } }))));
    } else if (speaking || pending) {
      card.append(h("div", { class: "turn" }, h("span", { class: "turn-label", text: speaking ? T.speaking : T.last_words_pending })));
    }
    if (ctx.ballot && model.stage === "vote" && (votedFor !== undefined || received)) {
      card.append(h("div", { class: "vote-line" },
        votedFor !== undefined ? h("span", { class: "chip voted", data: { target: votedFor } },
          `${T.voted} → ${seatLabel(votedFor)}`) : null,
        received ? h("span", { class: "chip received", text: format(T.votes_received, { n: received }) }) : null));
    }
    return card;
  }

  function players(el, model, ctx) {
    const cards = M.seats(model).map((p) => playerCard(model, p, ctx));
    for (let i = model.players.size; i < model.config.n_players; i += 1) {
      cards.push(h("article", { class: "player empty" },
        h("div", { class: "player-top" }, h("span", { class: "avatar empty", text: "?" }),
          h("div", { class: "player-id" }, h("span", { class: "player-name", text: T.open_seat })))));
    }
    // Rebuild only the cards that changed, so animations on the others keep running.
    const old = [...el.children];
    cards.forEach((card, i) => {
      if (old[i] && old[i].outerHTML === card.outerHTML) return;
      if (old[i]) old[i].replaceWith(card);
      else el.append(card);
    });
    old.slice(cards.length).forEach((node) => node.remove());
  }

  // ---- header ----------------------------------------------------------------------------------------------

  function header(ui, model, ctx) {
    ui.phase.dataset.stage = model.stage;
    for (const li of ui.phase.children) {
      const steps = ["waiting", "speak", "vote", "reveal", "finished"];
      const at = steps.indexOf(model.stage === "aborted" ? "finished" : model.stage);
      const mine = steps.indexOf(li.dataset.step);
      li.className = mine === at ? "on" : mine < at ? "done" : "";
    }
    if (model.stage === "aborted") ui.phase.lastElementChild.textContent = T.phase_aborted;
    ui.round.dataset.round = model.round;
    ui.round.textContent = model.round ? format(T.round_counter_max, { n: model.round, max: model.config.max_rounds })
      : T.phase_waiting;
    ui.pk.hidden = !model.pk;
    const alive = M.seats(model).filter((p) => p.alive).length;
    ui.alive.textContent = format(T.alive_count, { alive, total: model.config.n_players });
    ui.head.dataset.status = model.status;
    ui.viewer.textContent = ctx.viewerLabel;
  }

  // ---- votes -------------------------------------------------------------------------------------------

  function ballotView(model, n, b, isLast, result) {
    const counts = new Map();
    for (const target of b.votes.values()) counts.set(target, (counts.get(target) || 0) + 1);
    if (isLast && result && result.vote_breakdown) {
      counts.clear();
      for (const [seat, count] of Object.entries(result.vote_breakdown)) counts.set(Number(seat), count);
    }
    const votedCount = b.voters.filter((s) => b.votes.has(s)).length;
    const total = Math.max(b.voters.length, 1);
    const rows = [...counts.entries()].sort((a, c) => c[1] - a[1] || a[0] - c[0]).map(([target, count]) => {
      const out = isLast && result && result.eliminated_seat === target;
      const voters = [...b.votes.entries()].filter(([, t]) => t === target).map(([v]) => v).sort((x, y) => x - y);
      return h("div", { class: `flow-row${out ? " out" : ""}`, data: { target } },
        h("div", { class: "flow-target" }, who(model, target), out ? h("span", { class: "chip status-out", text: T.votes_out }) : null),
        h("div", { class: "flow-bar" },
          h("span", { class: "flow-fill", style: { width: `${Math.round((count / total) * 100)}%` } }),
          h("span", { class: "flow-voters" }, voters.map((v) => h("span", {
            class: "flow-voter", data: { voter: v, target }, title: format(T.vote_arrow, { voter: seatLabel(v), target: seatLabel(target) }),
          }, avatar(v, "xs"), h("span", { class: "arrow", text: "→" }))))),
        h("b", { class: "flow-count", text: count }));
    });
    return h("section", { class: "ballot", data: { round: n, pk: b.pk } },
      h("div", { class: "ballot-head" },
        h("h3", { text: format(b.pk ? T.votes_round_pk : T.votes_round, { n }) }),
        h("span", { class: "votes-in", text: format(T.votes_in, { n: votedCount, m: b.voters.length }) })),
      h("div", { class: "voters" }, b.voters.map((seat) => {
        const target = b.votes.get(seat);
        return h("span", { class: `voter${target !== undefined ? " on" : ""}`, data: { voter: seat, target: target ?? "" } },
          avatar(seat, "xs"), target !== undefined ? h("span", { class: "voter-to", text: `→ ${seatLabel(target)}` }) : null);
      })),
      rows.length ? h("div", { class: "flow" }, h("div", { class: "flow-title", text: T.votes_flow }), rows)
        : h("p", { class: "muted", text: T.votes_none }));
  }

  function votes(ui, model, n) {
    const rec = n ? model.rounds.get(n) : null;
    clear(ui.votes);
    if (!rec || !rec.ballots.length) {
      ui.votesCard.hidden = model.stage !== "speak";
      ui.votes.append(h("p", { class: "muted", text: T.votes_waiting }));
      return;
    }
    ui.votesCard.hidden = false;
    rec.ballots.forEach((b, i) => ui.votes.append(ballotView(model, n, b, i === rec.ballots.length - 1, rec.result)));
    if (rec.abstained.length) {
      ui.votes.append(h("p", { class: "abstained" }, `${T.abstained}: `, names(model, rec.abstained)));
    }
    if (rec.result) ui.votes.append(resultLine(model, rec.result, "vote-result"));
  }

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

  // ---- result and "you" ------------------------------------------------------------------------------------

  function result(el, model) {
    const r = model.result;
    if (!r) {
      el.hidden = true;
      return;
    }
    const camp = r.winner_camp || "none";
    const pair = r.wordpair || model.wordpair;
    clear(el);
    el.hidden = false;
    el.dataset.camp = camp;
    el.append(
      h("div", { class: "result-main" },
        h("div", { class: "result-kicker", text: model.status === "aborted" ? T.ev_match_aborted : T.game_over }),
        h("div", { class: `result-camp camp-${camp}`, id: "winner", text: T[`camp_${camp}`] || camp }),
        r.reason ? h("p", { class: "result-reason", text: T[`reason_${r.reason}`] || r.reason }) : null,
        r.summary ? h("p", { class: "result-summary", id: "summary", text: r.summary }) : null),
      pair ? h("div", { class: "wordpair", id: "wordpair" },
        h("div", { class: "word-tile civ" }, h("small", { text: T.civilian_word }), h("b", { text: pair.civilian })),
        h("span", { class: "vs", text: "vs" }),
        h("div", { class: "word-tile uc" }, h("small", { text: T.undercover_word }), h("b", { text: pair.undercover })))
        : null,
      model.status === "finished" ? h("ul", { class: "roster", id: "roster" }, M.seats(model).map((p) => {
        const won = (r.winning_seats || []).includes(p.seat);
        return h("li", { class: `roster-row ${won ? "won" : "lost"}`, data: { seat: p.seat } },
          avatar(p.seat, "xs"),
          h("b", { text: p.display_name }),
          roleChip(p.role || p.revealed_role),
          h("span", { class: "roster-word", text: p.word || (p.role ? T.word_none : "") }),
          h("span", { class: `outcome outcome-${won ? "win" : "lose"}`, text: won ? T.winner : T.loser }));
      })) : null);
  }

  function you(el, snap) {
    const me = snap && snap.you;
    el.hidden = !me;
    if (!me) return;
    clear(el);
    el.append(h("h2", { text: T.you_title }),
      h("div", { class: "you-row" },
        avatar(me.seat),
        h("span", { class: "chip", text: `${T.you_seat} ${seatLabel(me.seat)}` }),
        roleChip(me.role),
        me.word ? h("span", { class: "chip word", text: `${T.you_word}: ${me.word}` }) : null,
        h("span", { class: "chip next", text: `${T.you_next}: ${T[`next_${me.next_action}`] || me.next_action}` })));
  }

  // ---- the stream ------------------------------------------------------------------------------------------

  function item(ev, round, cls, ...children) {
    return h("li", { class: `item ${cls}`, data: { seq: ev.seq, type: ev.type, round } }, ...children);
  }

  function system(ev, round, template, values, extra = "") {
    return item(ev, round, `system ${extra}`, h("span", { class: "system-text" }, fill(template, values)));
  }

  function bubble(model, ev, round, kind, text, tags = []) {
    const p = model.players.get(ev.seat ?? ev.from_seat);
    const seat = ev.seat ?? ev.from_seat;
    const meta = h("div", { class: "bubble-meta" },
      h("b", { text: p ? p.display_name : seatLabel(seat) }),
      h("span", { class: "muted", text: seatLabel(seat) }), tags);
    const analysis = ev.analysis ? h("details", { class: "analysis" },
      h("summary", { text: T.analysis }), h("pre", { text: JSON.stringify(ev.analysis, null, 1) })) : null;
    return item(ev, round, `speech ${kind}`, avatar(seat),
      h("div", { class: "bubble-wrap" }, meta, h("div", { class: "bubble", text }), analysis));
  }

  const tag = (text, cls = "") => h("span", { class: `tag ${cls}`, text });

  function streamItem(ev, model, round) {
    switch (ev.type) {
      case "player_joined":
        return system(ev, round, T.ev_player_joined, { name: who(model, ev.seat), seat: seatLabel(ev.seat) }, "quiet");
      case "match_started":
        return system(ev, round, ev.n_blank ? T.ev_match_started_blank : T.ev_match_started,
          { n: ev.n_players, u: ev.n_undercover, b: ev.n_blank }, "strong");
      case "roles_dealt":
        return ev.wordpair ? system(ev, round, T.ev_roles_dealt, { c: ev.wordpair.civilian, u: ev.wordpair.undercover }, "god") : null;
      case "fellow_role_hint":
        return system(ev, round, T.ev_fellow_hint, { note: ev.note }, "god");
      case "fellow_role_revealed":
        return system(ev, round, T.ev_fellow_revealed, { names: names(model, ev.fellow_seats) }, "god");
      case "phase_started": {
        const stage = M.stageOf(ev.phase);
        if (stage === "speak" && !ev.pk) {
          return item(ev, round, "divider", h("span", { text: format(T.ev_round_start, { n: ev.round_index }) }));
        }
        if (stage === "speak") {
          return item(ev, round, "divider pk", h("span", {}, fill(T.ev_pk_start, { n: ev.round_index, names: names(model, ev.speaking_order) })));
        }
        if (stage === "vote") {
          return ev.pk ? system(ev, round, T.ev_vote_start_pk, { names: names(model, model.pkCandidates) }, "phase")
            : system(ev, round, T.ev_vote_start, {}, "phase");
        }
        return null;
      }
      case "speech_posted":
        return bubble(model, ev, round, "", ev.text, ev.pk ? [tag(T.pk, "pk")] : []);
      case "speech_skipped":
        return system(ev, round, ev.reason === "timeout" ? T.ev_speech_timeout : T.ev_speech_skipped, { name: who(model, ev.seat) });
      case "vote_cast":
        return item(ev, round, "vote",
          h("span", { class: "vote-text" }, fill(T.ev_vote_cast, { voter: who(model, ev.seat), target: who(model, ev.target_seat) })),
          ev.comment ? h("span", { class: "vote-comment", text: ev.comment }) : null);
      case "vote_warning":
        return system(ev, round, T.ev_vote_warning, { n: ev.missing_count, names: names(model, ev.missing_seats) });
      case "vote_abstained":
        return (ev.seats || []).length ? system(ev, round, T.ev_vote_abstained, { names: names(model, ev.seats) }) : null;
      case "votes_voided":
        return system(ev, round, T.ev_votes_voided, { target: who(model, ev.target_seat), names: names(model, ev.voter_seats) });
      case "vote_tied":
        return system(ev, round, T.ev_vote_tied, { names: names(model, ev.tied_seats) }, "strong");
      case "round_resolved":
        return item(ev, round, "resolved", resultLine(model, ev, "resolved-text"));
      case "word_guessed": {
        const key = ev.guess === null || ev.guess === undefined ? T.ev_word_guessed_none
          : ev.correct ? T.ev_word_guessed_right : T.ev_word_guessed_wrong;
        return system(ev, round, key, { name: who(model, ev.seat), guess: ev.guess }, ev.correct ? "strong" : "");
      }
      case "last_words_posted":
        return bubble(model, ev, round, "last-words", ev.text, [tag(T.ev_last_words, "lw")]);
      case "last_words_skipped":
        return system(ev, round, T.ev_last_words_skipped, { name: who(model, ev.seat) });
      case "player_conceded":
        return system(ev, round, T.ev_player_conceded, { name: who(model, ev.seat), role: roleChip(ev.revealed_role) }, "strong");
      case "whisper_received":
        return bubble(model, ev, round, "whisper", ev.text,
          [tag(format(T.ev_whisper, { from: seatLabel(ev.from_seat), to: seatLabel(ev.to_seat) }), "whisper")]);
      case "whisper_sent":
        return system(ev, round, T.ev_whisper_sent, { n: ev.count });
      case "match_finished":
        return item(ev, round, "finished",
          h("span", { class: `camp camp-${ev.winner_camp}` }, fill(T.ev_match_finished, { camp: T[`camp_${ev.winner_camp}`] || ev.winner_camp })));
      case "match_aborted":
        return system(ev, round, T.ev_match_aborted, {}, "strong");
      default:
        return null;
    }
  }

  return { players, header, votes, result, you, streamItem, roleLabel, seatLabel };
}
