"""Small text helpers the games' rule brains share when they compose a speech from template lines."""

from __future__ import annotations

from collections.abc import Mapping

ENDINGS = "。！？～…"


def fits(template: str, values: Mapping[str, object]) -> bool:
    """Whether `template.format(**values)` fills every field the template names."""
    try:
        template.format(**values)
    except (KeyError, IndexError):
        return False
    return True


def end(sentence: str) -> str:
    """The sentence with a closing mark (。 when it has none)."""
    return sentence if sentence[-1] in ENDINGS else sentence + "。"
