// 谁是卧底 for the person holding a seat: the word card, the speak box (with the character limit and a warning
// before a speech that contains your own word is sent), voting by clicking a card, debate, last words, the
// blank's guess, the host's commentary and the recap at the end. The shell (../../match/play.js) hosts it.

const TEXT_LIMIT = 500; // the server's limit on a speech, vote comment or last words (422 text_too_long)
const DEBATE_LIMIT = 120; // one debate message (the debate extension's limit)

export default function makePlay(kit) {
  const { T, h, format, seatLabel, roleChip } = kit;
  let voteComment = null; // the comment field of the current vote, read when a card is clicked
  let sendVote = null;

  const containsWord = (text, word) => Boolean(word) && text.replace(/\s+/g, "").includes(word);

  function counter(input, limit) {
    const el = h("span", { class: "char-count", text: `0/${limit}` });
    input.addEventListener("input", () => {
      el.textContent = `${input.value.length}/${limit}`;
      el.classList.toggle("over", input.value.length > limit);
    });
    return el;
  }

  // A text box with its send button: `check(text)` → a warning or null, shown as it is typed; sending text that
  // still warns asks for a second press first (the server decides in the end and its refusal is shown).
  function textBox({ testid, placeholder, limit, action, field = "text", check = () => null, rows = 2, extra = [] }, ctx) {
    const input = h(rows > 1 ? "textarea" : "input", { class: "text-input", rows: rows > 1 ? rows : null,
      maxlength: limit + 50, placeholder, "data-testid": `${testid}-input`, "aria-label": placeholder });
    const warning = h("p", { class: "speak-warning", "data-testid": `${testid}-warning`, role: "alert", hidden: true });
    const send = h("button", { type: "button", class: "btn", "data-testid": `${testid}-send`, text: T.uc_send });
    const sync = () => {
      const text = check(input.value);
      warning.hidden = !text;
      warning.textContent = text || "";
      delete send.dataset.confirm;
      send.textContent = T.uc_send;
    };
    input.addEventListener("input", sync);
    send.addEventListener("click", async () => {
      const text = input.value.trim();
      if (!text) {
        ctx.say(T.uc_empty, "error");
        return;
      }
      if (check(text) && !send.dataset.confirm) {
        send.dataset.confirm = "1";
        send.textContent = T.uc_send_anyway;
        warning.hidden = false;
        return;
      }
      send.disabled = true;
      const answer = await ctx.send({ type: action, [field]: text });
      send.disabled = false;
      if (answer) input.value = "";
      sync();
    });
    return h("div", { class: `text-box box-${testid}` },
      input, warning,
      h("div", { class: "text-box-foot" }, counter(input, limit), h("span", { class: "grow" }), extra, send));
  }

  function skipButton(testid, label, body, ctx) {
    return h("button", { type: "button", class: "btn-soft", "data-testid": testid, text: label,
      onclick: () => ctx.send(body) });
  }

  function wordCard(me) {
    const word = me.word ? me.word : T.word_none;
    return h("div", { class: "word-card", "data-testid": "word-card" },
      h("small", { text: T.you_word }),
      h("b", { class: "my-word", "data-testid": "my-word", text: word }),
      me.role ? roleChip(me.role, "my-role") : null,
      me.alive === false ? h("span", { class: "chip status-out", text: T.uc_you_out }) : null);
  }

  const wordWarning = (me) => (text) => (containsWord(text, me.word) ? format(T.uc_warn_word, { word: me.word }) : null);

  function controls(me, ctx) {
    const out = [];
    if (ctx.allowed("speak")) {
      out.push(h("h3", { text: T.uc_speak_title }),
        textBox({ testid: "speak", placeholder: T.uc_speak_hint, limit: TEXT_LIMIT, action: "speak",
          check: wordWarning(me), extra: [skipButton("speak-skip", T.uc_skip, { type: "skip" }, ctx)] }, ctx));
    }
    if (ctx.allowed("debate")) {
      out.push(h("h3", { text: T.uc_debate_title }),
        textBox({ testid: "debate", placeholder: T.uc_debate_hint, limit: DEBATE_LIMIT, action: "debate", rows: 1,
          check: wordWarning(me), extra: [skipButton("debate-pass", T.uc_pass, { type: "debate_pass" }, ctx)] }, ctx));
    }
    const vote = ctx.allowed("vote");
    voteComment = null;
    sendVote = null;
    if (vote) {
      voteComment = h("input", { type: "text", class: "text-input", maxlength: TEXT_LIMIT, "data-testid": "vote-comment",
        placeholder: T.uc_vote_comment, "aria-label": T.uc_vote_comment });
      sendVote = (target) => {
        const comment = voteComment && voteComment.value.trim();
        if (comment && containsWord(comment, me.word)) {
          ctx.say(format(T.uc_warn_word, { word: me.word }), "error");
          return null;
        }
        return ctx.send(comment ? { type: "vote", target_seat: target, comment } : { type: "vote", target_seat: target });
      };
      out.push(h("h3", { text: T.uc_vote_title }), h("p", { class: "muted", text: T.uc_vote_hint }), voteComment);
    }
    if (ctx.allowed("last_words")) {
      out.push(h("h3", { text: T.uc_last_words_title }),
        textBox({ testid: "last-words", placeholder: T.uc_last_words_hint, limit: TEXT_LIMIT, action: "last_words",
          check: wordWarning(me) }, ctx));
    }
    if (ctx.allowed("guess_word")) {
      out.push(h("h3", { text: T.uc_guess_title }),
        textBox({ testid: "guess", placeholder: T.uc_guess_hint, limit: 32, action: "guess_word", field: "word",
          rows: 1 }, ctx));
    }
    return out;
  }

  // ---- what the page module adds -------------------------------------------------------------------------------

  function play(me, snap, model, ctx) {
    const types = (me.allowed_actions || []).map((a) => a.type).filter((t) => t !== "concede").join(",");
    const key = `${snap.status}|${snap.phase}|${me.next_action}|${types}|${me.word}|${me.alive}`;
    return { key, draw: () => [wordCard(me), h("div", { class: "uc-controls" }, controls(me, ctx))] };
  }

  // The vote button on a living player's card while you may vote for them.
  function voteButton(p, ctx) {
    const me = ctx.me;
    const vote = me && (me.allowed_actions || []).find((a) => a.type === "vote");
    if (!vote || !(vote.targets || []).includes(p.seat)) return null;
    return h("button", { type: "button", class: "vote-btn", "data-testid": `vote-target-${p.seat}`,
      text: format(T.uc_vote_for, { seat: seatLabel(p.seat) }), onclick: (event) => {
        event.currentTarget.disabled = true;
        if (sendVote) sendVote(p.seat);
      } });
  }

  // ---- the host, debate and the recap ------------------------------------------------------------------------

  function hostItem(ev, model, round) {
    const ranking = ev.suspicion_ranking || ev.ranking || [];
    const seats = ranking.map((r) => (typeof r === "object" ? r.seat : r));
    const text = ev.text || ev.summary || "";
    return kit.item(ev, round, "host", h("span", { class: "avatar host", "aria-hidden": "true", text: "🎙" }),
      h("div", { class: "bubble-wrap" },
        h("div", { class: "bubble-meta" }, h("b", { text: T.uc_host }),
          ev.may_mislead ? kit.tag(T.uc_may_mislead, "mislead") : null),
        h("div", { class: "bubble host-bubble", "data-testid": "host-commentary", text }),
        seats.length ? h("div", { class: "host-ranking" }, h("span", { class: "muted", text: T.uc_suspects }),
          kit.names(model, seats)) : null));
  }

  function debateItem(ev, model, round) {
    return kit.bubble(model, ev, round, "debate", ev.text || "", [kit.tag(T.uc_debate, "debate")]);
  }

  function recapRows(recap) {
    const list = recap.players || recap.scores || [];
    return Array.isArray(list) ? list : Object.entries(list).map(([seat, row]) => ({ seat: Number(seat), ...row }));
  }

  function award(title, entry, model, cls) {
    if (!entry) return null;
    const seat = typeof entry === "object" ? entry.seat : entry;
    const why = typeof entry === "object" ? entry.reason || entry.comment || entry.text || "" : "";
    return h("div", { class: `award ${cls}`, "data-testid": `recap-${cls}` },
      h("small", { text: title }), seat !== undefined && seat !== null ? kit.who(model, seat) : null,
      why ? h("p", { text: why }) : null);
  }

  function highlightOf(recap, rows, mine) {
    const own = rows.find((r) => r.seat === mine);
    const highlights = recap.highlights || {};
    const fromMap = Array.isArray(highlights) ? highlights.find((x) => x.seat === mine) : highlights[mine];
    const text = (own && own.highlight) || (fromMap && (fromMap.text || fromMap)) || null;
    return typeof text === "string" ? text : null;
  }

  function recap(model, r, mine) {
    const data = r && r.recap;
    if (!data) return null;
    // The LLM's rewrite in persona (`recap.rewritten`, after a `recap_rewritten` event) when there is one, else the
    // rule text.
    const voiced = data.rewritten || null;
    const voicedBy = new Map(((voiced && voiced.players) || []).map((x) => [x.seat, x.comment]));
    const rows = recapRows(data).map((row) => (voicedBy.has(row.seat)
      ? { ...row, comment: voicedBy.get(row.seat), voiced: true } : row));
    const best = voiced && voiced.best && data.best ? { ...data.best, text: voiced.best } : data.best;
    const blunder = voiced && voiced.blunder && data.blunder ? { ...data.blunder, text: voiced.blunder } : data.blunder;
    const table = h("ol", { class: "recap-scores" }, rows.map((row) => h("li", {
      class: `recap-row${row.seat === mine ? " mine" : ""}`, "data-testid": `recap-score-${row.seat}`,
      data: { seat: row.seat, score: row.score } },
    kit.who(model, row.seat), h("b", { class: "recap-score", text: `${row.score}/10` }),
    h("span", { class: "recap-comment", text: row.comment || "" }))));
    const mineText = mine === null || mine === undefined ? null : highlightOf(data, rows, mine);
    return h("section", { class: "recap", "data-testid": "recap", data: { voiced: voiced ? "1" : "0" } },
      h("h3", { text: T.uc_recap_title }),
      h("div", { class: "awards" },
        award(T.uc_best, best, model, "best"),
        award(T.uc_blunder, blunder, model, "blunder")),
      mineText ? h("div", { class: "award mine", "data-testid": "recap-mine" },
        h("small", { text: T.uc_your_highlight }), h("p", { text: mineText })) : null,
      table);
  }

  return { play, voteButton, hostItem, debateItem, recap };
}
