"""`GET /api/matches/{id}/trajectories`: a match's decisions as dataset lines (issue 30; `decisions.trajectory`).

While the match runs, a caller gets only its own seat's lines (its Bearer key or play token names the seat);
once it has ended, anyone gets any seat's, or every seat's. Each seat's lines hold only what that seat was shown.
"""

from __future__ import annotations

from typing import Any

from app.db import decisions as decisions_repo
from app.db import matches as match_repo
from app.protocol.errors import ApiError
from app.protocol.viewer import TERMINAL
from app.services.match import decisions
from app.services.match.match_cache import seat_dict
from app.services.match.seating import Caller, seat_of
from app.services.match.shell import Shell


async def of_match(shell: Shell, match_id: str, caller: Caller, seat: int | None) -> list[dict[str, Any]]:
    """The lines of `seat` (None: every seat the caller may read), seat by seat, each in decision order."""
    async with shell.db.reader() as session:
        match = await match_repo.get(session, match_id)
        if match is None:
            raise ApiError("match_not_found", f"no match {match_id!r}")
        seats = await match_repo.seats(session, match_id)
        if seat is not None and not any(s.seat == seat for s in seats):
            raise ApiError("bad_request", f"no seat {seat} in match {match_id}", field="seat")
        if match.status not in TERMINAL:
            own = seat_of([seat_dict(s, official=False) for s in seats], caller)
            if seat is not None and seat != own:
                raise ApiError("trajectory_hidden", "while a match runs, a seat's trajectory is only its holder's",
                               seat=seat)
            seat = own
        events = await match_repo.events_after(session, match_id, 0, match.events_total)
        rows = await decisions_repo.of_match(session, match_id, seat)
    wanted = [seat] if seat is not None else sorted({row.seat for row in rows})
    return [line for s in wanted for line in decisions.trajectory(match_id, match.game, s, rows, events,
                                                                     match.config)]
