"""Work done once instead of per request: FastAPI's routes built at a server's start-up rather than by its first
requests, and `GET /api/games`'s schemas built once per installed game."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, routing

from app.main import _warm_routes
from app.protocol import registry
from tests.api.helpers import register


async def test_a_warmed_app_builds_no_route_on_its_first_requests(app: FastAPI, client: httpx.AsyncClient,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert _warm_routes(app.router.routes) > 0
    built: Counter[str] = Counter()
    build = routing._IncludedRouter._build_effective_context

    def counted(self: Any, route: Any) -> Any:
        built[str(getattr(route, "path", route))] += 1
        return build(self, route)

    monkeypatch.setattr(routing._IncludedRouter, "_build_effective_context", counted)
    agent = await register(client, "warm-first")
    assert (await client.get("/api/games")).status_code == 200
    assert (await client.get("/api/matches")).status_code == 200
    assert (await client.get("/api/agents/me", headers={"Authorization": f"Bearer {agent['api_key']}"})
            ).status_code == 200
    assert not built, built  # without the warm-up each router builds every one of its routes here


async def test_the_games_list_builds_each_schema_once(client: httpx.AsyncClient,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    first = (await client.get("/api/games")).json()
    calls: Counter[str] = Counter()
    for name in registry.names():
        game = registry.get(name)
        assert game is not None
        original = game.config_model.model_json_schema

        def counted(*args: Any, _name: str = name, _original: Any = original, **kwargs: Any) -> Any:
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(game.config_model, "model_json_schema", counted)
    again = await client.get("/api/games")
    assert again.json() == first
    assert not calls, calls
    assert [g["name"] for g in first["games"]] == registry.names()
    assert sum(g["default"] for g in first["games"]) == 1
