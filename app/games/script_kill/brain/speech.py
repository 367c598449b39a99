"""Texts in persona from parts, never a sentence the seat already said, never a word of its secret.

A text is an optional opener, the content sentences in order and an optional closer; each part takes a
template of the persona's pool whose filled sentence is new for the seat. Every finished text passes `guard`:
a sentence holding one of the character's `secret_phrases` (or a long stretch of its secret) is dropped, and a
text left empty becomes a plain line that holds neither.
"""

from __future__ import annotations

import random
import re

from app.games.kit.phrases import end, fits
from app.games.script_kill.brain import weights as w
from app.games.script_kill.brain.seat import Seat
from app.games.script_kill.brain.voices import Voice, pool

SPEECH_LIMIT = 300
SENTENCE_END = re.compile(r"[。！？!?…～~]+")
_NOISE = re.compile(r"[\s，,、：:；;“”\"'‘’「」（）()《》—-]+")
SECRET_STRETCH = 8  # a run of this many characters of the secret counts as saying it
FALLBACKS = ("我再想想", "先听听大家的", "我暂时没有要补充的", "继续查吧")

Part = tuple[str, dict[str, str]]


def sentences(text: str) -> list[str]:
    """The sentences of a text (split at 。！？… and ～), stripped, without empty ones."""
    return [s.strip() for s in SENTENCE_END.split(text) if s.strip()]


def said(seat: Seat) -> set[str]:
    """Every sentence this seat has spoken or written in the game."""
    out: set[str] = set()
    for event in seat.events:
        if event.get("seat") == seat.me and event.get("type") in ("speech", "private_chat"):
            out.update(sentences(str(event.get("text") or "")))
    return out


def compose(seat: Seat, style: Voice, rng: random.Random, parts: list[Part], *, frame: bool = True,
            limit: int = SPEECH_LIMIT, content: bool = False) -> str:
    """One text: the content `parts` in the persona's voice (opener and closer when `frame`), guarded. With
    `content`, "" when no content sentence is left to say (the seat has said them all, or they were unsafe)."""
    taken = said(seat)
    out: list[str] = []
    if frame and rng.random() < 0.8:
        _add(out, _pick(style, "opener", {}, taken, rng))
    for key, values in parts:
        _add(out, _pick(style, key, values, taken, rng))
    if content and not [s for s in out if safe(seat, s)]:
        return ""
    if frame and rng.random() < 0.6:
        _add(out, _pick(style, "closer", {}, taken, rng))
    text = guard(seat, "".join(end(s) for s in out), taken)
    return text if len(text) <= limit else _cut(text, limit)


def guard(seat: Seat, text: str, taken: set[str] | None = None) -> str:
    """`text` without any sentence that gives away the seat's secret; never empty."""
    kept = [s for s in sentences(text) if safe(seat, s)]
    if kept:
        return "".join(end(s) for s in kept)
    taken = taken if taken is not None else said(seat)
    for line in FALLBACKS:
        if line not in taken and safe(seat, line):
            return end(line)
    n = len(taken) + 1
    return f"我是{seat.me}号，第{n}次补充：先听大家的。"


def safe(seat: Seat, text: str) -> bool:
    """True when `text` holds none of the seat's secret phrases and no long stretch of its secret."""
    flat = _flat(text)
    if any(_flat(p) and _flat(p) in flat for p in seat.phrases):
        return False
    secret = _flat(seat.secret)
    return not any(secret[i:i + SECRET_STRETCH] in flat for i in range(max(0, len(secret) - SECRET_STRETCH + 1)))


def snippet(text: str) -> str:
    """A short quote of a clue: its first sentence, cut to `weights.SNIPPET` characters."""
    first = sentences(text)[0] if sentences(text) else text
    return first if len(first) <= w.SNIPPET else first[:w.SNIPPET - 1] + "…"


def _flat(text: str) -> str:
    return _NOISE.sub("", text).lower()


def _add(out: list[str], sentence: str | None) -> None:
    if sentence:
        out.append(sentence)


def _pick(style: Voice, key: str, values: dict[str, str], taken: set[str], rng: random.Random) -> str | None:
    options = [t.format(**values) for t in pool(style, key) if fits(t, values)]
    rng.shuffle(options)
    for option in options:
        if all(s not in taken for s in sentences(option)):
            taken.update(sentences(option))
            return option
    return None




def _cut(text: str, limit: int) -> str:
    out = ""
    for sentence in sentences(text):
        if len(out) + len(sentence) + 1 > limit:
            break
        out += end(sentence)
    return out or text[:limit]
