// 狼人杀 for the person holding a seat, hosted by the shell's seat panel (../match/play.js): what the seat knows
// (role, fellow wolves, checks, potions), and the controls its `allowed_actions` offer right now — the wolves'
// whisper and kill choice, the seer's check, the guard, the witch's save and poison, the hunter's shot, last
// words, the day's speech and the vote (a button on each card, as in every game). Every control is built from
// `allowed_actions`, so a seat never sees a move the server would refuse.
//
// Hooks: ww-night-target-<seat> (pick a night target), ww-night-confirm (send the pick: kill, check or guard),
// ww-night-pass, ww-play-seer-answer (the check of this round's night: data-target, data-camp), ww-witch-save,
// ww-witch-poison (the picked target), ww-hunter-shoot-<seat>, ww-hunter-pass, ww-whisper-input / ww-whisper-send, speak-input / speak-send / speak-skip, last-words-input /
// last-words-send / last-words-skip, vote-comment, vote-target-<seat> (on the cards), ww-play-victim (the
// witch's news), ww-you-role, ww-you-fellows, ww-you-checks, ww-you-potions. The wolves see each other's kill
// choices on the cards (werewolf.js), so the seat's own panel is not redrawn when a fellow wolf picks.

const TEXT_LIMIT = 500; // the server's limit on a speech, whisper, vote comment or last words

export default function makePlay(kit, you) {
  const { T, h, format, seatLabel } = kit;
  let picked = { key: null, seat: null }; // the night target picked and not yet sent (kept across redraws)
  let voteComment = null;
  let sendVote = null;

  const nightAction = (me, name) => (me.allowed_actions || [])
    .find((a) => a.type === "night_action" && a.action === name) || null;

  function textBox(testid, placeholder, onSend, extra = []) {
    const input = h("textarea", { class: "text-input", rows: 2, maxlength: TEXT_LIMIT, placeholder,
      "data-testid": `${testid}-input`, "aria-label": placeholder });
    const count = h("span", { class: "char-count", text: `0/${TEXT_LIMIT}` });
    input.addEventListener("input", () => { count.textContent = `${input.value.length}/${TEXT_LIMIT}`; });
    const send = h("button", { type: "button", class: "btn", "data-testid": `${testid}-send`, text: T.ww_send });
    send.addEventListener("click", async () => {
      const text = input.value.trim();
      if (!text) return;
      send.disabled = true;
      const answer = await onSend(text);
      send.disabled = false;
      if (answer) {
        input.value = "";
        count.textContent = `0/${TEXT_LIMIT}`;
      }
    });
    return h("div", { class: `text-box box-${testid}` }, input,
      h("div", { class: "text-box-foot" }, count, h("span", { class: "grow" }), extra, send));
  }

  const button = (testid, text, onclick, cls = "btn-soft") => h("button", { type: "button", class: cls,
    "data-testid": testid, text, onclick });

  // A row of seat buttons; `choose(seat, button)` runs on a press.
  function seatRow(targets, testid, choose, cls = "btn-soft pick") {
    return h("div", { class: "ww-targets" }, targets.map((seat) => h("button", { type: "button", class: cls,
      "aria-pressed": String(picked.seat === seat), "data-testid": `${testid}-${seat}`, text: seatLabel(seat),
      onclick: (event) => choose(seat, event.currentTarget) })));
  }

  // Pick a seat, then confirm: the wolves' kill, the seer's check, the guard's protection; the witch's poison.
  function picker(targets, key, confirmButtons) {
    if (picked.key !== key || !targets.includes(picked.seat)) picked = { key, seat: null };
    const sync = () => {
      for (const b of row.querySelectorAll("button")) b.setAttribute("aria-pressed", String(Number(b.dataset.seat) === picked.seat));
      for (const b of confirmButtons) b.disabled = picked.seat === null;
    };
    const row = seatRow(targets, "ww-night-target", (seat) => {
      picked = { key, seat };
      sync();
    });
    for (const b of row.querySelectorAll("button")) b.dataset.seat = b.dataset.testid.split("-").pop();
    sync();
    return row;
  }

  const send = (ctx, body) => ctx.send(body).then((answer) => {
    if (answer) picked = { key: null, seat: null };
    return answer;
  });

  // The first night step: one of kill, check or guard (the witch has her own step).
  function nightPick(me, model, ctx) {
    const name = ["kill", "check", "guard"].find((a) => nightAction(me, a));
    if (!name) return [];
    const offer = nightAction(me, name);
    const key = `${model.round}:${name}`;
    const confirm = button("ww-night-confirm", T[`ww_play_confirm_${name}`], () => picked.seat !== null
      && send(ctx, { type: "night_action", action: name, target_seat: picked.seat }), name === "kill" ? "btn-danger" : "btn");
    const out = [h("h3", { text: T[`ww_play_title_${name}`] }), h("p", { class: "muted", text: T[`ww_play_hint_${name}`] })];
    out.push(picker(offer.targets || [], key, [confirm]), h("div", { class: "ww-row" }, confirm, passButton(me, ctx)));
    return out;
  }

  function passButton(me, ctx) {
    return nightAction(me, "pass") ? button("ww-night-pass", T.ww_play_pass, () => send(ctx, { type: "night_action", action: "pass" })) : null;
  }

  function witch(me, model, ctx) {
    const save = nightAction(me, "save");
    const poison = nightAction(me, "poison");
    const victim = me.night_victim;
    const out = [h("h3", { text: T.ww_play_title_witch }),
      h("p", { class: "ww-play-note", "data-testid": "ww-play-victim", data: { victim: victim ?? "" },
        text: victim === null || victim === undefined ? T.ww_play_no_victim : format(T.ww_play_victim, { seat: seatLabel(victim) }) })];
    if (save) {
      const target = (save.targets || [])[0];
      out.push(h("div", { class: "ww-row" }, button("ww-witch-save", format(T.ww_play_save, { seat: seatLabel(target) }),
        () => send(ctx, { type: "night_action", action: "save", target_seat: target }), "btn")));
    }
    if (poison) {
      const go = button("ww-witch-poison", T.ww_play_poison, () => picked.seat !== null
        && send(ctx, { type: "night_action", action: "poison", target_seat: picked.seat }), "btn-danger");
      out.push(h("p", { class: "muted", text: T.ww_play_hint_poison }), picker(poison.targets || [], `${model.round}:poison`, [go]),
        h("div", { class: "ww-row" }, go));
    }
    out.push(h("div", { class: "ww-row" }, passButton(me, ctx)));
    return out;
  }

  function whisper(me, ctx) {
    const offer = ctx.allowed("whisper");
    if (!offer || !(offer.targets || []).length) return [];
    return [h("h3", { text: T.ww_play_title_whisper }),
      textBox("ww-whisper", T.ww_play_hint_whisper, (text) => ctx.send({ type: "whisper", target_seat: offer.targets[0], text }))];
  }

  function hunter(me, ctx) {
    const offer = ctx.allowed("shoot");
    if (!offer) return [];
    return [h("h3", { text: T.ww_play_title_shoot }), h("p", { class: "muted", text: T.ww_play_hint_shoot }),
      seatRow(offer.targets || [], "ww-hunter-shoot", (seat) => ctx.send({ type: "shoot", target_seat: seat }), "btn-danger"),
      h("div", { class: "ww-row" }, button("ww-hunter-pass", T.ww_play_hold_fire, () => ctx.send({ type: "shoot", target_seat: null })))];
  }

  function day(me, ctx) {
    const out = [];
    if (ctx.allowed("last_words")) {
      out.push(h("h3", { text: T.ww_play_title_last_words }),
        textBox("last-words", T.ww_play_hint_last_words, (text) => ctx.send({ type: "last_words", text }),
          [button("last-words-skip", T.ww_play_skip, () => ctx.send({ type: "skip" }))]));
    }
    if (ctx.allowed("speak") && me.next_action === "speak") {
      out.push(h("h3", { text: T.ww_play_title_speak }),
        textBox("speak", T.ww_play_hint_speak, (text) => ctx.send({ type: "speak", text }),
          [button("speak-skip", T.ww_play_skip, () => ctx.send({ type: "skip" }))]));
    }
    voteComment = null;
    sendVote = null;
    if (ctx.allowed("vote")) {
      voteComment = h("input", { type: "text", class: "text-input", maxlength: TEXT_LIMIT, "data-testid": "vote-comment",
        placeholder: T.ww_play_vote_comment, "aria-label": T.ww_play_vote_comment });
      sendVote = (target) => {
        const comment = voteComment && voteComment.value.trim();
        return ctx.send(comment ? { type: "vote", target_seat: target, comment } : { type: "vote", target_seat: target });
      };
      out.push(h("h3", { text: T.ww_play_title_vote }), h("p", { class: "muted", text: T.ww_play_hint_vote }), voteComment);
    }
    return out;
  }

  // The seer's answer of this round's night, in words, at the top of the panel until the next night.
  function seerAnswer(me, model) {
    const last = (me.seer_checks || []).at(-1);
    if (!last || last.round !== model.round) return null;
    return h("p", { class: `ww-play-note team-${last.camp}`, "data-testid": "ww-play-seer-answer",
      data: { target: last.seat, camp: last.camp },
      text: format(T.ww_play_seer_answer, { seat: seatLabel(last.seat), camp: T[`ww_team_${last.camp}`] || last.camp }) });
  }

  function controls(me, model, ctx) {
    return [seerAnswer(me, model), ...hunter(me, ctx), ...(nightAction(me, "save") || nightAction(me, "poison") || (me.role === "witch"
      && model.stage === "night" && nightAction(me, "pass")) ? witch(me, model, ctx) : nightPick(me, model, ctx)),
    ...whisper(me, ctx), ...day(me, ctx)];
  }

  function play(me, snap, model, ctx) {
    const offered = (me.allowed_actions || []).filter((a) => a.type !== "concede")
      .map((a) => `${a.type}:${a.action || ""}:${(a.targets || []).join(".")}`).join(",");
    // Not the pack's choices: the wolves' cards show them, and a redraw would drop a half-typed whisper.
    const knows = [me.alive, (me.seer_checks || []).length, JSON.stringify(me.potions || null), me.night_victim ?? ""].join("|");
    const key = `${snap.status}|${snap.phase}|${model.round}|${me.next_action}|${offered}|${knows}`;
    return { key, draw: () => [h("div", { class: "you-row ww-you" }, you(me)),
      h("div", { class: "ww-controls" }, controls(me, model, ctx))] };
  }

  // The vote button on a living player's card while you may vote for them.
  function voteButton(p, ctx) {
    const me = ctx.me;
    const vote = me && (me.allowed_actions || []).find((a) => a.type === "vote");
    if (!vote || !(vote.targets || []).includes(p.seat)) return null;
    return h("button", { type: "button", class: "vote-btn", "data-testid": `vote-target-${p.seat}`,
      text: format(T.ww_play_vote_for, { seat: seatLabel(p.seat) }), onclick: (event) => {
        event.currentTarget.disabled = true;
        if (sendVote) sendVote(p.seat);
      } });
  }

  return { play, voteButton };
}
