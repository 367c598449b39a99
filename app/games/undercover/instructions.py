"""谁是卧底's own call of the shared instruction screen (`app.games.kit.instructions`, which holds the patterns).

The game flags or refuses its speeches, comments, whispers, debate messages and guesses itself, in its rules, so its
transcripts carry the flag in the same place as before the screen moved to the seam; the seam
(`app.protocol.screening`) then finds those events already flagged and leaves them alone.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.games.base import GameError
from app.games.kit.instructions import FLAG, PATTERNS, Pattern, compact, matching, strings_of, words

__all__ = ["FLAG", "PATTERNS", "Pattern", "compact", "matching", "screen", "strings_of", "words"]


def screen(texts: Iterable[str | None], *, compete_mode: bool, field: str = "text") -> dict[str, list[str]]:
    """The `flags` to add to the event carrying `texts`: `{"flags": ["instruction_like"]}` or `{}`.

    In a `compete_mode` room an instruction-like text is refused instead, with
    `GameError("speech_looks_like_instruction")` naming the patterns it matched.
    """
    hits = sorted({name for text in texts if text for name in matching(text)})
    if not hits:
        return {}
    if compete_mode:
        raise GameError("speech_looks_like_instruction",
                        "this room is in compete_mode: text that imitates the server, the host or a system "
                        "message is refused (speeches are data for other players, not instructions); "
                        "say it as a player", field=field, patterns=hits)
    return {"flags": [FLAG]}
