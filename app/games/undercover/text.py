"""Text normalisation for the secret-word check and the blank's guess."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import opencc

from app.games.undercover.radicals import RADICALS

_T2S = opencc.OpenCC("t2s")
_JP2T = opencc.OpenCC("jp2t")
_NOT_LETTER_OR_DIGIT = re.compile(r"[\W_]")
MAX_FOLDS = 65536


@lru_cache(maxsize=4096)
def normalise(text: str) -> str:
    """Fold width (NFKC), look-alikes, case and traditional→simplified; keep only letters and digits.

    Two texts that a reader would call "the same word" normalise to the same string, so
    spaces, punctuation, full-width forms, CJK radicals, Japanese shinjitai and 繁體 cannot hide
    a word.
    """
    folded = _T2S.convert(fold_lookalikes(unicodedata.normalize("NFKC", text))).casefold()
    return _NOT_LETTER_OR_DIGIT.sub("", folded)


def fold_lookalikes(text: str) -> str:
    """CJK radicals → the unified character they show; Japanese shinjitai → traditional (simplified by t2s)."""
    return text.translate(_FOLDS)


class _Folds(dict[int, str]):
    """`str.translate` table filled on first sight of each character (up to `MAX_FOLDS` of them, so a
    stream of odd code points cannot grow it without bound)."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        folded = RADICALS.get(ch, ch)
        # jp2t only outside GB2312: 欠, 芸 and 弁 are shinjitai *and* everyday simplified Chinese.
        if code >= 0x3400 and unicodedata.name(ch, "").startswith("CJK UNIFIED") and not _in_gb2312(ch):
            folded = str(_JP2T.convert(ch))
        if len(self) < MAX_FOLDS:
            self[code] = folded
        return folded


_FOLDS = _Folds()


def _in_gb2312(ch: str) -> bool:
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def contains_word(text: str, word: str) -> bool:
    """True when `text` contains `word` once both are normalised."""
    needle = normalise(word)
    return bool(needle) and needle in normalise(text)
