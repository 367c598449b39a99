"""The `Game` protocol: every member states its contract, and the undercover game fulfils it.

`make lint` runs mypy over this file, so the annotated assignment below checks the undercover game
against the protocol with its real config, state and command types.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from app.games.kit import Command
from app.games.undercover.config import UndercoverConfig
from app.games.undercover.game import GAME as UNDERCOVER_GAME
from app.games.undercover.state import MatchState
from app.protocol import registry
from app.protocol.registry import Game

UNDERCOVER: Game[UndercoverConfig, MatchState, Command] = UNDERCOVER_GAME


def protocol_members() -> dict[str, str | None]:
    """Each member of `Game` (attribute or method) → its docstring, read from the source."""
    tree = ast.parse(Path(registry.__file__).read_text(encoding="utf-8"))
    game = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    members: dict[str, str | None] = {}
    for i, node in enumerate(game.body):
        if isinstance(node, ast.FunctionDef):
            members[node.name] = ast.get_docstring(node)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            after = game.body[i + 1] if i + 1 < len(game.body) else None
            doc = after.value.value if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) else None
            members[node.target.id] = doc if isinstance(doc, str) else None
    return members


def test_every_member_states_its_contract() -> None:
    members = protocol_members()
    assert {"name", "apply", "summary", "you_view", "action_response"} <= set(members)
    assert [name for name, doc in members.items() if not doc or len(doc) < 20] == []


def test_the_contracts_name_their_shapes() -> None:
    members = protocol_members()
    assert all(key in (members["you_view"] or "") for key in ("`seat`", "`alive`", "`your_turn`", "`next_action`"))
    assert all(key in (members["summary"] or "") for key in ('"due"', '"kind"', '"token"'))


def test_the_undercover_game_has_every_member_with_the_same_parameters() -> None:
    for name in protocol_members():
        assert hasattr(UNDERCOVER, name), name
        if name in Game.__annotations__:  # a data attribute (`name`, `side_stats`), not a method
            continue
        wanted = inspect.signature(getattr(Game, name)).parameters
        given = inspect.signature(getattr(type(UNDERCOVER_GAME), name)).parameters
        assert [(p.name, p.kind) for p in given.values()] == [(p.name, p.kind) for p in wanted.values()], name


def test_register_and_get() -> None:
    before = registry.get("undercover")
    try:
        registry.register(UNDERCOVER)
        assert registry.get("undercover") is UNDERCOVER
        assert "undercover" in registry.names()
        assert registry.get("no-such-game") is None
    finally:
        if before is not None:
            registry.register(before)


def test_a_kit_game_declares_seat_figures_only_when_its_definition_gives_them() -> None:
    """`GameDef.seat_figures` is optional: without it the built game has no `seat_figures` member (the registry
    answers {}); with it (script_kill) the registry asks the definition's function."""
    from dataclasses import replace

    from app.games.kit import KitGame, build
    from app.games.script_kill.game import GAME as SCRIPT_KILL
    from tests.protocol.fake_game import LANTERN

    assert isinstance(LANTERN, KitGame) and not isinstance(LANTERN, registry.SeatFigures)
    assert registry.seat_figures(LANTERN, None, 2, []) == {}
    assert isinstance(SCRIPT_KILL, registry.SeatFigures)
    figured = build(replace(LANTERN.d, seat_figures=lambda state, seat, events: {"seat_share": seat / 4}))
    assert isinstance(figured, registry.SeatFigures)
    assert registry.seat_figures(figured, None, 2, []) == {"seat_share": 0.5}
