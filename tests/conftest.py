"""Shared fixtures: a database built by the real migrations, and the app over real HTTP (ASGI)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from alembic import command
from alembic.config import Config
from fastapi import FastAPI
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
TABLES = ("spectator_guesses", "tournament_tables", "tournament_entries", "tournaments", "benchmark_games",
          "benchmarks", "decisions", "suspensions", "webhook_deliveries", "webhooks", "rating_history",
          "agent_ratings", "rating_anchors", "events", "seats", "matches", "agent_side_stats", "agents", "owners",
          "idempotency_keys")
OFFICIAL_KEY = "test-official-bot-key"
SEEN_ERRORS: list[tuple[int, dict[str, Any]]] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Multi-process tests need PostgreSQL; on the SQLite pass they are deselected (CI runs both passes)."""
    if (os.environ.get("WODI_TEST_DATABASE_URL") or "sqlite").startswith("postgresql"):
        return
    chosen = [item for item in items if item.get_closest_marker("postgres") is None]
    if len(chosen) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in chosen])
        items[:] = chosen


def migrate(url: str) -> None:
    """Build the schema exactly as production does: `alembic upgrade head`."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("sqlalchemy.url", url)
    config.attributes["configure_logger"] = False
    command.upgrade(config, "head")


async def _pg_admin(url: str, *statements: str) -> None:
    """Run `statements` on the server of `url`, connected to its own database (CREATE/DROP DATABASE need
    autocommit, which asyncpg gives outside a transaction)."""
    parts = make_url(url)
    conn = await asyncpg.connect(host=parts.host, port=parts.port or 5432, user=parts.username,
                                 password=parts.password, database=parts.database)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Iterator[str]:
    """SQLite: a file per test session (so per pytest-xdist worker). PostgreSQL: the given database, or with
    pytest-xdist a database of each worker's own (`<name>_<worker>`, made from scratch and dropped at the end), so
    workers never share rows, advisory locks or NOTIFY channels."""
    url = os.environ.get("WODI_TEST_DATABASE_URL")
    if not url:
        url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'test.db'}"
    own = url.startswith("postgresql") and worker_id != "master"
    if own:
        name = f"{make_url(url).database}_{worker_id}"
        asyncio.run(_pg_admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'))
        url = make_url(url).set(database=name).render_as_string(hide_password=False)
    migrate(url)
    yield url
    if own:
        asyncio.run(_pg_admin(os.environ["WODI_TEST_DATABASE_URL"], f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def make_settings(database_url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": database_url,
        "public_base_url": "http://testserver",
        "rate_limit_enabled": False,
        "secret_key": "test-secret-key",
        "official_bot_key": OFFICIAL_KEY,
        "bots_enabled": False,
        "showcase": False,  # a test that counts live matches counts only its own; the showcase tests turn it on
        **overrides,
    }
    return Settings(**values)


async def _wipe(url: str) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        for table in TABLES:
            await conn.execute(text(f"DELETE FROM {table}"))  # noqa: S608 - fixed table names
    await engine.dispose()


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    application = create_app(make_settings(database_url))
    async with application.router.lifespan_context(application):
        yield application
    await _wipe(database_url)


def check_envelope(status: int, body: Any) -> None:
    """identity.md §15.3: `{"error", "message", "detail"}`, with `detail` repeating `error` and `message`."""
    assert isinstance(body, dict) and set(body) == {"error", "message", "detail"}, (status, body)
    assert isinstance(body["error"], str) and isinstance(body["message"], str) and body["message"], (status, body)
    assert body["detail"]["error"] == body["error"] and body["detail"]["message"] == body["message"], (status, body)


class RecordingClient(httpx.AsyncClient):
    """Checks the envelope of every error response any test receives through it, as it arrives."""

    async def send(self, request: httpx.Request, **kwargs: Any) -> httpx.Response:  # type: ignore[override]
        response = await super().send(request, **kwargs)
        if response.status_code >= 400 and request.url.path.startswith(("/api/", "/healthz", "/readyz")):
            await response.aread()
            assert response.headers.get("content-type", "").startswith("application/json"), request.url
            check_envelope(response.status_code, response.json())
            SEEN_ERRORS.append((response.status_code, response.json()))
        return response


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with RecordingClient(transport=transport, base_url="http://testserver") as http:
        yield http
