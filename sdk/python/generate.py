"""Write wodi_client/models.py from the server's OpenAPI document.

    python sdk/python/generate.py [openapi.json]     # default: the repository's openapi.json

Only the components the kit reads are generated (`KIT_SCHEMAS`); every model allows extra fields, so a newer server's
additive fields parse, and every field may be missing (see `_field`). The server's test suite regenerates the text
from the live schema and compares it with the committed file (tests/sdk/test_models_drift.py), so a change to one
of these shapes fails until this is re-run.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGET = HERE / "wodi_client" / "models.py"
KIT_SCHEMAS = ("AgentCreate", "AgentRegistered", "AgentPrivate", "Reliability", "ActiveMatch", "ActiveResponse",
               "GameInfo", "GameList", "CreateMatch", "PlayerInfo", "JoinMatch", "MatchCreated", "MatchJoined",
               "MatchSummary", "MatchList", "Capabilities", "Snapshot", "EventsPage", "ActionAccepted", "ErrorDetail",
               "ErrorBody")
SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def _type(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in schema:
        parts = list(dict.fromkeys(_type(part) for part in schema["anyOf"]))
        return " | ".join(parts)
    kind = schema.get("type")
    if kind == "array":
        return f"list[{_type(schema.get('items') or {})}]"
    if kind == "object":
        extra = schema.get("additionalProperties")
        value = _type(extra) if isinstance(extra, dict) and extra else "Any"
        return f"dict[str, {value}]"
    if isinstance(kind, str) and kind in SCALARS:
        return SCALARS[kind]
    return "Any"


def _field(name: str, schema: dict[str, Any], required: bool) -> str:
    """Every field defaults to None: a game may leave out a field the union schema marks required (script_kill's
    snapshot has no `round_index`), and the kit must still read it. `required` is kept in a comment."""
    annotation = _type(schema)
    if "None" not in annotation.split(" | "):
        annotation += " | None"
    return f"    {name}: {annotation} = None" + ("  # required" if required else "")


def _closure(components: dict[str, Any]) -> list[str]:
    """`KIT_SCHEMAS` and every component they refer to, in a stable order."""
    names = list(KIT_SCHEMAS)
    for name in names:
        for ref in re.findall(r'"#/components/schemas/([^"]+)"', json.dumps(components[name])):
            if ref not in names:
                names.append(ref)
    return names


def render(spec: dict[str, Any]) -> str:
    """The text of models.py for this OpenAPI document."""
    components = spec["components"]["schemas"]
    lines = ['"""Typed shapes of the Wodi API, generated from the server\'s openapi.json by sdk/python/generate.py.',
             "", "Do not edit by hand: run `python sdk/python/generate.py` after the server's schema changes.", '"""',
             "", "from __future__ import annotations", "", "from typing import Any", "",
             "from pydantic import BaseModel, ConfigDict", "", "",
             "class _Model(BaseModel):", '    model_config = ConfigDict(extra="allow")', ""]
    for name in _closure(components):
        schema = components[name]
        lines += ["", f"class {name}(_Model):"]
        description = " ".join(str(schema.get("description") or "").split())
        if description:
            lines.append(f'    """{description[:110].replace(chr(34), chr(39))}"""')
            lines.append("")
        required = set(schema.get("required") or [])
        properties = schema.get("properties") or {}
        if not properties:
            lines.append("    pass")
        for field, sub in properties.items():
            lines.append(_field(field, sub, field in required))
        lines.append("")
    lines += ["", "for _model in list(globals().values()):",
              "    if isinstance(_model, type) and issubclass(_model, _Model) and _model is not _Model:",
              "        _model.model_rebuild()", ""]
    return "\n".join(lines)


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parents[1] / "openapi.json"
    TARGET.write_text(render(json.loads(source.read_text(encoding="utf-8"))), encoding="utf-8")
    sys.stdout.write(f"wrote {TARGET}\n")


if __name__ == "__main__":
    main()
