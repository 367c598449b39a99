// What the shell hands a page module: the strings, the DOM helpers and the drawing pieces every game shares
// (seats, names, chips, stream items, a countdown, a ballot). Agents' text only ever goes through text nodes.

import { clear, fill, format, h } from "../dom.js";
import * as M from "./model.js";

export function makeKit(T) {
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
      if (i) out.push(T.list_sep || ", ");
      out.push(who(model, seat));
    });
    return h("span", { class: "who-list" }, out);
  }

  // A role as a chip: `.role-<role>` is the game's stylesheet's to colour.
  function roleChip(role, extra = "") {
    return role ? h("span", { class: `chip role-${role} ${extra}`, text: roleLabel(role) }) : null;
  }

  function statusChip(p) {
    if (p.alive) return h("span", { class: "chip status-alive", text: T.alive });
    return h("span", { class: "chip status-out", text: p.conceded ? T.conceded : format(T.eliminated_in, { n: p.out_round }) });
  }

  // "Speaking 0:42" with a draining bar; the shell's ticker updates every [data-deadline] four times a second.
  function turn(label, deadline, total) {
    if (!deadline) return h("div", { class: "turn" }, h("span", { class: "turn-label", text: label }));
    return h("div", { class: "turn" },
      h("span", { class: "turn-label", text: label }),
      h("span", { class: "countdown", data: { deadline, total } }),
      h("span", { class: "turn-bar" }, h("i", { data: { deadline, total } })));
  }

  // ---- the stream ----------------------------------------------------------------------------------------

  function item(ev, round, cls, ...children) {
    return h("li", { class: `item ${cls}`, data: { seq: ev.seq, type: ev.type, round } }, ...children);
  }

  function system(ev, round, template, values, extra = "") {
    return item(ev, round, `system ${extra}`, h("span", { class: "system-text" }, fill(template, values)));
  }

  const tag = (text, cls = "") => h("span", { class: `tag ${cls}`, text });

  // A speech bubble from `ev.seat` (or `ev.from_seat`), with the agent's optional `analysis` folded away.
  function bubble(model, ev, round, kind, text, tags = []) {
    const seat = ev.seat ?? ev.from_seat;
    const p = model.players.get(seat);
    const meta = h("div", { class: "bubble-meta" },
      h("b", { text: p ? p.display_name : seatLabel(seat) }),
      h("span", { class: "muted", text: seatLabel(seat) }), tags);
    const analysis = ev.analysis ? h("details", { class: "analysis" },
      h("summary", { text: T.analysis }), h("pre", { text: JSON.stringify(ev.analysis, null, 1) })) : null;
    return item(ev, round, `speech ${kind}`, avatar(seat),
      h("div", { class: "bubble-wrap" }, meta, h("div", { class: "bubble", text }), analysis));
  }

  // The protocol's own events, drawn the same in every game; anything else → null.
  function common(ev, model, round) {
    switch (ev.type) {
      case "player_joined":
        return system(ev, round, T.ev_player_joined, { name: who(model, ev.seat), seat: seatLabel(ev.seat) }, "quiet");
      case "player_conceded":
        return system(ev, round, T.ev_player_conceded, { name: who(model, ev.seat), role: roleChip(ev.revealed_role) }, "strong");
      case "match_finished":
        return item(ev, round, "finished", h("span", { class: `camp camp-${ev.winner_camp}` },
          fill(T.ev_match_finished, { camp: T[`camp_${ev.winner_camp}`] || ev.winner_camp })));
      case "match_aborted":
        return system(ev, round, T.ev_match_aborted, {}, "strong");
      default:
        return null;
    }
  }

  // Any event as "type · seat": what a game without a page module still shows.
  function raw(ev, model, round) {
    if (ev.type === "match_created") return system(ev, round, T.ev_match_created, { name: who(model, 0) }, "quiet");
    const seat = ev.seat ?? ev.from_seat;
    return item(ev, round, "system raw", h("span", { class: "system-text" },
      h("code", { text: ev.type }), seat === undefined || seat === null ? null : who(model, seat),
      typeof ev.text === "string" ? h("span", { class: "raw-text", text: ev.text }) : null));
  }

  // ---- the ballot fold ---------------------------------------------------------------------------------------

  // A round record's `ballots` (the main vote, pk=false, and its PK revote) as the public events build them:
  // `phase_started` names the voters, `vote_cast` adds a vote, `votes_voided` takes back votes for a seat that
  // left, and a seat that leaves mid-vote drops out.
  function ballotIn(rec, pk) {
    let found = rec.ballots.find((b) => b.pk === pk);
    if (!found) {
      found = { pk, voters: [], votes: new Map(), comments: new Map() };
      rec.ballots.push(found);
    }
    return found;
  }

  function lastBallot(rec) {
    return rec && rec.ballots.length ? rec.ballots[rec.ballots.length - 1] : null;
  }

  const ballots = {
    opened(rec, ev) {
      ballotIn(rec, Boolean(ev.pk)).voters = ev.voters || [];
    },
    cast(rec, ev) {
      const b = ballotIn(rec, Boolean(ev.pk));
      b.votes.set(ev.seat, ev.target_seat);
      if (ev.comment) b.comments.set(ev.seat, ev.comment);
    },
    voided(rec, ev) {
      for (const b of rec.ballots) {
        for (const seat of ev.voter_seats || []) if (b.votes.get(seat) === ev.target_seat) b.votes.delete(seat);
      }
    },
    left(rec, pk, seat) {
      const b = ballotIn(rec, pk);
      b.voters = b.voters.filter((s) => s !== seat);
      b.votes.delete(seat);
    },
  };

  // ---- a ballot ---------------------------------------------------------------------------------------------

  // One vote of round `round`: `b` is {voters: [seat], votes: Map voter → target, pk}; `counts` (seat → n)
  // replaces the tally of `b.votes` (the rules' own breakdown, once resolved); `out` marks the seat it removed.
  function ballotView(model, round, title, b, { counts = null, out = null } = {}) {
    const tally = new Map();
    for (const target of b.votes.values()) tally.set(target, (tally.get(target) || 0) + 1);
    if (counts) {
      tally.clear();
      for (const [seat, count] of Object.entries(counts)) tally.set(Number(seat), count);
    }
    const votedCount = b.voters.filter((s) => b.votes.has(s)).length;
    const total = Math.max(b.voters.length, 1);
    const rows = [...tally.entries()].sort((a, c) => c[1] - a[1] || a[0] - c[0]).map(([target, count]) => {
      const gone = out === target;
      const voters = [...b.votes.entries()].filter(([, t]) => t === target).map(([v]) => v).sort((x, y) => x - y);
      return h("div", { class: `flow-row${gone ? " out" : ""}`, data: { target } },
        h("div", { class: "flow-target" }, who(model, target), gone ? h("span", { class: "chip status-out", text: T.votes_out }) : null),
        h("div", { class: "flow-bar" },
          h("span", { class: "flow-fill", style: { width: `${Math.round((count / total) * 100)}%` } }),
          h("span", { class: "flow-voters" }, voters.map((v) => h("span", {
            class: "flow-voter", data: { voter: v, target }, title: format(T.vote_arrow, { voter: seatLabel(v), target: seatLabel(target) }),
          }, avatar(v, "xs"), h("span", { class: "arrow", text: "→" }))))),
        h("b", { class: "flow-count", text: count }));
    });
    return h("section", { class: "ballot", data: { round, pk: Boolean(b.pk) } },
      h("div", { class: "ballot-head" },
        h("h3", { text: title }),
        h("span", { class: "votes-in", text: format(T.votes_in, { n: votedCount, m: b.voters.length }) })),
      h("div", { class: "voters" }, b.voters.map((seat) => {
        const target = b.votes.get(seat);
        return h("span", { class: `voter${target !== undefined ? " on" : ""}`, data: { voter: seat, target: target ?? "" } },
          avatar(seat, "xs"), target !== undefined ? h("span", { class: "voter-to", text: `→ ${seatLabel(target)}` }) : null);
      })),
      rows.length ? h("div", { class: "flow" }, h("div", { class: "flow-title", text: T.votes_flow }), rows)
        : h("p", { class: "muted", text: T.votes_none }));
  }

  return {
    T, h, fill, format, clear, M,
    seatLabel, roleLabel, avatar, who, names, roleChip, statusChip, turn,
    item, system, tag, bubble, common, raw, ballotView, ballotIn, lastBallot, ballots,
  };
}
