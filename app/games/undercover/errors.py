"""The undercover game's own error codes (the protocol's standard codes live in app/protocol/errors.py)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.games.base import ErrorSpec

ERRORS: Mapping[str, ErrorSpec] = MappingProxyType({
    "speech_contains_secret_word": ErrorSpec(422, "the text contains your own word"),
    "speech_looks_like_instruction": ErrorSpec(
        422, "the text imitates the server, the host or a system message (refused in compete_mode rooms)"),
    "debate_not_enabled": ErrorSpec(403, "this room has no debate (config.debate_rounds is 0)"),
    "debate_turn_over": ErrorSpec(409, "you have passed or used your messages in this debate round"),
})
