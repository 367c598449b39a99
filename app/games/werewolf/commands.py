"""Commands the rules accept, the request schema of every action, and the parser for HTTP action bodies.

Action types (`POST /action` bodies; `concede` has its own endpoint):

- `night_action` `{action, target_seat?}`: `kill` (wolves), `check` (seer), `guard` (guard), `save` and
  `poison` (witch), `pass` (any night role: do nothing tonight).
- `speak` `{text}` / `skip` — the current speaker of `speak_round_N`, or a dead seat's last words.
- `vote` `{target_seat, comment?}` — `vote_round_N`.
- `whisper` `{target_seat, text}` — wolves at night, to a living fellow wolf (the whole pack reads it).
- `last_words` `{text}` — a dead seat whose last words are due (`skip` passes).
- `shoot` `{target_seat}` — the hunter who just died; `target_seat: null` passes.

Every body may carry `analysis` (a JSON object; `{"private": true, …}` keeps it out of public events) and
`expected_seq` (checked by the services); unknown fields are refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from app.games.base import GameError

NightActionName = Literal["kill", "check", "guard", "save", "poison", "pass"]


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")


class Join(_Command):
    """A player takes the next free seat."""

    type: Literal["join"] = "join"
    name: str
    display_name: str


class NightAction(_Command):
    """A night role acts: kill, check, guard, save, poison, or pass."""

    type: Literal["night_action"] = "night_action"
    seat: int
    action: NightActionName
    target_seat: int | None = None
    analysis: dict[str, Any] | None = None


class Speak(_Command):
    """The current speaker talks (by day), or a dead seat says its last words."""

    type: Literal["speak"] = "speak"
    seat: int
    text: str
    analysis: dict[str, Any] | None = None


class Skip(_Command):
    """The current speaker (or a dead seat with last words due) passes."""

    type: Literal["skip"] = "skip"
    seat: int


class Vote(_Command):
    """A living seat votes to send another out."""

    type: Literal["vote"] = "vote"
    seat: int
    target_seat: int
    comment: str | None = None
    analysis: dict[str, Any] | None = None


class Whisper(_Command):
    """A wolf talks to the pack at night."""

    type: Literal["whisper"] = "whisper"
    seat: int
    target_seat: int
    text: str


class LastWords(_Command):
    """A dead seat's last words."""

    type: Literal["last_words"] = "last_words"
    seat: int
    text: str


class Shoot(_Command):
    """The hunter who just died takes a living seat with him (None: he passes)."""

    type: Literal["shoot"] = "shoot"
    seat: int
    target_seat: int | None = None


class Concede(_Command):
    """A living seat leaves the game and reveals its role."""

    type: Literal["concede"] = "concede"
    seat: int


class Abort(_Command):
    """The host cancels a waiting room, or the janitor clears a stale one."""

    type: Literal["abort"] = "abort"
    reason: Literal["host_cancelled", "janitor_timeout"]


class Timeout(_Command):
    """The scheduler fires the timer whose token it read from the state."""

    type: Literal["timeout"] = "timeout"
    token: int


Command = Annotated[
    Join | NightAction | Speak | Skip | Vote | Whisper | LastWords | Shoot | Concede | Abort | Timeout,
    Field(discriminator="type"),
]


class _Request(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    analysis: dict[str, Any] | None = Field(None, description="Optional reasoning; `private: true` keeps it hidden.")
    expected_seq: StrictInt | None = Field(None, description="Refuse (409 stale_state) if the log moved past it.")


class NightActionRequest(_Request):
    """`{"type": "night_action", "action": "kill", "target_seat": 3}`."""

    type: Literal["night_action"]
    action: NightActionName
    target_seat: StrictInt | None = None


class SpeakRequest(_Request):
    """`{"type": "speak", "text": "…"}`."""

    type: Literal["speak"]
    text: StrictStr


class SkipRequest(_Request):
    """`{"type": "skip"}`."""

    type: Literal["skip"]


class VoteRequest(_Request):
    """`{"type": "vote", "target_seat": 2, "comment": "…"}`."""

    type: Literal["vote"]
    target_seat: StrictInt
    comment: StrictStr | None = None


class WhisperRequest(_Request):
    """`{"type": "whisper", "target_seat": 4, "text": "…"}` (wolves, at night)."""

    type: Literal["whisper"]
    target_seat: StrictInt
    text: StrictStr


class LastWordsRequest(_Request):
    """`{"type": "last_words", "text": "…"}`."""

    type: Literal["last_words"]
    text: StrictStr


class ShootRequest(_Request):
    """`{"type": "shoot", "target_seat": 5}`; `null` passes."""

    type: Literal["shoot"]
    target_seat: StrictInt | None


ACTIONS: Mapping[str, type[BaseModel]] = MappingProxyType({
    "night_action": NightActionRequest,
    "speak": SpeakRequest,
    "skip": SkipRequest,
    "vote": VoteRequest,
    "whisper": WhisperRequest,
    "last_words": LastWordsRequest,
    "shoot": ShootRequest,
})

_COMMANDS: Mapping[str, type[_Command]] = MappingProxyType({
    "night_action": NightAction, "speak": Speak, "skip": Skip, "vote": Vote, "whisper": Whisper,
    "last_words": LastWords, "shoot": Shoot,
})


def parse_command(raw: Mapping[str, Any], seat: int) -> Command:
    """Turn an HTTP action body into a command for `seat`.

    Raises `GameError("bad_request", errors=[...])` for a body that is not an object, an unknown `type`,
    an unknown field, a missing field or a wrong type.
    """
    if not isinstance(raw, Mapping):
        raise GameError("bad_request", "the action body must be a JSON object",
                        errors=[{"loc": [], "msg": "not an object", "type": "dict_type"}])
    kind = raw.get("type")
    request = ACTIONS.get(kind) if isinstance(kind, str) else None
    if request is None:
        raise GameError("bad_request", f"unknown action type: {kind!r}", allowed=sorted(ACTIONS),
                        errors=[{"loc": ["type"], "msg": "unknown action type", "type": "literal_error"}])
    try:
        body = request.model_validate(dict(raw))
    except ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        field = ".".join(str(part) for part in errors[0]["loc"])
        raise GameError("bad_request", f"{field}: {errors[0]['msg']}", field=field, errors=errors) from None
    fields = body.model_dump(exclude={"expected_seq"})
    command = _COMMANDS[kind]  # type: ignore[index]
    keep = {key: value for key, value in fields.items() if key in command.model_fields}
    return command.model_validate({**keep, "seat": seat})  # type: ignore[return-value]
