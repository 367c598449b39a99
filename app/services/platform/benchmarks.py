"""Benchmark runs (issue 30): an agent's N games against a frozen reference pool, played one at a time, each deal
also played once by the reference in the agent's seat (the duplicate baseline).

`create` plans the run (`seat_plan`) and opens its first deal; whenever one of its agent matches ends,
`BenchmarkRunner.ended` records that game's facts and opens the next deal (or finishes the run with its report).
The agent plays through the ordinary API: it sits at the match like at any other (`/api/agents/me/active`,
webhooks, the stream). A match whose agent seat was taken over (`takeover_after_timeouts`, 2 by default in a run)
ends the run: `status` `stopped`, the report's `ended_reason` `agent_stopped_answering`. An agent that concedes its
current match stops the run the same way (`agent_conceded`) and is free for other tables at once; the match plays on
without it. The agent may also cancel its run (`cancel`, `ended_reason` `cancelled`): its live match is conceded
for it. A deal due while the agent sits at another table is not opened (one agent, one table): the run stops,
`agent_seated_elsewhere`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as agents_repo
from app.db import benchmarks as repo
from app.db import matches as match_repo
from app.db.models import Agent, Benchmark
from app.games.base import GameError
from app.protocol import registry
from app.protocol.errors import ApiError
from app.services.match import matches as match_service
from app.services.match.seating import Caller
from app.services.match.shell import Shell
from app.services.platform import benchmark_games as games_of
from app.services.platform.background import Background
from app.services.platform.benchmark_report import GameFacts, report
from app.services.platform.reference_pool import POOLS, brain_digest, pool
from app.services.platform.seat_plan import PlannedGame, plan

log = logging.getLogger("wodi.benchmarks")
MAX_GAMES = 200
DEFAULTS: dict[str, Any] = {"takeover_after_timeouts": 2}  # where the game's config has the field


def _config(game: registry.AnyGame, raw: object) -> dict[str, Any]:
    if raw is not None and not isinstance(raw, Mapping):
        raise ApiError("invalid_config", "config must be an object", field="config")
    fields = getattr(game.config_model, "model_fields", {})
    base = {k: v for k, v in DEFAULTS.items() if k in fields}
    try:
        return game.config_to_json(game.parse_config({**base, **(raw or {})}))
    except (ApiError, GameError) as error:  # the game names its own key; here it sits under `config`
        if isinstance(error.detail.get("field"), str):
            error.detail["field"] = f"config.{error.detail['field']}"
        raise


def _games(raw: object) -> int:
    if type(raw) is not int or not 1 <= raw <= MAX_GAMES:
        raise ApiError("invalid_config", f"games must be an integer from 1 to {MAX_GAMES}", field="games")
    return raw


def _game(name: object) -> registry.AnyGame:
    game = registry.get(str(name)) if name is not None else registry.get(registry.default_name())
    if game is None:
        raise ApiError("invalid_config", f"unknown game {name!r}; known: {', '.join(registry.names())}",
                       field="game")
    if registry.brain(game.name) is None or not isinstance(game, registry.TakesOver):
        raise ApiError("invalid_config", f"game {game.name!r} has no reference players", field="game")
    return game


async def create(shell: Shell, agent: Agent, body: Mapping[str, Any]) -> str:
    """Plan a run for `agent` and open its first deal; returns the benchmark id."""
    game = _game(body.get("game"))
    games = _games(body.get("games"))
    version = body.get("pool") or None
    if version is not None and version not in POOLS:
        raise ApiError("invalid_config", f"unknown pool {version!r}; known: {', '.join(POOLS)}", field="pool")
    config_json = _config(game, body.get("config"))
    seed = body.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**31):
        raise ApiError("invalid_config", "seed must be an integer from 0 to 2^31-1", field="seed")
    reference = pool(version)
    planned = plan(game, game.parse_config(config_json), games, reference,
                   seed if seed is not None else secrets.randbits(31))
    benchmark_id = "bm_" + secrets.token_hex(6)
    async with shell.db.writer() as session:
        await agents_repo.by_id(session, agent.agent_id, lock=True)  # one create at a time per agent
        if (running := await repo.running_of(session, agent.agent_id)) is not None:
            raise ApiError("benchmark_running", f"benchmark {running.benchmark_id} is still running; one at a time",
                           benchmark_id=running.benchmark_id)
        if (live := await match_repo.live_seat_of(session, agent.agent_id)) is not None:
            raise ApiError("already_in_match", "finish your current match first", match_id=live.match_id)
        session.add(Benchmark(benchmark_id=benchmark_id, agent_id=agent.agent_id, game=game.name, games=games,
                              pool=reference.version, config=config_json, plan=[p.to_json() for p in planned],
                              status=repo.RUNNING, played=0))
    await advance(shell, benchmark_id)
    return benchmark_id


def _planned(bench: Benchmark) -> list[PlannedGame]:
    return [PlannedGame.from_json(p) for p in bench.plan]


async def advance(shell: Shell, benchmark_id: str) -> None:
    """Record the agent's finished match (if any) and open the next deal, or finish the run. Safe to call any
    time, from anywhere: it does nothing while the current match runs, and a deal is opened once (the link's
    primary key refuses a second)."""
    async with shell.db.writer() as session:
        bench = await repo.get(session, benchmark_id, lock=True)
        if bench is None or bench.status != repo.RUNNING:
            return
        stopped, live, opened = await _record(session, bench)
        if stopped or (not live and opened >= bench.games):
            _finish(bench, stopped)
            return
        agent = await agents_repo.by_id(session, bench.agent_id)
        next_index = opened if not live else None
    if next_index is None or agent is None:
        return
    await _open(shell, bench, agent, _planned(bench)[next_index])


async def _record(session: AsyncSession, bench: Benchmark) -> tuple[str | None, list[str], int]:
    """Record the facts of every agent match of the run that has ended and is not recorded yet: why the run stops
    early (`games_of.STOPPED`, `games_of.LEFT`; None to go on), the agent's live match ids, and how many agent
    matches were opened so far."""
    links = await repo.games(session, bench.benchmark_id)
    rows = await repo.matches(session, [g.match_id for g in links])
    agent_ids = {g.idx: g.match_id for g in links if g.kind == games_of.AGENT}
    reference_ids = {g.idx: g.match_id for g in links if g.kind == games_of.REFERENCE}
    planned = _planned(bench)
    stopped: str | None = None
    recorded = [dict(p) for p in bench.plan]
    for index, match_id in sorted(agent_ids.items()):
        if "facts" in recorded[index] or not games_of.ended(rows.get(match_id)):
            continue
        fact, why = await games_of.facts(session, bench, planned[index], rows[match_id],
                                         rows.get(reference_ids.get(index, "")))
        stopped = stopped or why
        recorded[index]["facts"] = dataclasses.asdict(fact)
        bench.played += 1
    bench.plan = recorded
    live = [i for i, m in agent_ids.items() if not games_of.ended(rows.get(m))]
    if stopped is None and await games_of.conceded(session, [(agent_ids[i], planned[i].seat) for i in live]):
        stopped = games_of.LEFT
    return stopped, [agent_ids[i] for i in live], len(agent_ids)


async def cancel(shell: Shell, agent: Agent, benchmark_id: str) -> None:
    """The run's own agent stops it: `status` `stopped`, `ended_reason` `cancelled`, the games it finished kept
    in the report. Its live match, if any, is conceded for it, so the agent is free for other tables at once (the
    match plays on without it). A run that has already ended is left as it is."""
    async with shell.db.writer() as session:
        bench = await repo.get(session, benchmark_id, lock=True)
        if bench is None:
            raise ApiError("benchmark_not_found", f"no benchmark run {benchmark_id}")
        if bench.agent_id != agent.agent_id:
            raise ApiError("not_your_benchmark", "only the run's own agent can cancel it")
        if bench.status != repo.RUNNING:
            return
        _stopped, live, _opened = await _record(session, bench)
        _finish(bench, games_of.CANCELLED)
    for match_id in live:
        try:
            await match_service.concede(shell, match_id, Caller(agent=agent, play_token=None))
        except ApiError as error:  # it ended, or the seat was taken over or conceded, meanwhile
            log.info("benchmark %s cancelled: its match %s not conceded (%s)", benchmark_id, match_id, error.code)


async def _open(shell: Shell, bench: Benchmark, agent: Agent, planned: PlannedGame) -> None:
    with contextlib.suppress(IntegrityError):  # another process played this deal's baseline first
        await games_of.play_reference(shell, bench, planned)
    try:
        await games_of.open_agent_match(shell, bench, agent, planned)
    except IntegrityError:
        return  # another process opened it first
    except games_of.SeatedElsewhere:
        await _stop(shell, bench.benchmark_id, games_of.ELSEWHERE)
        return
    except games_of.RunEnded:
        return  # cancelled meanwhile
    log.info("benchmark %s: game %d opened", bench.benchmark_id, planned.index)


async def _stop(shell: Shell, benchmark_id: str, reason: str) -> None:
    """End a running run early for `reason`, with the games it has recorded."""
    async with shell.db.writer() as session:
        bench = await repo.get(session, benchmark_id, lock=True)
        if bench is not None and bench.status == repo.RUNNING:
            await _record(session, bench)
            _finish(bench, reason)
    log.info("benchmark %s stopped: %s", benchmark_id, reason)


def _finish(bench: Benchmark, reason: str | None) -> None:
    bench.status = "stopped" if reason else "finished"
    bench.ended_reason = reason
    bench.report = build_report(bench)
    bench.finished_at = datetime.now(UTC)


def game_facts(bench: Benchmark) -> list[GameFacts]:
    return [GameFacts(**p["facts"]) for p in bench.plan if "facts" in p]


def build_report(bench: Benchmark) -> dict[str, Any]:
    game = registry.get(bench.game)
    planned = {p["side"] for p in bench.plan}
    sides = [side for side in (game.sides if game is not None else ()) if side in planned]
    body = report(sides, game_facts(bench), ended_reason=bench.ended_reason)
    return {"pool": bench.pool, "brain_digest": brain_digest(bench.game), **body}


class BenchmarkRunner(Background):
    """Moves runs on when their matches end (tasks of this process), and resumes running ones at start-up."""

    def __init__(self, shell: Shell) -> None:
        super().__init__()
        self.shell = shell

    def ended(self, match_id: str) -> None:
        """A match ended, or a seat of it conceded: if it is a run's, move the run on."""
        self.spawn(self._after(match_id), f"wodi-benchmark-{match_id}")

    async def _after(self, match_id: str) -> None:
        try:
            async with self.shell.db.reader() as session:
                link = await repo.of_match(session, match_id)
            if link is not None and link.kind == games_of.AGENT:
                await advance(self.shell, link.benchmark_id)
        except Exception:  # a background task: log, never raise into the loop
            log.exception("benchmark after match %s failed", match_id)

    async def start(self) -> None:
        async with self.shell.db.reader() as session:
            running = await repo.running_ids(session)
        for benchmark_id in running:
            self.spawn(self._resume(benchmark_id), f"wodi-benchmark-resume-{benchmark_id}")

    async def _resume(self, benchmark_id: str) -> None:
        try:
            await advance(self.shell, benchmark_id)
        except Exception:
            log.exception("resuming benchmark %s failed", benchmark_id)

