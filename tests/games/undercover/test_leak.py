"""The secret-word check: every known way of spelling a word around it is refused, and ordinary clue speeches
are not."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import lru_cache

import opencc
import pytest
from pypinyin import Style, lazy_pinyin, pinyin

from app.games.undercover.brain.personas import VOICES
from app.games.undercover.leak import common_words, displays, find_leak, leaks
from app.games.undercover.radicals import RADICALS
from app.games.undercover.text import contains_word, normalise
from app.games.undercover.wordpairs import Word, default_library

RLO, PDF, RLM = "\u202e", "\u202c", "\u200f"

# (text, word, gloss, rule that catches it)
EVASIONS: list[tuple[str, str, str | None, str]] = [
    # today's folds: spacing, punctuation, width, case, invisible characters, 繁體
    ("我最爱喝红茶了", "红茶", None, "word"),
    ("红 茶", "红茶", None, "word"),
    ("红，茶！", "红茶", None, "word"),
    ("红-茶", "红茶", None, "word"),
    ("红\u200b茶", "红茶", None, "word"),
    ("红\u00ad茶", "红茶", None, "word"),
    ("紅茶", "红茶", None, "word"),
    ("輪船", "轮船", None, "word"),
    ("ｉｐａｄ真好用", "iPad", None, "word"),
    ("IPAD", "ipad", None, "word"),
    ("红\u0301茶", "红茶", None, "word"),
    # look-alikes: CJK radicals, Kangxi radicals, compatibility ideographs, shinjitai
    ("公交⻋", "公交车", None, "word"),
    ("坐⻢车", "马车", None, "word"),
    ("⻥汤", "鱼汤", None, "word"),
    ("⻔票", "门票", None, "word"),
    ("⻜机", "飞机", None, "word"),
    ("⾺车", "马车", None, "word"),
    ("⽕车", "火车", None, "word"),
    ("⺼饼", "月饼", None, "word"),
    ("\uf907龟", "龟龟", None, "word"),
    ("鶏肉", "鸡肉", None, "word"),
    ("地図", "地图", None, "word"),
    ("駅前", "驿前", None, "word"),
    ("桜花", "樱花", None, "word"),
    ("黒板", "黑板", None, "word"),
    ("広場", "广场", None, "word"),
    ("髪型", "发型", None, "word"),
    # filler: one short run of letters, digits or 〇 between characters
    ("厨x师", "厨师", None, "filler"),
    ("厨1师", "厨师", None, "filler"),
    ("厨〇师", "厨师", None, "filler"),
    ("厨XYZ师", "厨师", None, "filler"),
    ("厨_x_师", "厨师", None, "filler"),
    ("公a交b车", "公交车", None, "filler"),
    ("厨ｘ师", "厨师", None, "filler"),
    ("厨の师", "厨师", None, "filler"),
    ("厨12345678师", "厨师", None, "filler"),
    ("紅x茶", "红茶", None, "filler"),
    # display order: bidi overrides and right-to-left marks
    (f"我喜欢{RLO}茶红{PDF}", "红茶", None, "display"),
    (f"{RLO}师厨", "厨师", None, "display"),
    (f"{RLO}车交公{PDF}真挤", "公交车", None, "display"),
    (f"{RLM}茶{RLM}红", "红茶", None, "display"),
    (f"{RLM}车{RLM}公交", "公交车", None, "display"),
    (f"\u202b{RLO}茶红{PDF}{PDF}", "红茶", None, "display"),
    (f"{RLO}茶x红{PDF}", "红茶", None, "display"),
    ("\u2067茶\u05d0红\u2069", "红茶", None, "display"),
    # pinyin
    ("hongcha", "红茶", None, "pinyin"),
    ("hóng chá", "红茶", None, "pinyin"),
    ("hong-cha", "红茶", None, "pinyin"),
    ("Hong Cha", "红茶", None, "pinyin"),
    ("hong2 cha2", "红茶", None, "pinyin"),
    ("ＨＯＮＧＣＨＡ", "红茶", None, "pinyin"),
    ("wo xihuan hongcha", "红茶", None, "pinyin"),
    ("woxihuanhongcha", "红茶", None, "pinyin"),
    ("我说的是 h o n g c h a", "红茶", None, "pinyin"),
    ("lü chá", "绿茶", None, "pinyin"),
    ("lvcha", "绿茶", None, "pinyin"),
    ("gōng jiāo chē", "公交车", None, "pinyin"),
    ("喵 mao", "猫", None, "pinyin"),
    ("chu'shi", "厨师", None, "pinyin"),
    ("hong茶", "红茶", None, "pinyin"),
    ("洪cha", "红茶", None, "pinyin"),
    ("gong交che", "公交车", None, "pinyin"),
    # homophones: same toned syllables, other characters
    ("洪茶", "红茶", None, "homophone"),
    ("鸿察", "红茶", None, "homophone"),
    ("宏茶真香", "红茶", None, "homophone"),
    ("厨湿", "厨师", None, "homophone"),
    ("冒字", "帽子", None, "homophone"),
    ("攻胶车", "公交车", None, "homophone"),
    ("他是个伊生", "医生", None, "homophone"),
    # English gloss
    ("black tea", "红茶", "black tea", "gloss"),
    ("Black-Tea!", "红茶", "black tea", "gloss"),
    ("BLACKTEA", "红茶", "black tea", "gloss"),
    ("black teas", "红茶", "black tea", "gloss"),
    ("b l a c k t e a", "红茶", "black tea", "gloss"),
    ("ｂｌａｃｋ ｔｅａ", "红茶", "black tea", "gloss"),
    ("我爱 chef", "厨师", "chef", "gloss"),
    ("drivers license", "驾照", "driver's license", "gloss"),
    ("Wi Fi 没信号", "无线网", "Wi-Fi", "gloss"),
    ("blаck tеа", "红茶", "black tea", "gloss"),  # Cyrillic а and е
    ("һоng сһа", "红茶", None, "pinyin"),  # Cyrillic һ, о, с
]

# Ordinary texts that share letters, sounds or characters with the word and must pass.
NEAR_MISSES: list[tuple[str, str, str | None]] = [
    ("Hong Chang 是我的朋友", "红茶", "black tea"),
    ("他老是迟到", "老师", "teacher"),
    ("大家 go go go", "围棋", "go"),
    ("我吃了很多红色的东西，还有茶叶蛋", "红茶", "black tea"),
    ("欠条", "缺条", None),
    ("cannibalism", "巴黎", "Paris"),
    ("一杯黑咖啡", "红茶", "black tea"),
    ("teacher's day", "红茶", "black tea"),
    ("3号说得对，我投4号", "厨师", "chef"),
    ("这是 iPhone 15 的功能", "手机", "mobile phone"),
    ("mao zedong", "帽子", "hat"),
    ("我的 Hong Kong 朋友爱喝茶", "红茶", "black tea"),
    ("红色 channel", "红茶", "black tea"),
    ("厨房里的师傅", "厨师", "chef"),
    ("除湿机开着", "厨师", "chef"),  # a homophone that is an everyday word is ordinary speech
    ("第一次见到它", "剑道", "kendo"),
    ("谁有意见？", "射箭", "archery"),
]


@pytest.mark.parametrize(("text", "word", "gloss", "rule"), EVASIONS)
def test_evasion_is_refused(text: str, word: str, gloss: str | None, rule: str) -> None:
    assert find_leak(text, word, gloss) == rule


def test_the_table_covers_every_rule() -> None:
    rules = Counter(rule for *_, rule in EVASIONS)
    assert len(EVASIONS) >= 60
    assert set(rules) == {"word", "filler", "display", "pinyin", "homophone", "gloss"}


@pytest.mark.parametrize(("text", "word", "gloss"), NEAR_MISSES)
def test_near_miss_passes(text: str, word: str, gloss: str | None) -> None:
    assert find_leak(text, word, gloss) is None


def test_no_word_no_leak() -> None:
    assert not leaks("随便说点什么", "")
    assert not leaks("", "红茶")


def test_plain_text_has_one_display() -> None:
    assert displays("我喜欢红茶") == ["我喜欢红茶"]
    assert len(displays(f"{RLO}茶红{PDF}")) == 4


def test_every_supplement_radical_folds_to_a_unified_ideograph() -> None:
    import unicodedata

    assigned = [chr(c) for c in range(0x2E80, 0x2EF4) if unicodedata.name(chr(c), "")]
    for radical in assigned:
        folded = RADICALS.get(radical) or unicodedata.normalize("NFKC", radical)
        assert unicodedata.name(folded).startswith("CJK UNIFIED"), radical


# --------------------------------------------------------------------------- the whole library


@lru_cache(maxsize=1)
def library_words() -> tuple[Word, ...]:
    seen: dict[str, Word] = {}
    for pair in default_library().pairs():
        for word in (pair.a, pair.b):
            seen.setdefault(word.word, word)
    return tuple(seen.values())


_S2T = opencc.OpenCC("s2t")
_T2JP = opencc.OpenCC("t2jp")
_LOOKALIKE = {v: k for k, v in sorted(RADICALS.items(), reverse=True)}


def _toned(word: str) -> list[str]:
    return lazy_pinyin(word, style=Style.TONE3, neutral_tone_with_five=True)


@lru_cache(maxsize=1)
def _homophone_index() -> dict[str, list[str]]:
    """Toned syllable → GB2312 characters that have it as their first reading."""
    index: dict[str, list[str]] = {}
    for hi in range(0xB0, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                ch = bytes([hi, lo]).decode("gb2312")
            except UnicodeDecodeError:
                continue
            reading = pinyin(ch, style=Style.TONE3, neutral_tone_with_five=True)[0][0]
            index.setdefault(reading, []).append(ch)
    return index


def _homophone(word: str) -> str | None:
    out = []
    for ch, syllable in zip(word, _toned(word), strict=True):
        others = [c for c in _homophone_index().get(syllable, []) if c != ch and normalise(c) == c]
        out.append(others[0] if others else ch)
    spelled = "".join(out)
    return spelled if spelled != word and spelled not in common_words() else None


def _lookalike(word: str) -> str | None:
    radicals = "".join(_LOOKALIKE.get(ch, ch) for ch in word)
    if radicals != word:
        return radicals
    # Shinjitai that are also everyday simplified characters (芸 for 艺) are left alone by design.
    shinjitai = "".join(j if _outside_gb2312(j) else s for s, j in zip(word, _T2JP.convert(_S2T.convert(word)),
                                                                       strict=False))
    return shinjitai if shinjitai != word else None


def _outside_gb2312(ch: str) -> bool:
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return True
    return False


KINDS: dict[str, Callable[[Word], str | None]] = {
    "spaced": lambda w: "我说" + " ".join(w.word) + "。",
    "traditional": lambda w: t if (t := _S2T.convert(w.word)) != w.word else None,
    "lookalike": lambda w: _lookalike(w.word),
    "filler_letter": lambda w: "x".join(w.word) if len(w.word) >= 2 else None,
    "filler_digit": lambda w: "1".join(w.word) if len(w.word) >= 2 else None,
    "filler_zero": lambda w: "〇".join(w.word) if len(w.word) >= 2 else None,
    "override": lambda w: f"它是{RLO}{w.word[::-1]}{PDF}吧" if len(w.word) >= 2 else None,
    "rtl_marks": lambda w: RLM + RLM.join(reversed(w.word)) if len(w.word) >= 2 else None,
    "pinyin_tones": lambda w: " ".join(lazy_pinyin(w.word, style=Style.TONE)),
    "pinyin_plain": lambda w: "".join(lazy_pinyin(w.word)),
    "pinyin_hyphen": lambda w: "-".join(lazy_pinyin(w.word, style=Style.TONE3)),
    "pinyin_mixed": lambda w: lazy_pinyin(w.word[0])[0] + w.word[1:] if len(w.word) >= 2 else None,
    "homophone": lambda w: _homophone(w.word) if len(w.word) >= 2 else None,
    "gloss": lambda w: f"这个就是 {w.en.upper()} 嘛" if len(w.en) >= 3 else None,
}
# The fewest words each kind must cover (the library has 676 words, 654 of two or more characters).
MIN_COVERED = {"spaced": 676, "traditional": 420, "lookalike": 420, "filler_letter": 654, "filler_digit": 654,
               "filler_zero": 654, "override": 654, "rtl_marks": 654, "pinyin_tones": 676, "pinyin_plain": 676,
               "pinyin_hyphen": 676, "pinyin_mixed": 654, "homophone": 640, "gloss": 670}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_library_word_is_refused(kind: str) -> None:
    covered, missed = 0, []
    for word in library_words():
        text = KINDS[kind](word)
        if text is None:
            continue
        covered += 1
        if not leaks(text, word.word, word.en):
            missed.append((word.word, text))
    assert not missed, missed[:10]
    assert covered >= MIN_COVERED[kind], covered


# --------------------------------------------------------------------------- false positives


def corpus() -> list[tuple[str, Word]]:
    """Every clue of every word in every clue-only persona template, spoken by a holder of that word (as the
    bots do) and by a holder of its partner, plus a seeded sample of other holders."""
    templates = sorted({t for p in VOICES.values() for t in p.speak + p.speak_undercover
                        if "{" not in t.replace("{clue}", "")})
    rng = random.Random(18)
    speeches = []
    words = library_words()
    for pair in default_library().pairs():
        for own, partner in ((pair.a, pair.b), (pair.b, pair.a)):
            for clue in own.clues:
                text = rng.choice(templates).format(clue=clue)
                speeches += [(text, own), (text, partner)]
                stranger = rng.choice(words)
                if not contains_word(text, stranger.word):
                    speeches.append((text, stranger))
    return speeches + [(text, w) for text in HAND_WRITTEN for w in rng.sample(words, 20)]


HAND_WRITTEN = [
    "我觉得3号说得有点含糊，先观察一下。", "这个东西家家都有，每天都会用到。", "它的颜色很鲜艳，小朋友特别喜欢。",
    "一般在超市就能买到，价格不贵。", "上次聚会大家都在聊这个话题。", "我同意前面几位的说法，没什么补充。",
    "冬天的时候用得比较多，夏天少一点。", "这个和 Wi-Fi 没关系，跟吃的有关。", "我投5号，他的描述跟大家对不上。",
    "OK，我简单说一句：很常见。", "二〇二四年特别流行。", "老是有人说它不健康，我不这么看。",
    "第1次见到它是在小学的时候。", "一生中总会遇到一次吧。", "它有点像我们小时候玩的东西。",
    "我们家楼下就有，走路五分钟。", "晚上比较多见，白天很少。", "这个要看个人口味，有人爱有人不爱。",
    "说真的，我觉得它挺贵的。", "先听听后面的人怎么说吧。",
]


def test_ordinary_speeches_pass() -> None:
    speeches = corpus()
    refused = [(text, w.word, rule) for text, w in speeches if (rule := find_leak(text, w.word, w.en))]
    assert len(speeches) >= 2000
    assert not refused, refused[:10]
