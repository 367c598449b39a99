"""openapi.json is committed and equal to what the app serves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.routing import APIRoute

from app.api import deps
from app.openapi import PATH, render


def test_committed_openapi_matches_the_app() -> None:
    assert PATH.read_text(encoding="utf-8") == render(), "run `make openapi` and commit openapi.json"


async def test_served_schema_equals_file(client: httpx.AsyncClient) -> None:
    served = (await client.get("/openapi.json")).json()
    assert served == json.loads(PATH.read_text(encoding="utf-8"))


def test_every_operation_declares_response_model_and_errors() -> None:
    spec = json.loads(PATH.read_text(encoding="utf-8"))
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            ok = [code for code in responses if code.startswith("2")]
            assert ok, (method, path)
            for code in ok:
                content = responses[code].get("content", {})
                assert content, f"{method} {path} {code} has no declared body"
            errors = [code for code in responses if code[0] in "45"]
            assert "500" in errors and "429" in errors, (method, path)
            for code in errors:
                ref = responses[code]["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ErrorBody"), (method, path, code)


def _leaves(routes: list[Any]) -> Iterator[Any]:
    for route in routes:
        inner = getattr(route, "original_router", None)
        yield from _leaves(inner.routes) if inner is not None else [route]


def _calls(dependant: Any) -> Iterator[Any]:
    for sub in dependant.dependencies:
        yield sub.call
        yield from _calls(sub)


def test_every_operation_that_reads_an_api_key_documents_401(app: FastAPI) -> None:
    """A route that reads `Authorization` (its own dependency or its router's) answers a malformed or unknown key
    with 401 `invalid_api_key`, so its schema must say so (a client generated from it expects no other code)."""
    spec = json.loads(PATH.read_text(encoding="utf-8"))
    readers = {deps.playing_agent, deps.current_agent}
    missing = [f"{method} {route.path}" for route in _leaves(app.router.routes)
               if isinstance(route, APIRoute) and route.include_in_schema and readers & set(_calls(route.dependant))
               for method in sorted(route.methods)
               if "401" not in spec["paths"][route.path][method.lower()]["responses"]]
    assert missing == []
