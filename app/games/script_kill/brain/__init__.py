"""The script_kill rule brain (the official NPC): pure functions from one seat's snapshot to its next action.

It reads only what `GET /api/matches/{id}` shows that seat (`you`, `characters`, `public_clues`, the logs;
never a god field), so it plays the same in the arena and over HTTP.

- `seat`: the seat's knowledge read from the snapshot; `judge`: suspicion (the visible clues' preset
  `weights`) and trust (chats, gifts, accusations).
- `plan`: seed 002 §三's priority order per stage (power → items → investigate → chats → trade → ready;
  answer → show a clue → speak → ready; vote the top suspect but itself).
- `voices`: the six personas' lines; `speech`: texts from parts, never a sentence twice, never a secret phrase.
- `baseline`: the arena's random-acting player; `weights`: every tuning number.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.brains import BotPlay
from app.games.script_kill.brain import baseline as random_player
from app.games.script_kill.brain import plan
from app.games.script_kill.brain.seat import Seat, read
from app.games.script_kill.brain.speech import safe
from app.games.script_kill.brain.voices import voice

__all__ = ["decide", "read", "safe"]

PASSIVE = ("script_handout", "anchor_r1", "anchor_r2")


def decide(snapshot: dict[str, Any], persona: str, rng: random.Random, *,
           baseline: bool = False) -> dict[str, Any] | None:
    """The action body (`POST /action`) this seat sends next, or None when it has nothing to do now.

    `persona` is the persona slug ("adai", "linglong", "laotie", "nuomi", "yingyan", "oscar"); `baseline`
    plays a random legal move with plain text (the arena's baseline).
    """
    if not snapshot.get("you") or not snapshot["you"].get("allowed_actions"):
        return None
    seat = read(snapshot)
    if baseline:
        return random_player.decide(seat, rng)
    return _choose(seat, persona, rng)


def _choose(seat: Seat, persona: str, rng: random.Random) -> dict[str, Any] | None:
    style = voice(persona)
    if seat.row("vote") is not None:
        return plan.vote(seat, style)
    if seat.sub_stage == "self_intro":
        return plan.self_intro(seat, style, rng)
    stage = plan.STAGES.get(seat.sub_stage)
    if stage is not None:
        return stage(seat, style, rng)
    return plan.ready(seat) if seat.sub_stage in PASSIVE or seat.row("ready") is not None else None


PLAY = BotPlay(decide, arena_presets=(("compressed", {"timing": "compressed"}),
                                     ("tiny", {"timing": "compressed", "script": "tiny"})))
"""What the bots find here besides `decide` (`app.games.brains`): the arena's presets."""
