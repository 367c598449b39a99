"""The werewolf rule brain: pure functions from one seat's snapshot to its next action body.

It reads only what `GET /api/matches/{id}` shows that seat (`you`, `players`, `public_log`,
`private_log`; never a god field), so it plays the same in the arena and over HTTP.

- `table`: the seat's knowledge read from the snapshot, including the seer claims parsed from speeches.
- `judge`: how wolf-like each seat looks and how far each seer claim is believed.
- `night`: the wolves' knife (the pack follows the first choice it sees), the seer's check, the witch's
  potions, the guard, the hunter's shot.
- `day`: speeches and last words (claims, counter-claims, fake claims, trust, suspicion), votes, comments.
- `voices`: the six personas' lines and leanings; `talk`: texts from parts, no sentence said twice.
- `baseline`: the arena's random-acting player; `weights`: every tuning number.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.brains import BotPlay, vote_action
from app.games.werewolf.brain import baseline as random_player
from app.games.werewolf.brain.day import speech, vote_comment, vote_target
from app.games.werewolf.brain.night import guard_target, seer_target, shot, witch_action, wolf_target
from app.games.werewolf.brain.table import Table, read, sentences
from app.games.werewolf.brain.talk import compose
from app.games.werewolf.brain.voices import voice

__all__ = ["decide", "sentences"]


def decide(snapshot: dict[str, Any], persona: str, rng: random.Random, *,
           baseline: bool = False) -> dict[str, Any] | None:
    """The action body (`POST /action`) for this seat's `next_action`, or None when it has nothing to do.

    `persona` is the persona slug ("adai", "linglong", "laotie", "nuomi", "yingyan", "oscar"); `baseline`
    plays a random legal move with plain speech (the arena's baseline).
    """
    if not snapshot.get("you"):
        return None
    table = read(snapshot)
    if baseline:
        return random_player.decide(table, rng)
    style = voice(persona)
    action = table.next_action
    if action == "night_action":
        return _night(table, persona, rng)
    if action == "speak":
        return {"type": "speak", "text": speech(table, style, rng)}
    if action == "last_words":
        return {"type": "last_words", "text": speech(table, style, rng, last=True)}
    if action == "shoot":
        return {"type": "shoot", "target_seat": shot(table)}
    if action == "vote":
        return vote_action(vote_target(table, style, rng), lambda target: vote_comment(table, style, rng, target))
    return None


def _night(table: Table, persona: str, rng: random.Random) -> dict[str, Any]:
    passing: dict[str, Any] = {"type": "night_action", "action": "pass"}
    if table.is_wolf:
        target = wolf_target(table, rng)
        if target is None:
            return passing
        fellows = table.targets("whisper")
        if fellows and not table.whispered_tonight and not table.whisper_targets and not table.pack_choices:
            text = compose(table, voice(persona), rng, [("whisper", {"t": target, "n": table.day})], frame=False)
            return {"type": "whisper", "target_seat": fellows[0], "text": text}
        return {"type": "night_action", "action": "kill", "target_seat": target}
    if table.role == "seer":
        check = seer_target(table, rng)
        return passing if check is None else {"type": "night_action", "action": "check", "target_seat": check}
    if table.role == "witch":
        return witch_action(table, rng)
    if table.role == "guard":
        guard = guard_target(table, rng)
        return passing if guard is None else {"type": "night_action", "action": "guard", "target_seat": guard}
    return passing


PLAY = BotPlay(decide, arena_presets=(("6p", {"n_players": 6}), ("9p", {"n_players": 9}), ("12p", {"n_players": 12})))
"""What the bots find here besides `decide` (`app.games.brains`): the arena's presets."""
