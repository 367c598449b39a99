"""The kit's base of every game's state: what the kit itself reads and writes (seed, seq, status, phase, seats,
timer, result); a game adds its own fields by subclassing `KitState[ItsConfig, ItsSeat]`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, Field

from app.games.base import MatchStatus


class Timer(BaseModel):
    """The one deadline a match waits for: the scheduler fires `Timeout(token)` at `due`; `kind` names the game's
    timer handler."""

    due: float
    kind: str
    token: int


class SeatRow(BaseModel):
    """Who sits in a seat, and its role once dealt (None before)."""

    seat: int
    name: str
    display_name: str
    role: str | None = None


class KitSeat(SeatRow):
    """One seat: who sits there, its role once dealt, whether it left or the official bot plays it."""

    conceded: bool = False
    taken_over: bool = False

    @property
    def alive(self) -> bool:
        return not self.conceded

    @property
    def dealt(self) -> bool:
        """The seat has its part (role, character): it is on a side."""
        return self.role is not None


class Conceding(Protocol):
    seat: int
    conceded: bool


def camp_outcome(players: Sequence[Conceding], on_side: Callable[[Any], bool]) -> tuple[list[int], list[int]]:
    """A side won: the seats on it win and every other seat loses, except that a seat that conceded loses whatever
    its side (§2.8: a concession counts as a loss for the seat that conceded). (winning seats, losing seats)."""
    winners = [p.seat for p in players if on_side(p) and not p.conceded]
    return winners, [p.seat for p in players if p.seat not in winners]


ConfigT = TypeVar("ConfigT", bound=BaseModel)
SeatT = TypeVar("SeatT", bound=KitSeat)


class KitState(BaseModel, Generic[ConfigT, SeatT]):
    """Everything the kit needs of a match; JSON in, JSON out (the match row). `deadline_ts` is the public deadline
    of the running clock (epoch seconds, rounded up); `timer` is what the scheduler fires."""

    seed: int
    seq: int = 0
    config: ConfigT
    status: MatchStatus = "waiting"
    phase: str = "waiting"
    players: list[SeatT] = Field(default_factory=list)
    deadline_at: float | None = None
    deadline_ts: int | None = None
    timer: Timer | None = None
    timer_tokens: int = 0
    result: dict[str, Any] | None = None

    def seat(self, seat: int) -> SeatT | None:
        return self.players[seat] if 0 <= seat < len(self.players) else None

    def seated(self) -> list[SeatT]:
        """The seats still in the game."""
        return [p for p in self.players if p.alive]


PlayerT = TypeVar("PlayerT")
PlayerT_co = TypeVar("PlayerT_co", covariant=True)


class _RoundTable(Protocol[PlayerT_co]):
    phase: str

    @property
    def status(self) -> str: ...

    @property
    def players(self) -> Sequence[PlayerT_co]: ...


class _Seated(Protocol):
    @property
    def seat(self) -> int: ...

    @property
    def alive(self) -> bool: ...


class RoundTableMethods(Generic[PlayerT]):
    """What every round-based state asks of its `phase` (`<stage>_round_<n>`) and `players` list: mixed into a
    game's state model (it declares no field, so the state's JSON is unchanged)."""

    @property
    def stage(self: _RoundTable[PlayerT]) -> str:
        """The phase without its round number; `aborted` once aborted (the phase stays where the match stopped)."""
        return "aborted" if self.status == "aborted" else self.phase.split("_round_")[0]

    def seat(self: _RoundTable[PlayerT], seat: int) -> PlayerT | None:
        """The player in `seat`, or None when there is no such seat."""
        if 0 <= seat < len(self.players):
            return self.players[seat]
        return None

    def living_seats(self: _RoundTable[_Seated]) -> list[int]:
        """Seats still in the game, ascending."""
        return [p.seat for p in self.players if p.alive]


class RoundSeat(SeatRow):
    """A seat of a round-based game, where a seat can go out of the game (voted out, killed, conceded): `alive` is
    its own field; `role` is the game's (subclasses narrow its type and add their fields); `revealed_role` is the
    role the table has been shown of a seat out of the game (None: not shown)."""

    alive: bool = True
    conceded: bool = False
    taken_over: bool = False
    revealed_role: str | None = None

    @property
    def dealt(self) -> bool:
        return self.role is not None


RoundSeatT = TypeVar("RoundSeatT", bound=RoundSeat)


class RoundState(BaseModel, RoundTableMethods[RoundSeatT], Generic[ConfigT, RoundSeatT]):
    """The base of a round-based game's state (`kit.turns`, `kit.voting`): what the kit reads and writes (seed,
    seq, status, phase, seats, clock, result) plus the round, the floor and the vote."""

    seed: int
    seq: int = 0
    config: ConfigT
    status: MatchStatus = "waiting"
    phase: str = "waiting"
    round_index: int = 0
    players: list[RoundSeatT] = Field(default_factory=list)
    speaking_order: list[int] = Field(default_factory=list)
    current_speaker_seat: int | None = None
    votes: dict[int, int] = Field(default_factory=dict)
    pk: bool = False
    pk_candidates: list[int] = Field(default_factory=list)
    noop_streak: int = 0
    deadline_at: float | None = None
    deadline_ts: int | None = None
    timer: Timer | None = None
    timer_tokens: int = 0
    result: dict[str, Any] | None = None

    def alive_with(self, *roles: str) -> list[int]:
        """Living seats holding one of `roles`."""
        return [p.seat for p in self.players if p.alive and p.role in roles]

    def seats_with(self, *roles: str) -> list[int]:
        """All seats (living or not) holding one of `roles`."""
        return [p.seat for p in self.players if p.role in roles]
