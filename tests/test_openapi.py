"""openapi.json is committed and equal to what the app serves."""

from __future__ import annotations

import json

import httpx

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
