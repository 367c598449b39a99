"""A benchmark's games: open the next planned deal (its duplicate baseline, then the agent's match), and read back
what a finished one contributes to the report (`benchmark_report.GameFacts`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.bots.personas import BY_SLUG
from app.bots.sim import play
from app.db import agents as agents_repo
from app.db import benchmarks as bench_repo
from app.db import decisions as decisions_repo
from app.db import matches as match_repo
from app.db.models import Agent, Benchmark, BenchmarkGame, Match
from app.protocol import registry
from app.protocol.viewer import TERMINAL
from app.services.match import decisions
from app.services.match.seeded_matches import SeatSpec, open_seated, store_played
from app.services.match.shell import Shell
from app.services.platform.benchmark_report import GameFacts
from app.services.platform.reference_pool import pool
from app.services.platform.seat_plan import PlannedGame

AGENT, REFERENCE = "agent", "reference"

STOPPED = "agent_stopped_answering"  # the report's `ended_reason`s
LEFT = "agent_conceded"
CANCELLED = "cancelled"
ELSEWHERE = "agent_seated_elsewhere"


class RunEnded(Exception):
    """The run ended (its agent cancelled it), or another process opened the deal, while this one was opening it:
    the deal is not opened here."""


class SeatedElsewhere(RunEnded):
    """The agent sat down at another table before its next deal opened: the deal is not opened, and the run ends
    (one agent, one table)."""


def _reference_seats(bench: Benchmark, planned: PlannedGame) -> dict[int, SeatSpec]:
    """Every seat of the deal as the reference plays it (the agent's match replaces its own seat)."""
    names = pool(bench.pool).display_names(dict(enumerate(planned.personas)))
    return {seat: SeatSpec(f"ref-{slug}-{seat}", names[seat], persona=slug, dice=f"{bench.pool}:{planned.seed}")
            for seat, slug in enumerate(planned.personas)}


def _linked(bench: Benchmark, planned: PlannedGame, kind: str) -> Any:
    async def link(session: AsyncSession, match: Match) -> None:
        session.add(BenchmarkGame(benchmark_id=bench.benchmark_id, idx=planned.index, kind=kind,
                                  match_id=match.match_id))
    return link


def _free(bench: Benchmark, planned: PlannedGame) -> Callable[[AsyncSession], Awaitable[None]]:
    """Before the agent's match of a deal is written: the run still runs (under the run's lock), the deal is not
    opened yet (another process may have been first), and the agent sits nowhere else — under its row's lock, as a
    join checks it. Both locks are taken before any row is written, in the order run, agent."""
    async def check(session: AsyncSession) -> None:
        run = await bench_repo.get(session, bench.benchmark_id, lock=True)
        if run is None or run.status != bench_repo.RUNNING:
            raise RunEnded(bench.benchmark_id)
        if any(g.idx == planned.index and g.kind == AGENT for g in await bench_repo.games(session, run.benchmark_id)):
            raise RunEnded(bench.benchmark_id)  # opened by another process meanwhile
        await agents_repo.by_id(session, bench.agent_id, lock=True)
        if await match_repo.live_seat_of(session, bench.agent_id) is not None:
            raise SeatedElsewhere(bench.benchmark_id)
    return check


async def play_reference(shell: Shell, bench: Benchmark, planned: PlannedGame) -> Match:
    """The duplicate baseline: the deal played out in process by the reference at every seat (the agent's seat in
    its planned persona), stored as a finished match."""
    game = registry.get(bench.game)
    brain = registry.brain(bench.game)
    assert game is not None and brain is not None  # checked when the run was created
    record = play(game, bench.config, [BY_SLUG[slug] for slug in planned.personas], brain, planned.seed)
    seats = list(_reference_seats(bench, planned).values())
    return await store_played(shell, bench.game, bench.config, seats, record.state, record.events,
                              _linked(bench, planned, REFERENCE))


async def open_agent_match(shell: Shell, bench: Benchmark, agent: Agent, planned: PlannedGame) -> str:
    """The agent's match of the deal: the agent in its planned seat, the reference everywhere else."""
    seats = list({**_reference_seats(bench, planned),
                  planned.seat: SeatSpec(agent.name, agent.display_name or agent.name, agent=agent)}.values())
    applied = await open_seated(shell, bench.game, bench.config, planned.seed, seats,
                                _linked(bench, planned, AGENT), first=_free(bench, planned))
    return applied.match.match_id


def _won(match: Match, seat: int) -> bool:
    return seat in ((match.result or {}).get("winning_seats") or ())


async def facts(session: AsyncSession, bench: Benchmark, planned: PlannedGame, agent_match: Match,
                reference: Match | None) -> tuple[GameFacts, str | None]:
    """What a finished agent match (and its baseline) contribute, and why the run ends with it: `STOPPED` when the
    agent's seat was taken over (it stopped answering), `LEFT` when it conceded. Either way the game is not the
    agent's to count, and the run stops."""
    game = registry.get(bench.game)
    assert game is not None
    seat = planned.seat
    rows = {s.seat: s for s in await match_repo.seats(session, agent_match.match_id)}
    stopped = STOPPED if rows[seat].taken_over else LEFT if rows[seat].conceded else None
    played = agent_match.status == "finished" and bool(agent_match.result) and stopped is None
    events = await match_repo.events_after(session, agent_match.match_id, 0, agent_match.events_total)
    mine = await decisions_repo.of_match(session, agent_match.match_id, seat)
    lines = decisions.trajectory(agent_match.match_id, bench.game, seat, mine, events,
                                 agent_match.config)
    own = [row for row in mine if row.by == "agent"]
    fact = GameFacts(
        index=planned.index, side=planned.side, agent_won=_won(agent_match, seat) if played else None,
        reference_won=_won(reference, seat) if reference is not None and reference.result else None,
        timeouts=sum(1 for r in own if r.outcome == "timeout"), refusals=sum(1 for r in own if r.outcome == "refused"),
        decisions=sum(1 for r in own if r.outcome != "timeout"),
        latencies=[line["latency_s"] for line in lines
                   if line["by"] == "agent" and line["outcome"] != "timeout" and line["latency_s"] is not None],
        reported=sum(1 for r in own if r.usage is not None), input_tokens=sum(r.input_tokens for r in own),
        output_tokens=sum(r.output_tokens for r in own), cost_usd=sum(r.cost_usd or 0.0 for r in own))
    if played:
        fact.figures = registry.seat_figures(game, game.state_from_json(agent_match.state), seat, events)
    if reference is not None and reference.result:
        log = await match_repo.events_after(session, reference.match_id, 0, reference.events_total)
        fact.reference_figures = registry.seat_figures(game, game.state_from_json(reference.state), seat, log)
    return fact, stopped


async def conceded(session: AsyncSession, seats: Sequence[tuple[str, int]]) -> bool:
    """Whether the agent conceded any of these (match, seat)s: it left its run's current match."""
    for match_id, seat in seats:
        if any(s.seat == seat and s.conceded for s in await match_repo.seats(session, match_id)):
            return True
    return False


def ended(match: Match | None) -> bool:
    return match is not None and match.status in TERMINAL
