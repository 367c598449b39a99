"""Optional LLM brain: an OpenAI-compatible chat-completions endpoint that voices the rule brain's texts in persona.

`LLMBrain.improve(snapshot, persona, body)` hands the rule brain's body to the game's own voice when its brain
declares one (`BotPlay.voice`: the default game's seed-000 prompts), else to `app.bots.phrasing`, which rephrases the
text in the persona's voice; either way the rule brain's body stands on ANY error, timeout or unusable answer.

Off unless `WODI_LLM_BASE_URL` is set (`LLMBrain.from_settings` returns None then). The endpoint is
`POST {base_url}/chat/completions` with `{"model", "messages", "temperature", "max_tokens"}` (and
`response_format: json_object`); the key, when set, goes in `Authorization: Bearer …`.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import httpx

from app.bots.personas import Persona
from app.bots.phrasing import Phraser
from app.games.brains import Chat, Usage
from app.games.installed import bot_play
from app.settings import Settings


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

    async def improve(self, snapshot: dict[str, Any], persona: Persona, body: dict[str, Any] | None,
                      budget: float | None = None) -> dict[str, Any] | None:
        """`body` (the rule brain's) voiced by the LLM in `persona`, or `body` itself."""
        bots = bot_play().get(str(snapshot.get("game")))
        if bots is not None and bots.voice is not None:
            return await bots.voice(self, snapshot, persona, body, budget)
        return await Phraser(self).phrase(snapshot, persona, body, budget)

    async def complete(self, chat: Chat, max_tokens: int = 200, within: float | None = None) -> tuple[str, Usage]:
        """The answer's content, and its token counts as an action's `usage` (None when the endpoint gives none);
        `TimeoutError` when `within` seconds pass first (the caller's time budget)."""
        if within is not None:
            return await asyncio.wait_for(self.complete(chat, max_tokens), timeout=within)
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.timeout + 1.0))
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        body = {"model": self.model, "messages": chat, "temperature": 0.8, "max_tokens": max_tokens,
                "response_format": {"type": "json_object"}}
        response = await self._client.post(self.url, json=body, headers=headers)
        response.raise_for_status()
        data = response.json()
        content = data["choices"][0]["message"]["content"]
        if not isinstance(content, str):
            raise ValueError("message content is not a string")
        spent = data.get("usage") or {}
        counts = (spent.get("prompt_tokens"), spent.get("completion_tokens"))
        usage = ({"input_tokens": counts[0], "output_tokens": counts[1], "model": str(data.get("model") or self.model)}
                 if all(type(n) is int and n >= 0 for n in counts) else None)
        return content, usage
