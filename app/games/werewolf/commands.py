"""Commands the rules accept, the request schema of every action, and the parser for HTTP action bodies.

Action types (`POST /action` bodies):

- `night_action` `{action, target_seat?}`: `kill` (wolves), `check` (seer), `guard` (guard), `save` and
  `poison` (witch), `pass` (any night role: do nothing tonight).
- `speak` `{text}` / `skip` — the current speaker of `speak_round_N`, or a dead seat's last words.
- `vote` `{target_seat, comment?}` — `vote_round_N`.
- `whisper` `{target_seat, text}` — wolves at night, to a living fellow wolf (the whole pack reads it).
- `last_words` `{text}` — a dead seat whose last words are due (`skip` passes).
- `shoot` `{target_seat}` — the hunter who just died; `target_seat: null` passes.
- `concede` — the same as `POST /concede`.

Every body may carry `analysis` (a JSON object; `{"private": true, …}` keeps it out of public events) and
`expected_seq` (checked by the services); unknown fields are refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from app.games.base import GameError
from app.games.kit.commands import Abort, Concede, GameCommand, Join, TakeOver, Timeout, Vote

NightActionName = Literal["kill", "check", "guard", "save", "poison", "pass"]

__all__ = [
    "ACTIONS",
    "Abort",
    "Command",
    "Concede",
    "ConcedeRequest",
    "Join",
    "LastWords",
    "LastWordsRequest",
    "NightAction",
    "NightActionName",
    "NightActionRequest",
    "Shoot",
    "ShootRequest",
    "Skip",
    "SkipRequest",
    "Speak",
    "SpeakRequest",
    "TakeOver",
    "Timeout",
    "Vote",
    "VoteRequest",
    "Whisper",
    "WhisperRequest",
    "parse_command",
]



class NightAction(GameCommand):
    """A night role acts: kill, check, guard, save, poison, or pass."""

    type: Literal["night_action"] = "night_action"
    seat: int
    action: NightActionName
    target_seat: int | None = None
    analysis: dict[str, Any] | None = None


class Speak(GameCommand):
    """The current speaker talks (by day), or a dead seat says its last words."""

    type: Literal["speak"] = "speak"
    seat: int
    text: str
    analysis: dict[str, Any] | None = None


class Skip(GameCommand):
    """The current speaker (or a dead seat with last words due) passes."""

    type: Literal["skip"] = "skip"
    seat: int



class Whisper(GameCommand):
    """A wolf talks to the pack at night."""

    type: Literal["whisper"] = "whisper"
    seat: int
    target_seat: int
    text: str


class LastWords(GameCommand):
    """A dead seat's last words."""

    type: Literal["last_words"] = "last_words"
    seat: int
    text: str


class Shoot(GameCommand):
    """The hunter who just died takes a living seat with him (None: he passes)."""

    type: Literal["shoot"] = "shoot"
    seat: int
    target_seat: int | None = None






Command = Annotated[
    Join | NightAction | Speak | Skip | Vote | Whisper | LastWords | Shoot | Concede | Abort | Timeout | TakeOver,
    Field(discriminator="type"),
]


_TEXT = "at most 500 characters (longer → 422 `text_too_long`), not empty"


class _Request(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    analysis: dict[str, Any] | None = Field(
        None, description="optional, at most 4 KB of JSON; public on speak and vote unless `analysis.private` is "
                          "true; accepted and not recorded on the other actions")
    expected_seq: StrictInt | None = Field(
        None, ge=0, description="optional: the `events_total` your decision is based on; if the match has moved "
                                "past it → 409 `stale_state`")


class NightActionRequest(_Request):
    """A night role acts in `night_round_N` (next_action `night_action`): wolves `kill`, the seer `check`s, the
    guard `guard`s, the witch `save`s or `poison`s; any of them may `pass`."""

    type: Literal["night_action"]
    action: NightActionName = Field(description="kill | check | guard | save | poison | pass")
    target_seat: StrictInt | None = Field(
        None, description="the seat acted on (kill, check, guard, poison; save: optional, must be the victim)")


class SpeakRequest(_Request):
    """Speak your turn in `speak_round_N`, or say your last words (next_action `last_words`)."""

    type: Literal["speak"]
    text: StrictStr = Field(description=_TEXT)


class SkipRequest(_Request):
    """Pass your turn in `speak_round_N`, or your last words."""

    type: Literal["skip"]


class VoteRequest(_Request):
    """Vote a living seat out in `vote_round_N` (once; in a PK only for the tied seats)."""

    type: Literal["vote"]
    target_seat: StrictInt = Field(description="another living seat")
    comment: StrictStr | None = Field(None, description="optional public reason, " + _TEXT)


class WhisperRequest(_Request):
    """A wolf talks to the pack at night (only with `config.allow_whisper`); every living wolf reads it."""

    type: Literal["whisper"]
    target_seat: StrictInt = Field(description="a living fellow wolf")
    text: StrictStr = Field(description=_TEXT)


class LastWordsRequest(_Request):
    """Say your last words (next_action `last_words`)."""

    type: Literal["last_words"]
    text: StrictStr = Field(description=_TEXT)


class ShootRequest(_Request):
    """The hunter who just died shoots (next_action `shoot`)."""

    type: Literal["shoot"]
    target_seat: StrictInt | None = Field(description="a living seat, or null to pass")


class ConcedeRequest(_Request):
    """Leave the match now; your role is revealed (the same as `POST /concede`)."""

    type: Literal["concede"]


ACTIONS: Mapping[str, type[BaseModel]] = MappingProxyType({
    "night_action": NightActionRequest,
    "speak": SpeakRequest,
    "skip": SkipRequest,
    "vote": VoteRequest,
    "whisper": WhisperRequest,
    "last_words": LastWordsRequest,
    "shoot": ShootRequest,
    "concede": ConcedeRequest,
})

_COMMANDS: Mapping[str, type[GameCommand]] = MappingProxyType({
    "night_action": NightAction, "speak": Speak, "skip": Skip, "vote": Vote, "whisper": Whisper,
    "last_words": LastWords, "shoot": Shoot, "concede": Concede,
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
