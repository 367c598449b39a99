"""Does a text spell the speaker's secret word? Every way we know of, short of splitting it over two texts.

`find_leak` answers with the rule that caught it, or None:

* `word` — the word itself once `normalise` has folded width, case, spacing, punctuation, invisible
  characters, CJK radicals, Japanese shinjitai and 繁體;
* `filler` — its characters in order with one short run of letters, digits or 〇 between any two (厨x师);
* `display` — any of the above in the order the text is displayed when it holds bidi controls or
  right-to-left characters (a word reversed behind U+202E shows as the word);
* `pinyin` — its syllables in Latin letters, with or without tones, spaces or hyphens (hóng chá, hong2-cha2),
  also mixed with characters (hong茶, 洪cha);
* `homophone` — the same syllables, tones included, written with other characters (洪茶 for 红茶), for words
  of two or more syllables; a neutral-tone syllable (帽子's 子) matches any tone. Tones are compared because
  toneless syllables collide far more often in ordinary speech (老是 vs 老师), and a homophone that is an
  everyday word of jieba's dictionary (见到 for 剑道) is ordinary speech, not a leak;
* `gloss` — its English gloss from the pair library (black tea), as whole words;
* `cjk_filler` — its characters in order with Chinese filler between any two: particles and interjections
  (的了吧呀啊…), Chinese numerals, or one character repeated (老的的的的虎, 老哈哈哈虎, 老一二三虎);
* `spelled` — its characters singled out one by one, in order: quoted (「老」), named as a character (老字, 字是老,
  第二个字是虎), whatever stands between them (第一个字是老，后面接「虎」);
* `acrostic` — its characters as the first characters of consecutive clauses or lines (the last characters are
  left alone: "颜色很红，泡出来像茶" is a description, not a spelling);
* `bopomofo` — its syllables in 注音 (ㄌㄠˇㄏㄨˇ), tones or not;
* `wade_giles` — its syllables in Wade-Giles (hung-ch'a), or its pinyin with each syllable's letters reversed and
  the syllables in reverse order (ahc gnoh: the whole spelling read backwards).

Known limits (docs in the guide): whole-word encodings (base64, Morse, hex, a cipher) and descriptions that never
show the characters (a riddle, the radicals of a character) cannot be caught by normalising; arbitrary characters
between the word's characters (老天地玄黄虎) read like ordinary speech; a word split over two texts is caught by the
game for a seat's public texts of one round (speech, debate messages, vote comment, last words: `checks.check_said`),
not across rounds.

Pinyin and glosses are read with Cyrillic and Greek look-alike letters folded to Latin (blаck with a Cyrillic а).
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import opencc
from pypinyin import Style, pinyin
from pypinyin.pinyin_dict import pinyin_dict

from app.games.undercover.text import fold_lookalikes, normalise

FILLER = 8  # longest run of letters, digits or 〇 allowed between two characters of the word
CJK_FILLER = 30  # longest run of Chinese filler allowed between two characters of the word
# Particles, interjections and numerals: Chinese padding that carries no meaning between two characters.
FILLER_HAN = "的地得了着过吧呀啊哦嗯呢吗嘛啦哇呗噢喔唉哎呃额哈嘿哟咯之乎者也一二三四五六七八九十零〇"
_OPEN = "「『“\"'‘《【〈<([{"
_CLOSE = "」』”\"'’》】〉>)]}"
_BOPOMOFO = re.compile("[\u3100-\u312f\u31a0-\u31bf]")
_BOPOMOFO_TONES = str.maketrans("", "", "ˉˊˇˋ˙")
_T2S = opencc.OpenCC("t2s")
MIN_GLOSS = 3  # shorter glosses ("go", "RV") are everyday English, not a leak
COMMON = 10  # a homophone that is itself a word this frequent in jieba's dictionary is ordinary speech

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_MARKS = re.compile("[\u0300-\u036f]")
_RUNS = re.compile(f"[{_CJK}]|[^{_CJK}]+")
_NON_HAN = re.compile(f"[^{_CJK}]+")
# Cyrillic and Greek letters drawn like Latin ones (lower case: the text is casefolded first).
_HOMOGLYPHS = str.maketrans("аеорсухіјѕһԁӏкмтвнԛԝοαρτικνυχεηω", "aeopcyxijshdlkmtbhqwoaptikvuxenw")
_BIDI_CLASSES = frozenset({"R", "AL", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
_BIDI_RANGES = ((0x0590, 0x08FF), (0x200F, 0x200F), (0x202A, 0x202E), (0x2066, 0x2069), (0xFB1D, 0xFDFF),
                (0xFE70, 0xFEFF), (0x10800, 0x10FFF), (0x1E800, 0x1EFFF))
_BIDI_CHARS = frozenset(chr(c) for lo, hi in _BIDI_RANGES for c in range(lo, hi + 1)
                        if unicodedata.bidirectional(chr(c)) in _BIDI_CLASSES)


@dataclass(frozen=True, slots=True)
class _Needle:
    """What a word looks like in every spelling the check knows; built once per word."""

    word: str
    cjk: bool  # every character of the word is a Han character
    spellings: frozenset[str]  # toneless pinyin of the word, syllables run together
    syllables: frozenset[tuple[frozenset[str], ...]]  # per syllable the toned readings that sound like it
    gloss: re.Pattern[str] | None
    latin_other: re.Pattern[str] | None  # Wade-Giles, or the pinyin read backwards
    # The filler patterns and the 注音 spelling are costly to build and rarely asked for: built when a text
    # could match them (`_filler_pattern`, `_cjk_filler_pattern`, `_bopomofo`, each cached per word).


def find_leak(text: str, word: str, gloss: str | None = None) -> str | None:
    """The rule by which `text` spells `word` (or its English `gloss`), or None when it does not."""
    needle = _needle(word, gloss or "")
    if not needle.word:
        return None
    shown = displays(text)
    kind = _spelled(shown[0], needle)
    if kind:
        return kind
    return "display" if any(_spelled(order, needle) for order in shown[1:]) else None


def leaks(text: str, word: str, gloss: str | None = None) -> bool:
    """True when `text` spells `word` by any rule of `find_leak`."""
    return find_leak(text, word, gloss) is not None


def displays(text: str) -> list[str]:
    """`text` in logical order, then, when bidi controls or right-to-left letters could reorder it on
    screen, each order a display could show: all reversed, each run reversed in place, the runs reversed.

    Runs are the stretches between bidi controls and right-to-left letters. This covers an override
    (RLO … PDF) around one run and right-to-left paragraphs built with marks; deeper nestings of
    embeddings are not modelled.
    """
    if _BIDI_CHARS.isdisjoint(text):
        return [text]
    runs = re.split("|".join(re.escape(ch) for ch in _BIDI_CHARS.intersection(text)), text)
    return [text, text[::-1], "".join(run[::-1] for run in runs), "".join(reversed(runs))]


def _spelled(text: str, needle: _Needle) -> str | None:
    norm = normalise(text)
    if needle.word in norm:
        return "word"
    if len(needle.word) >= 2 and _in_order(norm, needle.word):  # both filler rules need the characters in order
        if _filler_pattern(needle.word).search(norm):
            return "filler"
        if needle.cjk and _cjk_filler_pattern(needle.word).search(norm):
            return "cjk_filler"
    if len(needle.word) >= 2 and _CJK_CHAR.search(needle.word):
        folded = _folded(text)
        if _singled_out(folded, needle.word):
            return "spelled"
        if _acrostic(folded, needle.word):
            return "acrostic"
    if needle.syllables and _homophone_hit(norm, needle.syllables):
        return "homophone"
    latin = _latin(text)
    if needle.spellings and _pinyin_hit(text, latin, needle):
        return "pinyin"
    if needle.gloss and needle.gloss.search(latin):
        return "gloss"
    if needle.cjk and _BOPOMOFO.search(text):
        shown = "".join(_BOPOMOFO.findall(unicodedata.normalize("NFKC", text)))
        if any(spelling in shown for spelling in _bopomofo(needle.word)):
            return "bopomofo"
    if needle.latin_other and needle.latin_other.search(latin):
        return "wade_giles"
    return None


def _folded(text: str) -> str:
    """The text as `normalise` reads it (width, look-alikes, 繁體, case) but with its punctuation and spacing."""
    return str(_T2S.convert(fold_lookalikes(unicodedata.normalize("NFKC", text)))).casefold()


_SINGLED = re.compile(
    f"[{re.escape(_OPEN)}]\\s*([{_CJK}])\\s*[{re.escape(_CLOSE)}]"  # 「老」
    f"|(?<![{_CJK}])([{_CJK}])字|([{_CJK}])字(?=[开结打收起带在])"  # 老字开头
    f"|字(?:是|为|叫|乃|就是)?[:：]?\\s*[{re.escape(_OPEN)}]?\\s*([{_CJK}])(?![{_CJK}])"  # 字是老，
    f"|(?:接|跟|加|配|再来|然后是|后面是|后面跟|后面接)(?:上|着)?(?:个|一个)?[:：]?\\s*([{_CJK}])(?![{_CJK}])")


def _singled_out(folded: str, word: str) -> bool:
    """The word's characters, in order, each singled out as a character (quoted, or named with 字)."""
    chars = [next(g for g in m.groups() if g) for m in _SINGLED.finditer(folded)]
    if len(chars) < len(word):
        return False
    it = iter(chars)
    return all(ch in it for ch in word)


_CLAUSE = re.compile(r"[\W_]+")


def _acrostic(folded: str, word: str) -> bool:
    """The word's characters as the first characters of consecutive clauses."""
    clauses = [c for c in _CLAUSE.split(folded) if c]
    return len(clauses) >= len(word) and word in "".join(c[0] for c in clauses)


@lru_cache(maxsize=4096)
def _needle(word: str, gloss: str) -> _Needle:
    norm = normalise(word)
    cjk = bool(norm) and all(_CJK_CHAR.fullmatch(ch) for ch in norm)
    readings = _word_readings(norm) if cjk else []
    return _Needle(
        word=norm,
        cjk=cjk,
        spellings=frozenset("".join(_toneless(s) for s in r) for r in readings),
        syllables=frozenset(tuple(_sounds_like(s) for s in r) for r in readings) if len(norm) >= 2 else frozenset(),
        gloss=_gloss_pattern(gloss),
        latin_other=_latin_other(norm, readings) if cjk else None,
    )


def _in_order(text: str, word: str) -> bool:
    """The word's characters appear in the text in order (gaps allowed)."""
    rest = iter(text)
    return all(ch in rest for ch in word)


@lru_cache(maxsize=1024)
def _cjk_filler_pattern(norm: str) -> re.Pattern[str]:
    """Each gap is possessive and its filler never holds the character that follows it, so a hostile text cannot
    make the match backtrack through every way of cutting it."""
    gaps = []
    for i, after in enumerate(norm[1:]):
        filler = re.escape("".join(ch for ch in FILLER_HAN if ch != after))
        gaps.append(f"(?:[{filler}]{{1,{CJK_FILLER}}}+|(?P<g{i}>[{_CJK}])(?P=g{i}){{1,{CJK_FILLER}}}+)")
    parts = [re.escape(norm[0])]
    for gap, ch in zip(gaps, norm[1:], strict=True):
        parts += [gap, re.escape(ch)]
    return re.compile("".join(parts))


@lru_cache(maxsize=1024)
def _bopomofo(norm: str) -> frozenset[str]:
    """Toneless 注音 of the word, syllables run together."""
    phrase = "".join(pinyin(norm, style=Style.BOPOMOFO, errors="ignore")[i][0] for i in range(len(norm)))
    return frozenset({phrase.translate(_BOPOMOFO_TONES)} if phrase else ())


def _latin_other(norm: str, readings: list[tuple[str, ...]]) -> re.Pattern[str] | None:
    """Wade-Giles syllables (apostrophes optional), or the pinyin read backwards, as whole words."""
    wade = [s[0].replace("'", "").replace("-", "") for s in pinyin(norm, style=Style.WADEGILES, errors="ignore")]
    spellings = set()
    if wade and all(w.isascii() and w.isalpha() for w in wade):
        spellings.add(tuple(_latin(w) for w in wade))
    for reading in readings:
        plain = [_toneless(s) for s in reading]
        if sum(map(len, plain)) >= 4:
            spellings.add(tuple(s[::-1] for s in reversed(plain)))
    pinyins = {tuple(_toneless(s) for s in reading) for reading in readings}
    spellings -= pinyins
    if not spellings:
        return None
    bodies = ["[^a-z]*".join("'?".join(re.escape(ch) for ch in syllable) for syllable in spelling)
              for spelling in sorted(spellings)]
    return re.compile(f"(?<![a-z])(?:{'|'.join(bodies)})(?![a-z])")


@lru_cache(maxsize=1024)
def _filler_pattern(norm: str) -> re.Pattern[str]:
    gap = f"[^{_CJK}]{{0,{FILLER}}}"
    return re.compile(gap.join(re.escape(ch) for ch in norm))


def _gloss_pattern(gloss: str) -> re.Pattern[str] | None:
    letters = [ch for ch in _latin(gloss) if ch.isalnum()]
    if len(letters) < MIN_GLOSS:
        return None
    body = "[^a-z0-9]*".join(re.escape(ch) for ch in letters)
    return re.compile(f"(?<![a-z0-9]){body}(?:e?s)?(?![a-z0-9])")


# --------------------------------------------------------------------------- pinyin


def _word_readings(norm: str) -> list[tuple[str, ...]]:
    """Toned syllables (TONE3, `ü` as `v`) of the word: its phrase reading, then each character's usual one.
    Rare readings stay out: 射 can be read yì, and 意见 is not 射箭."""
    phrase = tuple(s[0] for s in pinyin(norm, style=Style.TONE3, neutral_tone_with_five=True))
    usual = tuple(r[0] if r else "" for r in map(_char_readings, norm))
    return list(dict.fromkeys([phrase, usual]))


@cache  # bounded by the Han characters of Unicode
def _char_readings(ch: str) -> tuple[str, ...]:
    """Every toned reading (TONE3) pypinyin knows for one character; empty for a non-Han character."""
    if not _CJK_CHAR.fullmatch(ch):
        return ()
    found = pinyin(ch, style=Style.TONE3, heteronym=True, neutral_tone_with_five=True, errors="ignore")
    return tuple(r for r in found[0] if r) if found else ()


def _sounds_like(syllable: str) -> frozenset[str]:
    """The toned readings a reader hears as `syllable`: itself, and any tone for a neutral (5th) one."""
    base = syllable.rstrip("012345")
    return frozenset(base + tone for tone in "12345") if syllable.endswith("5") else frozenset({syllable})


def _toneless(syllable: str) -> str:
    return syllable.rstrip("012345").replace("v", "u")


def _latin(text: str) -> str:
    """Latin letters as a reader sees them: width and case folded, tone marks dropped, ü and v as u; every
    other character becomes "?"."""
    folded = unicodedata.normalize("NFKC", text).casefold().translate(_HOMOGLYPHS)
    return _MARKS.sub("", unicodedata.normalize("NFKD", folded)).encode("ascii", "replace").decode().replace("v", "u")


@lru_cache(maxsize=1)
def _syllables() -> frozenset[str]:
    """Every toneless syllable of the dictionary that has a vowel (so not the interjections m, n, ng, hm)."""
    found = set()
    for readings in pinyin_dict.values():
        for reading in readings.split(","):
            plain = _latin(reading)
            if plain.isascii() and plain.isalpha() and any(v in plain for v in "aeiou"):
                found.add(plain)
    return frozenset(found)


@lru_cache(maxsize=4096)
def _cuts(letters: str) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """For each position p of `letters`: is letters[:p] a run of pinyin syllables, and is letters[p:]?"""
    syllables, n = _syllables(), len(letters)
    head = [True] + [False] * n
    for end in range(1, n + 1):
        head[end] = any(head[end - size] and letters[end - size:end] in syllables for size in range(1, min(6, end) + 1))
    tail = [False] * n + [True]
    for start in range(n - 1, -1, -1):
        tail[start] = any(tail[start + size] and letters[start:start + size] in syllables
                          for size in range(1, min(6, n - start) + 1))
    return tuple(head), tuple(tail)


def _pinyin_hit(text: str, latin: str, needle: _Needle) -> bool:
    """The word in Latin letters, or half in letters and half in characters (hong茶, 洪cha)."""
    tokens = re.findall("[a-z]+", latin)
    if not tokens:
        return False
    if _spelled_in(tokens, needle, lambda i, k: True):
        return True
    runs = _NON_HAN.findall(normalise(text))
    if not any(_may_join(t, spelling) for run in runs for t in re.findall("[a-z]+", _latin(run))
               for spelling in needle.spellings):
        return False
    mixed, is_latin = _mixed_tokens(text)
    return _spelled_in(mixed, needle, lambda i, k: any(is_latin[i:k + 1]) and not all(is_latin[i:k + 1]))


def _may_join(token: str, spelling: str) -> bool:
    """Whether a Latin token could be part of `spelling` next to characters: inside it, or ending with its
    start, or starting with its end (a quick test that spares the full match)."""
    return token in spelling or any(token.endswith(spelling[:k]) or token.startswith(spelling[-k:])
                                    for k in range(1, len(spelling)))


def _spelled_in(tokens: list[str], needle: _Needle, allowed: Callable[[int, int], bool]) -> bool:
    return any(allowed(i, k) for spelling in needle.spellings for i in range(len(tokens))
               for k in _spells_from(tokens, i, spelling, len(needle.word) == 1))


def _mixed_tokens(text: str) -> tuple[list[str], list[bool]]:
    """Latin runs of the normalised text as letters, each Han character as its usual toneless syllable."""
    tokens: list[str] = []
    is_latin: list[bool] = []
    for run in _RUNS.findall(normalise(text)):
        if _CJK_CHAR.fullmatch(run):
            readings = _char_readings(run)
            found = [_toneless(readings[0])] if readings else []
        else:
            found = re.findall("[a-z]+", _latin(run))
        tokens += found
        is_latin += [not _CJK_CHAR.fullmatch(run)] * len(found)
    return tokens, is_latin


def _spells_from(tokens: list[str], i: int, spelling: str, single: bool) -> Iterator[int]:
    """Each last token k when `spelling` starts inside tokens[i] after whole syllables, uses up the tokens
    in between and ends in tokens[k] before whole syllables. A one-syllable word must be a whole token
    (`mao` hides in too many words)."""
    first = tokens[i]
    starts = [0] if single else [p for p, whole in enumerate(_cuts(first)[0][:-1]) if whole]
    for start in starts:
        rest, k, pos = spelling, i, start
        while k < len(tokens):
            part = tokens[k][pos:]
            if len(part) >= len(rest):
                end = pos + len(rest)
                if part.startswith(rest) and (end == len(tokens[k]) if single else _cuts(tokens[k])[1][end]):
                    yield k
                break
            if not rest.startswith(part):
                break
            rest, k, pos = rest[len(part):], k + 1, 0


def _homophone_hit(norm: str, syllables: frozenset[tuple[frozenset[str], ...]]) -> bool:
    han = "".join(_CJK_CHAR.findall(norm))
    sounds = [_char_sounds(ch) for ch in han]
    size = len(next(iter(syllables)))
    firsts = frozenset().union(*(reading[0] for reading in syllables))
    for start in range(len(sounds) - size + 1):
        if firsts.isdisjoint(sounds[start]):
            continue
        window = sounds[start:start + size]
        if (any(all(not s.isdisjoint(w) for s, w in zip(reading, window, strict=True)) for reading in syllables)
                and han[start:start + size] not in common_words()):
            return True
    return False


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """Words of 2–6 characters with a frequency of at least `COMMON` in jieba's dictionary (read as data, so
    jieba itself is never imported); loaded on the first homophone that needs it."""
    spec = importlib.util.find_spec("jieba")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the secret-word check needs jieba's dictionary: install the jieba package")
    path = Path(next(iter(spec.submodule_search_locations))) / "dict.txt"
    words = set()
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            word, freq, *_ = line.split()
            if 2 <= len(word) <= 6 and int(freq) >= COMMON:
                words.add(word)
    return frozenset(words)


@cache
def _char_sounds(ch: str) -> frozenset[str]:
    return frozenset(_char_readings(ch))
