"""The rules' commands as the tests (and the golden transcripts) spell them: `Speak(seat=1, text=...)` builds the
kit's `Act` with the game's request model, and a command is written to a transcript as the game's own command
classes dumped it before the kit (`{"type": "speak", "seat": 1, "text": ..., "analysis": null}`), so the
committed transcripts replay byte for byte."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.games.kit import Abort, Act, Command, Concede, Join, KitGame, TakeOver, Timeout

KIT: dict[str, Any] = {"join": Join, "concede": Concede, "abort": Abort, "timeout": Timeout, "take_over": TakeOver}


class Commands:
    """`fields`: action type → the fields its command carried in the transcripts (besides `type` and `seat`)."""

    def __init__(self, game: KitGame[Any, Any], fields: Mapping[str, tuple[str, ...]]) -> None:
        self.game, self.fields = game, fields

    def factory(self, kind: str) -> Callable[..., Act]:
        """`seat`'s `kind` action with these fields."""
        model = self.game.actions[kind]

        def make(seat: int, **fields: Any) -> Act:
            return Act(seat=seat, request=model.model_validate({"type": kind, **fields}))
        return make

    def encode(self, command: Command) -> dict[str, Any]:
        if not isinstance(command, Act):
            return command.model_dump()
        body = command.request.model_dump()
        return {"type": body["type"], "seat": command.seat, **{k: body[k] for k in self.fields[body["type"]]}}

    def decode(self, data: Mapping[str, Any]) -> Command:
        rest = dict(data)
        kind = rest.pop("type")
        if kind in KIT:
            command: Command = KIT[kind].model_validate({"type": kind, **rest})
            return command
        seat = rest.pop("seat")
        return self.factory(kind)(seat, **rest)
