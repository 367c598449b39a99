"""Filling persona templates and picking among candidate texts (shared by every kind of speech)."""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Sequence
from typing import Any

SAFE_FALLBACKS = ("我先听听大家的。", "过。", "嗯……")


def render(templates: Sequence[str], values: dict[str, str], rng: random.Random) -> list[str]:
    """Every template whose placeholders all have values, filled in, in random order."""
    usable = [t for t in templates if _fields(t) <= values.keys()]
    rng.shuffle(usable)
    return [t.format(**values) for t in usable]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def best_by(items: Sequence[str], key: Callable[[str], Any], rng: random.Random) -> str:
    """The item with the highest key; ties broken at random."""
    scored = [(key(item), item) for item in items]
    top = max(score for score, _ in scored)
    return rng.choice([item for score, item in scored if score == top])
