"""`GET /api/games`: the games this server plays, each with its config schema and defaults, actions and codes."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from app.api.deps import playing_agent
from app.api.errors import responses
from app.protocol import registry
from app.protocol.registry import AnyGame

router = APIRouter(prefix="/api", tags=["games"], dependencies=[Depends(playing_agent)])  # §15.8


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


@router.get("/games", response_model=GameList, summary="The games this server plays",
            responses=responses("invalid_api_key"))
async def list_games() -> dict[str, Any]:
    default = registry.default_name()
    installed = tuple((name, game) for name in registry.names() if (game := registry.get(name)) is not None)
    return {"games": [{**_described(game), "name": name, "default": name == default} for name, game in installed]}


_DESCRIBED: dict[str, tuple[AnyGame, dict[str, Any]]] = {}  # name → the game installed and what it declares


def _described(game: AnyGame) -> dict[str, Any]:
    """What a game declares, once per installed game: its JSON Schemas took 3-5 ms of CPU each time (a whole list
    15-25 ms per request, for anyone who asked)."""
    known = _DESCRIBED.get(game.name)
    if known is not None and known[0] is game:
        return known[1]
    described = {
        "config_defaults": game.config_to_json(game.parse_config(None)),
        "config_schema": game.config_model.model_json_schema(),
        "actions": {kind: model.model_json_schema() for kind, model in game.actions.items()},
        "errors": {code: {"status": spec.status, "message": spec.message} for code, spec in game.errors.items()},
        "sides": list(game.sides),
    }
    _DESCRIBED[game.name] = (game, described)
    return described
