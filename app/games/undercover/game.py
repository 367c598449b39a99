"""The undercover game as the protocol layer sees it (`app.protocol.registry.Game`).

Thin: it forwards to the pure rules and views, draws the deal's candidate pairs from the word-pair
library, and shapes the action responses of spec §2.3.2, §2.3.3 and §2.8.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, Field

from app.games.base import ErrorSpec, Event
from app.games.kit.members import Members
from app.games.kit.voting import voters
from app.games.undercover import ending, figures, recap_voice, rules, view
from app.games.undercover.actions import ACTIONS, parse_action
from app.games.undercover.allowed import allowed_actions
from app.games.undercover.commands import Command, Join
from app.games.undercover.config import UndercoverConfig, parse_config
from app.games.undercover.fairness import fresh_pairs, wordpair_key
from app.games.undercover.quick import UndercoverQuickStart, quick_config, quick_options
from app.games.undercover.state import MatchState
from app.games.undercover.step import Outcome
from app.games.undercover.wordpairs import default_library


class UndercoverSnapshot(BaseModel):
    """The snapshot fields an undercover match adds to the protocol's."""

    pk_candidates: list[int] | None = Field(default=None, description="the tied seats of a PK round (else [])")
    wordpair: dict[str, str] | None = Field(
        default=None, description="god views only (spectators; everyone after the end): `{civilian, undercover}`")
    debate_round: int | None = Field(
        default=None, description="extension, only during a `debate_round_N`: which debate round (1…debate_rounds)")
    debate_rounds: int | None = Field(
        default=None, description="extension, only during a `debate_round_N`: the room's `config.debate_rounds`")


ERRORS: Mapping[str, ErrorSpec] = MappingProxyType({
    "speech_contains_secret_word": ErrorSpec(422, "the text contains your own word"),
    "speech_looks_like_instruction": ErrorSpec(
        422, "the text imitates the server, the host or a system message (refused in compete_mode rooms)"),
    "debate_not_enabled": ErrorSpec(403, "this room has no debate (config.debate_rounds is 0)"),
    "debate_turn_over": ErrorSpec(409, "you have passed or used your messages in this debate round"),
})


class UndercoverGame(Members[MatchState]):
    """谁是卧底 (spec §2, §4, §5); each member's contract is on `app.protocol.registry.Game`."""

    name = "undercover"
    errors = ERRORS
    actions: Mapping[str, type[BaseModel]] = ACTIONS
    config_model: type[BaseModel] = UndercoverConfig
    snapshot_model: type[BaseModel] = UndercoverSnapshot
    secret_fields: tuple[str, ...] = ("wordpair",)
    sides: tuple[str, ...] = ("civilian", "undercover", "blank")
    # §15.5's profile fields: a blank shares the undercovers' win, so its wins count as wins_as_undercover.
    state_model = MatchState
    profile_stats: Mapping[str, tuple[str, ...]] = MappingProxyType(
        {"wins_as_civilian": ("civilian",), "wins_as_undercover": ("undercover", "blank")})

    quick_start_model: type[BaseModel] = UndercoverQuickStart

    def quick_config(self, choices: Mapping[str, Any] | None) -> dict[str, Any]:
        """Seed 000's 本局设定 as a config (`quick.quick_config`; `app.protocol.registry.QuickStarts`)."""
        return quick_config(choices)

    def quick_options(self) -> dict[str, Any]:
        """The word-pair categories and the paces (`quick.quick_options`)."""
        return quick_options()

    def parse_config(self, raw: Mapping[str, Any] | None) -> UndercoverConfig:
        """Spec §2.1's config, with the defaults of `config` (listed in docs/games/undercover.md)."""
        return parse_config(dict(raw) if isinstance(raw, Mapping) else raw)

    def n_players(self, config: UndercoverConfig) -> int:
        """`config.n_players`."""
        return config.n_players

    def new_match(self, config: UndercoverConfig, host_name: str, host_display_name: str, *, seed: int,
                  now: float) -> Outcome:
        """A waiting room; an unknown `wordpair_tag` fails here rather than when the table fills."""
        default_library().pairs(config.wordpair_tag)
        return rules.new_match(config, host_name, host_display_name, seed, now)

    def join(self, name: str, display_name: str) -> Join:
        """`Join`."""
        return Join(name=name, display_name=display_name)

    def join_avoiding(self, name: str, display_name: str, recent: frozenset[str]) -> Join:
        """`Join` whose deal avoids the pairs in `recent` (`app.protocol.registry.RemembersContent`)."""
        return Join(name=name, display_name=display_name, avoid=tuple(sorted(recent)))

    def content_key(self, state: MatchState) -> str | None:
        """The dealt pair, as `wordpair_key` spells it."""
        pair = state.wordpair
        return None if pair is None else wordpair_key(pair.civilian, pair.undercover)

    def parse_action(self, raw: Mapping[str, Any], seat: int) -> Command:
        """speak, skip, vote, whisper, last_words, guess_word, debate, debate_pass or concede (`actions.ACTIONS`)."""
        return parse_action(dict(raw), seat)

    def apply(self, state: MatchState, command: Command, *, now: float) -> Outcome:
        """The rules; a `Join` brings the library's candidate pairs for the deal."""
        pairs = fresh_pairs(self._pairs(state), command.avoid) if isinstance(command, Join) else ()
        return rules.apply(state, command, now=now, pairs=pairs)

    def _pairs(self, state: MatchState) -> list[tuple[str, str]]:
        return [pair.words for pair in default_library().pairs(state.config.wordpair_tag)]

    def rewrite_source(self, state: MatchState) -> dict[str, Any] | None:
        """The finished recap an outside writer may rephrase (`recap_voice.source`; `registry.Rewrites`)."""
        return recap_voice.source(state)

    def rewrite(self, state: MatchState, proposal: Any, *, now: float) -> Outcome:
        """The checked rephrasing as a public `recap_rewritten` event (`recap_voice.rewrite`)."""
        return recap_voice.rewrite(state, proposal, now)

    def role_set(self, state: MatchState, seat: int) -> frozenset[str]:
        """The seat's role, once dealt."""
        return view.role_set(state, seat)

    def players_view(self, state: MatchState, *, god: bool) -> list[dict[str, Any]]:
        """The table (`view.players_view`)."""
        return view.players_view(state, god=god)

    def public_fields(self, state: MatchState) -> dict[str, Any]:
        """Speaker, deadline, round, PK candidates, result."""
        return view.public_fields(state)

    def god_fields(self, state: MatchState) -> dict[str, Any]:
        """The word pair."""
        return {"wordpair": view.wordpair(state)}

    def you_view(self, state: MatchState, seat: int) -> dict[str, Any]:
        """`view.you_view`: role, word, next_action and whether the seat has voted."""
        return view.you_view(state, seat)

    def allowed_actions(self, state: MatchState, seat: int) -> list[dict[str, Any]]:
        """`allowed.allowed_actions`."""
        return allowed_actions(state, seat)

    def seat_figures(self, state: MatchState, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        """What a benchmark report measures of `seat`'s play (`figures.seat_figures`)."""
        return figures.seat_figures(state, seat, events)

    def seat_sides(self, state: MatchState) -> dict[int, str]:
        """Each dealt seat's role: civilian, undercover or blank."""
        return {p.seat: p.role for p in state.players if p.role is not None}

    def action_response(self, state: MatchState, seat: int | None, events: list[Event]) -> dict[str, Any]:
        """The fields after `accepted/seq/phase` (spec §2.3.2, §2.3.3, §2.8)."""
        body: dict[str, Any] = {"match_status": state.status}
        if any(e["type"] in ("speech_posted", "speech_skipped") and e.get("seat") == seat for e in events):
            body.update(_speak_progress(state))
        if state.stage == "vote" and seat is not None and seat in voters(state):
            body.update(votes_in=f"{len(state.votes)}/{len(voters(state))}", your_vote=state.votes.get(seat))
        for event in events:
            if event["type"] == "round_resolved":
                body["round_result"] = _round_result(event)
                if state.status == "in_progress":
                    body["next_phase"] = f"speak_round_{event['round'] + 1}"
            if event["type"] == "vote_tied":
                body["tie"] = {k: event[k] for k in ("tied_seats", "vote_breakdown", "next")}
            if event["type"] == "player_conceded" and seat is not None and event["seat"] == seat:
                body.update(_conceded(state, seat))
        if state.result is not None:
            body["result"] = state.result
        return body


def _speak_progress(state: MatchState) -> dict[str, Any]:
    order = state.speaking_order
    if state.stage == "speak" and state.current_speaker_seat in order:
        return {"next_speaker_seat": state.current_speaker_seat,
                "round_speak_progress": f"{order.index(state.current_speaker_seat)}/{len(order)}"}
    return {"next_speaker_seat": None, "round_speak_progress": f"{len(order)}/{len(order)}"}


def _round_result(event: dict[str, Any]) -> dict[str, Any]:
    keys = ("eliminated_seat", "vote_breakdown", "tie_break_applied", "remaining_civilians",
            "remaining_undercovers", "remaining_blanks")
    return {"eliminated_role": event["revealed_role"], **{k: event.get(k) for k in keys}}


def _conceded(state: MatchState, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    civilians, undercovers, _blanks = ending.remaining(state)
    role_zh = {"civilian": "平民", "undercover": "卧底", "blank": "白板"}.get(player.role or "", "")
    return {"you": {"seat": seat, "alive": False, "role": player.role},
            "summary": f"{player.display_name} 自爆，公开身份为{role_zh}",
            "remaining_civilians": civilians, "remaining_undercovers": undercovers}
