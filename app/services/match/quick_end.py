"""A quick start whose only person has gone ends early and frees its bots (issue 26): the person (seat 0; every
other seat is an official bot) timed out `WODI_QUICK_START_IDLE_TURNS` turns in a row, conceded, or has not read
the match for `WODI_QUICK_START_AWAY_AFTER` seconds (the page is closed). The match is aborted in the transaction
that noticed it, with the reason in its result (`player_idle`, `player_conceded`, `player_left`); these reasons
appear only for quick starts: rooms marked `fill_now` with the client that opened them (`quick_client`), not a
room whose host called the bots in for the seats their friends left (`matches.fill`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from app.db.models import Match, Seat
from app.games.base import AbortReason
from app.protocol.registry import Game
from app.protocol.viewer import TERMINAL

PERSON = 0  # the seat the quick start gives the person


def is_quick(match: Match) -> bool:
    return bool(match.fill_now) and match.quick_client is not None


def idle(match: Match, seats: Sequence[Seat], turns: int) -> bool:
    """The person's run of timeouts reached `turns` (`app.services.match.takeover` keeps the run in a quick start)."""
    person = next((s for s in seats if s.seat == PERSON), None)
    return is_quick(match) and person is not None and person.timeouts_in_row >= turns


def away(match: Match, seats: Sequence[Seat], seen_before: datetime) -> bool:
    """A running quick start whose person was last seen (or sat down) before `seen_before`."""
    person = next((s for s in seats if s.seat == PERSON), None)
    if not is_quick(match) or match.status != "in_progress" or person is None:
        return False
    return (person.last_seen_at or person.joined_at) < seen_before


def end(game: Game, state: Any, reason: AbortReason, now: float) -> tuple[Any, list[dict[str, Any]]]:
    """Abort the running match for `reason`: the new state and the game's events (none if it already ended)."""
    if game.summary(state)["status"] in TERMINAL:
        return state, []
    outcome = game.apply(state, game.abort(reason), now=now)
    return outcome.state, outcome.events
