"""The skill-guide runner: every curl block of every game's `<game>-skill.md` runs against the app in the state
its setup builds (status, error code, the DM's message, the example's shape; `tests/test_skill_guide.py` has the
parser), every expected status is its code's in the catalogue, and the guide's error table lists exactly the
protocol's codes and the game's."""

from __future__ import annotations

import httpx
import pytest

from app.protocol.errors import STATUS as PROTOCOL_STATUS
from tests.contract.fixture import FIXTURES, SkillGuide
from tests.test_skill_guide import Block, check_statuses, error_table, parse_guide, run_blocks

GUIDES: dict[str, SkillGuide] = {name: f.skill for name, f in FIXTURES.items() if f.skill is not None}


def status(game: str) -> dict[str, int]:
    return {**PROTOCOL_STATUS, **{code: spec.status for code, spec in FIXTURES[game].game.errors.items()}}


def blocks(game: str) -> list[Block]:
    return parse_guide(GUIDES[game].path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", sorted(GUIDES))
async def test_every_curl_in_the_guide(client: httpx.AsyncClient, game: str) -> None:
    guide = GUIDES[game]
    found = blocks(game)
    assert len(found) >= guide.min_blocks, f"only {len(found)} bash blocks in {guide.path.name}"
    await run_blocks(client, found, guide.setup_for, guide.path.name)


@pytest.mark.parametrize("game", sorted(GUIDES))
def test_expectations_match_the_error_catalogue(game: str) -> None:
    check_statuses(blocks(game), status(game))


@pytest.mark.parametrize("game", sorted(GUIDES))
def test_error_table_lists_every_code(game: str) -> None:
    guide = GUIDES[game]
    assert error_table(guide.path.read_text(encoding="utf-8"), guide.errors_heading) == status(game)
