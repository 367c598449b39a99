"""Commands the rules accept (the HTTP bodies that become them are in `actions`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from app.games.kit.commands import Abort, Concede, GameCommand, TakeOver, Timeout, Vote
from app.games.kit.commands import Join as KitJoin


class Join(KitJoin):
    """A player takes the next free seat."""

    # Content keys (`wordpair_key`) the deal should not draw, if the library allows; left out of dumps when empty.
    avoid: tuple[str, ...] = Field((), strict=False, exclude_if=lambda keys: not keys)

__all__ = [
    "Abort",
    "Command",
    "Concede",
    "Debate",
    "DebatePass",
    "GuessWord",
    "Join",
    "LastWords",
    "Skip",
    "Speak",
    "TakeOver",
    "Timeout",
    "Vote",
    "Whisper",
]



class Speak(GameCommand):
    """The current speaker describes their word."""

    type: Literal["speak"] = "speak"
    seat: int
    text: str
    analysis: dict[str, Any] | None = None


class Skip(GameCommand):
    """The current speaker passes (an empty speech)."""

    type: Literal["skip"] = "skip"
    seat: int



class Whisper(GameCommand):
    """An undercover talks privately to a fellow undercover."""

    type: Literal["whisper"] = "whisper"
    seat: int
    target_seat: int
    text: str


class LastWords(GameCommand):
    """A seat just voted out says goodbye."""

    type: Literal["last_words"] = "last_words"
    seat: int
    text: str


class Debate(GameCommand):
    """A living seat posts a debate message (`debate_round_N`, only with `debate_rounds` ≥ 1)."""

    type: Literal["debate"] = "debate"
    seat: int
    text: str


class DebatePass(GameCommand):
    """A living seat has nothing (more) to say in this debate round."""

    type: Literal["debate_pass"] = "debate_pass"
    seat: int


class GuessWord(GameCommand):
    """A blank just voted out guesses the civilians' word."""

    type: Literal["guess_word"] = "guess_word"
    seat: int
    word: str






Command = Annotated[
    Join | Speak | Skip | Vote | Whisper | LastWords | GuessWord | Debate | DebatePass | Concede | Abort | Timeout
    | TakeOver,
    Field(discriminator="type"),
]
