"""Undercover's own LLM voice (`BotPlay.voice`): seed 000's prompts (description, debate reply, last words, vote)
asking for JSON (`response_format: json_object`), within a time budget; the rule brain's action stands on ANY
error, timeout or unusable answer (not JSON, wrong seat, own word in the text, instruction-like, too long, a
repeat of an earlier speech …). A vote comment is dropped when it claims something the state does not show
(`claims`).
"""

from __future__ import annotations

import logging
from typing import Any

from app.games.base import GameError
from app.games.brains import MAX_SPEECH, Endpoint, Speaker, json_object, one_line
from app.games.kit.checks import clean_text
from app.games.undercover.brain.claims import false_claims
from app.games.undercover.brain.clues import is_safe
from app.games.undercover.brain.context import Context, context_from_snapshot
from app.games.undercover.instructions import matching
from app.games.undercover.text import normalise

log = logging.getLogger("app.bots.llm")

ROLE_NAMES = {"civilian": "平民", "undercover": "卧底", "blank": "白板"}


async def improve(llm: Endpoint, snapshot: dict[str, Any], persona: Speaker, fallback: dict[str, Any] | None,
                  budget: float | None = None) -> dict[str, Any] | None:
    """The LLM's version of `fallback` (a speak, vote, last_words or debate body), or `fallback` itself."""
    if fallback is None or fallback.get("type") not in ("speak", "vote", "last_words", "debate"):
        return fallback
    limit = llm.timeout if budget is None else min(llm.timeout, budget)
    if limit <= 0:
        llm.stats["no_time"] += 1
        return fallback
    kind = str(fallback["type"])
    try:
        ctx = context_from_snapshot(snapshot)
        chat = messages(ctx, persona, kind, challenge=debate_challenge(snapshot, ctx))
        answer, usage = await llm.complete(chat, within=limit)
        action = parse_answer(kind, answer, ctx)
    except TimeoutError:
        llm.stats["timeout"] += 1
        log.info("llm: no answer within %.1fs, rule brain used", limit)
        return fallback
    except Exception as exc:  # noqa: BLE001 - any failure of the endpoint or its answer: the rule brain plays
        llm.stats["error"] += 1
        log.info("llm: %s: %s, rule brain used", type(exc).__name__, exc)
        return fallback
    if action is None:
        llm.stats["invalid"] += 1
        log.info("llm: unusable %s answer %r, rule brain used", kind, answer[:80])
        return fallback
    llm.stats["used"] += 1
    return {**action, "usage": usage} if usage else action  # the action's optional `usage` (issue 30)


# Seed 000's 性格修正 (description) and 遗言 tone per persona.
DESCRIBE_STYLE = {
    "adai": "过于具体，容易暴露细节", "linglong": "极其抽象，滴水不漏", "laotie": "质疑上一家的描述，然后给出自己的",
    "nuomi": "语无伦次，可爱跑题", "yingyan": "逻辑严密，试图总结规律", "oscar": "夸张表演，情绪丰富",
}
LAST_WORDS_TONE = {"adai": "委屈/困惑", "linglong": "淡定/高深", "laotie": "不服/怼人", "nuomi": "可爱/懵",
                   "yingyan": "总结/遗憾", "oscar": "表演/戏剧化"}
JSON_TEXT = '只输出 JSON：{"text": "你的发言"}'


def messages(ctx: Context, persona: Speaker, kind: str, *, challenge: str | None = None) -> list[dict[str, str]]:
    """The chat for one decision, in seed 000's prompts: the description prompt for a speech (its debate
    prompt when another seat has just addressed this one), the debate-reply prompt for a debate message
    (`challenge`: the message that named this seat), the last-words prompt, and a vote prompt; each asks
    for JSON."""
    system = (f"你在玩“谁是卧底”。你的人设是{persona.display_name}，说话风格：{persona.style}；"
              f"投票倾向：{persona.tendency}。只用中文，只输出要求的 JSON。")
    lines = [f"你是{ctx.seat}号，现在第{ctx.round}轮，场上存活：{'、'.join(f'{s}号' for s in ctx.alive)}。"]
    if ctx.revealed:
        out = sorted(ctx.revealed.items())
        lines.append("已出局：" + "，".join(f"{s}号（{ROLE_NAMES.get(r, r)}）" for s, r in out))
    lines.append("发言记录：")
    lines += [f"第{s.round}轮 {s.seat}号：{s.text or '（跳过）'}" for s in ctx.speeches[-40:]] or ["（还没有人发言）"]
    if kind == "speak":
        lines.append(_describe(ctx, persona))
        addressed = addressed_by(ctx)
        if addressed is not None:
            seat, text = addressed
            lines.append(f"用户说：{seat}号：{text}\n请生成你的回应（1-2句话），符合你的性格模板和身份立场，"
                         "并在其中完成你的描述。")
        lines.append("不要重复你说过的话，不超过60个字。" + JSON_TEXT)
    elif kind == "debate":
        if challenge is not None:
            lines.append(f"用户说：{challenge}\n请生成你的回应（1-2句话），符合你的性格模板和身份立场。")
        else:
            lines.append("现在是自由讨论时间：用一句话质疑你最怀疑的人，或为自己辩护，符合你的性格模板和身份立场。")
        lines.append("不能说出你的词，不超过60个字。" + JSON_TEXT)
    elif kind == "vote":
        targets = "、".join(str(s) for s in ctx.eligible_targets())
        lines.append(f"轮到你投票指认卧底，只能投这些座位：{targets}。理由只能说真实发生的事（不要编造别人的话或票数）。"
                     '只输出 JSON：{"target_seat": 座位号, "comment": "一句理由（不能包含你的词）"}')
    else:
        identity = ROLE_NAMES.get(ctx.role or "", "未知身份")
        tone = LAST_WORDS_TONE.get(persona.slug, "符合人设")
        lines.append(f"你是 {persona.display_name}，{identity}，已被投票出局。"
                     f"请用一句话发表遗言，符合你的性格：{tone}。不能说出你的词。" + JSON_TEXT)
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(lines)}]


def _describe(ctx: Context, persona: Speaker) -> str:
    """Seed 000's description prompt for this seat."""
    style = DESCRIBE_STYLE.get(persona.slug, persona.style)
    if ctx.role == "blank" or not ctx.word:
        return (f"你是{persona.display_name}，你是白板，没有拿到词。请用一句话含糊地附和大家的描述，别被发现。"
                f"性格修正：{style}。")
    return (f"你是{persona.display_name}，拿到的是{ctx.word}。\n请用一句话描述这个词语，要求：\n"
            "- 不能出现词语中的任何一个字（这是卧底游戏，暴露就输了）\n"
            "- 平民：尽量准确描述，但不要让卧底轻易猜出原词\n"
            "- 卧底：试图用模糊语言伪装成平民，描述偏向卧底词但不露馅\n"
            f"- 你的身份：{ROLE_NAMES.get(ctx.role or '', '未知')}\n"
            f"- 性格修正：{style}")


def addressed_by(ctx: Context) -> tuple[int, str] | None:
    """The latest speech of another seat (this round or the last) that names this seat, if any."""
    mark = f"{ctx.seat}号"
    for speech in reversed(ctx.speeches):
        if speech.round < ctx.round - 1:
            break
        if speech.seat != ctx.seat and speech.text and mark in speech.text:
            return speech.seat, speech.text
    return None


def debate_challenge(snapshot: dict[str, Any], ctx: Context) -> str | None:
    """The latest debate message of this round that names this seat ("N号：text"), if any."""
    found = None
    for event in snapshot.get("public_log") or []:
        if (event.get("type") == "debate_posted" and event.get("round") == ctx.round
                and ctx.seat in (event.get("addressed_seats") or []) and event.get("seat") != ctx.seat):
            found = f"{event.get('seat')}号：{event.get('text')}"
    return found


def passes_server_checks(text: str, word: str | None) -> bool:
    """What the server checks before it accepts a text from a seat holding `word`: something visible, at most
    500 characters, no NUL, not the own word (any spelling `leak` knows), nothing instruction-like (refused in
    compete_mode rooms)."""
    try:
        cleaned = clean_text(text)
    except GameError:
        return False
    return is_safe(cleaned, word) and not matching(cleaned)


def parse_answer(kind: str, answer: str, ctx: Context) -> dict[str, Any] | None:
    """The action body for the LLM's JSON answer, or None when the answer is not usable."""
    data = json_object(answer)
    if data is None:
        return None
    if kind == "vote":
        return _parse_vote(data, ctx)
    text = data.get("text")
    if not isinstance(text, str):
        return None
    text = one_line(text)
    if not text or len(text) > MAX_SPEECH or not passes_server_checks(text, ctx.word):
        return None
    if kind == "speak" and normalise(text) in {normalise(t) for t in ctx.my_texts()}:
        return None
    return {"type": kind, "text": text}


def _parse_vote(data: dict[str, Any], ctx: Context) -> dict[str, Any] | None:
    target = data.get("target_seat")
    if isinstance(target, str) and target.strip().isdigit():
        target = int(target)
    if not isinstance(target, int) or isinstance(target, bool) or target not in ctx.eligible_targets():
        return None
    body: dict[str, Any] = {"type": "vote", "target_seat": target}
    comment = data.get("comment")
    if isinstance(comment, str):
        comment = one_line(comment)
        if (comment and len(comment) <= MAX_SPEECH and passes_server_checks(comment, ctx.word)
                and not false_claims(comment, ctx, target)):
            body["comment"] = comment
    return body
