"""The request schema of every action: the request is the command (the kit hands it to the rule with the seat).

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

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from app.games.kit.requests import LastWords, Whisper

NightActionName = Literal["kill", "check", "guard", "save", "poison", "pass"]


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


class WhisperRequest(Whisper, _Request):
    """A wolf talks to the pack at night (only with `config.allow_whisper`): `target_seat` a living fellow wolf;
    every living wolf reads it."""


class LastWordsRequest(LastWords, _Request):
    """Say your last words (next_action `last_words`)."""


class ShootRequest(_Request):
    """The hunter who just died shoots (next_action `shoot`)."""

    type: Literal["shoot"]
    target_seat: StrictInt | None = Field(description="a living seat, or null to pass")


class ConcedeRequest(_Request):
    """Leave the match now; your role is revealed (the same as `POST /concede`)."""

    type: Literal["concede"]
