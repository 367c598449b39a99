"""The script_kill game's own error codes; every refusal's `message` is the DM's line (seed 002 §四)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.games.base import ErrorSpec

ERRORS: Mapping[str, ErrorSpec] = MappingProxyType({
    "stage_forbids": ErrorSpec(409, "本阶段不可执行该操作。"),
    "investigation_limit": ErrorSpec(409, "你已调查过 3 个场景，请等待讨论阶段。"),
    "unknown_location": ErrorSpec(422, "未找到该场景。"),
    "power_used": ErrorSpec(409, "你的专属权力已使用过，每局限用 1 次。"),
    "no_power": ErrorSpec(422, "你没有这项专属权力。"),
    "power_locked": ErrorSpec(409, "这项专属权力尚未解锁。"),
    "key_item_not_tradable": ErrorSpec(422, "关键物品不可交易。"),
    "item_not_tradable": ErrorSpec(422, "该物品不可交易。"),
    "not_your_item": ErrorSpec(422, "你没有这件物品。"),
    "item_not_usable": ErrorSpec(422, "这件物品无法使用。"),
    "item_used_up": ErrorSpec(409, "这件物品已经用完了。"),
    "unknown_clue": ErrorSpec(422, "你还没有这条线索。"),
    "not_your_turn": ErrorSpec(409, "还没轮到你发言。"),
    "already_spoke": ErrorSpec(409, "你已经做过自我介绍了。"),
    "already_ready": ErrorSpec(409, "你已示意准备完毕，请等待其他玩家。"),
})
