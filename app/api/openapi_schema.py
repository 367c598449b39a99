"""The served OpenAPI: FastAPI's, minus its default 422 (we answer schema errors with 400 `bad_request`), plus the
`Idempotency-Key` header that `app.api.idempotency` honours on every `POST /api/…`, plus what the registered games
declare: the action bodies (the request schema of `POST /action` is their union), their own error codes, their
snapshot fields, `can_see_<field>` capabilities and named profile fields. Games are read when the schema is first
asked for, so a game registered at start-up is in it."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BaseModel

from app.api.deps import current_agent, playing_agent
from app.api.errors import game_responses
from app.protocol import registry

_DEFAULT_422 = "#/components/schemas/HTTPValidationError"
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 128},
    "description": "optional, 1–128 printable ASCII characters (else 400 `bad_request`). A retry with the same "
                   "key and the same body within 24 h gets the first answer (status, body, Set-Cookie) with "
                   "`Idempotent-Replayed: true`, and changes nothing; the same key with another method, path or "
                   "body → 422 `idempotency_key_reused`; while the first request still runs → it waits, then 409 "
                   "`idempotency_key_in_use`. Keys belong to the credential sent (API key, play token or owner "
                   "session), else to the client IP; an answer is replayed only to the same credential. Without "
                   "one, an answer that hands out a play token or an API key is not replayed (409 "
                   "`idempotency_key_in_use`, `detail.withheld`), and a refusal is not kept. 5xx, 401 and 429 "
                   "answers are not kept. See docs/agents/idempotency.md.",
}
_IDEMPOTENCY_ERRORS = (("422", "idempotency_key_reused"), ("409", "idempotency_key_in_use"))


def install(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description,
                                 routes=app.routes)
            _drop_default_422(schema)
            _declare_idempotency(schema)
            _declare_suspensions(schema, app)
            _declare_games(schema)
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


def takes_a_key(dependant: Dependant) -> bool:
    """Whether a route resolves an agent's Bearer key (directly or through another dependency)."""
    return any(dep.call in (current_agent, playing_agent) or takes_a_key(dep) for dep in dependant.dependencies)


def _declare_suspensions(schema: dict[str, Any], app: FastAPI) -> None:
    """A route that resolves a key refuses a suspended agent's or owner's (403 `agent_suspended`,
    `owner_suspended`: `app.services.identity.moderation`), whatever else it answers."""
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if not (isinstance(route, APIRoute) and route.include_in_schema and takes_a_key(route.dependant)):
            continue
        for method in route.methods or ():
            operation = schema["paths"].get(route.path, {}).get(method.lower())
            if operation is not None:
                for code in ("agent_suspended", "owner_suspended"):
                    _add_error(operation, "403", code)


def _add_error(operation: dict[str, Any], status: str, code: str) -> None:
    responses = operation.setdefault("responses", {})
    if status not in responses:
        responses[status] = {"description": f"Error codes: `{code}`", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
    elif f"`{code}`" not in responses[status]["description"]:
        responses[status]["description"] += f", `{code}`"


def _declare_idempotency(schema: dict[str, Any]) -> None:
    for path, operations in schema.get("paths", {}).items():
        post = operations.get("post")
        if post is None or not path.startswith("/api/"):
            continue
        post.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
        for status, code in _IDEMPOTENCY_ERRORS:
            _add_error(post, status, code)


ACTION_PATH = "/api/matches/{match_id}/action"
_ERROR_BODY = {"$ref": "#/components/schemas/ErrorBody"}


def _component(components: dict[str, Any], name: str, model: type[BaseModel]) -> dict[str, str]:
    """Put `model` (and the models it uses) into `components` under `name`; returns a `$ref` to it."""
    body = model.model_json_schema(ref_template=f"#/components/schemas/{name}.{{model}}")
    for sub, sub_schema in body.pop("$defs", {}).items():
        components[f"{name}.{sub}"] = sub_schema
    components[name] = body
    return {"$ref": f"#/components/schemas/{name}"}


def _declare_games(schema: dict[str, Any]) -> None:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    games = [game for name in registry.names() if (game := registry.get(name)) is not None]
    refs = [_component(components, f"{game.name}.{model.__name__}", model)
            for game in games for model in game.actions.values()]
    post = schema["paths"][ACTION_PATH]["post"]
    content = post["requestBody"]["content"]["application/json"]
    content["schema"] = {"anyOf": refs, "description": content["schema"].get("description", "")}
    responses = post["responses"]
    for status, codes in sorted(game_responses().items()):
        listed = ", ".join(f"`{code}`" for code in sorted(codes))
        if str(status) in responses:
            responses[str(status)]["description"] += f"; the games': {listed}"
        else:
            responses[str(status)] = {"description": f"Error codes (the games'): {listed}",
                                      "content": {"application/json": {"schema": _ERROR_BODY}}}
    snapshot = components["Snapshot"]["properties"]
    capabilities = components["Capabilities"]["properties"]
    for game in games:
        fields = game.snapshot_model.model_json_schema(ref_template="#/components/schemas/{model}")
        for key, prop in fields.get("properties", {}).items():
            snapshot.setdefault(key, {**prop, "description": f"{game.name}: {prop.get('description', '')}".strip()})
        for field in game.secret_fields:
            capabilities[f"can_see_{field}"] = {"type": "boolean", "title": f"Can See {field}",
                                                "description": f"{game.name}: whether `{field}` is shown"}
    for model in ("AgentPublic", "AgentPrivate", "AgentRegistered"):
        profile = components.get(model)
        if profile is None:
            continue
        for game in games:
            for field, sides in game.profile_stats.items():
                profile["properties"][field] = {"type": "integer", "title": field, "description": (
                    f"{game.name}: wins on the side{'s' if len(sides) > 1 else ''} {', '.join(sides)}")}
                profile.setdefault("required", []).append(field)
