"""Forms in the visitor's language (issue 33): every field of every game's quick-start form has its label and hint,
and every value of a choice its label, in Chinese and in English — the page never falls back to the schema's
developer text."""

from __future__ import annotations

import typing
from typing import Any

import pytest

from app.api.pages import STRINGS, game_strings
from app.games.base import AbortReason
from app.games.installed import installed
from app.protocol.registry import QuickStarts

QUICK = [game for game, _ in installed() if isinstance(game, QuickStarts)]


def _values(schema: dict[str, Any]) -> list[Any]:
    """The values shown with a label each (a number range shows the numbers themselves)."""
    return list(schema.get("enum", []))


def test_some_game_has_a_quick_start() -> None:
    assert QUICK, "no installed game offers 开一局"


@pytest.mark.parametrize("game", QUICK, ids=lambda game: game.name)
@pytest.mark.parametrize("lang", sorted(STRINGS))
def test_every_choice_is_labelled_in_every_language(game: Any, lang: str) -> None:
    strings = {**STRINGS[lang], **game_strings(game.name).get(lang, {})}
    schema = game.quick_start_model.model_json_schema()
    missing = []
    for name, field in schema["properties"].items():
        keys = [f"choice_{name}", f"choice_{name}_hint"] + [f"choice_{name}_{value}" for value in _values(field)]
        missing += [key for key in keys if not strings.get(key)]
    assert not missing, f"{game.name} ({lang}) lacks the form strings {missing}"
    if lang == "zh":  # the Chinese labels are Chinese, not the English schema text copied over
        for name in schema["properties"]:
            assert any("\u4e00" <= ch <= "\u9fff" for ch in strings[f"choice_{name}_hint"]), name


@pytest.mark.parametrize("lang", sorted(STRINGS))
def test_every_abort_reason_has_its_sentence(lang: str) -> None:
    """The result card says why a match was cancelled in words (board.js shows `reason_<reason>`, else the code)."""
    reasons = typing.get_args(AbortReason)
    assert reasons and [r for r in reasons if not STRINGS[lang].get(f"reason_{r}")] == []
