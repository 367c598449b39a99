"""The werewolf phases stay apart: no phase module imports another, and the package has no import cycle."""

from __future__ import annotations

from tests.games.undercover.test_imports import MODULES, cycle_in, import_graph

PHASES = ("deal", "night", "witch", "dawn", "pending", "speaking", "voting", "concede", "whisper")


def test_the_package_is_walked() -> None:
    assert any(path.parent.name == "werewolf" and path.name == "game.py" for path in MODULES)


def test_no_phase_imports_another_phase() -> None:
    graph = import_graph()
    phases = {f"app.games.werewolf.{p}" for p in PHASES}
    assert phases <= set(graph)
    assert {name: sorted(graph[name] & phases) for name in phases if graph[name] & phases} == {}


def test_no_import_cycle() -> None:
    assert cycle_in(import_graph()) == []
