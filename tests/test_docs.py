"""The docs site and the skill guides stay true to the code, and short.

- every block `python -m tools.docs` owns (the skill guides' shared fragments, the generated settings and game
  tables) is what the tool would write now: a fragment edited in one guide only, or a game that gained an error
  code, fails here until the tool is run;
- every setting, every error code (the protocol's catalogue and every game's own) and every action of every game
  is in the docs, and every setting has a meaning;
- every game's rules are one fragment, in its guide and on its docs page;
- the README is at most 120 lines and no docs page is over 300;
- every page on disk is in the site's navigation.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.games.installed import installed
from app.protocol.errors import STATUS as PROTOCOL_STATUS
from app.settings import Settings
from tests.test_skill_guide import error_table
from tools import docs as tool

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GAMES = [game for game, _brain in installed()]
PAGES = sorted(path for path in DOCS.rglob("*.md") if tool.SHARED not in path.parents)
SHARED_IN_EVERY_GUIDE = {"conventions", "loop", "retry", "errors", "push", "mcp"}


def site_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in PAGES)


def test_marked_blocks_are_what_the_tool_writes() -> None:
    assert tool.stale() == [], "run `python -m tools.docs`"


def test_render_rewrites_a_stale_block_and_keeps_the_rest() -> None:
    """The check can fail: a block whose text drifted is rewritten, the hand-written text around it is kept."""
    text = "intro\n<!-- shared:retry -->\nan edited copy\n<!-- /shared:retry -->\noutro\n"
    rendered = tool.render(text)
    assert rendered != text
    assert rendered == f"intro\n<!-- shared:retry -->\n{tool.fragment('retry')}<!-- /shared:retry -->\noutro\n"
    assert tool.render(rendered) == rendered


def test_every_guide_carries_every_shared_fragment() -> None:
    """The common fragments in all three guides; a game's own fragments (its events table, werewolf's rules) in its
    guide and on its docs page, so each is written once."""
    for guide in tool.GUIDES:
        game = guide.removesuffix("-skill.md")
        shared = {name for kind, name, _ in tool.blocks((ROOT / guide).read_text(encoding="utf-8"))
                  if kind == "shared"}
        assert shared >= SHARED_IN_EVERY_GUIDE | {f"{game}-events"}, guide
        own = {name for name in shared if name.startswith(f"{game}-")}
        pages = "".join(path.read_text(encoding="utf-8") for path in (DOCS / "games").glob(f"{game}*.md"))
        on_pages = {name for kind, name, _ in tool.blocks(pages) if kind == "shared"}
        assert own <= on_pages, (guide, own - on_pages)


def shared_in(path: Path) -> set[str]:
    return {name for kind, name, _ in tool.blocks(path.read_text(encoding="utf-8")) if kind == "shared"}


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_every_game_has_its_rules_once_in_its_guide_and_on_its_page(game: str) -> None:
    """Each installed game's rules are one fragment, `docs/_shared/<game>-rules.md`, inserted into its skill guide
    and its docs page, so a game added later is held to it too (and no copy of its rules drifts)."""
    rules = f"{game}-rules"
    assert (tool.SHARED / f"{rules}.md").is_file(), f"write the rules of {game} once in docs/_shared/{rules}.md"
    guide, page = ROOT / f"{game}-skill.md", DOCS / "games" / f"{game}.md"
    assert f"{game}-skill.md" in tool.GUIDES, f"list {game}'s guide in tools.docs.GUIDES"
    assert rules in shared_in(guide), f"{guide.name} lacks <!-- shared:{rules} -->"
    assert rules in shared_in(page), f"{page.relative_to(ROOT)} lacks <!-- shared:{rules} -->"


def test_the_shared_error_table_is_the_protocol_catalogue() -> None:
    table = error_table("## Errors\n" + tool.fragment("errors"), "## Errors")
    assert table == PROTOCOL_STATUS


def test_every_setting_is_documented_with_a_meaning() -> None:
    text = site_text()
    for name, field in Settings.model_fields.items():
        assert field.description, f"Settings.{name} has no docstring"
        assert f"`WODI_{name.upper()}`" in text, name


def test_every_error_code_is_documented() -> None:
    text = site_text()
    codes = set(PROTOCOL_STATUS) | {code for game in GAMES for code in game.errors}
    missing = sorted(code for code in codes if f"`{code}`" not in text)
    assert not missing, missing


def test_every_game_has_a_page_with_its_config_actions_and_errors() -> None:
    for game in GAMES:
        page = DOCS / "games" / f"{game.name}.md"
        text = page.read_text(encoding="utf-8")
        generated = {(name, arg) for kind, name, arg in tool.blocks(text) if kind == "generated"}
        assert generated >= {("game-config", game.name), ("game-actions", game.name), ("game-errors", game.name)}
        for action in game.actions:
            assert f"| `{action}` |" in text, (game.name, action)
        for code, spec in game.errors.items():
            assert f"| {spec.status} | `{code}` |" in text, (game.name, code)
        for field in game.config_model.model_fields:
            assert f"| `{field}` |" in text, (game.name, field)


def test_readme_is_short_and_no_page_is_long() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 120
    long = {str(path.relative_to(ROOT)): n for path in PAGES
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 300}
    assert not long, long


def test_every_page_is_in_the_navigation() -> None:
    listed = set(re.findall(r": (\S+\.md)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), flags=re.MULTILINE))
    on_disk = {str(path.relative_to(DOCS)) for path in PAGES}
    assert on_disk - listed == set(), on_disk - listed


@pytest.mark.parametrize("guide", tool.GUIDES)
def test_guides_link_no_docs_page_by_a_relative_path(guide: str) -> None:
    """Agents fetch the guides alone, so a guide never links into the repository by a relative path."""
    text = (ROOT / guide).read_text(encoding="utf-8")
    assert not re.search(r"\]\((?!https?://|#)[^)]+\)", text)
