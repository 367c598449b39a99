// 剧本杀 for the person who holds a seat: the character's private panels (script, timeline, secret, items,
// clues, private chats) and the commands the server allows right now, as buttons and forms built from
// `you.allowed_actions` alone (each entry carries its options: targets, locations, items, powers, clues), so this
// file knows no stage table. The shell's seat panel (../match/play.js) hosts it through `page.play`. Actions go
// through the shell's seat (`kit.seat.act`); a refusal shows the DM's own sentence (the error's `message`), which
// says more than a generic line for its code.
//
// The forms live in one element that is kept across redraws, and a form is rebuilt only when its entry changes,
// so a half-typed speech survives every re-render of the page.

// The moves that move the story first; the read-only look-ups last (unknown types after them).
const ORDER = ["vote", "speak", "investigate", "reveal_clue", "private_chat", "use_power", "use_item", "trade", "ready",
  "inspect", "list_clues", "list_items"];

export function actionPanel(kit) {
  const { T, h, format, seatLabel } = kit;
  const forms = new Map(); // type → { sig, node }
  const feedback = h("p", { class: "sk-feedback", data: { testid: "sk-action-feedback" }, "aria-live": "polite" });
  const list = h("div", { class: "sk-action-list" });
  const slot = h("section", { class: "sk-actions", data: { testid: "sk-actions" } },
    h("h3", { text: T.sk_actions }), list, feedback);
  let current = { snap: null, me: null };

  // ---- names for the options ------------------------------------------------------------------------------

  function characterOf(seat) {
    const c = (current.snap?.characters || []).find((x) => x.seat === seat);
    return c ? `${c.name} · ${seatLabel(seat)}` : seatLabel(seat);
  }

  function locationOf(id) {
    const l = (current.snap?.unlocked_locations || []).find((x) => x.id === id);
    return l ? l.name : id;
  }

  function thingOf(id) {
    const me = current.me || {};
    const item = (me.items || []).find((x) => x.id === id);
    if (item) return `${item.name || id}`;
    const clue = (me.clues || []).find((x) => x.id === id) || (current.snap?.public_clues || []).find((x) => x.id === id);
    if (clue) return `${id} · ${(clue.text || "").slice(0, 24)}`;
    const power = me.power && me.power.id === id ? me.power : null;
    return power ? power.name : id;
  }

  const option = (value, label) => h("option", { value: String(value), text: label });

  function select(name, values, label, blank = null) {
    return h("label", { class: "sk-field" }, h("span", { text: label }),
      h("select", { name, data: { testid: `sk-field-${name}` } },
        blank ? option("", blank) : null, values.map(([value, text]) => option(value, text))));
  }

  // ---- sending ----------------------------------------------------------------------------------------------

  function say(text, kind) {
    feedback.textContent = text;
    feedback.dataset.kind = kind;
  }

  // What a read-only command answers (its list, its description), as one line per entry.
  // The answer carries `clues`, `items` or `inspected` beside `accepted`.
  function replyText(body) {
    const lines = [];
    for (const rec of [body.clues, body.items, body.inspected].flat()) {
      if (rec && typeof rec === "object") lines.push(`${rec.name || rec.id}: ${rec.text || ""}`);
    }
    return lines.join("\n") || T.sk_none;
  }

  async function send(type, body, button) {
    button.disabled = true;
    try {
      const answer = await kit.seat.act({ type, ...body });
      say(["list_clues", "list_items", "inspect"].includes(type) ? replyText(answer) : T.sk_sent, "ok");
      return true;
    } catch (error) {
      say(error.serverMessage || error.message, "error");
      return false;
    } finally {
      button.disabled = false;
    }
  }

  // ---- one form per action type -----------------------------------------------------------------------------

  const seatsOf = (entry) => (entry.targets || []).map((s) => [s, characterOf(s)]);
  const targetChoices = (entry) => [...seatsOf(entry), ...(entry.locations || []).map((l) => [`@${l}`, locationOf(l)])];
  const targetValue = (raw) => (raw === "" ? undefined : raw.startsWith("@") ? raw.slice(1) : Number(raw));
  const things = (ids) => (ids || []).map((id) => [id, thingOf(id)]);
  const clueOrItem = (entry, value) => ((entry.items || []).includes(value) ? { item: value } : { clue: value });

  function button(type, label, onclick, data = {}) {
    return h("button", { type: "button", class: "btn-soft sk-btn", data: { testid: `sk-send-${type}`, ...data }, text: label,
      onclick });
  }

  function textForm(entry, extra, build) {
    const text = h("textarea", { name: "text", rows: 2, maxlength: 300, data: { testid: `sk-text-${entry.type}` },
      placeholder: T[`sk_placeholder_${entry.type}`] || "" });
    const count = h("span", { class: "sk-count muted", text: "0/300" });
    text.addEventListener("input", () => { count.textContent = `${text.value.length}/300`; });
    const go = button(entry.type, T[`sk_do_${entry.type}`], async () => {
      // Sent as typed (the server trims it): a blank one comes back with the DM's own words.
      const body = build(text.value);
      if (!body.text) return;
      if (await send(entry.type, body, go)) {
        text.value = "";
        count.textContent = "0/300";
      }
    });
    return [extra, text, h("div", { class: "sk-row" }, count, go)];
  }

  const BUILD = {
    investigate: (entry) => (entry.locations || []).map((l) => {
      const b = button("investigate", locationOf(l), () => send("investigate", { location: l }, b), { location: l });
      return b;
    }),
    vote: (entry) => (entry.targets || []).map((s) => {
      const b = button("vote", characterOf(s), () => send("vote", { target: s }, b), { target: s });
      return b;
    }),
    speak: (entry) => textForm(entry, null, (text) => ({ text })),
    private_chat(entry) {
      const to = select("to", seatsOf(entry), T.sk_to);
      return textForm(entry, to, (text) => ({ to: Number(to.querySelector("select").value), text }));
    },
    reveal_clue(entry) {
      const what = select("what", things([...(entry.clues || []), ...(entry.items || [])]), T.sk_what);
      const go = button("reveal_clue", T.sk_do_reveal_clue, () => send("reveal_clue", clueOrItem(entry, what.querySelector("select").value), go));
      return [what, go];
    },
    inspect(entry) {
      const what = select("what", things([...(entry.items || []), ...(entry.clues || [])]), T.sk_what);
      const go = button("inspect", T.sk_do_inspect, () => send("inspect", clueOrItem(entry, what.querySelector("select").value), go));
      return [what, go];
    },
    use_power(entry) {
      const power = select("power", things(entry.powers), T.sk_power);
      const choices = targetChoices(entry);
      const target = choices.length ? select("target", choices, T.sk_target, T.sk_no_target) : null;
      const go = button("use_power", T.sk_do_use_power, () => send("use_power", {
        power: power.querySelector("select").value,
        target: target ? targetValue(target.querySelector("select").value) : undefined,
      }, go));
      return [power, target, go];
    },
    use_item(entry) {
      const item = select("item", things(entry.items), T.sk_item);
      const choices = targetChoices(entry);
      const target = choices.length ? select("target", choices, T.sk_target, T.sk_no_target) : null;
      const go = button("use_item", T.sk_do_use_item, () => send("use_item", {
        item: item.querySelector("select").value,
        target: target ? targetValue(target.querySelector("select").value) : undefined,
      }, go));
      return [item, target, go];
    },
    trade(entry) {
      const to = select("to", seatsOf(entry), T.sk_to);
      const item = select("item", things(entry.items), T.sk_item);
      const go = button("trade", T.sk_do_trade, () => send("trade", { to: Number(to.querySelector("select").value),
        item: item.querySelector("select").value }, go));
      return [to, item, go];
    },
  };

  function simple(entry) {
    const go = button(entry.type, T[`sk_do_${entry.type}`] || entry.type, () => send(entry.type, {}, go));
    return [go];
  }

  function form(entry) {
    const build = BUILD[entry.type] || simple;
    return h("div", { class: `sk-action sk-action-${entry.type}`, data: { testid: `sk-action-${entry.type}`, type: entry.type } },
      h("span", { class: "sk-action-name", text: T[`sk_action_${entry.type}`] || entry.type }),
      h("div", { class: "sk-action-body" }, build(entry)));
  }

  // Bring the forms in line with `allowed`, keeping every form whose entry is unchanged (and its half-typed text).
  function update(allowed) {
    const seen = new Set();
    let previous = null;
    const rank = (entry) => (ORDER.indexOf(entry.type) + ORDER.length + 1) % (ORDER.length + 1);
    for (const entry of [...allowed].sort((a, b) => rank(a) - rank(b))) {
      const { deadline_ts: _deadline, ...shape } = entry;
      const sig = JSON.stringify(shape);
      seen.add(entry.type);
      let kept = forms.get(entry.type);
      if (!kept || kept.sig !== sig) {
        const node = form(entry);
        if (kept) kept.node.replaceWith(node);
        kept = { sig, node };
        forms.set(entry.type, kept);
      }
      const before = previous ? previous.nextSibling : list.firstChild;
      if (kept.node !== before) list.insertBefore(kept.node, before);
      previous = kept.node;
    }
    for (const [type, kept] of forms) {
      if (!seen.has(type)) {
        kept.node.remove();
        forms.delete(type);
      }
    }
  }

  // ---- the private panels (rebuilt on every render: nothing in them is typed into) -------------------------

  function section(id, title, body) {
    return h("details", { class: `sk-private-part ${id}`, data: { testid: id }, open: true },
      h("summary", { text: title }), body);
  }

  function sheet(c) {
    if (!c) return null;
    return section("sk-my-character", format(T.sk_you_are, { name: c.name || "" }), [
      c.script ? h("p", { class: "sk-script", text: c.script }) : null,
      c.secret ? h("p", { class: "sk-secret" }, h("b", { text: `${T.sk_secret}: ` }), h("span", { text: c.secret })) : null,
      c.win ? h("p", { class: "sk-win" }, h("b", { text: `${T.sk_win}: ` }), h("span", { text: c.win })) : null,
      (c.relations || []).length ? h("ul", { class: "sk-relations" }, c.relations.map((r) => h("li", {},
        h("b", { text: `${characterName(r.to)}: ` }), h("span", { text: r.text || "" })))) : null,
      (c.timeline || []).length ? h("ol", { class: "sk-timeline" }, c.timeline.map((t) => h("li", {},
        h("span", { class: "sk-when", text: format(T.sk_day_time, { day: t.day, time: t.time || "" }) }),
        h("span", { text: t.text || "" })))) : null,
    ]);
  }

  function characterName(id) {
    const c = (current.snap?.characters || []).find((x) => x.character === id);
    return c ? c.name : id;
  }

  function records(id, title, recs, empty) {
    return section(id, `${title} · ${recs.length}`, recs.length ? h("ul", { class: "sk-clues" }, recs.map((r) => h("li", {
      class: `sk-clue mine${r.is_key ? " key" : ""}`, data: { id: r.id, testid: `${id}-row` } },
    h("div", { class: "sk-clue-tags" }, h("code", { class: "sk-id", text: r.id }),
      r.name ? h("b", { text: r.name }) : null, r.is_key ? h("span", { class: "chip sk-key", text: T.sk_key }) : null,
      r.uses_left !== undefined && r.uses_left !== null ? h("span", { class: "chip", text: format(T.sk_uses_left, { n: r.uses_left }) }) : null),
    h("p", { class: "sk-clue-text", text: r.text || "" })))) : h("p", { class: "muted", text: empty }));
  }

  function chats(me) {
    const unread = me.unread_private_chats || {};
    const rows = unread.chats || [];
    return section("sk-my-chats", format(T.sk_chats, { n: unread.count ?? rows.length }), rows.length
      ? h("ul", { class: "sk-chat-list" }, rows.map((c) => h("li", { data: { testid: "sk-my-chat", from: c.from } },
        h("b", { text: `${characterOf(c.from)}: ` }), h("span", { text: c.text || "" }))))
      : h("p", { class: "muted", text: T.sk_no_chats }));
  }

  function status(me) {
    const bits = [];
    if (String(current.snap?.sub_stage || "").startsWith("explore_")) {
      bits.push(h("span", { class: "chip", data: { testid: "sk-investigations-left" },
        text: format(T.sk_investigations_left, { n: me.investigations_left }) }));
    }
    if (me.power) {
      bits.push(h("span", { class: `chip sk-power${me.power.used ? " used" : ""}`, data: { testid: "sk-my-power", used: Boolean(me.power.used) },
        text: `${T.sk_power}: ${me.power.name || me.power.id}${me.power.used ? ` (${T.sk_used})` : ""}` }));
    }
    return bits.length ? h("div", { class: "sk-status" }, bits) : null;
  }

  // What the private panels and the forms show: when it changes, the shell redraws the controls.
  function keyOf(me, allowed) {
    const entries = allowed.map(({ deadline_ts: _d, ...shape }) => shape);
    const chatSeqs = (me.unread_private_chats?.chats || []).map((c) => c.seq);
    return JSON.stringify([me.character?.id, entries, (me.items || []).map((i) => [i.id, i.uses_left]),
      (me.clues || []).map((c) => c.id), chatSeqs, me.power?.used, me.investigations_left, current.snap?.sub_stage]);
  }

  function privatePanels(me) {
    return h("div", { class: "sk-private", data: { testid: "sk-private" } },
      status(me), sheet(me.character),
      records("sk-my-items", T.sk_items, me.items || [], T.sk_none),
      records("sk-my-clues", T.sk_clues, me.clues || [], T.sk_none),
      chats(me));
  }

  return {
    // `page.play`: the seat holder's controls: the private panels, then the forms of the allowed actions.
    play(me, snap) {
      current = { me, snap };
      // Leaving is the seat panel's (../match/play.js: a button that asks first), not a form here.
      const allowed = snap.status === "in_progress" ? (me.allowed_actions || []).filter((a) => a.type !== "concede") : [];
      update(allowed);
      slot.hidden = !allowed.length;
      return { key: keyOf(me, allowed), draw: () => [privatePanels(me), slot] };
    },

    // The `you` card of a seat seen without its play token (its owner's view): the private panels only.
    panels(me, snap) {
      current = { me, snap };
      return privatePanels(me);
    },
  };
}
