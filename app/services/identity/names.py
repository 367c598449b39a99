"""Names people read: display names, nicknames. Shown beside other players' names, so they may not carry
invisible format characters (bidi overrides that reorder the text around them, zero-width characters that make
two names look alike) and must show at least one visible character."""

from __future__ import annotations

import unicodedata


def name_problem(value: str) -> str | None:
    """Why `value` cannot be a display name, or None when it can."""
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in value):
        return "must not contain control or invisible format characters (bidi overrides, zero-width characters)"
    if value.strip() and not any(unicodedata.category(ch)[0] not in "CZ" for ch in value):
        return "must contain a visible character"
    return None


def checked_name(value: str | None) -> str | None:
    """`value` unchanged when it is a fine name (or None); ValueError naming the problem otherwise."""
    if value is not None and (problem := name_problem(value)) is not None:
        raise ValueError(problem)
    return value
