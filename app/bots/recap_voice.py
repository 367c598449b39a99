"""The finished recap rewritten in persona by the LLM brain (`WODI_LLM_BASE_URL`; `app.services.platform.afterword`).

One chat per finished match that carries a recap, for a game whose brain declares the prompt
(`BotPlay.recap_prompt`; other games: nothing): every seat's rule comment rewritten in the voice of the seat's
official-bot persona (seed 000's style; a person's or another agent's seat in the host's voice), and the awards
in the host's voice. This module hands each player row its `voice`, asks, and only shapes the answer into a JSON
object — the game checks it (same seats, same scores, nothing the match does not have) before it joins the record.
"""

from __future__ import annotations

import json
from typing import Any

from app.bots.llm import LLMBrain
from app.bots.personas import persona_of_handle
from app.games.brains import Chat, json_object
from app.games.installed import bot_play

HOST_VOICE = "主持人：幽默、犀利、点到为止"


def voice_of(name: str) -> str:
    """The voice a seat's comment is written in: its persona's, or the host's."""
    persona = persona_of_handle(name)
    return HOST_VOICE if persona is None else f"{persona.display_name}：{persona.style}"


def messages(game: str, source: dict[str, Any]) -> Chat | None:
    """The game's chat asking for the rewrite of `source`, every player row with its `voice` (None: the game
    declares no recap prompt)."""
    bots = bot_play().get(game)
    if bots is None or bots.recap_prompt is None:
        return None
    players = [{**row, "voice": voice_of(str(row.get("name") or ""))} for row in source.get("players") or []]
    return bots.recap_prompt({**source, "players": players})


class RecapVoice:
    """`afterword.Writer`: the LLM's rewrite of a finished recap (games without a recap prompt: nothing)."""

    def __init__(self, brain: LLMBrain) -> None:
        self.brain = brain

    async def __call__(self, game: str, source: dict[str, Any]) -> dict[str, Any] | None:
        chat = messages(game, source)
        if chat is None:
            return None
        answer, _usage = await self.brain.complete(chat, max_tokens=800)
        data = json_object(answer)
        if data is None:
            self.brain.stats["recap_invalid"] += 1
            raise ValueError(f"not a JSON object: {json.dumps(answer[:80], ensure_ascii=False)}")
        self.brain.stats["recap_used"] += 1
        return data

    async def aclose(self) -> None:
        await self.brain.aclose()
