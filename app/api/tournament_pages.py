"""The page of an event (`/tournament/<id>`): schedule, entrants, standings with tie-breaks and each round's tables
linking to their matches, in the page's languages. `static/js/tournament.js` refreshes the live part
(`?part=live`) while the event runs; `?format=json` answers what `GET /api/tournaments/{id}` does."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.api.deps import RuntimeDep
from app.api.pages import _not_found, _page
from app.bots.personas import BY_SLUG
from app.protocol.errors import ApiError
from app.services.platform import tournament_reads as reads

router = APIRouter(include_in_schema=False)


def version(event: dict[str, Any]) -> str:
    """Changes whenever what the live part shows changes (a round seated, a table recorded, the status)."""
    tables = [t for r in event["round_tables"] for t in r["tables"]]
    return f"{event['status']}:{event['round']}:{sum(t['recorded'] for t in tables)}:" \
           f"{sum(t['status'] == 'in_progress' for t in tables)}:{event['entrant_count']}"


def _persona_name(slug: str) -> str:
    """A reference seat's persona as people know it (老实人·阿呆), not its id."""
    persona = BY_SLUG.get(slug)
    return persona.display_name if persona else slug


@router.get("/tournament/{tournament_id}", response_class=HTMLResponse)
async def tournament_page(tournament_id: str, request: Request, runtime: RuntimeDep) -> Response:
    try:
        event = await reads.view(runtime, tournament_id)
    except ApiError as exc:
        if exc.code != "tournament_not_found" or request.query_params.get("format") == "json":
            raise
        return _not_found(request, "not_found_tournament", id=tournament_id)
    if request.query_params.get("format") == "json":
        return JSONResponse(event)
    tables = [t for r in event["round_tables"] for t in r["tables"]]
    context = {"event": event, "version": version(event), "recorded": sum(t["recorded"] for t in tables),
               "persona_name": _persona_name}
    name = "_tournament_live.html" if request.query_params.get("part") == "live" else "tournament.html"
    return _page(request, name, game=event["game"], **context)
