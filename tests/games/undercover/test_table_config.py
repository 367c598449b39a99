"""The table extensions' config (issue 17): host, debate_rounds, debate_timeout, recap."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import GameError
from tests.games.undercover.rules import UndercoverConfig, parse_config


def test_defaults_are_off_and_left_out_of_the_dump() -> None:
    config = parse_config({})
    assert (config.host, config.debate_rounds, config.debate_timeout, config.recap) == ("off", 0, 90, False)
    assert not config.table_extensions
    dumped = config.model_dump(mode="json")
    assert not {"host", "debate_rounds", "debate_timeout", "recap"} & set(dumped)
    # an explicit default is the same room as no key at all
    assert parse_config({"host": "off", "debate_rounds": 0}).model_dump() == config.model_dump()


def test_set_extensions_round_trip() -> None:
    raw = {"host": "chaos", "debate_rounds": 2, "debate_timeout": 30, "recap": True}
    config = parse_config(raw)
    dumped = config.model_dump(mode="json")
    assert {k: dumped[k] for k in raw} == raw
    assert UndercoverConfig.model_validate(dumped) == config
    assert config.table_extensions


@pytest.mark.parametrize("raw", [{"host": "plain"}, {"debate_rounds": 1}, {"recap": True}])
def test_any_extension_turns_the_table_on(raw: dict[str, Any]) -> None:
    assert parse_config(raw).table_extensions


@pytest.mark.parametrize(("field", "value"), [
    ("host", "loud"), ("host", True), ("debate_rounds", 3), ("debate_rounds", -1), ("debate_rounds", "1"),
    ("debate_timeout", 9), ("debate_timeout", 601), ("recap", "yes"),
])
def test_bad_values_name_their_field(field: str, value: Any) -> None:
    with pytest.raises(GameError) as caught:
        parse_config({field: value})
    assert caught.value.code == "invalid_config"
    assert caught.value.detail["field"] == field
