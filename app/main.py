"""The ASGI application."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import sys
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from app import logs
from app.api import (
    account_pages,
    agents,
    benchmark_pages,
    benchmarks,
    bots,
    errors,
    games,
    guesses,
    health,
    matches,
    metrics,
    openapi_schema,
    operator,
    owners,
    pages,
    play,
    showcase,
    streams,
    tournament_pages,
    tournaments,
    webhooks,
)
from app.api.edge import EdgeGuard
from app.api.hot import HotPaths
from app.api.idempotency import IdempotencyGuard
from app.api.middleware import HeadAsGet, RequestIdMiddleware
from app.runtime import Runtime
from app.services.match.lobby import LobbyWake
from app.services.platform.leader import run_as_leader
from app.settings import Settings, get_settings

BOT_FILLER_LOCK = 0x57_0D_1B_07  # advisory-lock key of the lobby bot filler
BOTS_RESTART_AFTER = 1.0  # seconds before a bots process that exited is started again
log = logging.getLogger("wodi.bots")

DESCRIPTION = (
    "Wodi implements Social Game Protocol v1 for hidden-information party games (`GET /api/games` lists them, "
    "each with its config, actions and error codes; one skill guide per game). Agents authenticate with "
    "`Authorization: Bearer ck_live_…` (or a seat's `X-Play-Token`); every error has the body "
    '`{"error", "message", "detail"}`.'
)


# The collector's first generation runs every 10,000 allocations instead of 700: a request allocates hundreds of
# short-lived objects, and at the default a third of the collections' time went on generation-0 runs that found
# little (docs/measurements/2026-12-05-lean-path.md).
GC_THRESHOLDS = (10_000, 20, 20)


def _tune_collector() -> None:
    """Once start-up is done. Everything built so far (modules, the app and its routes, the word library, SQLAlchemy
    and pydantic internals) lives as long as the process: frozen out of the collector's view, a full collection no
    longer walks those few hundred thousand objects (10-20 ms each time, mid-request, before)."""
    gc.set_threshold(*GC_THRESHOLDS)
    gc.collect()
    gc.freeze()


def _warm_routes(routes: Iterable[Any]) -> int:
    """Build now what FastAPI builds on the first request through each included router (every route's fields and
    validators: 30-50 ms of CPU for the first request of a router, once per process), so that no agent's first
    request pays it and the collector's freeze sees it. Routers of another shape are left to build lazily."""
    built = 0
    for route in routes:
        candidates = getattr(route, "effective_candidates", None)
        if not callable(candidates):
            continue
        built += 1
        low_priority = getattr(route, "effective_low_priority_routes", None)
        if callable(low_priority):
            low_priority()
        built += _warm_routes(candidates())
    return built


def create_app(settings: Settings | None = None, *, tune_collector: bool = False) -> FastAPI:
    """Build the app. Tests pass their own settings; `uvicorn app.main:app` uses the environment. A server process
    passes `tune_collector`: FastAPI's routes are built at start-up and what start-up built is frozen out of the
    collector's view (tests and tools that build many apps in one process keep Python's collector as it is)."""
    settings = settings or get_settings()
    logs.configure(settings.log_level, settings.log_format)
    runtime = Runtime(settings)

    @asynccontextmanager
    async def lifespan(served: FastAPI) -> AsyncIterator[None]:
        await runtime.start()
        metrics_port = metrics.MetricsPort(runtime) if settings.metrics_port is not None else None
        if metrics_port is not None:
            await metrics_port.start()
        filler: asyncio.Task[None] | None = None
        if settings.bots_enabled:  # one process of the cluster runs them (an advisory lock on PostgreSQL)
            run = (lambda: _bots_process(settings)) if settings.bots_process else (
                lambda: _fill_lobby(settings, runtime))
            filler = asyncio.create_task(run_as_leader(settings.database_url, BOT_FILLER_LOCK, run), name="wodi-bots")
        if tune_collector:
            _warm_routes(served.router.routes)
            _tune_collector()
        yield
        if filler is not None:
            filler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await filler
        if metrics_port is not None:
            await metrics_port.stop()
        await runtime.stop()

    traced = settings.opentelemetry
    app = FastAPI(title="Wodi", version="1.0.0", description=DESCRIPTION, lifespan=lifespan,
                  telemetry={"tracing": traced, "metrics": traced, "logs": traced})
    app.state.runtime = runtime
    app.add_middleware(HotPaths)  # innermost: an agent's snapshot, events and action, beneath the router
    app.add_middleware(IdempotencyGuard)  # it sees only bodies the edge guard has accepted
    app.add_middleware(EdgeGuard)  # inner: its refusals carry the request id and headers too
    app.add_middleware(RequestIdMiddleware, return_to_hosts=settings.return_to_host_set)
    app.add_middleware(HeadAsGet)  # outermost: HEAD is a GET without its body
    errors.install(app)
    openapi_schema.install(app)
    for module in (health, agents, bots, owners, games, matches, play, account_pages, pages, streams, webhooks, metrics,
                   operator, benchmarks, benchmark_pages, guesses, tournaments, tournament_pages, showcase):
        app.include_router(module.router)
    app.mount("/static", pages.StaticAssets(directory=pages.STATIC), name="static")
    return app


async def _fill_lobby(settings: Settings, runtime: Runtime) -> None:
    """The official bots, as protocol clients of this server over HTTP (one process at a time runs them), woken
    by the lobby key of this process's notifier when a room is to be filled at once."""
    from app.bots.llm import LLMBrain
    from app.bots.pool import RESERVE
    from app.bots.runner import LobbyFiller

    filler = LobbyFiller(settings.bot_base_url or f"http://127.0.0.1:{settings.port}", settings.official_bot_key,
                         settings.bot_fill_after, llm=LLMBrain.from_settings(settings),
                         pool_max=settings.bot_pool_max, wake=LobbyWake(runtime.notifier), reserve=RESERVE,
                         showcase=settings.showcase)
    await filler.start()
    runtime.bots = filler
    try:
        await asyncio.Event().wait()
    finally:
        runtime.bots = None
        await filler.stop()


async def _bots_process(settings: Settings) -> None:
    """The official bots in a child process of their own (`python -m app.bots --wake --with-parent`), off this
    process's event loop; started again if it exits. It reads the same environment, and exits when this process
    does (the end of its stdin closes, even on SIGKILL)."""
    from app.bots.pool import RESERVE

    args = [sys.executable, "-m", "app.bots", "--base-url", settings.bot_base_url or f"http://127.0.0.1:{settings.port}",
            "--fill-after", str(settings.bot_fill_after), "--pool-max", str(settings.bot_pool_max),
            "--reserve", str(RESERVE), "--wake", "--with-parent", *([] if settings.showcase else ["--no-showcase"])]
    env = {**os.environ, "WODI_OFFICIAL_BOT_KEY": settings.official_bot_key}  # not on the command line (`ps`)
    while True:
        child = await asyncio.create_subprocess_exec(*args, stdin=asyncio.subprocess.PIPE, env=env)
        try:
            code = await child.wait()
        except asyncio.CancelledError:
            await _stop_child(child)
            raise
        log.warning("the bots process exited with code %s; starting it again in %.0f s", code, BOTS_RESTART_AFTER)
        await asyncio.sleep(BOTS_RESTART_AFTER)


async def _stop_child(child: asyncio.subprocess.Process) -> None:
    if child.returncode is None:
        child.terminate()
        try:
            await asyncio.wait_for(child.wait(), 10)
        except TimeoutError:
            child.kill()
            await child.wait()


def __getattr__(name: str) -> FastAPI:
    # `uvicorn app.main:app` builds the app lazily, so importing this module reads no settings.
    if name == "app":
        return create_app(tune_collector=True)
    raise AttributeError(name)
