"""The `Game` members every game spells the same way: the protocol's commands, the config and state as JSON, and
the summary. The kit's `KitGame` has them; a game still writing its own `Game` class inherits them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from app.games.base import AbortReason, MatchSummary
from app.games.kit.commands import Abort, Concede, Join, TakeOver, Timeout
from app.games.kit.dispatch import summary

StateT = TypeVar("StateT", bound=BaseModel)


class Members(Generic[StateT]):
    """`state_model` is the game's state class."""

    state_model: type[StateT]

    def join(self, name: str, display_name: str) -> Join:
        return Join(name=name, display_name=display_name)

    def concede(self, seat: int) -> Concede:
        return Concede(seat=seat)

    def abort(self, reason: AbortReason) -> Abort:
        return Abort(reason=reason)

    def timeout(self, token: int) -> Timeout:
        return Timeout(token=token)

    def take_over(self, seat: int) -> TakeOver:
        """`TakeOver` (`app.protocol.registry.TakesOver`)."""
        return TakeOver(seat=seat)

    def config_to_json(self, config: BaseModel) -> dict[str, Any]:
        return dict(config.model_dump(mode="json"))

    def state_to_json(self, state: StateT) -> dict[str, Any]:
        return dict(state.model_dump(mode="json"))

    def state_from_json(self, data: Mapping[str, Any]) -> StateT:
        return self.state_model.model_validate(dict(data))

    def summary(self, state: Any) -> MatchSummary:
        """status, phase, result and the next timer (`state` is `dispatch.Timed`)."""
        return summary(state)
