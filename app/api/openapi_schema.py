"""The served OpenAPI: FastAPI's, minus its default 422 (we answer schema errors with 400 `bad_request`), plus the
`Idempotency-Key` header that `app.api.idempotency` honours on every `POST /api/…`."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

_DEFAULT_422 = "#/components/schemas/HTTPValidationError"
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 128},
    "description": "optional, 1–128 printable ASCII characters (else 400 `bad_request`). A retry with the same "
                   "key and the same body within 24 h gets the first answer (status, body, Set-Cookie) with "
                   "`Idempotent-Replayed: true`, and changes nothing; the same key with another method, path or "
                   "body → 422 `idempotency_key_reused`; while the first request still runs → it waits, then 409 "
                   "`idempotency_key_in_use`. Keys belong to the credential sent (API key or play token), "
                   "else to the client IP. 5xx, 401 and 429 answers are not kept.",
}
_IDEMPOTENCY_ERRORS = (("422", "idempotency_key_reused"), ("409", "idempotency_key_in_use"))


def install(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description,
                                 routes=app.routes)
            _drop_default_422(schema)
            _declare_idempotency(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _drop_default_422(schema: dict[str, Any]) -> None:
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            response = operation.get("responses", {}).get("422", {})
            ref = response.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref")
            if ref == _DEFAULT_422:
                del operation["responses"]["422"]
    components = schema.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)


def _declare_idempotency(schema: dict[str, Any]) -> None:
    for path, operations in schema.get("paths", {}).items():
        post = operations.get("post")
        if post is None or not path.startswith("/api/"):
            continue
        post.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
        responses = post.setdefault("responses", {})
        for status, code in _IDEMPOTENCY_ERRORS:
            if status in responses:
                responses[status]["description"] += f", `{code}`"
            else:
                responses[status] = {"description": f"Error codes: `{code}`", "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
