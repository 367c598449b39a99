"""The Avalon bots say nothing the public record contradicts: a line that states a fact of the record ("上次任务他也在",
"失败的任务里 N 号都在", "上一轮为什么投赞成", "每次反对的队都有我们的人") is said only when the snapshot the bot was
handed bears it out. Checked on every text of 120 bot games (5–10 seats, every persona), against the record as the
speaking seat saw it, computed here without the brain's code."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from app.bots import arena
from app.bots.sim import play
from app.games.avalon import brain
from app.games.avalon.game import GAME

CLAIMS = {
    "on_last_quest": re.compile(r"(\d+) 号，上次任务他也在"),
    "on_every_failed": re.compile(r"失败的任务里 (\d+) 号都在"),
    "approved_last": re.compile(r"(\d+) 号你解释一下上一轮为什么投赞成"),
    "rejected_ours": re.compile(r"(\d+) 号每次反对的队都有我们的人"),
}


def _holds(claim: str, seat: int, view: dict[str, Any]) -> bool:
    quests, proposals = view.get("quests") or [], [p for p in view.get("proposals") or [] if p.get("votes")]
    if claim == "on_last_quest":
        return bool(quests) and seat in quests[-1]["team"]
    if claim == "on_every_failed":
        failed = [q for q in quests if q["fails"] > 0]
        return bool(failed) and all(seat in q["team"] for q in failed)
    if claim == "approved_last":
        return bool(proposals) and proposals[-1]["votes"].get(str(seat)) == "approve"
    evil = set(view["you"].get("evil_seats") or []) | {view["you"]["seat"]}
    ours = [p for p in proposals if evil & set(p["team"])]
    return bool(ours) and all(p["votes"].get(str(seat)) == "reject" for p in ours)


def test_every_stated_fact_holds_in_the_record_the_bot_saw() -> None:
    said: Counter[str] = Counter()
    wrong: list[tuple[str, str]] = []

    def observe(seat: int, view: dict[str, Any], body: dict[str, Any] | None) -> None:
        text = str((body or {}).get("text") or "")
        for claim, pattern in CLAIMS.items():
            for found in pattern.finditer(text):
                said[claim] += 1
                if not _holds(claim, int(found.group(1)), view):
                    wrong.append((claim, text))

    for game in range(120):
        n = 5 + game % 6
        personas = arena.seats(9000 + game, f"{n}p", 0, n)[0]
        record = play(GAME, {"n_players": n}, personas, brain.decide, 9000 + game, observe=observe)
        assert record.winner in ("good", "evil")
    assert not wrong, wrong[:5]
    assert all(said[claim] for claim in CLAIMS), said  # each kind of claim was made, where it held
