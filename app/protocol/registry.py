"""Games register here; the protocol layer talks to them only through `Game`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Game(Protocol):
    """What a game supplies. States and commands are the game's own types; the protocol never looks inside."""

    name: str

    def parse_config(self, raw: Mapping[str, Any] | None) -> Any: ...

    def config_to_json(self, config: Any) -> dict[str, Any]: ...

    def n_players(self, config: Any) -> int: ...

    def new_match(self, config: Any, host_name: str, host_display_name: str, *, seed: int, now: float) -> Any: ...

    def join(self, name: str, display_name: str) -> Any: ...

    def parse_action(self, raw: Mapping[str, Any], seat: int) -> Any: ...

    def concede(self, seat: int) -> Any: ...

    def abort(self, reason: str) -> Any: ...

    def timeout(self, token: int) -> Any: ...

    def apply(self, state: Any, command: Any, *, now: float) -> Any: ...

    def state_to_json(self, state: Any) -> dict[str, Any]: ...

    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def summary(self, state: Any) -> dict[str, Any]:
        """`status`, `phase`, `result`, `timer` (`{due, kind, token}` or None) of a state."""
        ...

    def role_set(self, state: Any, seat: int) -> frozenset[str]: ...

    def players_view(self, state: Any, *, god: bool) -> list[dict[str, Any]]: ...

    def public_fields(self, state: Any) -> dict[str, Any]: ...

    def god_fields(self, state: Any) -> dict[str, Any]: ...

    def you_view(self, state: Any, seat: int) -> dict[str, Any]: ...

    def action_response(self, state: Any, seat: int, events: list[dict[str, Any]]) -> dict[str, Any]: ...


_GAMES: dict[str, Game] = {}


def register(game: Game) -> None:
    _GAMES[game.name] = game


def get(name: str) -> Game | None:
    return _GAMES.get(name)


def names() -> list[str]:
    return sorted(_GAMES)
