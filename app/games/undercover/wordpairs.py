"""The word-pair library: data files in `wordpairs/`, their loader and their validator.

Each `wordpairs/*.json` file holds one tag (category)::

    {"tag": "食物", "pairs": [
      {"a": {"word": "咖啡", "en": "coffee", "clues": ["提神饮品", "有点苦", "早上来一杯"]},
       "b": {"word": "奶茶", "en": "milk tea", "clues": ["珍珠配料", "甜甜的", "吸管喝"]}}]}

Rules every pair must follow (`validate_library` reports each breach):

* A word is 1–6 CJK characters, stored in normalised (simplified) form; `en` is a non-empty gloss.
* The two words differ, and neither contains the other after `normalise`.
* Shared characters: two words may share at most one distinct character. When both words are
  at least three characters long they may share two, provided no two-character run is common
  to both and each word keeps at least one character the other lacks (so 干洗机/甩干机 passes,
  大西瓜/小西瓜 does not). Because containment is always refused, a one-character word never
  appears in its partner (白菜/菜 is refused, 蛋糕/蛋挞 is fine). Reason: containment makes a
  pair trivially unplayable, and a large shared part makes the two words near-identical while
  leaving too few sayable characters for both sides.
* Each word has 3–8 distinct clues of 2–12 CJK characters (counted after `normalise`). A clue
  never contains any character of its own word (checked character by character on normalised
  text) and never contains the whole other word.
* Within a file the tag is a 1–6 character CJK name, unique across files, with at least one
  pair; the same unordered pair never appears twice in the whole library.

The shipped library goes further: no clue uses any character of the partner word either, so
every clue is sayable by both sides. A test enforces that; the validator does not require it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.games.base import GameError
from app.games.undercover.text import normalise

DEFAULT_DIRECTORY = Path(__file__).resolve().parents[3] / "wordpairs"

WORD_LEN = (1, 6)
TAG_LEN = (1, 6)
CLUE_COUNT = (3, 8)
CLUE_LEN = (2, 12)

_FILE_KEYS = {"tag", "pairs"}
_PAIR_KEYS = {"a", "b"}
_WORD_KEYS = {"word", "en", "clues"}


@dataclass(frozen=True, slots=True)
class Word:
    """One secret word with its English gloss and a few clues that avoid its characters."""

    word: str
    en: str
    clues: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WordPair:
    """Two similar but different words of one tag; either side may be the undercover's."""

    tag: str
    a: Word
    b: Word

    @property
    def words(self) -> tuple[str, str]:
        """The two words as `(a, b)`."""
        return (self.a.word, self.b.word)


class Library:
    """All validated pairs, grouped by tag in file-name order."""

    def __init__(self, pairs: Iterable[WordPair]) -> None:
        self._by_tag: dict[str, list[WordPair]] = {}
        self._words: dict[str, Word] = {}
        for pair in pairs:
            self._by_tag.setdefault(pair.tag, []).append(pair)
            for word in (pair.a, pair.b):
                self._words.setdefault(normalise(word.word), word)

    def tags(self) -> list[str]:
        """The tag names, in file-name order."""
        return list(self._by_tag)

    def pairs(self, tag: str | None = None) -> list[WordPair]:
        """The pairs of `tag`, or of every tag when `tag` is None.

        Raises `GameError("invalid_config")` naming field `wordpair_tag` for an unknown tag.
        """
        if tag is None:
            return [pair for group in self._by_tag.values() for pair in group]
        if tag not in self._by_tag:
            known = ", ".join(self._by_tag)
            raise GameError("invalid_config", f"unknown wordpair_tag {tag!r} (known: {known})", field="wordpair_tag")
        return list(self._by_tag[tag])

    def find_word(self, word: str) -> Word | None:
        """The first `Word` whose text equals `word` after `normalise`, or None."""
        return self._words.get(normalise(word))

    def __len__(self) -> int:
        return sum(len(group) for group in self._by_tag.values())


def load_library(directory: Path | None = None) -> Library:
    """Load and validate every `*.json` file of `directory` (default: the repo's `wordpairs/`).

    Raises `ValueError` listing every problem when the library is not valid.
    """
    pairs, problems = _scan(directory or DEFAULT_DIRECTORY)
    if problems:
        raise ValueError("invalid word-pair library:\n" + "\n".join(f"- {p}" for p in problems))
    return Library(pairs)


def validate_library(directory: Path | None = None) -> list[str]:
    """Human-readable problems of the library in `directory`; empty when it is valid."""
    return _scan(directory or DEFAULT_DIRECTORY)[1]


@lru_cache(maxsize=1)
def default_library() -> Library:
    """The shipped library, loaded and validated once per process."""
    return load_library()


# --------------------------------------------------------------------------- scanning


def _scan(directory: Path) -> tuple[list[WordPair], list[str]]:
    """Parse every file; return the well-formed pairs and every problem found."""
    if not directory.is_dir():
        return [], [f"{directory}: not a directory"]
    files = sorted(directory.glob("*.json"))
    if not files:
        return [], [f"{directory}: no *.json files"]
    located: list[tuple[str, WordPair]] = []
    problems: list[str] = []
    tag_files: dict[str, str] = {}
    for path in files:
        file_pairs, file_problems = _scan_file(path, tag_files)
        located.extend(file_pairs)
        problems.extend(file_problems)
    problems.extend(_duplicate_problems(located))
    return [pair for _, pair in located], problems


def _scan_file(path: Path, tag_files: dict[str, str]) -> tuple[list[tuple[str, WordPair]], list[str]]:
    """Parse one tag file into (location, pair) items; `tag_files` maps tags seen so far to files."""
    name = path.name
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return [], [f"{name}: malformed JSON ({exc})"]
    if not isinstance(data, dict):
        return [], [f"{name}: top level must be an object with 'tag' and 'pairs'"]
    problems = _unexpected_keys(name, data, _FILE_KEYS)
    tag, tag_problems = _check_tag(name, data.get("tag"), tag_files)
    problems += tag_problems
    raw_pairs = data.get("pairs")
    if not isinstance(raw_pairs, list) or not raw_pairs:
        return [], [*problems, f"{name}: 'pairs' must be a non-empty list"]
    pairs: list[tuple[str, WordPair]] = []
    for index, raw in enumerate(raw_pairs):
        where = f"{name} pair #{index}"
        pair, pair_problems = _parse_pair(where, tag or "?", raw)
        problems += pair_problems
        if pair is not None:
            pairs.append((where, pair))
    return pairs, problems


def _check_tag(name: str, tag: Any, tag_files: dict[str, str]) -> tuple[str | None, list[str]]:
    """Check the file's tag and that no other file already claimed it."""
    if not isinstance(tag, str) or not _is_cjk(tag) or not TAG_LEN[0] <= len(tag) <= TAG_LEN[1]:
        return None, [f"{name}: 'tag' must be {TAG_LEN[0]}-{TAG_LEN[1]} CJK characters, got {tag!r}"]
    if tag in tag_files:
        return tag, [f"{name}: tag {tag!r} is already used by {tag_files[tag]}"]
    tag_files[tag] = name
    return tag, []


def _parse_pair(where: str, tag: str, raw: Any) -> tuple[WordPair | None, list[str]]:
    """Parse one pair object and check how its two words relate."""
    if not isinstance(raw, dict):
        return None, [f"{where}: a pair must be an object with 'a' and 'b'"]
    problems = _unexpected_keys(where, raw, _PAIR_KEYS)
    a, a_problems = _parse_word(f"{where} side a", raw.get("a"))
    b, b_problems = _parse_word(f"{where} side b", raw.get("b"))
    problems += a_problems + b_problems
    if a is None or b is None:
        return None, problems
    where = f"{where} [{a.word}/{b.word}]"
    problems += _relation_problems(where, a.word, b.word)
    problems += _clue_problems(where, a, b.word) + _clue_problems(where, b, a.word)
    return WordPair(tag=tag, a=a, b=b), problems


def _parse_word(where: str, raw: Any) -> tuple[Word | None, list[str]]:
    """Parse one word object; None when it is too broken to check further."""
    if not isinstance(raw, dict):
        return None, [f"{where}: missing or not an object"]
    problems = _unexpected_keys(where, raw, _WORD_KEYS)
    word = raw.get("word")
    if not isinstance(word, str):
        return None, [*problems, f"{where}: 'word' must be a string, got {word!r}"]
    where = f"{where} {word!r}"
    problems += _word_text_problems(where, word)
    en = raw.get("en")
    if not isinstance(en, str) or not en.strip():
        problems.append(f"{where}: 'en' gloss missing or empty")
    clues = raw.get("clues")
    if not isinstance(clues, list) or not all(isinstance(c, str) for c in clues):
        problems.append(f"{where}: 'clues' must be a list of strings")
        clues = []
    return Word(word=word, en=en if isinstance(en, str) else "", clues=tuple(clues)), problems


# --------------------------------------------------------------------------- rules


def _word_text_problems(where: str, word: str) -> list[str]:
    """Length, charset and normal form of one word."""
    problems = []
    if not WORD_LEN[0] <= len(word) <= WORD_LEN[1]:
        problems.append(f"{where}: word must be {WORD_LEN[0]}-{WORD_LEN[1]} characters long")
    if not _is_cjk(word):
        problems.append(f"{where}: word must contain CJK characters only")
    elif normalise(word) != word:
        problems.append(f"{where}: word must be stored normalised (simplified) as {normalise(word)!r}")
    return problems


def _relation_problems(where: str, a: str, b: str) -> list[str]:
    """Identity, containment and the shared-character rule (see the module docstring)."""
    na, nb = normalise(a), normalise(b)
    if na == nb:
        return [f"{where}: the two words are identical"]
    if na in nb or nb in na:
        return [f"{where}: one word contains the other"]
    shared = set(na) & set(nb)
    allowed = 2 if min(len(na), len(nb)) >= 3 else 1
    if len(shared) > allowed:
        return [f"{where}: the words share {len(shared)} characters {''.join(sorted(shared))!r}"]
    if len(shared) < 2:
        return []
    runs = _bigrams(na) & _bigrams(nb)
    if runs:
        return [f"{where}: the words share a run of characters {', '.join(sorted(runs))!r}"]
    if set(na) <= shared or set(nb) <= shared:
        return [f"{where}: one word has no character of its own"]
    return []


def _clue_problems(where: str, word: Word, other: str) -> list[str]:
    """Count, length, charset and character rules of the clues of `word`."""
    where = f"{where} {word.word!r}"
    problems = []
    if not CLUE_COUNT[0] <= len(word.clues) <= CLUE_COUNT[1]:
        problems.append(f"{where}: needs {CLUE_COUNT[0]}-{CLUE_COUNT[1]} clues, has {len(word.clues)}")
    own = set(normalise(word.word))
    seen: set[str] = set()
    for clue in word.clues:
        text = normalise(clue)
        if not CLUE_LEN[0] <= len(text) <= CLUE_LEN[1] or not _is_cjk(text):
            problems.append(f"{where}: clue {clue!r} must be {CLUE_LEN[0]}-{CLUE_LEN[1]} CJK characters")
        leaked = sorted(own & set(text))
        if leaked:
            problems.append(f"{where}: clue {clue!r} contains {''.join(leaked)!r} from its word")
        if normalise(other) in text:
            problems.append(f"{where}: clue {clue!r} contains the other word {other!r}")
        if text in seen:
            problems.append(f"{where}: clue {clue!r} is repeated")
        seen.add(text)
    return problems


def _duplicate_problems(located: list[tuple[str, WordPair]]) -> list[str]:
    """The same unordered pair appearing more than once, anywhere in the library."""
    first: dict[frozenset[str], str] = {}
    problems = []
    for where, pair in located:
        key = frozenset(normalise(w) for w in pair.words)
        if key in first:
            label = f"{pair.a.word}/{pair.b.word}"
            problems.append(f"{where} [{label}]: duplicate pair (first at {first[key]})")
        else:
            first[key] = where
    return problems


def _unexpected_keys(where: str, raw: dict[str, Any], allowed: set[str]) -> list[str]:
    """Keys outside the schema (usually typos)."""
    extra = sorted(set(raw) - allowed)
    return [f"{where}: unexpected key(s) {', '.join(map(repr, extra))}"] if extra else []


def _bigrams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}


def _is_cjk(text: str) -> bool:
    """True when `text` is non-empty and made only of CJK unified ideographs."""
    return bool(text) and all("\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" for ch in text)
