"""The record of a room with table extensions (`config.table_extensions`): the public facts the host and the
recap read, folded from the match's own events as they are emitted.

The rules never look back at the log, so the state keeps what these two need: every speaking turn, every
vote (a voided vote is dropped), the votes each seat let run out, debate messages and who they named, the
blank's guesses, and the seats the chaos host pushed (god-only). A default room keeps no record.
"""

from __future__ import annotations

from typing import Any

from app.games.undercover.reading import Cast, Said
from app.games.undercover.state import CastVote, MatchState, Record, SpokenTurn, Step


def sync(step: Step) -> Record | None:
    """Fold the events of `step` not folded yet into the state's record; the record (None in a default room)."""
    state = step.state
    if not state.config.table_extensions:
        return None
    if state.record is None:
        state.record = Record()
    record = state.record
    for event in step.events:
        if event["seq"] > record.folded:
            _fold(record, event)
            record.folded = event["seq"]
    return record


def _fold(record: Record, event: dict[str, Any]) -> None:
    kind = event["type"]
    if kind == "speech_posted":
        record.speeches.append(SpokenTurn(seat=event["seat"], round=event["round"], text=event["text"],
                                          pk=event["pk"]))
    elif kind == "speech_skipped":
        record.speeches.append(SpokenTurn(seat=event["seat"], round=event["round"], text=None, pk=event["pk"],
                                          timeout=event["reason"] == "timeout"))
    elif kind == "vote_cast":
        record.votes.append(CastVote(seat=event["seat"], round=event["round"], target=event["target_seat"],
                                     pk=event["pk"]))
    elif kind == "votes_voided":
        voided = set(event["voter_seats"])
        record.votes = [v for v in record.votes if not (v.round == event["round"] and v.seat in voided
                                                         and v.target == event["target_seat"])]
    elif kind == "vote_abstained":
        for seat in event["seats"]:
            record.abstained[seat] = record.abstained.get(seat, 0) + 1
    elif kind == "debate_posted":
        record.debate_posts[event["seat"]] = record.debate_posts.get(event["seat"], 0) + 1
        for seat in event["addressed_seats"]:
            record.addressed[seat] = record.addressed.get(seat, 0) + 1
    elif kind == "word_guessed":
        record.guesses[event["seat"]] = bool(event["correct"])
    elif kind == "host_steered":
        record.steered[event["round"]] = event["target_seat"]


def public_speeches(record: Record) -> list[Said]:
    """The record's speaking turns as `reading` takes them."""
    return [Said(s.seat, s.round, s.text, s.pk) for s in record.speeches]


def public_votes(record: Record) -> list[Cast]:
    """The record's votes as `reading` takes them."""
    return [Cast(v.seat, v.round, v.target, v.pk) for v in record.votes]


def revealed(state: MatchState) -> dict[int, str]:
    """Roles everyone has seen: the seats out of the game."""
    return {p.seat: p.revealed_role for p in state.players if not p.alive and p.revealed_role}
