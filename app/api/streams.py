"""`GET /api/matches/{id}/events/stream`: server-sent events (the protocol's optional SSE, §1)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.background import BackgroundTask

from app.api.deps import OwnerIdDep, PlayingAgentDep, PlayTokenHeader, RuntimeDep, client_ip, playing_agent
from app.api.errors import responses
from app.api.matches import _caller  # one rule for who the caller is, shared with /events
from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services.delivery import streams
from app.services.identity.tokens import digest
from app.services.match.match_reads import resolve_viewer
from app.services.match.seating import Caller

router = APIRouter(prefix="/api/matches", tags=["matches"], responses=responses("invalid_api_key"),
                   dependencies=[Depends(playing_agent)])
KEEPALIVE = 15  # seconds between keep-alive comments
SHUTDOWN_GRACE = 2.0
DESCRIPTION = (
    "The events `GET /events?since=N` returns to this viewer, pushed as they commit, as `text/event-stream`: one "
    "SSE message per event, `id: <seq>` and `data: <the flat event JSON>` (the default `message` type), a `: ping` "
    f"comment every {KEEPALIVE} s, and a last message `event: end` (`data: {{\"status\": …}}`) once the match has "
    "ended and every event is out. While the match runs these are exactly the events `/events` returns; the stream "
    "stays a live feed to the end (the god view every viewer gets after the end is read from `/events`). "
    "Reconnect with `Last-Event-ID: <seq>` (it wins over `since`) to get exactly the "
    "events after it. Each client may hold `WODI_STREAMS_PER_CLIENT` streams at once per server process; one more is "
    "429 `too_many_streams`. A client is the credential that holds a seat of this match (its API key, play token, or "
    "the session of a seated agent's owner); every other caller — a key or session not seated here, or none — "
    "counts against its IP address."
)
SSE_RESPONSE: dict[int | str, dict[str, Any]] = {200: {"description": "an event stream", "content": {
    "text/event-stream": {"schema": {"type": "string"}, "example":
                          'id: 7\ndata: {"seq": 7, "type": "speech_posted", "visibility": "public", ...}\n\n'}}}}


def _client_key(request: Request, caller: Caller, seated: bool) -> str:
    """Whose stream cap this stream counts against: the credential's own when it holds a seat of this match (an
    agent, a play token, a seated agent's owner); else the client IP's, so throwaway keys or sessions that sit
    nowhere in the match cannot each bring a cap of their own (issue 26)."""
    if seated and caller.agent is not None:
        return f"agent:{caller.agent.agent_id}"
    if seated and caller.play_token is not None:
        return f"token:{digest(caller.play_token)}"
    if seated and caller.owner_id is not None:
        return f"owner:{caller.owner_id}"
    return f"ip:{client_ip(request)}"


def _resume_from(since: int, last_event_id: str | None) -> int:
    if last_event_id is None or not last_event_id.strip():
        return since
    try:
        value = int(last_event_id.strip())
    except ValueError:
        raise ApiError("bad_request", "Last-Event-ID must be an event seq (an integer)",
                       field="Last-Event-ID") from None
    if value < 0:
        raise ApiError("bad_request", "Last-Event-ID must not be negative", field="Last-Event-ID")
    return value


@router.get("/{match_id}/events/stream", summary="Events as server-sent events (resume with Last-Event-ID)",
            description=DESCRIPTION, response_class=EventSourceResponse,
            responses={**SSE_RESPONSE, **responses("invalid_play_token", "match_not_found", "too_many_streams")})
async def stream_events(match_id: str, request: Request, runtime: RuntimeDep, owner_id: OwnerIdDep,
                        since: Annotated[int, Query(ge=0)] = 0,
                        last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
                        agent: PlayingAgentDep = None, play_token: PlayTokenHeader = None) -> EventSourceResponse:
    caller = await _caller(runtime, agent, play_token, owner_id)
    cursor = _resume_from(since, last_event_id)
    first = await streams.opened(runtime, match_id, caller)
    key = _client_key(request, caller, resolve_viewer(first, caller).is_player)
    slot = runtime.streams.acquire(key)  # refuses with 429 here, before the response starts
    # The slot is released when the stream ends, and by the background task should the stream never start.
    # On SIGTERM the runtime's drain ends every stream's generator at once; the grace period (inside uvicorn's 3 s)
    # lets it finish the response cleanly instead of sse-starlette cutting the connection first.
    return EventSourceResponse(_messages(runtime, match_id, caller, cursor, first, slot), ping=KEEPALIVE,
                               shutdown_grace_period=SHUTDOWN_GRACE, background=BackgroundTask(slot.release),
                               headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def _messages(runtime: Runtime, match_id: str, caller: Caller, cursor: int, first: Any,
                    slot: streams.Slot) -> AsyncIterator[ServerSentEvent]:
    try:
        async for event in streams.events(runtime, match_id, caller, cursor, first):
            yield ServerSentEvent(json.dumps(event, ensure_ascii=False, separators=(",", ":")), id=str(event["seq"]))
        if not runtime.notifier.draining:
            latest = await runtime.cache.get(match_id)
            yield ServerSentEvent(json.dumps({"status": latest.row["status"]}, separators=(",", ":")), event="end")
    finally:
        slot.release()
