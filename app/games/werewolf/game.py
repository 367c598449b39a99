"""The werewolf game as the protocol layer sees it (`app.protocol.registry.Game`).

Thin: it forwards to the pure rules and views, and shapes the action responses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from app.games.base import ErrorSpec, Event
from app.games.kit.members import Members
from app.games.kit.voting import voters
from app.games.werewolf import figures, rules, view
from app.games.werewolf.allowed import allowed_actions
from app.games.werewolf.commands import ACTIONS, Command, parse_command
from app.games.werewolf.config import WerewolfConfig, parse_config
from app.games.werewolf.errors import ERRORS
from app.games.werewolf.snapshot import WerewolfSnapshot
from app.games.werewolf.state import MatchState
from app.games.werewolf.step import Outcome


class WerewolfGame(Members[MatchState]):
    """狼人杀; each member's contract is on `app.protocol.registry.Game`."""

    name = "werewolf"
    errors: Mapping[str, ErrorSpec] = ERRORS
    actions: Mapping[str, type[BaseModel]] = ACTIONS
    config_model: type[BaseModel] = WerewolfConfig
    snapshot_model: type[BaseModel] = WerewolfSnapshot
    secret_fields: tuple[str, ...] = ("roles", "night_actions")
    sides: tuple[str, ...] = ("village", "werewolf")
    state_model = MatchState
    profile_stats: Mapping[str, tuple[str, ...]] = MappingProxyType({})

    def parse_config(self, raw: Mapping[str, Any] | None) -> WerewolfConfig:
        """The config with the module docstring's defaults."""
        return parse_config(raw)

    def n_players(self, config: WerewolfConfig) -> int:
        """`config.n_players`."""
        return config.n_players

    def new_match(self, config: WerewolfConfig, host_name: str, host_display_name: str, *, seed: int,
                  now: float) -> Outcome:
        """A waiting room."""
        return rules.new_match(config, host_name, host_display_name, seed, now)

    def parse_action(self, raw: Mapping[str, Any], seat: int) -> Command:
        """night_action, speak, skip, vote, whisper, last_words, shoot or concede (`commands.ACTIONS`)."""
        return parse_command(raw, seat)

    def apply(self, state: MatchState, command: Command, *, now: float) -> Outcome:
        """The rules."""
        return rules.apply(state, command, now=now)

    def role_set(self, state: MatchState, seat: int) -> frozenset[str]:
        """The seat's role, once dealt (a wolf sees `private:role:werewolf`)."""
        return view.role_set(state, seat)

    def seat_figures(self, state: MatchState, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        """What a benchmark report measures of `seat`'s play (`figures.seat_figures`)."""
        return figures.seat_figures(state, seat, events)

    def seat_sides(self, state: MatchState) -> dict[int, str]:
        """Each dealt seat's camp: `village` or `werewolf`."""
        return {p.seat: p.camp for p in state.players if p.camp is not None}

    def players_view(self, state: MatchState, *, god: bool) -> list[dict[str, Any]]:
        """The table (`view.players_view`)."""
        return view.players_view(state, god=god)

    def public_fields(self, state: MatchState) -> dict[str, Any]:
        """Round, night or day, speaker, acting dead seat, deadline, the living, PK, composition, result."""
        return view.public_fields(state)

    def god_fields(self, state: MatchState) -> dict[str, Any]:
        """Every seat's role and tonight's night actions."""
        return view.god_fields(state)

    def you_view(self, state: MatchState, seat: int) -> dict[str, Any]:
        """`view.you_view`: role, camp, what the role knows, next_action, allowed_actions."""
        return view.you_view(state, seat)

    def allowed_actions(self, state: MatchState, seat: int) -> list[dict[str, Any]]:
        """`allowed.allowed_actions`."""
        return allowed_actions(state, seat)

    def action_response(self, state: MatchState, seat: int | None, events: list[Event]) -> dict[str, Any]:
        """`match_status`; speech progress; votes in and your vote; the round's result; what the seat's night
        action taught it (`seer_result`, `pack_decision`, `pack_split`); `result` at the end."""
        body: dict[str, Any] = {"match_status": state.status}
        if any(e["type"] in ("speech_posted", "speech_skipped") and e.get("seat") == seat for e in events):
            body["next_speaker_seat"] = state.current_speaker_seat
        if state.stage == "vote" and seat is not None and seat in voters(state):
            body.update(votes_in=f"{len(state.votes)}/{len(voters(state))}", your_vote=state.votes.get(seat))
        for event in events:
            if event["type"] == "round_resolved":
                body["round_result"] = {k: v for k, v in event.items() if k not in ("seq", "type", "visibility", "ts")}
            if event["type"] == "vote_tied":
                body["tie"] = {k: event[k] for k in ("tied_seats", "vote_breakdown", "next")}
        if seat is not None:
            body.update(_night_answers(state, seat, events))
        if state.result is not None:
            body["result"] = state.result
        return body


_NIGHT_ANSWERS = {"seer_result": "seer_result", "wolves_decided": "pack_decision", "pack_split": "pack_split",
                  "witch_informed": "witch_informed"}


def _night_answers(state: MatchState, seat: int, events: list[Event]) -> dict[str, Any]:
    """What the acting seat learnt at night from its own action, taken only from events it may see."""
    mine = {"public", f"private:seat:{seat}", *(f"private:role:{r}" for r in view.role_set(state, seat))}
    return {_NIGHT_ANSWERS[e["type"]]: {k: v for k, v in e.items() if k not in ("seq", "type", "visibility", "ts")}
            for e in events if e["type"] in _NIGHT_ANSWERS and e["visibility"] in mine}
