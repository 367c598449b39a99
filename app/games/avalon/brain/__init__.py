"""The Avalon rule brain (the official NPC): pure functions from one seat's snapshot to its next action.

It reads only what `GET /api/matches/{id}` shows that seat (`you`, `quests`, `proposals`, `team`, the logs), so it
plays the same in the arena and over HTTP.

- `read`: the seat's view of the table — suspicion per seat from the quest record, the votes, the Lady, and (for
  Merlin and the evil seats) what the deal told it.
- good seats put the least suspect seats on their teams, approve only teams they would have picked (always the
  fifth proposal), Merlin steers off the evil seats he knows but sometimes lets one pass so he is not obvious;
- evil seats put themselves on teams, approve teams that carry one of them, fail quests (one failer per team, both
  on a two-fail quest, sometimes hiding on the first quest); the assassin names the good seat whose votes and teams
  avoided evil best;
- `voices`: the six personas' lines; `baseline`: the arena's random-acting player.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.avalon.brain import baseline as random_player
from app.games.avalon.brain.table import Table
from app.games.avalon.brain.voices import line
from app.games.brains import BotPlay

__all__ = ["PLAY", "decide"]

HIDE_FIRST_QUEST = {"linglong": 0.5, "yingyan": 0.4, "oscar": 0.3, "laotie": 0.2, "adai": 0.1, "nuomi": 0.2}
MERLIN_SLIP = {"linglong": 0.25, "yingyan": 0.15, "oscar": 0.2, "laotie": 0.1, "adai": 0.05, "nuomi": 0.15}


def decide(snapshot: dict[str, Any], persona: str, rng: random.Random, *,
           baseline: bool = False) -> dict[str, Any] | None:
    """The action body (`POST /action`) this seat sends next, or None when it has nothing to do now.

    `persona` is the persona slug; `baseline` plays a random legal move (the arena's baseline).
    """
    you = snapshot.get("you") or {}
    offered = {row["type"]: row for row in you.get("allowed_actions") or []}
    action = you.get("next_action")
    if not offered or action in (None, "wait", "wait_for_next_phase", "none"):
        return None
    if baseline:
        return random_player.decide(you, offered, rng)
    t = Table(snapshot)
    if action == "propose":
        team = t.pick_team(offered["propose"]["team_size"], rng)
        return {"type": "propose", "team": team, "text": line(persona, "propose", t, rng, team=team)}
    if action == "speak":
        return {"type": "speak", "text": line(persona, "speak", t, rng)}
    if action == "vote":
        return {"type": "vote", "choice": "approve" if t.approves(MERLIN_SLIP.get(persona, 0.1), rng) else "reject"}
    if action == "quest":
        return {"type": "quest", "card": "fail" if t.fails(HIDE_FIRST_QUEST.get(persona, 0.2), rng) else "success"}
    if action == "lady":
        return {"type": "lady", "target_seat": t.lady_target(offered["lady"]["targets"], rng)}
    if action == "assassinate":
        guess = t.merlin_guess(offered["assassinate"]["targets"], rng)
        if not t.conferred():
            return {"type": "confer", "text": line(persona, "confer", t, rng, guess=guess)}
        return {"type": "assassinate", "target_seat": guess}
    return None


PLAY = BotPlay(decide, arena_presets=tuple((f"{n}p", {"n_players": n}) for n in range(5, 11)))
