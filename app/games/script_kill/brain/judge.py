"""Suspicion (from the preset `weights` of the clues the seat may see) and trust (from trades, chats, talk)."""

from __future__ import annotations

import random

from app.games.script_kill.brain import weights as w
from app.games.script_kill.brain.seat import Seat


def suspicion(seat: Seat, noise: float = 0.0) -> dict[str, float]:
    """Character id → how guilty it looks to this seat (every character but its own)."""
    scores = {cid: 0.0 for cid in seat.characters if cid != seat.character}
    for clue in seat.clues.values():
        preset = clue.get("weights")
        if isinstance(preset, dict) and preset:
            for cid, value in preset.items():
                if cid in scores:
                    scores[cid] += float(value)
        else:
            for cid in clue.get("about") or []:
                if cid in scores:
                    scores[cid] += w.ABOUT
    if noise:
        for cid in scores:  # stable within one game: seeded by the seat and the character, not by the dice
            scores[cid] += random.Random(f"{seat.me}:{seat.character}:{cid}").uniform(-1, 1) * noise * w.JITTER
    return scores


def ranked(seat: Seat, noise: float = 0.0) -> list[str]:
    """Character ids, most suspect first (ties by id, so the order is stable)."""
    scores = suspicion(seat, noise)
    return sorted(scores, key=lambda cid: (-scores[cid], cid))


def top_suspect_seat(seat: Seat, offered: list[int], noise: float = 0.0) -> int | None:
    """The offered seat whose character looks most guilty (never the seat itself)."""
    for cid in ranked(seat, noise):
        target = seat.seat_of.get(cid)
        if target is not None and target in offered and target != seat.me:
            return target
    others = [s for s in offered if s != seat.me]
    return others[0] if others else None


def trust(seat: Seat) -> dict[int, float]:
    """Seat → how far this seat trusts it (chats and gifts raise it; suspicion and accusing me lower it)."""
    scores = suspicion(seat)
    out = {s: -w.SUSPECT_TRUST * scores.get(cid, 0.0) for cid, s in seat.seat_of.items() if s != seat.me}
    for event in seat.events:
        sender = event.get("seat")
        if not isinstance(sender, int) or sender == seat.me or sender not in out:
            continue
        kind = event.get("type")
        if kind == "private_chat" and event.get("to") == seat.me:
            out[sender] += w.CHATTED
        elif kind == "trade" and event.get("to") == seat.me:
            out[sender] += w.TRADED
        elif kind == "speech" and _accuses(str(event.get("text") or ""), seat.name):
            out[sender] -= w.ACCUSED_ME
    return out


def _accuses(text: str, name: str) -> bool:
    return bool(name) and name in text and any(word in text for word in ("可疑", "嫌疑", "凶手", "怀疑"))
