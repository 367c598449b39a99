"""Spectators guess (issue 33): a logged-in spectator of a live match names the seats they think are on the
hidden side, once per round (the number its `phase` ends with; 0 for a phase without one); sent again in the same
round it replaces that round's guess, and a round's guess is closed when the round ends.

The hidden seats are every seat not on the match's most common side at the end (ties: the side the game lists
first in `sides` is the open one) — whoever the game hides — so no game declares anything. When the match ends
(not when it is aborted) every guess is scored in the same transaction: each named seat that was hidden is a hit,
each other a miss; a spectator's points are hits − misses.
Guesses stay private to their author until the match ends; then they are public with their scores, and the
readers' board ranks spectators by points, then hits, then fewer guesses.

Guesses are taken only where a logged-in spectator does not see the roles while the match runs (`live_god` false:
a `compete_mode` match, or a server with `WODI_CASUAL_SPECTATOR_GOD_VIEW=end`): elsewhere the guesser holds the
answer and the board would rank nothing (409 `guess_roles_shown`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import guesses as repo
from app.db import matches as matches_repo
from app.db import owners as owners_repo
from app.protocol.errors import ApiError
from app.services.identity.owners import check_not_suspended
from app.services.match.match_reads import live_god
from app.services.match.shell import Shell

ROUND = re.compile(r"(\d+)$")


def round_of(phase: str | None) -> int:
    found = ROUND.search(phase or "")
    return int(found.group(1)) if found else 0


def hidden_seats(sides: Sequence[str], seat_sides: Mapping[int, str]) -> frozenset[int]:
    """The seats not on the most common side (ties: the side listed first in `sides` is the open one)."""
    if not seat_sides:
        return frozenset()
    counts = Counter(seat_sides.values())
    order = {side: index for index, side in enumerate(sides)}
    open_side = max(counts, key=lambda side: (counts[side], -order.get(side, len(order))))
    return frozenset(seat for seat, side in seat_sides.items() if side != open_side)


async def score_ended(session: AsyncSession, match_id: str, sides: Sequence[str],
                      seat_sides: Mapping[int, str]) -> None:
    """In the transaction that finished the match: score its guesses."""
    await repo.score(session, match_id, hidden_seats(sides, seat_sides))


async def submit(shell: Shell, match_id: str, owner_id: str | None, seats: Sequence[int]) -> dict[str, Any]:
    if owner_id is None:
        raise ApiError("login_required", "log in to guess: guesses are scored on the readers' board")
    async with shell.db.writer() as session:
        await check_not_suspended(session, owner_id)
        match = await matches_repo.get(session, match_id)
        if match is None:
            raise ApiError("match_not_found", f"no match {match_id!r}")
        if match.status != "in_progress":
            raise ApiError("match_not_in_progress", "guesses are taken while the match is in progress",
                           status=match.status)
        if live_god(shell, match.config or {}):
            raise ApiError("guess_roles_shown", "a logged-in spectator sees every role of this casual match while it "
                           "is played, so a guess here would score nothing: guesses are taken in compete-mode "
                           "matches (and everywhere on a server that shows spectators the roles at the end)")
        seated = await matches_repo.seats(session, match_id)
        mine = await owners_repo.agent_ids_of(session, owner_id)
        player = await owners_repo.own_player(session, owner_id)
        if player is not None:
            mine = mine | {player.agent_id}
        if any(seat.agent_id in mine for seat in seated):
            raise ApiError("guess_not_spectator", "you (or an agent of yours) sit in this match: only spectators "
                                                  "guess")
        numbers = {seat.seat for seat in seated}
        named = list(seats)
        if not named or len(set(named)) != len(named) or not set(named) <= numbers or len(named) >= len(numbers):
            raise ApiError("invalid_guess", f"name one to {len(numbers) - 1} different seats of this match "
                                            f"({min(numbers)}–{max(numbers)})", field="seats")
        round_no = round_of(match.phase)
        await repo.put(session, match_id, owner_id, round_no, sorted(named))
    return {"match_id": match_id, "round": round_no, "seats": sorted(named)}


async def listing(shell: Shell, match_id: str, owner_id: str | None) -> dict[str, Any]:
    """During the match: the caller's own guesses; after it ends: everyone's, scored."""
    async with shell.db.reader() as session:
        match = await matches_repo.get(session, match_id)
        if match is None:
            raise ApiError("match_not_found", f"no match {match_id!r}")
        ended = match.status == "finished"
        taken = match.status == "in_progress" and not live_god(shell, match.config or {})
        if not ended and owner_id is None:
            return {"match_id": match_id, "status": match.status, "open": taken, "guesses": []}
        rows = await repo.of_match(session, match_id, None if ended else owner_id)
        owners = await repo.names(session, sorted({row.owner_id for row in rows}))
    return {"match_id": match_id, "status": match.status, "open": taken,
            "guesses": [{"round": row.round, "seats": row.seats, "made_at": row.made_at.isoformat(),
                         "spectator": _who(owners.get(row.owner_id)), "mine": row.owner_id == owner_id,
                         "hits": row.hits, "misses": row.misses,
                         "points": None if row.hits is None else row.hits - (row.misses or 0)} for row in rows]}


async def board(shell: Shell, limit: int) -> list[dict[str, Any]]:
    async with shell.db.reader() as session:
        rows = await repo.board(session, limit)
        owners = await repo.names(session, [row["owner_id"] for row in rows])
    return [{"spectator": _who(owners.get(row["owner_id"])), "points": int(row["points"] or 0),
             "hits": int(row["hits"] or 0), "misses": int(row["misses"] or 0), "guesses": row["guesses"],
             "matches": row["matches"]} for row in rows]


def _who(owner: Any) -> str:
    return str(owner.nickname or owner.username) if owner is not None else "?"
