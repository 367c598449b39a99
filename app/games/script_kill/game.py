"""The script_kill game as the protocol layer sees it (`app.protocol.registry.Game`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from app.games.base import AbortReason, ErrorSpec, Event, MatchSummary
from app.games.common import dispatch
from app.games.common.commands import Abort, Concede, TakeOver, Timeout
from app.games.script_kill import figures, rules, view, voting
from app.games.script_kill.commands import ACTIONS, Command, Join, parse_command
from app.games.script_kill.config import ScriptKillConfig, parse_config
from app.games.script_kill.errors import ERRORS
from app.games.script_kill.package import load_script, script_ids
from app.games.script_kill.snapshot import ScriptKillSnapshot
from app.games.script_kill.state import MatchState, state_from_json, state_to_json
from app.games.script_kill.step import Outcome


class ScriptKillGame:
    """剧本杀; each member's contract is on `app.protocol.registry.Game`."""

    name = "script_kill"
    errors: Mapping[str, ErrorSpec] = ERRORS
    actions: Mapping[str, type[BaseModel]] = ACTIONS
    config_model: type[BaseModel] = ScriptKillConfig
    snapshot_model: type[BaseModel] = ScriptKillSnapshot
    secret_fields: tuple[str, ...] = ("culprit", "tally", "hands")
    sides: tuple[str, ...] = voting.SIDES
    profile_stats: Mapping[str, tuple[str, ...]] = MappingProxyType({})

    def __init__(self) -> None:
        for script_id in script_ids():  # a bad package fails at start-up, naming the bad field
            load_script(script_id)

    def parse_config(self, raw: Mapping[str, Any] | None) -> ScriptKillConfig:
        return parse_config(raw)

    def config_to_json(self, config: ScriptKillConfig) -> dict[str, Any]:
        return config.model_dump(mode="json")

    def n_players(self, config: ScriptKillConfig) -> int:
        return config.n_players

    def new_match(self, config: ScriptKillConfig, host_name: str, host_display_name: str, *, seed: int,
                  now: float) -> Outcome:
        return rules.new_match(config, host_name, host_display_name, seed, now)

    def join(self, name: str, display_name: str) -> Join:
        return Join(name=name, display_name=display_name)

    def parse_action(self, raw: Mapping[str, Any], seat: int) -> Command:
        return parse_command(raw, seat)

    def concede(self, seat: int) -> Concede:
        return Concede(seat=seat)

    def abort(self, reason: AbortReason) -> Abort:
        return Abort(reason=reason)

    def timeout(self, token: int) -> Timeout:
        return Timeout(token=token)

    def take_over(self, seat: int) -> TakeOver:
        """`TakeOver` (`app.protocol.registry.TakesOver`)."""
        return TakeOver(seat=seat)

    def apply(self, state: MatchState, command: Command, *, now: float) -> Outcome:
        return rules.apply(state, command, now=now)

    def state_to_json(self, state: MatchState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> MatchState:
        return state_from_json(dict(data))

    def summary(self, state: MatchState) -> MatchSummary:
        """status, phase, the result (once finished or aborted) and the stage's timer."""
        body = dispatch.summary(state)
        if state.status not in ("finished", "aborted"):
            body["result"] = None
        return body

    def role_set(self, state: MatchState, seat: int) -> frozenset[str]:
        return view.role_set(state, seat)

    def seat_figures(self, state: MatchState, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        """What a benchmark report measures of `seat`'s play (`figures.seat_figures`)."""
        return figures.seat_figures(state, seat, events)

    def seat_sides(self, state: MatchState) -> dict[int, str]:
        return {p.seat: voting.side_of(state, p) for p in state.players if p.character is not None}

    def players_view(self, state: MatchState, *, god: bool) -> list[dict[str, Any]]:
        return view.players_view(state, god=god)

    def public_fields(self, state: MatchState) -> dict[str, Any]:
        return view.public_fields(state)

    def god_fields(self, state: MatchState) -> dict[str, Any]:
        return view.god_fields(state)

    def you_view(self, state: MatchState, seat: int) -> dict[str, Any]:
        return view.you_view(state, seat)

    def allowed_actions(self, state: MatchState, seat: int) -> list[dict[str, Any]]:
        return view.allowed_actions(state, seat)

    def action_response(self, state: MatchState, seat: int | None, events: list[Event]) -> dict[str, Any]:
        """`match_status`, the sub-stage, the seat's searches left and vote; `result` at the end. A read-only
        action's own data (`clues`, `items`, `inspected`) comes with the command's reply."""
        body: dict[str, Any] = {"match_status": state.status, "sub_stage": state.phase}
        player = state.seat(seat) if seat is not None else None
        if player is not None and state.status == "in_progress":
            body["next_action"] = view.next_action(state, player.seat)
            if state.phase == "final_vote":
                body["your_vote"] = state.votes.get(player.seat)
        if state.result is not None and state.status in ("finished", "aborted"):
            body["result"] = state.result
        return body
