"""Assemble what the docs and the skill guides share, and write what the code knows.

    python -m tools.docs            # rewrite every marked block in place
    python -m tools.docs --check    # list the files whose blocks are stale; exit 1 if any

Two kinds of block, each between an opening and a closing HTML comment (invisible once rendered):

- `<!-- shared:NAME -->` … `<!-- /shared:NAME -->`: the text of `docs/_shared/NAME.md`, written once and
  inserted verbatim into the skill guides (`<game>-skill.md`, what agents fetch) and into docs pages.
- `<!-- generated:KIND [ARG] -->` … `<!-- /generated:KIND [ARG] -->`: text made from the code — the settings
  table from `app.settings.Settings`, and per game its config fields (from its config model), its actions (from
  its action models) and its error codes (from `Game.errors`). The protocol's own codes carry no message in the
  catalogue, so their table is the hand-written fragment `docs/_shared/errors.md` (a test holds it to
  `app.protocol.errors.STATUS`).

Everything between the markers is owned by this tool; everything outside them is hand-written. A test
(tests/test_docs.py) runs the check, so a fragment edited in one guide only, a setting added without a line of
documentation or a game's new error code fails the suite until this tool is run again.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SHARED = DOCS / "_shared"
GUIDES = ("undercover-skill.md", "werewolf-skill.md", "script_kill-skill.md", "avalon-skill.md")

BLOCK = re.compile(
    r"(?P<open><!-- (?P<kind>shared|generated):(?P<name>[a-z_-]+)(?: (?P<arg>[a-z_]+))? -->\n)"
    r"(?P<body>.*?)"
    r"(?P<close><!-- /(?P=kind):(?P=name)(?: (?P=arg))? -->)",
    re.DOTALL,
)


# ---------------------------------------------------------------- what the code knows


def _games() -> list[Any]:
    from app.games.installed import installed

    return [game for game, _brain in installed()]


def _game(name: str) -> Any:
    for game in _games():
        if game.name == name:
            return game
    raise KeyError(f"no game named {name!r}")


def _cell(text: str) -> str:
    """Text fit for one table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _default(field: FieldInfo) -> str:
    if field.default is PydanticUndefined:
        return "*(required)*"
    value = field.default
    if value is None or value == "":
        return "*(empty)*" if value == "" else "`null`"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"`{value}`"


def _bounds(schema: dict[str, Any]) -> str:
    """The allowed values a JSON Schema states: an enum, a range, a length, a union of those."""
    if "anyOf" in schema:
        parts = [_bounds(option) for option in schema["anyOf"]]
        return " or ".join(part for part in parts if part)
    if "enum" in schema:
        return ", ".join(f"`{value}`" for value in schema["enum"])
    if "const" in schema:
        return f"`{schema['const']}`"
    kind = schema.get("type")
    if kind == "null":
        return "`null`"
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    lower = ">" if "exclusiveMinimum" in schema else "≥"
    if low is not None and high is not None:
        return f"{low}–{high}" if lower == "≥" else f"> {low}, ≤ {high}"
    if low is not None:
        return f"{lower} {low}"
    if high is not None:
        return f"≤ {high}"
    if "maxLength" in schema:
        return f"{kind or 'string'} ≤ {schema['maxLength']} characters"
    return {"boolean": "`true`, `false`", "integer": "an integer", "number": "a number", "string": "a string",
            "object": "an object", "array": "a list"}.get(str(kind), "")


def settings_table() -> str:
    """Every `Settings` field: its environment variable, default, allowed values and meaning (its docstring)."""
    from app.settings import Settings

    schema = Settings.model_json_schema()["properties"]
    prefix = str(Settings.model_config.get("env_prefix", ""))
    rows = ["| Setting | Default | Allowed | Meaning |", "|---|---|---|---|"]
    for name, field in Settings.model_fields.items():
        meaning = field.description or "**undocumented** (give the field a docstring in app/settings.py)"
        rows.append(f"| `{prefix}{name.upper()}` | {_default(field)} | {_bounds(schema[name])} | {_cell(meaning)} |")
    return "\n".join(rows)


def _value(value: Any) -> str:
    if isinstance(value, str):
        return f"`{value}`"
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def game_config_table(name: str) -> str:
    """A game's config fields from its config model: the default room's value (`parse_config({})`, so a default
    that depends on another field shows resolved for the default room), allowed values, the field's description."""
    game = _game(name)
    model: type[BaseModel] = game.config_model
    resolved = game.config_to_json(game.parse_config({}))
    schema = model.model_json_schema()
    properties = schema.get("properties", {})
    rows = ["| field | default | allowed | meaning |", "|---|---|---|---|"]
    for field_name, field in model.model_fields.items():
        prop = properties.get(field_name, {})
        meaning = field.description or prop.get("description") or ""
        default = _value(resolved[field_name]) if field_name in resolved else _default(field)
        rows.append(f"| `{field_name}` | {default} | {_cell(_bounds(prop))} | {_cell(meaning)} |")
    return "\n".join(rows)


def game_actions_table(name: str) -> str:
    """A game's `POST /action` bodies from its action models: the `type`, its other fields, its docstring."""
    actions: dict[str, type[BaseModel]] = dict(_game(name).actions)
    rows = ["| `type` | fields (required in bold) | what it does |", "|---|---|---|"]
    for action, model in actions.items():
        schema = model.model_json_schema()
        required = set(schema.get("required", ()))
        fields = []
        for field_name, prop in schema.get("properties", {}).items():
            if field_name in ("type", "analysis", "expected_seq"):
                continue
            shown = f"`{field_name}`" + (f" ({_bounds(prop)})" if "enum" in prop else "")
            fields.append(f"**{shown}**" if field_name in required else shown)
        rows.append(f"| `{action}` | {', '.join(fields) or '—'} | {_cell(model.__doc__ or '')} |")
    return "\n".join(rows)


def game_errors_table(name: str) -> str:
    """A game's own error codes (`Game.errors`): code, HTTP status, the server's message."""
    errors = _game(name).errors
    rows = ["| HTTP | `error` | the server's message |", "|---|---|---|"]
    for code, spec in sorted(errors.items(), key=lambda item: (item[1].status, item[0])):
        rows.append(f"| {spec.status} | `{code}` | {_cell(spec.message)} |")
    return "\n".join(rows)


GENERATORS: dict[str, Callable[..., str]] = {
    "settings": settings_table,
    "game-config": game_config_table,
    "game-actions": game_actions_table,
    "game-errors": game_errors_table,
}


# ---------------------------------------------------------------- the blocks


def fragment(name: str) -> str:
    return (SHARED / f"{name}.md").read_text(encoding="utf-8")


def _body(kind: str, name: str, arg: str | None) -> str:
    if kind == "shared":
        text = fragment(name)
    else:
        generator = GENERATORS[name]
        text = generator(arg) if arg else generator()
    return text.rstrip("\n") + "\n"


def render(text: str) -> str:
    """`text` with every marked block rewritten."""
    def one(match: re.Match[str]) -> str:
        return match.group("open") + _body(match.group("kind"), match.group("name"), match.group("arg")) + \
            match.group("close")

    return BLOCK.sub(one, text)


def blocks(text: str) -> list[tuple[str, str, str | None]]:
    """(kind, name, arg) of every marked block in `text`, in order."""
    return [(m.group("kind"), m.group("name"), m.group("arg")) for m in BLOCK.finditer(text)]


def files() -> Iterable[Path]:
    """Every file this tool may write: the skill guides and the docs pages (not the fragments)."""
    yield from (ROOT / guide for guide in GUIDES)
    yield from sorted(path for path in DOCS.rglob("*.md") if SHARED not in path.parents)


def stale() -> list[Path]:
    """The files whose marked blocks differ from what this tool would write."""
    out = []
    for path in files():
        if path.exists():
            text = path.read_text(encoding="utf-8")
            if render(text) != text:
                out.append(path)
    return out


def write() -> list[Path]:
    changed = []
    for path in stale():
        path.write_text(render(path.read_text(encoding="utf-8")), encoding="utf-8")
        changed.append(path)
    return changed


def main(argv: list[str]) -> int:
    if "--check" in argv:
        old = stale()
        for path in old:
            print(f"stale: {path.relative_to(ROOT)} (run `python -m tools.docs`)")
        return 1 if old else 0
    for path in write():
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
