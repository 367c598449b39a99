"""剧本杀 as one kit definition (`app.games.kit`): the kit builds the `Game` the services call."""

from __future__ import annotations

from typing import Any

from app.games.base import Event
from app.games.kit import GameDef, KitGame, QuickStart, build
from app.games.script_kill import actions, figures, rules, view, voting
from app.games.script_kill.config import ScriptKillConfig
from app.games.script_kill.errors import ERRORS
from app.games.script_kill.package import load_script, script_ids
from app.games.script_kill.quick import ScriptKillQuickStart, quick_config, quick_options
from app.games.script_kill.snapshot import ScriptKillSnapshot
from app.games.script_kill.state import MatchState, Player
from app.games.script_kill.step import STAGE_EXPIRE, Step


def response(state: MatchState, seat: int | None, events: list[Event]) -> dict[str, Any]:
    """The sub-stage, the seat's next action and vote (a read-only action's data comes with its reply)."""
    body: dict[str, Any] = {"sub_stage": state.phase}
    player = state.seat(seat) if seat is not None else None
    if player is not None and state.status == "in_progress":
        body["next_action"] = view.next_action(state, player.seat)
        if state.phase == "final_vote":
            body["your_vote"] = state.votes.get(player.seat)
    return body


for _script in script_ids():  # a bad package fails at start-up, naming the bad field
    load_script(_script)

GAME: KitGame[MatchState, Step] = build(GameDef(
    name="script_kill", config=ScriptKillConfig, state=MatchState, seat_model=Player, step=Step,
    snapshot=ScriptKillSnapshot, errors=ERRORS, secret_fields=("culprit", "tally", "hands"), sides=voting.SIDES,
    actions=actions.ACTIONS, guard=actions.guard, deal=rules.deal, timers={STAGE_EXPIRE: rules.stage_over},
    after=rules.end_early, concede=rules.conceded, side_of=voting.side_of, role_set=view.role_set,
    you=view.you, allowed=view.allowed, row=view.row, public=view.public_fields, god=view.god_fields,
    response=response, seat_figures=figures.seat_figures,
    quick_start=QuickStart(ScriptKillQuickStart, quick_config, quick_options, invites=True),
))
