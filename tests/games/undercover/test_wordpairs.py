"""The shipped word-pair library, its loader and its validator."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.games.base import GameError
from app.games.undercover.text import normalise
from app.games.undercover.wordpairs import (
    DEFAULT_DIRECTORY,
    Library,
    Word,
    WordPair,
    default_library,
    load_library,
    validate_library,
)

BAD = Path(__file__).parent / "fixtures" / "bad_wordpairs"
NAMED_TAGS = ("食物", "日常", "科技", "自然", "动物", "地点", "职业", "娱乐")

# Every pair of seed 000's built-in word list (food / daily / tech / nature).
SEED_000_PAIRS = [
    ("包子", "饺子"), ("牛奶", "豆浆"), ("薯片", "薯条"), ("面包", "吐司"), ("口红", "唇膏"),
    ("雨伞", "阳伞"), ("玻璃", "镜子"), ("相机", "摄影机"), ("打火机", "点烟器"), ("结婚", "订婚"),
    ("干洗机", "甩干机"), ("吉他", "贝斯"), ("耳机", "耳塞"), ("鼠标", "触控板"), ("平板", "电子书"),
    ("蚊子", "苍蝇"), ("雪花", "冰雹"), ("柳树", "杨树"), ("蜜蜂", "黄蜂"),
]  # fmt: skip

LIBRARY = load_library()
SHIPPED_PAIRS = LIBRARY.pairs()


# --------------------------------------------------------------------------- shipped library


def test_shipped_library_has_no_problems() -> None:
    assert validate_library() == []
    assert validate_library(DEFAULT_DIRECTORY) == []


def test_shipped_library_size_and_tags() -> None:
    assert len(LIBRARY) >= 320
    assert len(LIBRARY.tags()) >= 8
    assert set(NAMED_TAGS) <= set(LIBRARY.tags())
    assert all(len(LIBRARY.pairs(tag)) >= 20 for tag in LIBRARY.tags())
    assert sum(len(LIBRARY.pairs(tag)) for tag in LIBRARY.tags()) == len(LIBRARY) == len(SHIPPED_PAIRS)


@pytest.mark.parametrize(("first", "second"), SEED_000_PAIRS)
def test_every_seed_pair_is_shipped(first: str, second: str) -> None:
    assert {first, second} in [set(pair.words) for pair in SHIPPED_PAIRS]


@pytest.mark.parametrize("pair", SHIPPED_PAIRS, ids=lambda p: "/".join(p.words))
def test_clues_avoid_the_partner_word(pair: WordPair) -> None:
    """House rule for the shipped data (stricter than the validator): no clue uses a partner's char."""
    for word, other in ((pair.a, pair.b), (pair.b, pair.a)):
        for clue in word.clues:
            assert not set(normalise(other.word)) & set(normalise(clue)), (word.word, clue, other.word)


def test_files_are_tag_per_file_and_pretty() -> None:
    for path in sorted(DEFAULT_DIRECTORY.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) == {"tag", "pairs"}, path.name
        assert path.name.isascii(), path.name


# --------------------------------------------------------------------------- Library API


def test_pairs_by_tag_and_words() -> None:
    food = LIBRARY.pairs("食物")
    assert food and all(pair.tag == "食物" for pair in food)
    pair = food[0]
    assert pair.words == (pair.a.word, pair.b.word)
    assert isinstance(pair.a, Word) and len(pair.a.clues) >= 3


def test_unknown_tag_is_an_invalid_config() -> None:
    with pytest.raises(GameError) as caught:
        LIBRARY.pairs("不存在的标签")
    assert caught.value.code == "invalid_config"
    assert caught.value.detail == {"field": "wordpair_tag"}


def test_find_word() -> None:
    coffee = LIBRARY.find_word("咖啡")
    assert coffee is not None and coffee.en == "coffee" and len(coffee.clues) >= 3
    assert LIBRARY.find_word(" 咖 啡 ") == coffee
    assert LIBRARY.find_word("飛機") == LIBRARY.find_word("飞机") is not None  # traditional folds
    assert LIBRARY.find_word("不存在的词") is None


def test_word_and_pair_are_frozen() -> None:
    pair = SHIPPED_PAIRS[0]
    with pytest.raises(AttributeError):
        pair.tag = "x"  # type: ignore[misc]
    assert hash(pair) == hash(WordPair(pair.tag, pair.a, pair.b))


def test_default_library_is_cached() -> None:
    assert default_library() is default_library()
    assert isinstance(default_library(), Library)
    assert len(default_library()) == len(LIBRARY)


# --------------------------------------------------------------------------- validator on bad data


@pytest.fixture(scope="module")
def bad_problems() -> list[str]:
    return validate_library(BAD)


def reported(problems: list[str], *fragments: str) -> bool:
    return any(all(fragment in problem for fragment in fragments) for problem in problems)


@pytest.mark.parametrize(
    "fragments",
    [
        ("bad.json pair #0", "[苹果/苹果汁]", "one word contains the other"),
        ("bad.json pair #1", "'牛奶'", "clue '奶牛产的' contains", "from its word"),
        ("bad.json pair #2", "'阳伞'", "needs 3-8 clues, has 2"),
        ("bad.json pair #3", "'iPhone'", "CJK characters only"),
        ("bad.json pair #4", "[大西瓜/小西瓜]", "share a run of characters"),
        ("bad.json pair #5", "[猫/猫]", "identical"),
        ("bad.json pair #6", "'包子'", "'en' gloss missing or empty"),
        ("bad.json pair #7", "'火锅'", "'clues' must be a list"),
        ("bad.json pair #7", "unexpected key(s) 'note'"),
        ("bad.json pair #8 side b", "missing or not an object"),
        ("dup.json pair #0", "[饺子/包子]", "duplicate pair", "first at bad.json pair #6"),
        ("dup.json pair #1", "'薯片'", "contains the other word '薯条'"),
        ("broken.json", "malformed JSON"),
        ("empty.json", "'tag' must be", "'food'"),
        ("empty.json", "'pairs' must be a non-empty list"),
    ],
)
def test_bad_library_reports_each_problem(bad_problems: list[str], fragments: tuple[str, ...]) -> None:
    assert reported(bad_problems, *fragments), "\n".join(bad_problems)


def test_bad_library_fails_to_load() -> None:
    with pytest.raises(ValueError, match="invalid word-pair library") as caught:
        load_library(BAD)
    assert "malformed JSON" in str(caught.value)
    assert "one word contains the other" in str(caught.value)


def test_missing_or_empty_directory(tmp_path: Path) -> None:
    assert validate_library(tmp_path / "nope") == [f"{tmp_path / 'nope'}: not a directory"]
    assert validate_library(tmp_path) == [f"{tmp_path}: no *.json files"]


def test_two_files_may_not_share_a_tag(tmp_path: Path) -> None:
    write_pair(tmp_path, "蛋糕", "蛋挞", name="one")
    write_pair(tmp_path, "咖啡", "奶茶", name="two")
    assert reported(validate_library(tmp_path), "two.json", "tag '测试' is already used by one.json")


# --------------------------------------------------------------------------- the shared-character rule

NEUTRAL_CLUES = ["日常可见", "人人知晓", "颜色各异"]


def write_pair(directory: Path, a: str, b: str, name: str = "t") -> None:
    side = {"en": "x", "clues": NEUTRAL_CLUES}
    data = {"tag": "测试", "pairs": [{"a": {"word": a, **side}, "b": {"word": b, **side}}]}
    (directory / f"{name}.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize(
    ("a", "b", "problem"),
    [
        ("蛋糕", "蛋挞", None),  # one shared character
        ("干洗机", "甩干机", None),  # two shared, both 3+ long, no common run, each has its own
        ("猫", "老虎", None),
        ("苹果", "苹果汁", "contains the other"),
        ("白菜", "菜", "contains the other"),
        ("咖啡", "咖啡", "identical"),
        ("咖啡", "啡咖", "share 2 characters"),  # two-character words may share only one
        ("大西瓜", "小西瓜", "share a run of characters '西瓜'"),
        ("红花红", "花红绿", "share a run of characters '花红'"),
        ("干机干", "机甩干", "one word has no character of its own"),
        ("天天向上", "向天看上", "share 3 characters"),
    ],
)
def test_shared_character_rule(tmp_path: Path, a: str, b: str, problem: str | None) -> None:
    write_pair(tmp_path, a, b)
    problems = validate_library(tmp_path)
    if problem is None:
        assert problems == []
    else:
        assert reported(problems, problem), problems


def test_traditional_word_must_be_stored_simplified(tmp_path: Path) -> None:
    write_pair(tmp_path, "飛機", "火车")
    assert reported(validate_library(tmp_path), "'飛機'", "stored normalised (simplified) as '飞机'")


def test_clue_length_and_charset(tmp_path: Path) -> None:
    side = {"en": "x", "clues": ["好", "一二三四五六七八九十百千万", "abc字", "日常可见", "日常可见"]}
    data = {"tag": "测试", "pairs": [{"a": {"word": "猫", **side}, "b": {"word": "狗", **side}}]}
    (tmp_path / "t.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    problems = validate_library(tmp_path)
    for clue in ("'好'", "'一二三四五六七八九十百千万'", "'abc字'"):
        assert reported(problems, "'猫'", f"clue {clue} must be 2-12 CJK characters"), problems
    assert reported(problems, "'猫'", "clue '日常可见' is repeated")


def test_a_bad_library_stops_the_game_loading_at_start_up() -> None:
    """The server refuses to start on a library with problems (not a 500 at the first match): loading the game
    loads the library. Run in a fresh interpreter, with the shipped directory pointed at the bad fixtures."""
    code = (f"import app.games.undercover.wordpairs as w, pathlib; w.DEFAULT_DIRECTORY = pathlib.Path({str(BAD)!r}); "
            "import app.games.undercover.game")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parents[3], check=False)
    assert done.returncode != 0
    assert "invalid word-pair library" in done.stderr
    assert all(problem in done.stderr for problem in validate_library(BAD))
