"""What `GET /api/benchmarks/{id}`, an agent's list of runs and the trajectory bundle read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from app.db import agents as agents_repo
from app.db import benchmarks as repo
from app.db import decisions as decisions_repo
from app.db import matches as match_repo
from app.db.models import Benchmark
from app.protocol.errors import ApiError
from app.protocol.viewer import TERMINAL
from app.services.match import decisions
from app.services.match.shell import Shell
from app.services.platform.benchmark_games import AGENT, REFERENCE
from app.services.platform.benchmarks import build_report


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


async def view(shell: Shell, benchmark_id: str) -> dict[str, Any]:
    """The run: its plan with each game's matches and results so far, and the report (final once it has ended)."""
    async with shell.db.reader() as session:
        bench = await repo.get(session, benchmark_id)
        if bench is None:
            raise ApiError("benchmark_not_found", f"no benchmark {benchmark_id!r}")
        agent = await agents_repo.by_id(session, bench.agent_id)
        links = await repo.games(session, benchmark_id)
        rows = await repo.matches(session, [g.match_id for g in links])
    ids = {(g.idx, g.kind): g.match_id for g in links}
    matches = []
    current = None
    for planned in bench.plan:
        index, seat = planned["index"], planned["seat"]
        mine, ref = rows.get(ids.get((index, AGENT), "")), rows.get(ids.get((index, REFERENCE), ""))
        if mine is None:
            continue
        if mine.status not in TERMINAL:
            current = mine.match_id
        facts = planned.get("facts") or {}
        # The run's record is public: while the deal is played its side, its seed (the deal, for whoever runs the
        # code) and its baseline (the same deal played out, every role shown) stay hidden.
        live = mine.status not in TERMINAL
        matches.append({"index": index, "side": None if live else planned["side"], "seat": seat,
                        "seed": None if live else planned["seed"], "match_id": mine.match_id, "status": mine.status,
                        "reference_match_id": ref.match_id if ref and not live else None,
                        "reference_persona": planned["personas"][seat],
                        "won": facts.get("agent_won"), "reference_won": facts.get("reference_won")})
    return {"benchmark_id": bench.benchmark_id, "agent": agent.name if agent else None, "game": bench.game,
            "games": bench.games, "played": bench.played, "status": bench.status, "pool": bench.pool,
            "config": bench.config, "current_match_id": current, "created_at": _iso(bench.created_at),
            "finished_at": _iso(bench.finished_at), "matches": matches,
            "report": bench.report if bench.report is not None else build_report(bench)}


def summary(bench: Benchmark) -> dict[str, Any]:
    report = bench.report if bench.report is not None else build_report(bench)
    return {"benchmark_id": bench.benchmark_id, "game": bench.game, "games": bench.games, "played": bench.played,
            "status": bench.status, "pool": bench.pool, "created_at": _iso(bench.created_at),
            "finished_at": _iso(bench.finished_at), "overall": report["overall"],
            "duplicate": {k: report["duplicate"][k] for k in ("deals", "delta", "interval")}}


async def of_agent(shell: Shell, name: str, limit: int = 50) -> list[dict[str, Any]]:
    async with shell.db.reader() as session:
        agent = await agents_repo.by_name(session, name)
        if agent is None:
            raise ApiError("agent_not_found", f"no agent {name!r}")
        runs = await repo.of_agent(session, agent.agent_id, limit)
    return [summary(bench) for bench in runs]


async def bundle(shell: Shell, benchmark_id: str, caller_agent_id: str | None) -> Iterator[dict[str, Any]]:
    """Every trajectory line of the run's agent matches: every seat of a finished one; of a live one, only the
    agent's own seat, and only for the agent itself."""
    async with shell.db.reader() as session:
        bench = await repo.get(session, benchmark_id)
        if bench is None:
            raise ApiError("benchmark_not_found", f"no benchmark {benchmark_id!r}")
        links = [g for g in await repo.games(session, benchmark_id) if g.kind == AGENT]
        rows = await repo.matches(session, [g.match_id for g in links])
        seats = {p["index"]: p["seat"] for p in bench.plan}
        lines: list[dict[str, Any]] = []
        for link in links:
            match = rows[link.match_id]
            over = match.status in TERMINAL
            if not over and caller_agent_id != bench.agent_id:
                continue
            events = await match_repo.events_after(session, match.match_id, 0, match.events_total)
            found = await decisions_repo.of_match(session, match.match_id, None if over else seats[link.idx])
            for seat in sorted({d.seat for d in found}):
                for line in decisions.trajectory(match.match_id, match.game, seat, found, events, match.config):
                    lines.append({"benchmark_id": benchmark_id, "index": link.idx, **line})
    return iter(lines)
