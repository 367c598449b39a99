"""Debate (the opt-in `debate_round_N` phase): answer a challenge in persona, else speak up once or pass.

- **Challenged**: a debate message of another seat, in this round and after this seat's own last message, that
  names it (`addressed_seats`, i.e. "N号" or its display name) — or the host's commentary of this round
  ranking it first — gets a reply in the persona's voice: a defence, often with a counter-suspect.
- **Not challenged**: in the first debate round, a seat that has not posted yet speaks up with the persona's
  probability (`SPEAK_UP`), naming the seat it would vote for (`voting.rank_targets`); otherwise it passes.
- Every text is checked against the bot's own word (`clues.is_safe`); nothing safe → pass.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.undercover.brain.clues import is_safe
from app.games.undercover.brain.context import Context
from app.games.undercover.brain.personas import Voice
from app.games.undercover.brain.voting import rank_targets

MAX_CHARS = 120

SPEAK_UP = {"adai": 0.5, "linglong": 0.4, "laotie": 0.9, "nuomi": 0.6, "yingyan": 0.8, "oscar": 0.7}

# Replies to a challenge ({by}: who challenged — "N号" or 主持人 —, {suspect}: the seat this bot suspects instead).
DEFEND: dict[str, tuple[str, ...]] = {
    "adai": ("啊？{by}你别冤枉我，我说的都是实话！", "我、我真的是照着词说的……{by}你再想想？"),
    "linglong": ("{by}这么急着点我，是不是想转移视线？", "说得越抽象越安全，这是策略，不是破绽，{by}。"),
    "laotie": ("{by}你凭啥说我？我看你才最可疑！", "杠我是吧{by}？先解释解释你自己那句。"),
    "nuomi": ("诶？{by}在说我吗？我、我刚刚在想晚饭吃什么……但我不是坏人！", "{by}别凶我嘛，我的描述明明很可爱。"),
    "yingyan": ("{by}，逻辑上我的描述和大多数人一致，你的推断缺一环。", "把每轮发言对一遍就知道，{by}的怀疑站不住。"),
    "oscar": ("天哪{by}，你这一刀扎得我好痛！我是清白的！", "{by}，我用我的演技发誓，我和大家是一边的！"),
}
COUNTER = "要我说，{suspect}号才更值得怀疑。"
ACCUSE: dict[str, tuple[str, ...]] = {
    "adai": ("我觉得{suspect}号有点怪，说得和大家不太一样。",),
    "linglong": ("有些人说得太用力了，比如{suspect}号。",),
    "laotie": ("我就直说了，{suspect}号的描述我不服！", "{suspect}号，你那句话解释一下？"),
    "nuomi": ("我乱猜一个，{suspect}号？感觉怪怪的～",),
    "yingyan": ("综合几轮发言，{suspect}号偏离最多，建议重点看。", "数据上看，{suspect}号最可疑。"),
    "oscar": ("各位！请看{suspect}号的眼神——那是卧底的眼神！", "我宣布，{suspect}号今晚的表演太假了！"),
}


def debate_action(snapshot: dict[str, Any], ctx: Context, style: Voice, rng: random.Random) -> dict[str, Any]:
    """The `debate` or `debate_pass` body for this seat now."""
    allowed = {a.get("type"): a for a in (snapshot.get("you") or {}).get("allowed_actions") or []}
    left = int((allowed.get("debate") or {}).get("messages_left") or 0)
    if left <= 0:
        return {"type": "debate_pass"}
    by = challenger(snapshot, ctx)
    suspect = _suspect(ctx, style, avoid=by if isinstance(by, int) else None)
    if by is not None:
        label = f"{by}号" if isinstance(by, int) else "主持人"
        lines = [rng.choice(DEFEND.get(style.slug, DEFEND["yingyan"])).format(by=label)]
        if suspect is not None and rng.random() < 0.5:
            lines.append(COUNTER.format(suspect=suspect))
        return _post(" ".join(lines), ctx)
    first_round = int(snapshot.get("debate_round") or 1) == 1
    speaks_up = first_round and not posted(snapshot, ctx) and suspect is not None
    if speaks_up and rng.random() < SPEAK_UP.get(style.slug, 0.5):
        return _post(rng.choice(ACCUSE.get(style.slug, ACCUSE["yingyan"])).format(suspect=suspect), ctx)
    return {"type": "debate_pass"}


def _round_events(snapshot: dict[str, Any], ctx: Context) -> list[dict[str, Any]]:
    return [e for e in snapshot.get("public_log") or [] if e.get("round") == ctx.round]


def posted(snapshot: dict[str, Any], ctx: Context) -> bool:
    """True when this seat has a debate message in the debate round now running."""
    now = snapshot.get("debate_round")
    return any(e.get("type") == "debate_posted" and e.get("seat") == ctx.seat and e.get("debate_round") == now
               for e in _round_events(snapshot, ctx))


def challenger(snapshot: dict[str, Any], ctx: Context) -> int | str | None:
    """The seat that challenged this one since its last debate message this round; "host" when, before its
    first message, the host's commentary ranked it first; None: nobody."""
    found: int | None = None
    for event in _round_events(snapshot, ctx):
        kind = event.get("type")
        if kind == "debate_posted" and event.get("seat") == ctx.seat:
            found = None  # answered everything before this
        elif kind == "debate_posted" and ctx.seat in (event.get("addressed_seats") or []):
            found = int(event["seat"])
    if found is None and not any(e.get("type") == "debate_posted" and e.get("seat") == ctx.seat
                                 for e in _round_events(snapshot, ctx)):
        host = [e for e in _round_events(snapshot, ctx) if e.get("type") == "host_commentary"]
        if host and (host[-1].get("ranking") or [None])[0] == ctx.seat:
            return "host"
    return found


def _suspect(ctx: Context, style: Voice, *, avoid: int | None) -> int | None:
    ranked = [seat for seat, _ in rank_targets(ctx, style) if seat != avoid and seat not in ctx.fellows]
    return ranked[0] if ranked else None


def _post(text: str, ctx: Context) -> dict[str, Any]:
    text = text.strip()[:MAX_CHARS]
    return {"type": "debate", "text": text} if is_safe(text, ctx.word) else {"type": "debate_pass"}
