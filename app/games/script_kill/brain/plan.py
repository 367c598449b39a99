"""What a seat does in each kind of stage, in seed 002 §三's order of priority.

Explore: its power first → its items' effects → investigate (places in its own story, then where the
suspects' clues lie, then the rest; deep before wide, apart from the others: the table draws from one deck a
place) → up to two private chats a round (answers to chats received come first) → one gift of a tradable clue
item to the seat it trusts most → `ready`. Discuss: answer chats → show a key-looking clue, else the one that
weighs most on the top suspect → one speech → `ready`. Vote: the top suspect but itself.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.script_kill.brain import weights as w
from app.games.script_kill.brain.judge import ranked, top_suspect_seat, trust
from app.games.script_kill.brain.seat import DISCUSS, EXPLORE, Seat
from app.games.script_kill.brain.speech import Part, compose, snippet
from app.games.script_kill.brain.voices import Voice

Body = dict[str, Any]
NEVER_GIVEN = ("weapon",)  # item types a bot never hands over, whatever the rules allow
CHAT_CAP = w.CHATS_PER_ROUND + w.ANSWERS_PER_ROUND  # every chat of a round, proactive or answer


def explore(seat: Seat, style: Voice, rng: random.Random) -> Body | None:
    """The next explore-stage action."""
    return (power(seat, style) or use_item(seat, style) or investigate(seat, style) or answer(seat, style, rng)
            or chat(seat, style, rng) or trade(seat) or ready(seat))


def discuss(seat: Seat, style: Voice, rng: random.Random) -> Body | None:
    """The next discuss-stage action."""
    return answer(seat, style, rng) or reveal(seat, style) or speak(seat, style, rng) or ready(seat)


def self_intro(seat: Seat, style: Voice, rng: random.Random) -> Body | None:
    """Introduce the character when the floor is ours; `ready` once spoken."""
    if seat.row("speak") is not None and not seat.mine_now("speech"):
        parts: list[Part] = [("intro", {"me": seat.name})]
        public = str((seat.characters.get(seat.character) or {}).get("public") or "")
        if public:
            parts.append(("public", {"pub": snippet(public)}))
        return {"type": "speak", "text": compose(seat, style, rng, parts)}
    return ready(seat) if seat.mine_now("speech") else None  # before our turn: wait for the floor


def vote(seat: Seat, style: Voice) -> Body | None:
    """The final vote: the most suspect character's seat, never its own (the culprit votes the same way)."""
    target = top_suspect_seat(seat, seat.options("vote", "targets"), style.noise)
    return None if target is None else {"type": "vote", "target": target}


def ready(seat: Seat) -> Body | None:
    return {"type": "ready"} if seat.row("ready") is not None else None


def power(seat: Seat, style: Voice) -> Body | None:
    offered = seat.options("use_power", "powers")
    if not offered:
        return None
    body: Body = {"type": "use_power", "power": offered[0]}
    return _with_target(seat, style, "use_power", body)


def use_item(seat: Seat, style: Voice) -> Body | None:
    used = {str(e.get("item")) for e in seat.mine_now("item_used")}
    for item_id in seat.options("use_item", "items"):
        if item_id in used:
            continue
        return _with_target(seat, style, "use_item", {"type": "use_item", "item": item_id})
    return None


def _with_target(seat: Seat, style: Voice, kind: str, body: Body) -> Body | None:
    """Fill `target` from the action's offered options: a suspect's seat, or a place not searched yet."""
    row = seat.row(kind) or {}
    needs = target_kind(seat, kind, body)
    if needs == "character":
        target = top_suspect_seat(seat, list(row.get("targets") or []), style.noise)
        return None if target is None else {**body, "target": target}
    if needs == "location":
        places = list(row.get("locations") or [])
        if not places:
            return None
        return {**body, "target": min(places, key=lambda p: (seat.searched.get(p, 0), places.index(p)))}
    return body


def target_kind(seat: Seat, kind: str, body: Body) -> str:
    """What `use_power` / `use_item` (`body`) must name: `none`, `character` (a seat) or `location`."""
    if kind == "use_power":
        record = seat.power or {}
    else:
        record = seat.items.get(str(body.get("item"))) or {}
        effect = record.get("effect") or {}
        return str(effect.get("target") or "none") if effect.get("kind") == "peek_items" else "none"
    return str(record.get("target") or "none")


def investigate(seat: Seat, style: Voice) -> Body | None:
    """Search deep rather than wide, and apart: a location is one deck of physical cards (tier 1 on top) that the
    whole table draws from, so the seat keeps to the place it searched last — until the DM says nothing is left
    there, or another seat searches it too this stage while a place nobody searches is open — and the tier 2–3
    key clues under the surface cards get drawn."""
    places = seat.options("investigate", "locations")
    if not places:
        return None
    empty = {str(e.get("location")) for e in seat.stage_events
             if e.get("type") == "dm_notice" and e.get("seat") == seat.me and e.get("location")}
    left = [p for p in places if p not in empty] or places
    mine = [str(e.get("location")) for e in seat.stage_events
            if e.get("type") == "investigated" and e.get("seat") == seat.me]
    crowd = _others_here(seat)
    if mine and mine[-1] in left and (not crowd.get(mine[-1]) or all(crowd.get(p) for p in left)):
        return {"type": "investigate", "location": mine[-1]}
    return {"type": "investigate", "location": min(left, key=lambda p: _search_order(seat, style, p, left))}


def _others_here(seat: Seat) -> dict[str, int]:
    """Location → searches other seats made there this stage (public `investigated` events)."""
    out: dict[str, int] = {}
    for event in seat.stage_events:
        if event.get("type") == "investigated" and event.get("seat") != seat.me and event.get("location"):
            out[str(event["location"])] = out.get(str(event["location"]), 0) + 1
    return out


def _search_order(seat: Seat, style: Voice, place: str, places: list[str]) -> tuple[float, int]:
    """Places tied to the seat's own story first, then where the suspects' clues were found, then the rest —
    but a place others already search this stage counts much less (they draw its cards: the table spreads out),
    as does one searched in an earlier round, by the seat or the others (its top cards are gone; a new act's
    locations get searched)."""
    name = seat.locations.get(place, place)
    score = 0.0 if name and name in seat.private_text else w.NOT_OWN_STORY
    suspects = set(ranked(seat, style.noise)[:2])
    if not any(k.get("location") == place and suspects & set(k.get("about") or []) for k in seat.clues.values()):
        score += w.NOT_NEAR_SUSPECTS
    score += w.CROWD * _others_here(seat).get(place, 0)
    if seat.searched.get(place, 0):
        score += w.SEARCHED_BEFORE
    earlier = sum(1 for e in seat.events if e.get("type") == "investigated" and e.get("location") == place
                  and e.get("seat") != seat.me and e.get("round") != seat.round_no)
    score += w.DRAWN_BEFORE * earlier
    score -= w.PEEKED_KEY * seat.hidden_keys.get(place, 0)
    return (score, places.index(place))


def answer(seat: Seat, style: Voice, rng: random.Random) -> Body | None:
    """Reply to the latest chat of a seat that wrote to us and got no reply since (bounded per round)."""
    targets = seat.options("private_chat", "targets")
    if not targets or _round_sent(seat, answers=True) >= w.ANSWERS_PER_ROUND or _round_total(seat) >= CHAT_CAP:
        return None
    last_in: dict[int, int] = {}
    last_out: dict[int, int] = {}
    for event in seat.events:
        if event.get("type") != "private_chat":
            continue
        seq = int(event.get("seq") or 0)
        if event.get("to") == seat.me and isinstance(event.get("seat"), int):
            last_in[int(event["seat"])] = seq
        elif event.get("seat") == seat.me and isinstance(event.get("to"), int):
            last_out[int(event["to"])] = seq
    waiting = [s for s, seq in sorted(last_in.items(), key=lambda x: x[1])
               if s in targets and seq > last_out.get(s, 0) and seq > _round_start(seat)]
    if not waiting:
        return None
    to = waiting[0]
    clue = _shareable(seat, exclude_public=True)
    suspect = _suspect_name(seat, style, exclude=to)
    name = seat.name_of_seat(to)
    if clue is not None and rng.random() < 0.6:
        parts: list[Part] = [("answer_clue", {"clue": snippet(str(clue.get("text") or "")), "to": name})]
    else:
        parts = [("thanks", {"to": name})] + ([("answer_who", {"who": suspect, "to": name})] if suspect else [])
    text = compose(seat, style, rng, parts, frame=False, limit=200, content=True)
    return {"type": "private_chat", "to": to, "text": text} if text else None


def chat(seat: Seat, style: Voice, rng: random.Random) -> Body | None:
    """A proactive private chat: share a clue with, or sound out, a trusted seat (≤ `style.chatty` a round)."""
    targets = [t for t in seat.options("private_chat", "targets") if t != seat.me]
    proactive = _round_total(seat) - _round_sent(seat, answers=True)
    if not targets or proactive >= min(style.chatty, w.CHATS_PER_ROUND) or _round_total(seat) >= CHAT_CAP:
        return None
    if seat.sub_stage not in EXPLORE:
        return None
    talked = {e.get("to") for e in seat.my_round_chats()}
    fresh = [t for t in targets if t not in talked] or targets
    trusted = trust(seat)
    to = max(fresh, key=lambda t: (trusted.get(t, 0.0), -t))
    clue = _shareable(seat, exclude_public=True)
    suspect = _suspect_name(seat, style, exclude=to)
    name = seat.name_of_seat(to)
    ask: Part = ("ask", {"who": suspect or name, "to": name})
    if clue is not None:
        values = {"clue": snippet(str(clue.get("text") or "")), "loc": _place(seat, clue), "to": name}
        parts: list[Part] = [("share", values), ask]
    else:
        parts = [ask]
    text = compose(seat, style, rng, parts, frame=False, limit=200, content=True)
    return {"type": "private_chat", "to": to, "text": text} if text else None


def _round_total(seat: Seat) -> int:
    """Every private chat the seat sent this round."""
    return len(seat.my_round_chats())


def _round_start(seat: Seat) -> int:
    """The seq of the first event of the current round (the chats before it belong to an earlier round)."""
    for event in seat.events:
        if event.get("round") == seat.round_no:
            return int(event.get("seq") or 0) - 1
    return 0


def _round_sent(seat: Seat, *, answers: bool) -> int:
    """How many of this round's chats of the seat were answers (or, with `answers=False`, proactive)."""
    received: set[int] = set()
    count = 0
    for event in seat.events:
        if event.get("type") != "private_chat" or event.get("round") != seat.round_no:
            continue
        if event.get("to") == seat.me and isinstance(event.get("seat"), int):
            received.add(int(event["seat"]))
        elif event.get("seat") == seat.me:
            to = event.get("to")
            was_answer = isinstance(to, int) and to in received
            if isinstance(to, int):
                received.discard(to)
            count += was_answer is answers
    return count


def trade(seat: Seat) -> Body | None:
    """Give one tradable, non-key clue item (never the weapon) to the seat trusted most, if trusted enough."""
    if len(seat.mine_now("trade")) >= w.TRADES_PER_ROUND:
        return None
    targets = [t for t in seat.options("trade", "targets") if t != seat.me]
    items = [i for i in seat.options("trade", "items") if giveable(seat, i)]
    if not targets or not items:
        return None
    trusted = trust(seat)
    to = max(targets, key=lambda t: (trusted.get(t, 0.0), -t))
    if trusted.get(to, 0.0) < w.TRUST_TO_TRADE:
        return None
    return {"type": "trade", "to": to, "item": items[0]}


def giveable(seat: Seat, item_id: str) -> bool:
    """Only a held clue item that is not key, is tradable and is not the weapon (checked on our own record)."""
    record = seat.items.get(item_id)
    if record is None:
        return False
    return (record.get("type") == "clue_item" and record.get("is_key") is False
            and record.get("tradable", True) is not False and record.get("type") not in NEVER_GIVEN)


def reveal(seat: Seat, style: Voice) -> Body | None:
    """Show the table one found clue: a key-looking one first (a key clue, or preset weights of
    `w.KEY_LOOKING` or more on someone — never on itself), else the one that weighs most on the top suspect."""
    if len(seat.mine_now("clue_revealed")) >= w.REVEALS_PER_STAGE:
        return None
    offered = set(seat.options("reveal_clue", "clues"))
    if not offered:
        return None
    suspects = ranked(seat, style.noise)
    top = suspects[0] if suspects else ""
    best: tuple[float, str] | None = None
    for cid in sorted(offered):
        clue = seat.mine.get(cid)
        if clue is None or cid in seat.public or not _harmless(seat, clue):
            continue
        score = float((clue.get("weights") or {}).get(top, 0)) + (0.5 if top in (clue.get("about") or []) else 0)
        if key_looking(clue):
            score += w.KEY_SHOWN
        if best is None or score > best[0]:
            best = (score, cid)
    if best is None or best[0] <= 0:
        return None
    return {"type": "reveal_clue", "clue": best[1]}


def key_looking(clue: dict[str, Any]) -> bool:
    """A clue that looks decisive: marked key, or weighing `w.KEY_LOOKING` or more on some character."""
    weights = [float(v) for v in (clue.get("weights") or {}).values()]
    return bool(clue.get("is_key")) or (bool(weights) and max(weights) >= w.KEY_LOOKING)


def speak(seat: Seat, style: Voice, rng: random.Random) -> Body | None:
    """One speech per discuss stage: what the seat found, whom it suspects and why (the culprit: a scapegoat)."""
    if seat.row("speak") is None or seat.mine_now("speech"):
        return None
    suspect = _suspect_name(seat, style)
    parts: list[Part] = []
    clue = _shareable(seat, exclude_public=False)
    if clue is not None:
        parts.append(("found", {"loc": _place(seat, clue), "clue": snippet(str(clue.get("text") or ""))}))
    if seat.sub_stage == "final_discuss" and suspect:
        parts.append(("final", {"who": suspect}))
    elif suspect:
        parts += [("suspect", {"who": suspect}), ("reason", {"who": suspect})]
    else:
        parts.append(("nothing", {}))
    if _accused(seat):
        parts.append(("defend", {}))
    return {"type": "speak", "text": compose(seat, style, rng, parts)}


def _suspect_name(seat: Seat, style: Voice, exclude: int | None = None) -> str:
    for cid in ranked(seat, style.noise):
        if seat.seat_of.get(cid) not in (exclude, seat.me):
            return str((seat.characters.get(cid) or {}).get("name") or "")
    return ""


def _shareable(seat: Seat, *, exclude_public: bool) -> dict[str, Any] | None:
    """The found clue most worth mentioning that does not hurt the seat (newest first among equals)."""
    suspects = ranked(seat, 0.0)
    top = suspects[0] if suspects else ""
    candidates = [k for k in seat.mine.values() if _harmless(seat, k)
                  and not (exclude_public and str(k.get("id")) in seat.public)]
    if not candidates:
        return None
    return max(candidates, key=lambda k: (float((k.get("weights") or {}).get(top, 0)), str(k.get("id"))))


def _harmless(seat: Seat, clue: dict[str, Any]) -> bool:
    """A clue the seat may show: it does not point at the seat's own character."""
    preset = clue.get("weights") or {}
    if float(preset.get(seat.character, 0)) > 0:
        return False
    return not (seat.culprit and seat.character in (clue.get("about") or []))


def _place(seat: Seat, clue: dict[str, Any]) -> str:
    where = clue.get("location")
    return seat.locations.get(str(where), "现场") if where else "现场"


def _accused(seat: Seat) -> bool:
    return any(e.get("type") == "speech" and e.get("seat") != seat.me and seat.name in str(e.get("text") or "")
               for e in seat.stage_events)


STAGES = {**{s: explore for s in EXPLORE}, **{s: discuss for s in DISCUSS}}
