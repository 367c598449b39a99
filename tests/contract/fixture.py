"""What a game brings to the contract suite: one `Fixture` in `tests/contract/games/<game>/__init__.py`.

A new game gets every contract test (the viewer layers, the `allowed_actions` state machine, the golden runner and
the skill-guide runner) by adding that folder; `FIXTURES` finds every folder.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from app.protocol.registry import AnyGame


@dataclass(frozen=True)
class Goldens:
    """A game's golden transcripts: the scripts that play them, what each must show, where the files are, and the
    replay from a file alone."""

    folder: Path
    scenarios: Mapping[str, Callable[[], Any]]
    expect: Mapping[str, Callable[[dict[str, Any]], bool]]
    replay: Callable[[dict[str, Any]], list[dict[str, Any]]]
    dumps: Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class SkillGuide:
    """A game's skill guide and what its curl blocks need: a setup building the state each block describes, and the
    heading of its error table (which lists the protocol's codes and the game's, each with its status)."""

    path: Path
    setup_for: Callable[[Any], Callable[[httpx.AsyncClient, Any], Awaitable[dict[str, str]]]]
    errors_heading: str
    min_blocks: int


@dataclass(frozen=True)
class Fixture:
    game: AnyGame
    configs: tuple[dict[str, Any], ...]
    """Configs to play in the random tests (small, fast tables; every rule switch somewhere)."""
    texts: tuple[str, ...] = ("我想再听听大家的看法。", "我同意前面的分析。")
    """What a random player says in a free-text field."""
    goldens: Goldens | None = None
    skill: SkillGuide | None = None
    play_tables: int = 12
    aliases: dict[str, str] = field(default_factory=dict)
    """Action types the game documents as another listed type's alias (werewolf: `speak` says last words when
    `last_words` is listed); an alias counts as listed whenever its target is."""
    secrets: Callable[[Any, int | None, dict[str, Any]], None] | None = None
    """The game's own secrecy check of a live snapshot: `(state, seat or None for the anonymous viewer, snapshot)`
    raises AssertionError when the viewer sees what it may not (a living seat's word, card, private text)."""

    @property
    def name(self) -> str:
        return str(self.game.name)


def _discover() -> dict[str, Fixture]:
    from tests.contract import games

    found: dict[str, Fixture] = {}
    for module in pkgutil.iter_modules(games.__path__):
        fixture = importlib.import_module(f"tests.contract.games.{module.name}").FIXTURE
        assert isinstance(fixture, Fixture) and fixture.name == module.name, module.name
        found[module.name] = fixture
    return found


FIXTURES: dict[str, Fixture] = _discover()
