"""The request bodies `POST /action` accepts in an undercover match (spec §2.3), one pydantic model per `type`.

They are the wire shapes and the commands: the kit's `parse_action` validates a body with the model its `type`
names (an unknown field is refused with `bad_request`, not dropped) and hands it to the rule with the acting seat
(`game.GAME`'s actions). Every model
takes the protocol's optional `analysis` and `expected_seq` (the services read the latter before parsing).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from app.games.kit.requests import LastWords, Whisper

_TEXT = ("at most 500 characters (longer → 422 `text_too_long`); must not contain your own word (422 "
         "`speech_contains_secret_word`); text imitating the server, the host or a system message is flagged "
         "`instruction_like` on its event, or refused with 422 `speech_looks_like_instruction` in a compete_mode "
         "room")


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid")

    analysis: dict[str, Any] | None = Field(
        default=None, description="optional, at most 4 KB of JSON; public unless `analysis.private` is true")
    expected_seq: StrictInt | None = Field(
        default=None, ge=0, description="optional: the `events_total` (or last `seq`) your decision is based on; "
                                        "if the match has moved past it → 409 `stale_state`")


class SpeakAction(_Action):
    """Describe your word (your turn in `speak_round_N`)."""

    type: Literal["speak"]
    text: StrictStr = Field(description=_TEXT)


class SkipAction(_Action):
    """Pass your turn in `speak_round_N` (an empty speech)."""

    type: Literal["skip"]


class VoteAction(_Action):
    """Vote a living seat out (`vote_round_N`, once per round)."""

    type: Literal["vote"]
    target_seat: StrictInt
    comment: StrictStr | None = Field(default=None, description="public reason, same rules as a speech")


class WhisperAction(Whisper, _Action):
    """Talk privately to a fellow undercover (only with `config.allow_whisper`). The text must not contain your own
    word (422 `speech_contains_secret_word`); text imitating the server is flagged or, in compete_mode, refused."""


class LastWordsAction(LastWords, _Action):
    """Say goodbye after being voted out (only with `config.last_words`; next_action `last_words`). The text must not
    contain your own word (422 `speech_contains_secret_word`); text imitating the server is flagged or, in
    compete_mode, refused."""


class GuessWordAction(_Action):
    """A blank voted out names the civilians' word (only with `config.blank_guess`; next_action `guess_word`)."""

    type: Literal["guess_word"]
    word: StrictStr = Field(description="the civilians' word")


class DebateAction(_Action):
    """Post a debate message (extension: only with `config.debate_rounds` ≥ 1; next_action `debate`)."""

    type: Literal["debate"]
    text: StrictStr = Field(description="at most 120 characters (longer → 422 `text_too_long`), at most 2 per seat "
                                        "and debate round (→ 409 `debate_turn_over`); the same own-word and "
                                        "instruction rules as a speech")


class DebatePassAction(_Action):
    """Nothing (more) to say in this debate round (extension: only with `config.debate_rounds` ≥ 1)."""

    type: Literal["debate_pass"]


class ConcedeAction(_Action):
    """Leave the match now; your role is revealed (the same as `POST /concede`)."""

    type: Literal["concede"]
