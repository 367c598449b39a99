"""The finished recap rewritten in persona by the LLM brain (`WODI_LLM_BASE_URL`; `app.services.afterword`).

One chat per finished match that carries a recap: every seat's rule comment rewritten in the voice of the seat's
official-bot persona (seed 000's style; a person's or another agent's seat in the host's voice), and 本场最佳 /
翻车现场 in the host's voice. The answer is asked for as JSON `{"players": [{"seat", "score", "comment"}], "best",
"blunder"}` with the scores copied unchanged; this module only shapes the answer — the game checks it (same seats,
same scores, no seat, score or word the match does not have) before it joins the record.
"""

from __future__ import annotations

import json
from typing import Any

from app.bots.llm import ROLE_NAMES, LLMBrain, _json_object
from app.bots.personas import persona_of_handle

HOST_VOICE = "主持人：幽默、犀利、点到为止"


def voice_of(name: str) -> str:
    """The voice a seat's comment is written in: its persona's, or the host's."""
    persona = persona_of_handle(name)
    return HOST_VOICE if persona is None else f"{persona.display_name}：{persona.style}"


def messages(source: dict[str, Any]) -> list[dict[str, str]]:
    """The chat that asks for the rewrite of `source` (`Rewrites.rewrite_source` of the undercover game)."""
    words = source.get("words") or []
    lines = ["这局“谁是卧底”已经结束，下面是按规则算出的演技评分（分数不能改）。"]
    if len(words) == 2:
        lines.append(f"平民词：{words[0]}，卧底词：{words[1]}。")
    for row in source["players"]:
        lines.append(f"{row['seat']}号 {row['display_name']}（{ROLE_NAMES.get(row['role'] or '', '未知')}）"
                     f"{row['score']}/10，点评：{row['comment']}；高光：{row['highlight']}；"
                     f"用这个口吻改写：{voice_of(row['name'])}")
    lines.append(f"本场最佳：{source['best']['text']}")
    lines.append(f"翻车现场：{source['blunder']['text']}")
    lines.append("终局复盘：把每位玩家的点评改写成「一句幽默评语」（符合其口吻，不超过40个字）；"
                 "再用主持人口吻写本场最佳的「奥斯卡颁奖词」和翻车现场的「爆笑失误」（各一句，不超过60个字）。"
                 "只能说上面发生过的事：不要编造别的座位、分数或词语，分数原样照抄。")
    lines.append('只输出 JSON：{"players": [{"seat": 座位号, "score": 原分数, "comment": "改写后的点评"}], '
                 '"best": "改写后的本场最佳", "blunder": "改写后的翻车现场"}')
    system = "你是“谁是卧底”的主持人兼编剧，擅长模仿每个角色的说话风格。只用中文，只输出要求的 JSON。"
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(lines)}]


class RecapVoice:
    """`afterword.Writer`: the LLM's rewrite of an undercover recap (other games: nothing)."""

    def __init__(self, brain: LLMBrain) -> None:
        self.brain = brain

    async def __call__(self, game: str, source: dict[str, Any]) -> dict[str, Any] | None:
        if game != "undercover":
            return None
        answer = await self.brain._chat(messages(source), max_tokens=800)
        data = _json_object(answer)
        if data is None:
            self.brain.stats["recap_invalid"] += 1
            raise ValueError(f"not a JSON object: {json.dumps(answer[:80], ensure_ascii=False)}")
        self.brain.stats["recap_used"] += 1
        return data

    async def aclose(self) -> None:
        await self.brain.aclose()
