"""The operator API (`/api/operator/…`): suspend and lift agents and owners, list suspensions.

Authorised by `Authorization: Bearer <WODI_OPERATOR_TOKEN>`; when that setting is empty the API does not exist
(404). Not part of the agents' protocol, so not in `openapi.json`; `python -m app.admin` is its command line.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Query
from pydantic import BaseModel, Field

from app.api.deps import RuntimeDep, check_token
from app.protocol.errors import ApiError
from app.services.identity import moderation


async def operator(runtime: RuntimeDep,
                   authorization: Annotated[str | None, Header(alias="Authorization")] = None) -> None:
    if not runtime.settings.operator_token:
        raise ApiError("not_found", "no such route")
    check_token(runtime.settings.operator_token, authorization, "the operator API")


router = APIRouter(prefix="/api/operator", include_in_schema=False, dependencies=[Depends(operator)])


class Suspend(BaseModel):
    subject: Literal["agent", "owner"]
    name: str = Field(description="the agent's name, or the owner's username")
    reason: str = Field(description="why (recorded with the suspension)")


class Lift(BaseModel):
    subject: Literal["agent", "owner"]
    name: str
    reason: str | None = None


@router.post("/suspensions", status_code=201)
async def suspend(body: Suspend, runtime: RuntimeDep) -> dict[str, Any]:
    return await moderation.suspend(runtime, body.subject, body.name, body.reason)


@router.post("/suspensions/lift")
async def lift(body: Lift, runtime: RuntimeDep) -> dict[str, Any]:
    return await moderation.lift(runtime, body.subject, body.name, body.reason)


@router.get("/suspensions")
async def listing(runtime: RuntimeDep,
                  include_lifted: Annotated[bool, Query(alias="all")] = False) -> dict[str, Any]:
    return {"suspensions": await moderation.listing(runtime, include_lifted=include_lifted)}
