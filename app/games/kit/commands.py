"""The commands of every kit game. An action is the seat plus the request model the game declares for its type:
the request *is* the command."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, StrictInt

from app.games.base import AbortReason


class GameCommand(BaseModel):
    """A command the rules accept: frozen, strict, no unknown fields."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")


class Join(GameCommand):
    """A player takes the next free seat."""

    type: Literal["join"] = "join"
    name: str
    display_name: str
    # Content keys the deal should not draw, if the library allows (`registry.RemembersContent`); left out of dumps
    # when empty.
    avoid: tuple[str, ...] = Field((), strict=False, exclude_if=lambda keys: not keys)


class Act(GameCommand):
    """`seat` sends the action `request` (validated by its model in `parse_action`)."""

    type: Literal["act"] = "act"
    seat: int
    request: SerializeAsAny[BaseModel]


class Concede(GameCommand):
    """A seat leaves the game."""

    type: Literal["concede"] = "concede"
    seat: int


class Abort(GameCommand):
    """The host cancels a waiting room, the janitor clears a stale one, or a quick start whose person has gone
    ends early (`AbortReason`)."""

    type: Literal["abort"] = "abort"
    reason: AbortReason


class Timeout(GameCommand):
    """The scheduler fires the timer whose token it read from the state."""

    type: Literal["timeout"] = "timeout"
    token: int


class TakeOver(GameCommand):
    """From now on the official bot plays `seat` (the services send it after too many timeouts in a row)."""

    type: Literal["take_over"] = "take_over"
    seat: int


Command = Join | Act | Concede | Abort | Timeout | TakeOver


class Request(BaseModel):
    """The base of a game's action request models: frozen, no unknown field, the optional `expected_seq`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    expected_seq: StrictInt | None = Field(
        None, ge=0, description="optional: the `events_total` your decision is based on; if the match has moved "
                                "past it → 409 `stale_state`")



class ConcedeRequest(Request):
    """Leave the match now, the same as `POST /concede` (§2.3.1): the kit takes it for every game that declares no
    `concede` action of its own."""

    type: Literal["concede"]
