"""The six personas' lines at the Avalon table: short, in character, naming seats only as the record allows."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.games.avalon.brain.table import Table

LINES: dict[str, dict[str, tuple[str, ...]]] = {
    "adai": {"propose": ("我就带我信得过的人：{team} 号。", "这队 {team} 号，我觉得挺稳。"),
             "trust": ("我同意这队，{team} 号看着都行。",), "doubt": ("我有点怕 {suspect} 号，说不上来为什么。",),
             "doubt_on_last_quest": ("我有点怕 {suspect} 号，上次任务他也在。",),
             "confer": ("我猜梅林是 {guess} 号。",)},
    "linglong": {"propose": ("先看看 {team} 号这组的表现吧。",), "trust": ("这队暂时没有明显问题。",),
                 "doubt": ("我对 {suspect} 号还有保留，再看一轮。",),
                 "confer": ("{guess} 号的票太准了。",)},
    "laotie": {"propose": ("别废话，{team} 号出车。",), "trust": ("行吧，这次我不杠。",),
               "doubt": ("{suspect} 号你别藏着，说说你怎么想的？",),
               "doubt_approved_last": ("{suspect} 号你解释一下上一轮为什么投赞成？",),
               "confer": ("刀 {guess} 号，他一直在带节奏。",)},
    "nuomi": {"propose": ("嗯……{team} 号！感觉很可爱的一队～",), "trust": ("好耶，我觉得可以出发～",),
              "doubt": ("{suspect} 号好像怪怪的？我也说不清。",), "confer": ("是不是 {guess} 号呀？",)},
    "yingyan": {"propose": ("按现有记录，{team} 号的嫌疑最低。",), "trust": ("从目前的记录看，这队合理。",),
                "doubt": ("信息还不够，但我对 {suspect} 号保留意见。",),
                "doubt_on_every_failed": ("失败的任务里 {suspect} 号都在，概率上他最可疑。",),
                "confer": ("{guess} 号的判断太稳了，像梅林。",),
                "confer_rejected_ours": ("{guess} 号每次反对的队都有我们的人，他是梅林。",)},
    "oscar": {"propose": ("命运之队就是 {team} 号！出发！",), "trust": ("我的直觉在歌唱，这队没问题！",),
              "doubt": ("天哪，{suspect} 号的眼神让我心慌！",), "confer": ("{guess} 号演得太好了，一定是梅林！",)},
}
"""A line of kind `doubt_<fact>` or `confer_<fact>` states a fact of the record (`facts`); it is said only when the
fact holds for the seat it names, else the persona's plain `doubt` / `confer` line is."""


def facts(t: Table, seat: int) -> set[str]:
    """What the public record says of `seat`, in the words the lines may use."""
    held = set()
    failed = [q for q in t.quests if q["fails"]]
    if failed and all(seat in q["team"] for q in failed):
        held.add("on_every_failed")
    if t.quests and seat in t.quests[-1]["team"]:
        held.add("on_last_quest")
    voted = [p for p in t.proposals if p.get("votes")]
    if voted and seat in voted[-1]["approve"]:
        held.add("approved_last")
    ours = t.allies | ({t.me} if t.evil_me else set())
    carrying = [p for p in voted if any(s in ours for s in p["team"])]
    if carrying and all(p["votes"].get(str(seat)) == "reject" for p in carrying):
        held.add("rejected_ours")
    return held


def line(persona: str, kind: str, t: Table, rng: random.Random, *, team: list[int] | None = None,
         guess: int | None = None) -> str:
    """A line of `kind` (propose, speak, confer) for this seat; a speech trusts or doubts the team on the table."""
    lines = LINES.get(persona, LINES["adai"])
    suspect = next((s for s in t.suspects() if s not in t.allies), 0)
    if kind == "speak":
        on_team = [s for s in t.team if s != t.me]
        doubted = [s for s in on_team if t.suspicion[s] > 0.5 and s not in t.allies]
        if t.evil_me and not doubted and t.clean(t.team):
            doubted = on_team[:1]
        if t.known_evil and rng.random() < 0.5:  # Merlin hints, but not every time: a sure voice gives him away
            doubted = []
        kind, suspect = ("doubt", doubted[0]) if doubted else ("trust", suspect)
    shown = t.team if team is None else team
    named = suspect if guess is None else guess
    if kind in ("doubt", "confer"):  # a line that states a fact, when the record bears it out
        held = facts(t, named)
        backed = [key for key in lines if key.startswith(f"{kind}_") and key[len(kind) + 1:] in held]
        kind = rng.choice(backed) if backed else kind
    text = rng.choice(lines[kind])
    return text.format(team="、".join(str(s) for s in shown), suspect=suspect, guess=named)
