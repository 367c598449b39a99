"""`GET /api/games`: the games this server plays, each with its config schema and defaults, actions and codes."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.api.errors import responses
from app.protocol import registry

router = APIRouter(prefix="/api", tags=["games"])


class GameInfo(BaseModel):
    name: str
    default: bool = Field(description="the game a create request without `game` plays")
    config_defaults: dict[str, Any]
    config_schema: dict[str, Any] = Field(description="JSON Schema of `config`")
    actions: dict[str, dict[str, Any]] = Field(description="action `type` → JSON Schema of its `POST /action` body")
    errors: dict[str, dict[str, Any]] = Field(description="the game's own error codes → `{status, message}`")
    sides: list[str] = Field(description="the sides a seat can win on (`result.winner_camp`)")


class GameList(BaseModel):
    games: list[GameInfo]


@router.get("/games", response_model=GameList, summary="The games this server plays", responses=responses())
async def list_games() -> dict[str, Any]:
    default = registry.default_name()
    games = []
    for name in registry.names():
        game = registry.get(name)
        if game is None:
            continue
        games.append({
            "name": name, "default": name == default,
            "config_defaults": game.config_to_json(game.parse_config(None)),
            "config_schema": game.config_model.model_json_schema(),
            "actions": {kind: model.model_json_schema() for kind, model in game.actions.items()},
            "errors": {code: {"status": spec.status, "message": spec.message} for code, spec in game.errors.items()},
            "sides": list(game.sides),
        })
    return {"games": games}
