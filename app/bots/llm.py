"""Optional LLM brain: asks an OpenAI-compatible chat-completions endpoint for speeches, votes and last words
in persona, within a time budget, and falls back to the rule brain's action on ANY error, timeout or invalid
answer (wrong seat, not JSON, own word in the text, too long, a repeat of an earlier speech …).

Off unless `WODI_LLM_BASE_URL` is set (`LLMBrain.from_settings` returns None then). The endpoint is
`POST {base_url}/chat/completions` with `{"model", "messages", "temperature", "max_tokens"}`; the key, when
set, goes in `Authorization: Bearer …`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import Counter
from typing import Any

import httpx

from app.bots.personas import Persona
from app.games.undercover.brain.clues import is_safe
from app.games.undercover.brain.context import Context, context_from_snapshot
from app.games.undercover.text import normalise
from app.settings import Settings

log = logging.getLogger("app.bots.llm")

MAX_SPEECH = 120
ROLE_NAMES = {"civilian": "平民", "undercover": "卧底", "blank": "白板"}
_QUOTES = "\"'“”‘’「」『』`"


class LLMBrain:
    """One endpoint, one model, one time budget per request; `stats` counts used answers and fallbacks."""

    def __init__(self, base_url: str, api_key: str = "", model: str = "gpt-4o-mini", timeout: float = 8.0) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.api_key = api_key
        self.model = model
        self.timeout = timeout
        self.stats: Counter[str] = Counter()
        self._client: httpx.AsyncClient | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMBrain | None:
        """The brain configured by `WODI_LLM_*`, or None when `WODI_LLM_BASE_URL` is empty."""
        if not settings.llm_base_url.strip():
            return None
        return cls(settings.llm_base_url.strip(), settings.llm_api_key, settings.llm_model, settings.llm_timeout)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def improve(self, snapshot: dict[str, Any], persona: Persona, fallback: dict[str, Any] | None,
                      budget: float | None = None) -> dict[str, Any] | None:
        """The LLM's version of `fallback` (a speak, vote or last_words body), or `fallback` itself."""
        if fallback is None or fallback.get("type") not in ("speak", "vote", "last_words"):
            return fallback
        limit = self.timeout if budget is None else min(self.timeout, budget)
        if limit <= 0:
            self.stats["no_time"] += 1
            return fallback
        kind = str(fallback["type"])
        try:
            ctx = context_from_snapshot(snapshot)
            answer = await asyncio.wait_for(self._chat(messages(ctx, persona, kind)), timeout=limit)
            action = parse_answer(kind, answer, ctx)
        except TimeoutError:
            self.stats["timeout"] += 1
            log.info("llm: no answer within %.1fs, rule brain used", limit)
            return fallback
        except Exception as exc:  # noqa: BLE001 - any failure of the endpoint or its answer: the rule brain plays
            self.stats["error"] += 1
            log.info("llm: %s: %s, rule brain used", type(exc).__name__, exc)
            return fallback
        if action is None:
            self.stats["invalid"] += 1
            log.info("llm: unusable %s answer %r, rule brain used", kind, answer[:80])
            return fallback
        self.stats["used"] += 1
        return action

    async def _chat(self, chat: list[dict[str, str]]) -> str:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.timeout + 1.0))
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        body = {"model": self.model, "messages": chat, "temperature": 0.8, "max_tokens": 120}
        response = await self._client.post(self.url, json=body, headers=headers)
        response.raise_for_status()
        content = response.json()["choices"][0]["message"]["content"]
        if not isinstance(content, str):
            raise ValueError("message content is not a string")
        return content


def messages(ctx: Context, persona: Persona, kind: str) -> list[dict[str, str]]:
    """The chat for one decision: persona and rules, what the seat knows, and the one thing to answer."""
    system = (f"你在玩“谁是卧底”。你的人设是{persona.display_name}，说话风格：{persona.style}；"
              f"投票倾向：{persona.tendency}。只用中文，只输出要求的内容。")
    word = ctx.word or "（你是白板，没有词）"
    lines = [f"你是{ctx.seat}号，身份：{ROLE_NAMES.get(ctx.role or '', '未知')}，你的词：{word}。",
             f"现在第{ctx.round}轮，场上存活：{'、'.join(f'{s}号' for s in ctx.alive)}。"]
    if ctx.revealed:
        out = sorted(ctx.revealed.items())
        lines.append("已出局：" + "，".join(f"{s}号（{ROLE_NAMES.get(r, r)}）" for s, r in out))
    lines.append("发言记录：")
    lines += [f"第{s.round}轮 {s.seat}号：{s.text or '（跳过）'}" for s in ctx.speeches[-40:]] or ["（还没有人发言）"]
    if kind == "speak":
        ask = ("轮到你发言。用一句话（不超过40个字）描述你的词，符合你的人设；"
               "绝对不能说出你的词本身，也不要重复你说过的话。"
               "卧底要尽量贴近其他人的描述；白板要含糊地附和大家。只输出这句话。")
    elif kind == "vote":
        targets = "、".join(str(s) for s in ctx.eligible_targets())
        ask = (f"轮到你投票，只能投这些座位：{targets}。只输出 JSON："
               '{"target_seat": 座位号, "comment": "一句理由（不能包含你的词）"}')
    else:
        ask = "你被投票出局了。用一句话发表遗言，符合你的人设，不能说出你的词。只输出这句话。"
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join([*lines, ask])}]


def parse_answer(kind: str, answer: str, ctx: Context) -> dict[str, Any] | None:
    """The action body for the LLM's answer, or None when the answer is not usable."""
    if kind == "vote":
        return _parse_vote(answer, ctx)
    text = _one_line(answer)
    if not text or len(text) > MAX_SPEECH or not is_safe(text, ctx.word):
        return None
    if kind == "speak" and normalise(text) in {normalise(t) for t in ctx.my_texts()}:
        return None
    return {"type": kind, "text": text}


def _parse_vote(answer: str, ctx: Context) -> dict[str, Any] | None:
    found = re.search(r"\{.*\}", answer, re.DOTALL)
    if not found:
        return None
    data = json.loads(found.group(0))
    if not isinstance(data, dict):
        return None
    target = data.get("target_seat")
    if isinstance(target, str) and target.strip().isdigit():
        target = int(target)
    if not isinstance(target, int) or isinstance(target, bool) or target not in ctx.eligible_targets():
        return None
    body: dict[str, Any] = {"type": "vote", "target_seat": target}
    comment = data.get("comment")
    if isinstance(comment, str):
        comment = _one_line(comment)
        if comment and len(comment) <= MAX_SPEECH and is_safe(comment, ctx.word):
            body["comment"] = comment
    return body


def _one_line(answer: str) -> str:
    lines = [line.strip() for line in answer.strip().splitlines() if line.strip()]
    return lines[0].strip(_QUOTES).strip() if lines else ""
