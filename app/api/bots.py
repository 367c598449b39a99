"""The official bots' own door: the lobby long-poll they sleep on when they run in a process of their own.

Not part of the protocol and not in `openapi.json`: only a caller holding `X-Official-Bot-Key` may use it. A wait
answers as soon as a room to fill at once is announced on the lobby key of this process's notifier (other server
processes' rooms reach it through PostgreSQL's LISTEN/NOTIFY), or after `wait` seconds. Each call may carry the
pool's figures (`pool_size`, `idle`), which this process's `/metrics` then shows.

A wait that a new room ended also answers with the rooms to fill at once (`rooms`, as `GET
/api/matches?status=waiting&fill_now=true&sort=oldest` lists them): the filler seats them without asking again,
one round trip fewer between a person's quick start and the bots' seats. It also answers with every live seat of an
official agent (`seats`, as `GET /api/bots/seats` lists them), the seats the server gave the bots in a quick start's
own transaction among them: the bots' process plays those it does not play yet.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query

from app.api.deps import RuntimeDep
from app.api.match_schemas import MatchList
from app.protocol.errors import ApiError
from app.runtime import ReportedPool, Runtime
from app.services.identity.tokens import digest, digests_match
from app.services.match import listing
from app.services.match.lobby import LOBBY, ROOMS_PER_PASS

router = APIRouter(prefix="/api/bots", include_in_schema=False)


def _official(runtime: Runtime, key: str) -> None:
    expected = runtime.settings.official_bot_key
    if not expected:
        raise ApiError("official_bot_disabled", "this server registers no official bots")
    if not digests_match(key, digest(expected)):
        raise ApiError("invalid_official_bot_key", "wrong X-Official-Bot-Key")


@router.get("/seats")
async def seats(runtime: RuntimeDep, key: Annotated[str, Header(alias="X-Official-Bot-Key")]) -> dict[str, Any]:
    """Every live seat of an official agent: `{"seats": [{"name", "match_id"}, …]}`."""
    _official(runtime, key)
    return {"seats": await listing.official_seats(runtime)}


@router.get("/wake")
async def wake(runtime: RuntimeDep, key: Annotated[str, Header(alias="X-Official-Bot-Key")],
               after: Annotated[int, Query(ge=0)] = 0, wait: Annotated[float, Query(ge=0, le=30)] = 25.0,
               pool_size: Annotated[int | None, Query(ge=0)] = None,
               idle: Annotated[int | None, Query(ge=0)] = None) -> dict[str, Any]:
    _official(runtime, key)
    if pool_size is not None:
        runtime.bots = ReportedPool(pool_size, min(idle or 0, pool_size))
    latest = await runtime.notifier.wait(LOBBY, after, wait)
    if latest <= after:
        return {"latest": latest}
    rooms = await listing.list_matches(runtime, status="waiting", newest_first=False, agent=None, game=None,
                                       seats_open=None, limit=ROOMS_PER_PASS, fill_now=True)
    listed = MatchList.model_validate({"matches": rooms, "count": len(rooms)}).model_dump(mode="json")
    return {"latest": latest, "rooms": listed["matches"], "seats": await listing.official_seats(runtime)}
