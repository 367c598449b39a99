"""Text measures over the public word-pair library: a word's clues, how well a speech fits them, key phrases.

Pure and cached. The library is public data (`wordpairs/*.json`), so using it is no peeking: a bot only
ever looks up its *own* word's clues, and — as a blank guessing — every word's clues.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from functools import lru_cache

from app.games.undercover.brain.personas import SITUATION, VOICES, VOTE_COMMON
from app.games.undercover.checks import gloss_of
from app.games.undercover.leak import leaks
from app.games.undercover.reading import STOP, clue_fit, longest_run
from app.games.undercover.text import normalise
from app.games.undercover.wordpairs import Word, default_library

MAX_TEXT = 500


def own_clues(word: str | None) -> tuple[str, ...]:
    """The library clues of `word`; empty for a blank or a word the library does not know."""
    if not word:
        return ()
    found = default_library().find_word(word)
    return found.clues if found else ()


@lru_cache(maxsize=1)
def all_words() -> tuple[Word, ...]:
    """Every word of the library once, in library order."""
    seen: dict[str, Word] = {}
    for pair in default_library().pairs():
        for word in (pair.a, pair.b):
            seen.setdefault(word.word, word)
    return tuple(seen.values())


def every_template() -> list[str]:
    """Every part template of every voice, the situation lines and the shared vote comments."""
    found: list[str] = []
    for voice in VOICES.values():
        for value in vars(voice).values():
            if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
                found += value
        for group in voice.vote.values():
            found += group
    for groups in (SITUATION, VOTE_COMMON):
        for group in groups.values():
            found += group
    return found


@lru_cache(maxsize=1)
def tags() -> dict[str, str]:
    """Word → the category of its pair (`食物`, `动物`, …)."""
    found: dict[str, str] = {}
    for pair in default_library().pairs():
        for word in (pair.a, pair.b):
            found.setdefault(word.word, pair.tag)
    return found


def tag_of(word: str | None) -> str | None:
    """The category of `word`'s pair, or None (a blank, or a word the library does not know)."""
    return tags().get(word) if word else None


@lru_cache(maxsize=1)
def _template_bits() -> tuple[str, ...]:
    """The fixed text of every persona template (normalised, 2+ characters), longest first."""
    bits: set[str] = set()
    for template in every_template():
        for literal, _, _, _ in string.Formatter().parse(template):
            key = normalise(literal)
            if len(key) >= 2:
                bits.add(key)
    return tuple(sorted(bits, key=len, reverse=True))


@lru_cache(maxsize=1)
def _bits_by_first() -> dict[str, tuple[str, ...]]:
    """`_template_bits` grouped by first character, longest first."""
    index: dict[str, list[str]] = {}
    for bit in _template_bits():
        index.setdefault(bit[0], []).append(bit)
    return {ch: tuple(group) for ch, group in index.items()}


@lru_cache(maxsize=65536)
def core(text: str) -> str:
    """`text` normalised with the bots' own template wording cut out ("|" marks each cut).

    So "天哪！一想到它我就激动——走秀！！" compares as "走秀": template words say nothing about a word.
    Read left to right, the longer of a template piece and a library clue starting at one place wins (the
    template piece on a tie), so a clue that holds template wording ("早餐煮一个") stays whole and a template
    line that holds a short clue ("推理完毕") is still cut.
    """
    norm = normalise(text)
    bits, clues = _bits_by_first(), _clue_index()
    out: list[str] = []
    i = 0
    while i < len(norm):
        bit = next((b for b in bits.get(norm[i], ()) if norm.startswith(b, i)), "")
        clue = next((c for c in clues.get(norm[i], ()) if norm.startswith(c, i)), "")
        if bit and len(bit) >= len(clue):
            if not out or out[-1] != "|":
                out.append("|")
            i += len(bit)
        elif clue:
            out.append(clue)
            i += len(clue)
        else:
            out.append(norm[i])
            i += 1
    return "".join(out)


@lru_cache(maxsize=65536)
def content(text: str) -> frozenset[str]:
    """The meaningful characters of `text` (template wording and stop characters dropped)."""
    return frozenset(ch for ch in core(text) if ch.isalpha() and ch not in STOP)


def overlap(a: str, b: str) -> float:
    """Share of `a`'s meaningful characters that also appear in `b` (0…1)."""
    ca = content(a)
    return len(ca & content(b)) / len(ca) if ca else 0.0


@lru_cache(maxsize=65536)
def _fit(text: str, clues: tuple[str, ...]) -> float:
    return clue_fit(text, clues, core, content)


def fit(text: str | None, clues: tuple[str, ...]) -> float:
    """How well a speech fits a word's clues: 1.0 when it holds a clue, else a partial character overlap."""
    if not text or not clues:
        return 0.0
    return _fit(text, clues)


@lru_cache(maxsize=1)
def _clue_owners() -> dict[str, tuple[Word, ...]]:
    """Normalised clue → the words that have it."""
    owners: dict[str, list[Word]] = {}
    for word in all_words():
        for clue in word.clues:
            owners.setdefault(normalise(clue), []).append(word)
    return {clue: tuple(words) for clue, words in owners.items()}


@lru_cache(maxsize=1)
def _char_owners() -> dict[str, tuple[Word, ...]]:
    """Meaningful character → the words one of whose clues holds it."""
    owners: dict[str, dict[str, Word]] = {}
    for word in all_words():
        for clue in word.clues:
            for ch in content(clue):
                owners.setdefault(ch, {})[word.word] = word
    return {ch: tuple(words.values()) for ch, words in owners.items()}


def is_library_clue(phrase: str) -> bool:
    """True when the (normalised) phrase is a clue of some library word."""
    return phrase in _clue_owners()


def candidate_words(texts: Iterable[str]) -> list[Word]:
    """Words worth scoring against `texts`: those with a clue said verbatim, else those sharing a character."""
    texts = list(texts)
    exact = {w.word: w for t in texts for p in phrases_of(t) for w in _clue_owners().get(p, ())}
    if exact:
        return list(exact.values())
    near = {w.word: w for t in texts for ch in content(t) for w in _char_owners().get(ch, ())}
    return list(near.values())


def uses_clue(texts: Iterable[str], clue: str) -> bool:
    """True when one of `texts` already contains `clue`."""
    key = normalise(clue)
    return any(key in normalise(text) for text in texts)


@lru_cache(maxsize=1)
def _clue_index() -> dict[str, tuple[str, ...]]:
    """Every library clue (normalised), grouped by first character, longest first."""
    index: dict[str, list[str]] = {}
    for word in all_words():
        for clue in word.clues:
            key = normalise(clue)
            if key:
                index.setdefault(key[0], []).append(key)
    return {ch: tuple(sorted(set(group), key=len, reverse=True)) for ch, group in index.items()}


@lru_cache(maxsize=65536)
def phrases_of(text: str) -> tuple[str, ...]:
    """The key phrases of a speech: the library clues in it (longest match at each place, left to right),
    else its longest run of content characters; empty when it has none."""
    norm = core(text)
    index = _clue_index()
    found: list[str] = []
    i = 0
    while i < len(norm):
        match = next((clue for clue in index.get(norm[i], ()) if norm.startswith(clue, i)), None)
        if match:
            found.append(match)
            i += len(match)
        else:
            i += 1
    if found:
        return tuple(dict.fromkeys(found))
    run = longest_run(norm)
    return (run,) if run else ()


def phrase_of(text: str) -> str:
    """The main phrase of a speech: its longest key phrase, or ''."""
    return max(phrases_of(text), key=len, default="")


def is_safe(text: str, word: str | None) -> bool:
    """A text the server will accept from a seat holding `word`: non-empty, short enough, no own word."""
    stripped = text.strip()
    if not stripped or len(stripped) > MAX_TEXT:
        return False
    return not (word and leaks(stripped, word, gloss_of(word)))
