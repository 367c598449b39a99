"""`make run` installs the runtime only: the app imports nothing the test or dev extras bring."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, packages_distributions, requires

from tests.conftest import ROOT

TEST_TOOLS = {"pytest", "pytest-asyncio", "hypothesis", "playwright", "schemathesis", "scipy", "httpx-sse", "ruff",
              "mypy"}


def _name(requirement: str) -> str:
    return re.split(r"[<>=\[;! ]", requirement, maxsplit=1)[0].strip().lower().replace("_", "-")


def _project() -> dict:  # type: ignore[type-arg]
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _closure(names: set[str]) -> set[str]:
    """The runtime dependencies and everything they require in turn (without extras)."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requirements = requires(name) or []
        except PackageNotFoundError:  # a dependency for other Python versions (a marker): not installed here
            continue
        for requirement in requirements:
            if "extra ==" not in requirement:
                todo.append(_name(requirement))
    return seen


def _imported_top_levels() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"app"}


def test_runtime_dependencies_hold_no_test_tool() -> None:
    project = _project()
    runtime = {_name(r) for r in project["dependencies"]}
    assert not runtime & TEST_TOOLS
    extras = project["optional-dependencies"]
    assert {_name(r) for r in extras["test"]} >= TEST_TOOLS - {"ruff", "mypy"}
    assert {"ruff", "mypy"} <= {_name(r) for r in extras["dev"]}


def test_every_module_the_app_imports_comes_with_the_runtime() -> None:
    runtime = _closure({_name(r) for r in _project()["dependencies"]})
    providers = packages_distributions()
    missing = {module: providers.get(module) for module in _imported_top_levels()
               if not {d.lower().replace("_", "-") for d in providers.get(module, [])} & runtime}
    assert not missing, f"imported by app/ but not installed by `make run`: {missing}"


def test_make_run_installs_no_extra_and_make_test_the_test_extra() -> None:
    def plan(target: str) -> str:
        return subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout

    run = [line for line in plan("run").splitlines() if "pip install" in line and "-e" in line]
    assert run and all(line.rstrip().endswith("-e .") for line in run), run
    assert "-e '.[test]'" in plan("test")
    assert "-e '.[dev]'" in plan("lint")
