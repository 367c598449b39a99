"""FastAPI's native OpenTelemetry: off unless `WODI_OPENTELEMETRY` asks for it, so a request does not look up the
process's tracer, meter and logger providers."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from opentelemetry import trace

from app.main import create_app
from tests.conftest import make_settings


async def _lookups(database_url: str, monkeypatch: pytest.MonkeyPatch, **overrides: Any) -> int:
    calls = 0
    real = trace.get_tracer_provider

    def counted() -> Any:
        nonlocal calls
        calls += 1
        return real()

    application = create_app(make_settings(database_url, **overrides))
    async with application.router.lifespan_context(application):
        monkeypatch.setattr(trace, "get_tracer_provider", counted)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application),
                                     base_url="http://testserver") as client:
            assert (await client.get("/api/games")).status_code == 200
        monkeypatch.undo()
    return calls


async def test_requests_skip_the_providers_by_default(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert await _lookups(database_url, monkeypatch) == 0


async def test_the_setting_turns_tracing_on(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert await _lookups(database_url, monkeypatch, opentelemetry=True) >= 1
