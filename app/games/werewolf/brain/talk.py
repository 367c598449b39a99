"""Texts in persona from parts, never repeating a sentence the seat has already said in this game.

A text is an optional opener, the content sentences in order, and an optional closer. Each part picks a
template from the persona's pool whose filled sentence is new for the seat (`Table.used`, plus the parts
already picked); a content part with every variant used gets the day in front ("第3天，…"), then a counter; an
opener or closer with none left is dropped. Texts stay far below the 500-character limit.
"""

from __future__ import annotations

import random

from app.games.kit.phrases import end, fits
from app.games.werewolf.brain.table import Table, sentences
from app.games.werewolf.brain.voices import Voice, pool

MAX_TEXT = 500
Part = tuple[str, dict[str, int]]  # (template key, placeholder values)


def compose(table: Table, style: Voice, rng: random.Random, parts: list[Part], *, frame: bool = True) -> str:
    """One text: the content `parts` in the persona's voice, with opener and closer when `frame`."""
    taken: set[str] = set(table.used)
    out: list[str] = []
    if frame and rng.random() < 0.8:
        _add(out, _pick(style, "opener", {}, taken, rng, table.day, essential=False))
    for key, values in parts:
        _add(out, _pick(style, key, values, taken, rng, table.day, essential=True))
    if frame and rng.random() < 0.6:
        _add(out, _pick(style, "closer", {}, taken, rng, table.day, essential=False))
    if not out:
        out.append(_unique(f"{table.me}号第{table.day}天发言，过", taken))
    text = "".join(end(s) for s in out)
    return text[:MAX_TEXT]


def line(table: Table, style: Voice, rng: random.Random, key: str, values: dict[str, int]) -> str | None:
    """One sentence for `key` that is new for the seat, or None when every variant is used."""
    return _pick(style, key, values, set(table.used), rng, table.day, essential=False)


def _add(out: list[str], sentence: str | None) -> None:
    if sentence:
        out.append(sentence)


def _pick(style: Voice, key: str, values: dict[str, int], taken: set[str], rng: random.Random, day: int, *,
          essential: bool) -> str | None:
    options = [t.format(**values) for t in pool(style, key) if fits(t, values)]
    rng.shuffle(options)
    # Persona lines come first in the pool; give them a better chance than the shared ones.
    own = [o for o in options if o in {t.format(**values) for t in style.lines.get(key, ()) if fits(t, values)}]
    for option in own[:1] + options if own and rng.random() < 0.5 else options:
        if all(s not in taken for s in sentences(option)):
            taken.update(sentences(option))
            return option
    if not essential or not options:
        return None
    return _unique(f"第{day}天，{options[0]}", taken)


def _unique(sentence: str, taken: set[str]) -> str:
    candidate, n = sentence, 1
    while any(s in taken for s in sentences(candidate)):
        n += 1
        candidate = f"{sentence}（第{n}次）"
    taken.update(sentences(candidate))
    return candidate


