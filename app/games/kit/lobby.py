"""The waiting room every game shares: the room's first events, who may join, seating, abort."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from app.games.base import ABORT_SUMMARIES, AbortReason, Event, GameError, MatchStatus
from app.games.kit.state import Timer


class Named(Protocol):
    @property
    def name(self) -> str: ...


class Marked(Protocol):
    taken_over: bool


class Room(Protocol):
    """A state with a status and its seats."""

    status: MatchStatus
    phase: str
    result: dict[str, Any] | None
    timer: Timer | None

    @property
    def players(self) -> Sequence[Named]: ...


class RoomStep(Protocol):
    @property
    def state(self) -> Room: ...

    def emit(self, type_: str, visibility: str = "public", **fields: Any) -> Event: ...

    def stop_clock(self) -> None: ...


def announce(step: RoomStep, config: dict[str, Any], host_name: str, host_display_name: str) -> None:
    """The events of a new room: `match_created` (with the dumped config) and the host's `player_joined`."""
    step.emit("match_created", "public", config=config,
              players=[{"seat": 0, "name": host_name, "display_name": host_display_name}])
    step.emit("player_joined", "public", seat=0, name=host_name, display_name=host_display_name)


def check_join(state: Room, name: str, display_name: str) -> int:
    """The seat a joining player gets; raises when the room is not open to this player."""
    if state.status == "in_progress":
        raise GameError("match_full", "every seat is taken", status=state.status)
    if state.status != "waiting":
        raise GameError("match_not_waiting", "the match is not waiting for players", status=state.status)
    if not name.strip() or not display_name.strip():
        raise GameError("bad_request", "name and display_name must not be empty")
    if any(p.name == name for p in state.players):
        raise GameError("duplicate_player", "this player already has a seat", name=name)
    return len(state.players)


def seat_player(step: RoomStep, add: Callable[[int], object], name: str, display_name: str, n_players: int) -> bool:
    """Seat a player in the next free seat (`add(seat)` puts its row in the state); True when that filled the
    table (the game deals then)."""
    seat = check_join(step.state, name, display_name)
    add(seat)
    step.emit("player_joined", "public", seat=seat, name=name, display_name=display_name)
    return len(step.state.players) == n_players


def abort(step: RoomStep, reason: AbortReason) -> None:
    """Cancel a waiting room (the janitor, or a quick start's early end, may also clear a running one). The phase
    stays where the match stopped: the protocol's phases have no `aborted` (§4), the status says it."""
    state = step.state
    if state.status == "finished":
        raise GameError("match_finished", "the match is over")
    if state.status != "waiting" and reason == "host_cancelled":
        raise GameError("match_not_waiting", "only a waiting match can be cancelled", status=state.status)
    state.status = "aborted"
    step.stop_clock()
    state.result = {"winner_camp": None, "reason": reason, "summary": ABORT_SUMMARIES[reason]}
    step.emit("match_aborted", "public", reason=reason)


def take_over(step: RoomStep, seat: Marked | None, number: int, **fields: Any) -> None:
    """From now on the official bot plays seat `number`: a public `seat_taken_over` (with `fields`); again, for no
    seat, or outside a running match: nothing (issue 19)."""
    if step.state.status != "in_progress" or seat is None or seat.taken_over:
        return
    seat.taken_over = True
    step.emit("seat_taken_over", "public", seat=number, **fields)


def abort_table(step: Any, cmd: Any) -> None:
    """`Abort` of a round table (`kit.turns`, `kit.voting`): nobody holds the floor or owes an action any more."""
    if step.state.status != "finished":
        step.state.current_speaker_seat = None
        step.state.pending = []
    abort(step, cmd.reason)


def take_over_in_round(step: Any, cmd: Any) -> None:
    """`TakeOver` of a round table: `seat_taken_over` names the round."""
    take_over(step, step.state.seat(cmd.seat), cmd.seat, round=step.state.round_index)
