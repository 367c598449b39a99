"""What every game's config shares: the protocol's two switches, declared once, and role presets by table size.

A game's config model declares the switches where it wants them in its field order (`compete_mode: bool =
COMPETE_MODE`), so a config's JSON keeps its order; the services read them, the rules do not.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field, WithJsonSchema

COMPETE_MODE: Any = Field(False, description="a competitive match (spec §7.3): rated; instruction-like text is "
                                             "refused instead of flagged; a logged-in spectator sees the god view "
                                             "only after the end")
TAKEOVER_AFTER_TIMEOUTS: Any = Field(None, ge=1, le=20, description="after this many timeouts in a row of one "
                                                                    "seat the official bot plays it to the end "
                                                                    "(null: off)")


def preset_roles(data: dict[str, Any], presets: Mapping[str, Mapping[Any, int]], n: object) -> dict[str, Any]:
    """A raw config's `roles` resolved before validation: absent, the preset of the table size (`"{n}p"`, when
    there is one); a preset's name, its counts; anything else as given (the model validates it)."""
    roles = data.get("roles")
    if roles is None and type(n) is int and f"{n}p" in presets:
        roles = f"{n}p"
    if isinstance(roles, str) and roles in presets:
        roles = dict(presets[roles])
    rest = {key: value for key, value in data.items() if key != "roles"}
    return rest if roles is None else {**rest, "roles": roles}


def roles_schema(presets: Mapping[str, object], roles: Sequence[str], description: str) -> WithJsonSchema:
    """The JSON schema of a `roles` field that takes a preset's name or a set {role: count}."""
    return WithJsonSchema({
        "anyOf": [
            {"type": "string", "enum": list(presets), "description": "a preset by name"},
            {"type": "object", "description": "role → count",
             "properties": {role: {"type": "integer", "minimum": 0} for role in roles},
             "additionalProperties": False},
        ],
        "description": description,
    })
