"""The request shapes more than one game takes, declared once: a game's own model names one of these with its base
(`class WhisperRequest(Whisper, _Request)`) and its docstring, which says what the game adds (who may be whispered
to, what the text must not hold)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, StrictInt, StrictStr

TEXT = "at most 500 characters (longer → 422 `text_too_long`), not empty; the action's description says what else"


class Whisper(BaseModel):
    type: Literal["whisper"]
    target_seat: StrictInt = Field(description="the seat whispered to: a living seat of your own side")
    text: StrictStr = Field(description=TEXT)


class LastWords(BaseModel):
    type: Literal["last_words"]
    text: StrictStr = Field(description=TEXT)
