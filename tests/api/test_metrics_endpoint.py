"""`/metrics` in-process: where it answers (token, own port, localhost) and label values a client cannot multiply."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.main import create_app
from tests.api.helpers import assert_error
from tests.conftest import RecordingClient, _wipe, make_settings
from tests.e2e.server import free_port
from tests.e2e.test_metrics import parse, value

TOKEN = "test-metrics-token"


async def _serving(database_url: str, **settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(make_settings(database_url, **settings))
    async with app.router.lifespan_context(app), \
            RecordingClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as client:
        yield client
    await _wipe(database_url)


@pytest.fixture
async def scraped(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async for client in _serving(database_url, metrics_token=TOKEN):
        yield client


async def test_label_values_stay_few_whatever_clients_send(scraped: httpx.AsyncClient) -> None:
    """Paths no route serves share `route="unmatched"`, unknown methods `method="other"`."""
    for index in range(5):
        await scraped.get(f"/no/such/path/{index}")
        await scraped.request(f"BREW{index}", "/api/games")
    samples = parse((await scraped.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})).text)
    labels = [dict(have) for (name, have) in samples if name == "wodi_http_requests_total"]
    assert not any(label["route"].startswith("/no/") for label in labels)
    assert value(samples, "wodi_http_requests_total", route="unmatched", method="GET", status="404") >= 5
    assert value(samples, "wodi_http_requests_total", route="/api/games", method="other") >= 5
    assert not any(label["method"].startswith("BREW") for label in labels)


async def test_the_token_guards_the_public_port(scraped: httpx.AsyncClient) -> None:
    assert_error(await scraped.get("/metrics"), 401, "auth_required")
    assert_error(await scraped.get("/metrics", headers={"Authorization": "Bearer wrong"}), 401,
                 "invalid_operator_token")
    assert (await scraped.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})).status_code == 200


@pytest.mark.parametrize(("settings", "status"), [
    ({}, 404),  # a public server with neither setting: no metrics
    ({"public_base_url": "http://127.0.0.1:8000"}, 200),  # localhost: open, to try it
    ({"public_base_url": "http://127.0.0.1:8000", "metrics_port": free_port()}, 404),  # its own port instead
])
async def test_where_metrics_answer_without_a_token(database_url: str, settings: dict[str, Any],
                                                    status: int) -> None:
    async for client in _serving(database_url, **settings):
        assert (await client.get("/metrics")).status_code == status
