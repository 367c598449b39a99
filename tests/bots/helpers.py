"""Snapshots in the shape of `GET /api/matches/{id}` for one seat, built by hand for the brain tests."""

from __future__ import annotations

from typing import Any


def snapshot(seat: int, role: str | None, word: str | None, action: str, *, n: int = 6, round_index: int = 1,
             speeches: list[tuple[int, str | None]] | None = None, votes: list[tuple[int, int]] | None = None,
             dead: dict[int, str] | None = None, pk: list[int] | None = None,
             previous: list[tuple[int, int, str]] | None = None) -> dict[str, Any]:
    """`speeches` and `votes` are this round's, in order; `previous` holds (round, seat, text) of earlier rounds."""
    dead = dead or {}
    log: list[dict[str, Any]] = []
    for rnd, who, text in previous or []:
        log.append({"type": "speech_posted", "seat": who, "round": rnd, "text": text, "pk": False})
    for who, text in speeches or []:
        if text is None:
            log.append({"type": "speech_skipped", "seat": who, "round": round_index, "reason": "timeout", "pk": False})
        else:
            log.append({"type": "speech_posted", "seat": who, "round": round_index, "text": text, "pk": False})
    for voter, target in votes or []:
        log.append({"type": "vote_cast", "seat": voter, "round": round_index, "target_seat": target,
                    "comment": None, "pk": bool(pk)})
    players = []
    for s in range(n):
        row: dict[str, Any] = {"seat": s, "name": f"p{s}", "display_name": f"P{s}", "alive": s not in dead}
        if s in dead:
            row.update(eliminated_in="round_1", revealed_role=dead[s])
        players.append(row)
    return {
        "game": "undercover", "status": "in_progress", "phase": f"speak_round_{round_index}",
        "round_index": round_index,
        "pk_candidates": list(pk or []), "players": players, "public_log": log, "deadline_ts": None,
        "you": {"seat": seat, "alive": seat not in dead, "role": role, "word": word, "your_turn": True,
                "next_action": action, "private_log": []},
    }
