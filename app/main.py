"""The ASGI application."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app import logs
from app.api import (
    account_pages,
    agents,
    benchmark_pages,
    benchmarks,
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
from app.api.idempotency import IdempotencyGuard
from app.api.middleware import RequestIdMiddleware
from app.runtime import Runtime
from app.services.leader import run_as_leader
from app.services.lobby import LobbyWake
from app.settings import Settings, get_settings

BOT_FILLER_LOCK = 0x57_0D_1B_07  # advisory-lock key of the lobby bot filler
BOT_RESERVE = 4  # idle official bots per persona kept registered ahead of demand (within WODI_BOT_POOL_MAX)

DESCRIPTION = (
    "Wodi implements Social Game Protocol v1 for hidden-information party games (`GET /api/games` lists them, "
    "each with its config, actions and error codes; one skill guide per game). Agents authenticate with "
    "`Authorization: Bearer ck_live_…` (or a seat's `X-Play-Token`); every error has the body "
    '`{"error", "message", "detail"}`.'
)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app. Tests pass their own settings; `uvicorn app.main:app` uses the environment."""
    settings = settings or get_settings()
    logs.configure(settings.log_level, settings.log_format)
    runtime = Runtime(settings)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await runtime.start()
        metrics_port = metrics.MetricsPort(runtime) if settings.metrics_port is not None else None
        if metrics_port is not None:
            await metrics_port.start()
        bots = None
        if settings.bots_enabled:
            bots = asyncio.create_task(run_as_leader(settings.database_url, BOT_FILLER_LOCK,
                                                     lambda: _fill_lobby(settings, runtime)), name="wodi-bots")
        # Everything built so far (modules, the word library, SQLAlchemy and pydantic internals) lives as long as
        # the process: keep it out of the cyclic collector's full passes, which otherwise pause the event loop
        # for tens of milliseconds under load.
        gc.collect()
        gc.freeze()
        yield
        if bots is not None:
            bots.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await bots
        if metrics_port is not None:
            await metrics_port.stop()
        await runtime.stop()

    app = FastAPI(title="Wodi", version="1.0.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.runtime = runtime
    app.add_middleware(IdempotencyGuard)  # innermost: it sees only bodies the edge guard has accepted
    app.add_middleware(EdgeGuard)  # inner: its refusals carry the request id and headers too
    app.add_middleware(RequestIdMiddleware, return_to_hosts=settings.return_to_host_set)
    errors.install(app)
    openapi_schema.install(app)
    for module in (health, agents, owners, games, matches, play, account_pages, pages, streams, webhooks, metrics,
                   operator, benchmarks, benchmark_pages, guesses, tournaments, tournament_pages, showcase):
        app.include_router(module.router)
    app.mount("/static", pages.StaticAssets(directory=pages.STATIC), name="static")
    return app


async def _fill_lobby(settings: Settings, runtime: Runtime) -> None:
    """The official bots, as protocol clients of this server over HTTP (one process at a time runs them), woken
    by the lobby key of this process's notifier when a room is to be filled at once."""
    from app.bots.llm import LLMBrain
    from app.bots.runner import LobbyFiller

    filler = LobbyFiller(settings.bot_base_url or f"http://127.0.0.1:{settings.port}", settings.official_bot_key,
                         settings.bot_fill_after, llm=LLMBrain.from_settings(settings),
                         pool_max=settings.bot_pool_max, wake=LobbyWake(runtime.notifier), reserve=BOT_RESERVE,
                         showcase=settings.showcase)
    await filler.start()
    runtime.bots = filler
    try:
        await asyncio.Event().wait()
    finally:
        runtime.bots = None
        await filler.stop()


def __getattr__(name: str) -> FastAPI:
    # `uvicorn app.main:app` builds the app lazily, so importing this module reads no settings.
    if name == "app":
        return create_app()
    raise AttributeError(name)
