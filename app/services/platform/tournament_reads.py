"""What `GET /api/tournaments` and `GET /api/tournaments/{id}` (and the event's page) read."""

from __future__ import annotations

from typing import Any

from app.db import tournaments as repo
from app.db.models import Tournament
from app.protocol.errors import ApiError
from app.protocol.viewer import TERMINAL
from app.services.match.shell import Shell
from app.services.platform.benchmark_reads import _iso
from app.services.platform.tournaments import ranking, tournament_url
from app.services.rating import ratings

WHEN = {"upcoming": (repo.ENTRY,), "live": (repo.RUNNING,), "finished": (repo.FINISHED, repo.CANCELLED)}


def summary(shell: Shell, event_row: Tournament, entrants: int | None = None) -> dict[str, Any]:
    return {"tournament_id": event_row.tournament_id, "name": event_row.name, "game": event_row.game,
            "format": event_row.format, "status": event_row.status, "rounds": event_row.rounds or None,
            "round": event_row.round, "starts_at": _iso(event_row.starts_at),
            "entry_closes_at": _iso(event_row.entry_closes_at), "max_entrants": event_row.max_entrants,
            "entrants_per_owner": event_row.per_owner, "round_break": event_row.round_break,
            "opponents": event_row.opponents,
            "rated": ratings.competitive(event_row.config), "config": event_row.config,
            "ended_reason": event_row.ended_reason, "finished_at": _iso(event_row.finished_at),
            "url": tournament_url(shell, event_row.tournament_id),
            **({"entrant_count": entrants} if entrants is not None else {})}


async def listing(shell: Shell, when: str | None, limit: int = 50) -> list[dict[str, Any]]:
    statuses = WHEN[when] if when else (*WHEN["upcoming"], *WHEN["live"], *WHEN["finished"])
    async with shell.db.reader() as session:
        rows = await repo.listed(session, statuses, limit)
        counts = {r.tournament_id: sum(e.withdrawn_at is None for e in await repo.entries(session, r.tournament_id))
                  for r in rows}
    return [summary(shell, r, counts[r.tournament_id]) for r in rows]


async def view(shell: Shell, tournament_id: str) -> dict[str, Any]:
    """The event: schedule, entrants, every round's tables (sides shown once a table's match has ended: they are
    hidden information while it is played), the standings with their tie-breaks, the winner."""
    async with shell.db.reader() as session:
        event_row = await repo.get(session, tournament_id)
        if event_row is None:
            raise ApiError("tournament_not_found", f"no tournament {tournament_id!r}")
        entries = await repo.entries(session, tournament_id)
        tables = await repo.tables(session, tournament_id)
        agents = await repo.agents(session, [e.agent_id for e in entries])
        matches = await repo.matches(session, [t.match_id for t in tables])

    def who(agent_id: str | None) -> dict[str, Any]:
        agent = agents.get(agent_id or "")
        return {"name": agent.name if agent else None, "display_name": (agent.display_name or agent.name)
                if agent else None}

    rounds: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
        match = matches.get(table.match_id)
        result = {s["seat"]: s for s in (table.result or {}).get("seats", [])}
        ended = match is not None and match.status in TERMINAL
        seats = []
        for seat in table.seats:
            got = result.get(seat["seat"], {})
            seats.append({"seat": seat["seat"], **(who(seat["agent_id"]) if seat["agent_id"] else
                                                   {"name": None, "display_name": None}),
                          "reference": seat["reference"], "side": got.get("side") if ended else None,
                          # a forfeited seat may have won for its side, played by the bot: the entrant lost
                          "won": bool(got.get("won") and not got.get("forfeit")) if table.result else None,
                          "forfeit": got.get("forfeit") if table.result else None})
        rounds.setdefault(table.round, []).append({
            "table": table.idx, "match_id": table.match_id, "status": match.status if match else "unknown",
            "match_url": shell.settings.match_url(table.match_id), "recorded": table.result is not None,
            "seats": seats})
    rows = ranking(entries, tables)
    withdrawn = {e.agent_id for e in entries if e.withdrawn_at is not None}
    standing = [{**{k: v for k, v in row.items() if k != "agent_id"}, **who(row["agent_id"]),
                 "withdrawn": row["agent_id"] in withdrawn} for row in rows]
    winner = standing[0]["name"] if event_row.status == repo.FINISHED and standing else None
    return {**summary(shell, event_row, len(entries) - len(withdrawn)),
            "entrants": [{**who(e.agent_id), "number": e.number, "entered_at": _iso(e.entered_at),
                               "withdrawn": e.withdrawn_at is not None} for e in entries],
            "round_tables": [{"round": r, "tables": t} for r, t in sorted(rounds.items())],
            "standings": standing, "winner": winner}
