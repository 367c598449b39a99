"""An app with the operator token set (events are created by the operator here; owner sessions in test_entry)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.conftest import RecordingClient, _wipe, make_settings
from tests.tournaments.field import OPERATOR


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    application = create_app(make_settings(database_url, operator_token=OPERATOR))
    async with application.router.lifespan_context(application):
        yield application
    await _wipe(database_url)


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with RecordingClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as http:
        yield http
