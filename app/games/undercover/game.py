"""谁是卧底 as one kit definition (`app.games.kit`): the kit builds the `Game` the services call.

Besides the rules it shapes the action responses of spec §2.3.2, §2.3.3 and §2.8.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, Field

from app.games.base import ErrorSpec, Event
from app.games.kit import Action, Concede, GameDef, KitGame, QuickStart, Rewrite, build, own_checks
from app.games.kit.dispatch import SeatLeft, carry_on
from app.games.kit.voting import voters
from app.games.undercover import (
    actions,
    concede,
    deal,
    debate,
    ending,
    figures,
    recap_voice,
    reveal,
    speaking,
    table,
    view,
    voting,
    whisper,
)
from app.games.undercover.allowed import allowed_actions
from app.games.undercover.config import UndercoverConfig
from app.games.undercover.fairness import wordpair_key
from app.games.undercover.quick import UndercoverQuickStart, quick_config, quick_options
from app.games.undercover.state import MatchState, Player, Step
from app.games.undercover.transitions import (
    PK_CONCEDED,
    SPEECHES_DONE,
    VOTE_ROUND,
    DebateRound,
    PkRound,
    Reveal,
    SpeakRound,
)
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


def response(state: MatchState, seat: int | None, events: list[Event]) -> dict[str, Any]:
    """The fields after `accepted/seq/phase/match_status` (spec §2.3.2, §2.3.3, §2.8)."""
    body: dict[str, Any] = {}
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


GAME: KitGame[MatchState, Step] = build(GameDef(
    name="undercover", config=UndercoverConfig, state=MatchState, seat_model=Player, step=Step,
    snapshot=UndercoverSnapshot, errors=ERRORS, secret_fields=("wordpair",), sides=("civilian", "undercover", "blank"),
    # §15.5's profile fields: a blank shares the undercovers' win, so its wins count as wins_as_undercover.
    profile_stats=MappingProxyType({"wins_as_civilian": ("civilian",), "wins_as_undercover": ("undercover", "blank")}),
    actions={"speak": Action(actions.SpeakAction, speaking.speak), "vote": Action(actions.VoteAction, voting.vote),
             "skip": Action(actions.SkipAction, speaking.TURNS.skip),
             "whisper": Action(actions.WhisperAction, whisper.whisper),
             "last_words": Action(actions.LastWordsAction, reveal.last_words),
             "guess_word": Action(actions.GuessWordAction, reveal.guess_word),
             "debate": Action(actions.DebateAction, debate.debate),
             "debate_pass": Action(actions.DebatePassAction, debate.debate_pass),
             "concede": Action(actions.ConcedeAction)},
    guard=own_checks, dead_may_act=True, deal=deal.deal,
    commands={Concede: concede.concede},
    timers={**speaking.TURNS.timers, **voting.BALLOT.timers, "reveal_expire": reveal.on_expire,
            "debate_expire": debate.on_expire},
    openers={SpeakRound: speaking.open_round, PkRound: speaking.TURNS.open_pk, SPEECHES_DONE: debate.after_speeches,
             DebateRound: debate.open_debate, VOTE_ROUND: voting.BALLOT.open, PK_CONCEDED: voting.end_pk_by_concession,
             Reveal: reveal.open_reveal,
             SeatLeft: carry_on({"speak": speaking.TURNS.leave, "vote": voting.BALLOT.leave,
                                 "debate": debate.after_concede})},
    settle=table.sync, opens=lambda config: default_library().pairs(config.wordpair_tag),
    you=view.you, allowed=allowed_actions, row=view.row, public=view.public_fields,
    god=lambda state: {"wordpair": view.wordpair(state)}, response=response, seat_figures=figures.seat_figures,
    content_key=lambda state: state.wordpair and wordpair_key(state.wordpair.civilian, state.wordpair.undercover),
    quick_start=QuickStart(UndercoverQuickStart, quick_config, quick_options),
    rewrite=Rewrite(recap_voice.source, recap_voice.rewrite),
))
