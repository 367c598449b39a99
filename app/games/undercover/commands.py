"""Commands the rules accept (the HTTP bodies that become them are in `actions`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")


class Join(_Command):
    """A player takes the next free seat."""

    type: Literal["join"] = "join"
    name: str
    display_name: str
    # Content keys (`wordpair_key`) the deal should not draw, if the library allows; left out of dumps when empty.
    avoid: tuple[str, ...] = Field((), strict=False, exclude_if=lambda keys: not keys)


class Speak(_Command):
    """The current speaker describes their word."""

    type: Literal["speak"] = "speak"
    seat: int
    text: str
    analysis: dict[str, Any] | None = None


class Skip(_Command):
    """The current speaker passes (an empty speech)."""

    type: Literal["skip"] = "skip"
    seat: int


class Vote(_Command):
    """A living seat votes to eliminate another."""

    type: Literal["vote"] = "vote"
    seat: int
    target_seat: int
    comment: str | None = None
    analysis: dict[str, Any] | None = None


class Whisper(_Command):
    """An undercover talks privately to a fellow undercover."""

    type: Literal["whisper"] = "whisper"
    seat: int
    target_seat: int
    text: str


class LastWords(_Command):
    """A seat just voted out says goodbye."""

    type: Literal["last_words"] = "last_words"
    seat: int
    text: str


class GuessWord(_Command):
    """A blank just voted out guesses the civilians' word."""

    type: Literal["guess_word"] = "guess_word"
    seat: int
    word: str


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


class TakeOver(_Command):
    """From now on the official bot plays `seat` (the services send it after too many timeouts in a row)."""

    type: Literal["take_over"] = "take_over"
    seat: int


Command = Annotated[
    Join | Speak | Skip | Vote | Whisper | LastWords | GuessWord | Concede | Abort | Timeout | TakeOver,
    Field(discriminator="type"),
]
