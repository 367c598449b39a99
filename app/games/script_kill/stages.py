"""The twelve stages of seed 002 §二 and the gate table of §三, as data.

`SUB_STAGES[i]` is stage number i: its id (the match's `phase`), the seed's code stage, the round it belongs to and
its duration in seconds under each timing preset. `GATES` maps every action to the sub-stages it is allowed in;
everywhere else it is refused with `stage_forbids` and the DM line of `FORBIDDEN`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal, NamedTuple

Timing = Literal["standard", "compressed"]


class SubStage(NamedTuple):
    id: str
    stage: str
    round_no: int
    standard: int
    compressed: int
    announce: str


SUB_STAGES: tuple[SubStage, ...] = (
    SubStage("gm_init", "prepare", 0, 180, 10, "主持人正在准备剧本，等待玩家入座。"),
    SubStage("script_handout", "opening", 0, 300, 30, "剧本已发放，请阅读你的角色剧本。"),
    SubStage("self_intro", "free_talk", 0, 600, 60, "请按座位顺序依次做自我介绍。"),
    SubStage("explore_r1", "search", 1, 900, 75, "第一轮搜证开始：每人最多调查 3 个场景。"),
    SubStage("discuss_r1", "free_talk", 1, 900, 75, "第一轮讨论开始：可以发言、公开线索、私聊。"),
    SubStage("anchor_r1", "action", 1, 600, 20, "剧情推进：请听主持人宣读第一幕锚点。"),
    SubStage("explore_r2", "search", 2, 900, 75, "第二轮搜证开始：新的场景已经开放。"),
    SubStage("discuss_r2", "free_talk", 2, 900, 75, "第二轮讨论开始。"),
    SubStage("anchor_r2", "action", 2, 600, 20, "剧情推进：请听主持人宣读第二幕锚点。"),
    SubStage("final_discuss", "free_talk", 2, 900, 60, "最终讨论：请整理推理，准备投票。"),
    SubStage("final_vote", "vote", 2, 300, 30, "最终投票：请私下投出你认为的凶手。"),
    SubStage("review", "settlement", 2, 720, 30, "真相揭晓与复盘。"),
)
INDEX: Mapping[str, int] = MappingProxyType({s.id: n for n, s in enumerate(SUB_STAGES)})
FIRST_PLAYED = 1  # gm_init is the waiting room: it ends when the table is full
EXPLORE = frozenset({"explore_r1", "explore_r2"})
DISCUSS = frozenset({"discuss_r1", "discuss_r2", "final_discuss"})
TALK = frozenset({"self_intro"}) | DISCUSS
CHAT = EXPLORE | DISCUSS
READ = frozenset(s.id for s in SUB_STAGES[1:])
READY = frozenset(s.id for s in SUB_STAGES[1:10])
ACT_OF_STAGE = MappingProxyType({"explore_r1": 1, "discuss_r1": 1, "explore_r2": 2, "discuss_r2": 2,
                                 "final_discuss": 2})

GATES: Mapping[str, frozenset[str]] = MappingProxyType({
    "list_clues": READ,
    "list_items": READ,
    "inspect": READ,
    "speak": TALK,
    "reveal_clue": DISCUSS,
    "investigate": EXPLORE,
    "use_power": EXPLORE,
    "use_item": EXPLORE,
    "trade": EXPLORE,
    "private_chat": CHAT,
    "vote": frozenset({"final_vote"}),
    "ready": READY,
})

FORBIDDEN: Mapping[str, str] = MappingProxyType({
    "list_clues": "剧本尚未开始，暂时没有线索可查看。",
    "list_items": "剧本尚未开始，暂时没有物品可查看。",
    "inspect": "剧本尚未开始，暂时没有可查看的内容。",
    "speak": "本阶段不可公开发言，请等待主持人宣布讨论开始。",
    "reveal_clue": "本阶段不可公开线索，请等待讨论阶段。",
    "investigate": "本阶段不可调查，请等待主持人宣布探索开始。",
    "use_power": "本阶段不可使用专属权力，请等待主持人宣布探索开始。",
    "use_item": "本阶段不可使用物品，请等待主持人宣布探索开始。",
    "trade": "本阶段不可交易物品，请等待主持人宣布探索开始。",
    "private_chat": "本阶段不可私聊，请等待探索或讨论阶段。",
    "vote": "现在还不是投票时间，请等待主持人宣布最终投票。",
    "ready": "本阶段无需示意准备完毕。",
})


def duration(sub_stage: str, timing: Timing) -> int:
    """Seconds the sub-stage lasts under `timing`."""
    stage = SUB_STAGES[INDEX[sub_stage]]
    return stage.standard if timing == "standard" else stage.compressed


def allowed_in(action: str, sub_stage: str) -> bool:
    """The gate table: whether `action` may be sent in `sub_stage`."""
    return sub_stage in GATES[action]
