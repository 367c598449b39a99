"""Text normalisation for the secret-word check and the blank's guess."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import opencc

_T2S = opencc.OpenCC("t2s")


@lru_cache(maxsize=4096)
def normalise(text: str) -> str:
    """Fold width (NFKC), case and traditional→simplified; drop everything but letters and digits.

    Two texts that a reader would call "the same word" normalise to the same string, so
    spaces, punctuation, full-width forms and 繁體 cannot hide a word.
    """
    folded = _T2S.convert(unicodedata.normalize("NFKC", text)).casefold()
    return "".join(ch for ch in folded if unicodedata.category(ch)[0] in "LN")


def contains_word(text: str, word: str) -> bool:
    """True when `text` contains `word` once both are normalised."""
    needle = normalise(word)
    return bool(needle) and needle in normalise(text)
