"""schemathesis against the served OpenAPI (long-polls with wait=0): no 5xx, no response off its schema."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from app.openapi import PATH
from tests.conftest import _wipe
from tests.e2e.server import Server

schema = schemathesis.openapi.from_path(PATH)
CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance, content_type_conformance]


@pytest.fixture(scope="module")
def live_server(database_url: str) -> Iterator[str]:
    # Every valid quick start promises seats to the bots: a pool this large never answers 503 bots_unavailable here.
    server = Server(database_url, WODI_BOT_POOL_MAX="500").start()
    yield server.base_url
    server.stop()
    import asyncio

    asyncio.run(_wipe(database_url))


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms(case: schemathesis.Case, live_server: str) -> None:
    if case.query and "wait" in case.query:
        case.query["wait"] = 0
    case.call_and_validate(base_url=live_server, checks=CHECKS, timeout=10)
