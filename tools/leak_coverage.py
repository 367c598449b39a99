"""Measure the undercover own-word check (`app.games.undercover.leak`) over every word of the pair library.

For each kind of spelling, every library word it applies to is written that way and checked as its own holder's
speech; the figure is how many are refused. Then the corpus of ordinary speeches (the one
tests/games/undercover/test_leak.py holds, spoken by holders of each word, of its partner and by strangers) is
checked for false positives. Prints one line per kind and a summary line.

    PYTHONPATH=$PWD /work/main/.venv/bin/python -m tools.leak_coverage [--kinds spelled,acrostic]

Kinds marked `limit` are the known limits the guide lists (whole-word encodings, arbitrary characters between the
word's characters, the word reversed, a riddle): their figures say how little is caught, not a goal.
"""

from __future__ import annotations

import argparse
import base64
from collections.abc import Callable

from pypinyin import Style, lazy_pinyin

from app.games.undercover.leak import find_leak
from app.games.undercover.wordpairs import Word
from tests.games.undercover.test_leak import KINDS as SPELLINGS
from tests.games.undercover.test_leak import corpus, library_words

MORSE = {"a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.", "h": "....", "i": "..",
         "j": ".---", "k": "-.-", "l": ".-..", "m": "--", "n": "-.", "o": "---", "p": ".--.", "q": "--.-",
         "r": ".-.", "s": "...", "t": "-", "u": "..-", "v": "...-", "w": ".--", "x": "-..-", "y": "-.--",
         "z": "--.."}
TAILS = ("天我们先聊聊", "常常出现在生活里", "其实挺好理解", "大家可以想一想", "也许你猜到了", "就说到这里")


def _multi(w: Word) -> bool:
    return len(w.word) >= 2


def _spelled(w: Word) -> str | None:
    if not _multi(w):
        return None
    return f"第一个字是{w.word[0]}，" + "，".join(f"后面接「{ch}」" for ch in w.word[1:])


def _ordinal(w: Word) -> str | None:
    numbers = "一二三四五六七八九"
    return "，".join(f"第{numbers[i]}个字是{ch}" for i, ch in enumerate(w.word)) if _multi(w) else None


def _acrostic(w: Word) -> str | None:
    return "，".join(ch + TAILS[i % len(TAILS)] for i, ch in enumerate(w.word)) + "。" if _multi(w) else None


def _acrostic_lines(w: Word) -> str | None:
    return "\n".join(ch + TAILS[-1 - i % len(TAILS)] for i, ch in enumerate(w.word)) if _multi(w) else None


def _between(filler: str) -> Callable[[Word], str | None]:
    return lambda w: filler.join(w.word) if _multi(w) else None


def _morse(w: Word) -> str:
    return " / ".join(" ".join(MORSE[c] for c in s if c in MORSE) for s in lazy_pinyin(w.word))


KINDS: dict[str, Callable[[Word], str | None]] = {
    **SPELLINGS,
    # issue 26 item 6: plain-language spellings
    "spelled": _spelled,
    "spelled_ordinal": _ordinal,
    "spelled_quoted": lambda w: "取" + "和".join(f"「{ch}」" for ch in w.word) + "几个字" if _multi(w) else None,
    "spelled_zi": lambda w: "，".join(f"{ch}字{'开头' if i == 0 else '跟上'}" for i, ch in enumerate(w.word))
    if _multi(w) else None,
    "acrostic": _acrostic,
    "acrostic_lines": _acrostic_lines,
    "cjk_filler": _between("的" * 9),
    "cjk_filler_particles": _between("啊呀吧"),
    "cjk_filler_repeat": _between("哈哈哈"),
    "cjk_filler_numerals": _between("一二三"),
    "bopomofo": lambda w: " ".join(lazy_pinyin(w.word, style=Style.BOPOMOFO)),
    "wade_giles": lambda w: "-".join(lazy_pinyin(w.word, style=Style.WADEGILES)),
    "pinyin_backwards": lambda w: " ".join(s[::-1] for s in reversed(lazy_pinyin(w.word))),
    # known limits
    "limit_base64": lambda w: base64.b64encode(w.word.encode()).decode(),
    "limit_morse": _morse,
    "limit_hex": lambda w: w.word.encode().hex(),
    "limit_random_cjk_between": _between("天地玄黄"),
    "limit_reversed_chars": lambda w: w.word[::-1] + "，倒过来念" if _multi(w) else None,
    "limit_syllables_swapped": lambda w: " ".join(reversed(lazy_pinyin(w.word))) if _multi(w) else None,
}


def measure(kind: str) -> tuple[int, int]:
    """(words this kind applies to, of them refused)."""
    applied = caught = 0
    for word in library_words():
        text = KINDS[kind](word)
        if text is None:
            continue
        applied += 1
        caught += find_leak(text, word.word, word.en) is not None
    return applied, caught


def false_positives() -> tuple[int, int, list[tuple[str, str, str]]]:
    speeches = corpus()
    refused = [(text, w.word, rule) for text, w in speeches if (rule := find_leak(text, w.word, w.en))]
    return len(speeches), len(refused), refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", help="comma-separated kinds (default: all)")
    args = parser.parse_args()
    kinds = args.kinds.split(",") if args.kinds else list(KINDS)
    total_applied = total_caught = 0
    for kind in kinds:
        applied, caught = measure(kind)
        if not kind.startswith("limit_"):
            total_applied, total_caught = total_applied + applied, total_caught + caught
        print(f"{kind:26} {caught:4}/{applied:<4} refused  ({applied - caught} accepted)")
    speeches, refused, examples = false_positives()
    for text, word, rule in examples[:10]:
        print(f"  false positive: {word} {rule}: {text}")
    print(f"summary: {len(library_words())} words, {total_caught}/{total_applied} spellings refused over "
          f"{sum(not k.startswith('limit_') for k in kinds)} kinds (limits excluded); "
          f"{refused}/{speeches} ordinary speeches refused")


if __name__ == "__main__":
    main()
