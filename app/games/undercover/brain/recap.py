"""The chat that asks an LLM to rewrite undercover's finished recap in the seats' voices (`BotPlay.recap_prompt`;
the writer is `app.bots.recap_voice`, the checks the answer must pass are `app.games.undercover.recap_voice`).
"""

from __future__ import annotations

from typing import Any

from app.games.undercover.brain.llm import ROLE_NAMES


def messages(source: dict[str, Any]) -> list[dict[str, str]]:
    """`BotPlay.recap_prompt`: the chat that asks for the rewrite of `source` (`Rewrites.rewrite_source`, each
    player row with the `voice` to write its comment in)."""
    words = source.get("words") or []
    lines = ["这局“谁是卧底”已经结束，下面是按规则算出的演技评分（分数不能改）。"]
    if len(words) == 2:
        lines.append(f"平民词：{words[0]}，卧底词：{words[1]}。")
    for row in source["players"]:
        lines.append(f"{row['seat']}号 {row['display_name']}（{ROLE_NAMES.get(row['role'] or '', '未知')}）"
                     f"{row['score']}/10，点评：{row['comment']}；高光：{row['highlight']}；"
                     f"用这个口吻改写：{row['voice']}")
    lines.append(f"本场最佳：{source['best']['text']}")
    lines.append(f"翻车现场：{source['blunder']['text']}")
    lines.append("终局复盘：把每位玩家的点评改写成「一句幽默评语」（符合其口吻，不超过40个字）；"
                 "再用主持人口吻写本场最佳的「奥斯卡颁奖词」和翻车现场的「爆笑失误」（各一句，不超过60个字）。"
                 "只能说上面发生过的事：不要编造别的座位、分数或词语，分数原样照抄。")
    lines.append('只输出 JSON：{"players": [{"seat": 座位号, "score": 原分数, "comment": "改写后的点评"}], '
                 '"best": "改写后的本场最佳", "blunder": "改写后的翻车现场"}')
    system = "你是“谁是卧底”的主持人兼编剧，擅长模仿每个角色的说话风格。只用中文，只输出要求的 JSON。"
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(lines)}]
