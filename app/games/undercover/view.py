"""Pure projections of a match for one viewer (the HTTP layer adds viewer_role and logs), the snapshot fields'
model, and the action responses of spec §2.3.2, §2.3.3 and §2.8.

`next_action` (spec §2.4.2) is extended with `last_words` and `guess_word` for a seat that
has that pending reveal action — only in rooms whose config turns `last_words` / `blank_guess`
on — and with `debate` for a living seat not done in a `debate_round_N` (only with `debate_rounds`);
a waiting room, and a seat done debating, answer `wait_for_next_phase`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.games.base import Event
from app.games.kit import voting as tally
from app.games.kit.voting import voters
from app.games.undercover import ending
from app.games.undercover.state import MatchState, Player

ACTING = frozenset({"speak", "vote", "last_words", "guess_word", "debate"})


def row(state: MatchState, p: Player, god: bool) -> dict[str, Any]:
    """A seat's row besides seat, name, display_name and alive: a dead seat's revealed role; its role and word only
    with `god=True`."""
    row: dict[str, Any] = {}
    if not p.alive:
        row.update(eliminated_in=p.eliminated_in, revealed_role=p.revealed_role)
    if p.taken_over:
        row["taken_over"] = True
    if god:
        row.update(role=p.role, word=p.word)
    return row


def you(state: MatchState, seat: int) -> dict[str, Any]:
    """The `you` block of a player's snapshot besides seat, alive and allowed_actions."""
    player = state.players[seat]
    action = next_action(state, seat)
    in_vote = state.stage == "vote"
    return {
        "role": player.role,
        "word": player.word,
        "your_turn": action in ACTING,
        "next_action": action,
        "has_voted_this_round": (seat in state.votes) if in_vote else None,
    }


def next_action(state: MatchState, seat: int) -> str:
    """What `seat` should do now (spec §2.4.2, plus last_words / guess_word)."""
    if (off := tally.off_table_action(state)) is not None:
        return off
    pending = [a.kind for a in state.pending if a.seat == seat]
    if pending:
        return "guess_word" if "guess_word" in pending else "last_words"
    if not state.players[seat].alive:
        return "eliminated"
    if state.stage == "debate":
        return "debate" if seat not in state.debate_done else "wait_for_next_phase"
    return tally.day_action(state, state.stage, seat) or "wait_for_next_phase"


def public_fields(state: MatchState) -> dict[str, Any]:
    """Snapshot fields every viewer sees."""
    return {
        "current_speaker_seat": state.current_speaker_seat,
        "deadline_ts": state.deadline_ts,
        "round_index": state.round_index,
        "alive_count": len(state.living_seats()),
        "pk_candidates": list(state.pk_candidates),
        "result": state.result,
        **_debate_fields(state),
    }


def _debate_fields(state: MatchState) -> dict[str, Any]:
    """During a debate (extension): which debate round of how many."""
    if state.stage != "debate":
        return {}
    return {"debate_round": state.debate_index, "debate_rounds": state.config.debate_rounds}


def wordpair(state: MatchState) -> dict[str, str] | None:
    """The secret pair (for god views and the end), or None before the deal."""
    return state.wordpair.model_dump() if state.wordpair else None


class UndercoverSnapshot(BaseModel):
    """The snapshot fields an undercover match adds to the protocol's."""

    pk_candidates: list[int] | None = Field(default=None, description="the tied seats of a PK round (else [])")
    wordpair: dict[str, str] | None = Field(
        default=None, description="god views only (spectators; everyone after the end): `{civilian, undercover}`")
    debate_round: int | None = Field(
        default=None, description="extension, only during a `debate_round_N`: which debate round (1…debate_rounds)")
    debate_rounds: int | None = Field(
        default=None, description="extension, only during a `debate_round_N`: the room's `config.debate_rounds`")


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
