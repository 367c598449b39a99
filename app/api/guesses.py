"""Spectators guess the hidden seats of a live match, and the readers' board (issue 33; `docs/people/watch.md`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import OwnerIdDep, RuntimeDep, playing_agent, require_same_origin
from app.api.errors import responses
from app.services.rating import guesses as service

router = APIRouter(prefix="/api", tags=["spectators"], dependencies=[Depends(playing_agent)])  # §15.8


class GuessIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seats: list[int] = Field(description="the seats you think are on the hidden side (one to n − 1 of them)",
                             max_length=32)


class GuessOut(BaseModel):
    match_id: str
    round: int = Field(description="the round the guess counts for: the number the match's phase ends with")
    seats: list[int]


class GuessRow(BaseModel):
    round: int
    seats: list[int]
    made_at: str
    spectator: str = Field(description="the spectator's nickname")
    mine: bool
    hits: int | None = Field(description="named seats that were hidden (null until the match ends)")
    misses: int | None
    points: int | None = Field(description="hits − misses (null until the match ends)")


class GuessList(BaseModel):
    match_id: str
    status: str
    open: bool = Field(description="guesses are taken now: the match is in progress and its spectators do not see "
                                   "the roles (a compete-mode match, or a server that shows them at the end)")
    guesses: list[GuessRow] = Field(description="during the match your own; after it ends everyone's, scored")


class Reader(BaseModel):
    spectator: str
    points: int
    hits: int
    misses: int
    guesses: int
    matches: int


class ReadersBoard(BaseModel):
    readers: list[Reader]


@router.post("/matches/{match_id}/guesses", response_model=GuessOut, summary="Guess the hidden seats (spectators)",
             responses=responses("invalid_api_key", "login_required", "cross_origin", "guess_not_spectator",
                                 "match_not_found", "match_not_in_progress", "invalid_guess", "guess_roles_shown",
                                 "owner_suspended"))
async def guess(match_id: str, body: GuessIn, request: Request, runtime: RuntimeDep,
                owner_id: OwnerIdDep) -> dict[str, Any]:
    if owner_id is not None:  # the origin guards a session; without one the answer is login_required
        require_same_origin(request, runtime)
    return await service.submit(runtime, match_id, owner_id, body.seats)


@router.get("/matches/{match_id}/guesses", response_model=GuessList, summary="The guesses of a match",
            responses=responses("invalid_api_key", "match_not_found"))
async def guesses(match_id: str, runtime: RuntimeDep, owner_id: OwnerIdDep) -> dict[str, Any]:
    return await service.listing(runtime, match_id, owner_id)


@router.get("/spectators/board", response_model=ReadersBoard, summary="The readers' board: spectators by points",
            responses=responses("invalid_api_key"))
async def board(runtime: RuntimeDep, limit: Annotated[int, Query(ge=1, le=200)] = 20) -> dict[str, Any]:
    return {"readers": await service.board(runtime, limit)}
