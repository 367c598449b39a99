"""Issue 26 item 6: plain-language spellings of the own word, measured over the whole library (the figures
`python -m tools.leak_coverage` prints), and the known limits staying what the guide says they are."""

from __future__ import annotations

import pytest

from app.games.undercover.leak import find_leak
from tools.leak_coverage import false_positives, measure

# Every library word these kinds apply to is refused; the pinyin read backwards only when it has 4+ letters.
FULL = ["spelled", "spelled_ordinal", "spelled_quoted", "spelled_zi", "acrostic", "acrostic_lines", "cjk_filler",
        "cjk_filler_particles", "cjk_filler_repeat", "cjk_filler_numerals", "bopomofo", "wade_giles"]


@pytest.mark.parametrize("kind", FULL)
def test_every_library_word_spelled_this_way_is_refused(kind: str) -> None:
    applied, caught = measure(kind)
    assert applied >= 654 and caught == applied, (kind, caught, applied)


def test_the_pinyin_read_backwards_is_refused_from_four_letters() -> None:
    applied, caught = measure("pinyin_backwards")
    assert applied == 676 and caught >= 650


@pytest.mark.parametrize(("text", "word", "rule"), [
    ("第一个字是老，后面接「虎」", "老虎", "spelled"),
    ("第一个字是老，第二个字是虎", "老虎", "spelled"),
    ("老字开头，虎字结尾", "老虎", "spelled"),
    ("取『红』和“茶”两个字", "红茶", "spelled"),
    ("老师说过的话\n虎头蛇尾的事", "老虎", "acrostic"),
    ("老实说，虎头虎脑的", "老虎", "acrostic"),
    ("老的的的的的的的的的虎", "老虎", "cjk_filler"),
    ("红啊呀吧茶", "红茶", "cjk_filler"),
    ("红嗯嗯嗯嗯茶", "红茶", "cjk_filler"),
    ("ㄏㄨㄥˊ ㄔㄚˊ", "红茶", "bopomofo"),
    ("hung-ch'a", "红茶", "wade_giles"),
    ("ahc gnoh", "红茶", "wade_giles"),
])
def test_examples(text: str, word: str, rule: str) -> None:
    assert find_leak(text, word) == rule


@pytest.mark.parametrize("text", ["老是有人说它不健康", "它的颜色很红，泡出来像茶", "红色的杯子里装着茶",
                                  "我觉得老三说得对", "字写得很好看", "「好」这个字大家都认识"])
def test_near_misses(text: str) -> None:
    assert find_leak(text, "老虎") is None and find_leak(text, "红茶") is None


@pytest.mark.parametrize("kind", ["limit_base64", "limit_morse", "limit_hex"])
def test_whole_word_encodings_stay_a_known_limit(kind: str) -> None:
    """The guide says these are not caught; if a rule starts catching them, the guide must change too."""
    assert measure(kind)[1] == 0


def test_no_ordinary_speech_is_refused() -> None:
    speeches, refused, examples = false_positives()
    assert speeches >= 2000 and refused == 0, examples[:10]
