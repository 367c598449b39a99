"""The quick start (issue 17, seed 000's 本局设定): four choices a person makes in the lobby form, turned into a
config. The person takes seat 0; the official bots every other seat.

| pace | `max_rounds` | `speak_timeout` | `vote_timeout` | `n_undercover` | `debate_rounds` (`debate_timeout`) |
|---|---|---|---|---|---|
| `quick` (快速) | 2 | 45 s | 30 s | 1 | 0 |
| `standard` (标准, default) | 3 | 60 s | 45 s | 1 | 1 (60 s) |
| `hell` (地狱: the undercovers' edge) | 4 | 40 s | 30 s | 2 from 5 seats on, else 1 | 2 (45 s) |

`category` is a word-pair tag (`wordpair_tag`; null: the whole library), `chaos` picks the host (`host: "chaos"`,
which may steer suspicion toward an innocent seat, else `"plain"`), `virtual_players` 3–5 bots, so
`n_players` = that + 1. Every quick-start room also has `last_words` (遗言, seed 000's elimination), the end-of-game
`recap` (演技评分, 本场最佳, 翻车现场) and a random first speaker (the seed shuffles the speaking order).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import GameError
from app.games.kit import parse_choices
from app.games.undercover.wordpairs import default_library

Pace = Literal["quick", "standard", "hell"]

PACES: dict[str, dict[str, Any]] = {
    "quick": {"max_rounds": 2, "speak_timeout": 45, "vote_timeout": 30, "debate_rounds": 0, "debate_timeout": 60},
    "standard": {"max_rounds": 3, "speak_timeout": 60, "vote_timeout": 45, "debate_rounds": 1, "debate_timeout": 60},
    "hell": {"max_rounds": 4, "speak_timeout": 40, "vote_timeout": 30, "debate_rounds": 2, "debate_timeout": 45},
}
PACE_LABELS = {
    "quick": {"zh": "快速模式 — 2 轮定胜负", "en": "Quick — decided in 2 rounds"},
    "standard": {"zh": "标准模式 — 3 轮定胜负", "en": "Standard — decided in 3 rounds"},
    "hell": {"zh": "地狱模式 — 4 轮，卧底优势", "en": "Hell — 4 rounds, the undercovers' edge"},
}
TAG_LABELS = {
    "食物": "Food", "日常": "Daily life", "科技": "Tech", "自然": "Nature", "动物": "Animals", "地点": "Places",
    "职业": "Jobs", "娱乐": "Entertainment", "运动": "Sports", "交通": "Transport",
}


class UndercoverQuickStart(BaseModel):
    """The choices of the 开一局 form (seed 000's 本局设定)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    pace: Pace = Field("standard", description="quick (2 rounds), standard (3) or hell (4, two undercovers)")
    category: str | None = Field(None, max_length=64,
                                 description="a word-pair tag (the options' `categories`); null: a random mix")
    chaos: bool = Field(False, description="the host may deliberately steer suspicion toward an innocent seat")
    virtual_players: int = Field(5, ge=3, le=5, description="how many bots sit with you (3–5)")


def quick_config(choices: Mapping[str, Any] | None) -> dict[str, Any]:
    """The config the choices ask for (see the module docstring)."""
    picked = _parse(choices)
    n_players = picked.virtual_players + 1
    return {
        "n_players": n_players,
        "n_undercover": 2 if picked.pace == "hell" and n_players >= 5 else 1,
        **PACES[picked.pace], "wordpair_tag": picked.category, "last_words": True, "first_speaker": "random",
        "host": "chaos" if picked.chaos else "plain", "recap": True,
    }


def _parse(choices: Mapping[str, Any] | None) -> UndercoverQuickStart:
    picked = parse_choices(UndercoverQuickStart, choices)
    if picked.category is not None and picked.category not in default_library().tags():
        raise GameError("invalid_config", f"choices.category: unknown category {picked.category!r}",
                        field="choices.category")
    return picked


def quick_options() -> dict[str, Any]:
    """The form's categories (each tag with its labels and how many pairs it holds) and paces."""
    library = default_library()
    categories: list[dict[str, Any]] = [
        {"tag": None, "label": {"zh": "随机混搭", "en": "Random mix"}, "count": len(library)}]
    categories += [{"tag": tag, "label": {"zh": tag, "en": TAG_LABELS.get(tag, tag)},
                    "count": len(library.pairs(tag))} for tag in library.tags()]
    paces = [{"pace": name, "label": PACE_LABELS[name], **values} for name, values in PACES.items()]
    return {"categories": categories, "paces": paces}
