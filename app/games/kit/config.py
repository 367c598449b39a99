"""What every game's config shares: the protocol's two switches, declared once, and role presets by table size.

A game's config model declares the switches where it wants them in its field order (`compete_mode: bool =
COMPETE_MODE`), so a config's JSON keeps its order; the services read them, the rules do not.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

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


def roles_by_size(presets: Mapping[str, Mapping[Any, int]], n_default: int) -> Any:
    """A config model's before-validator (`_roles = roles_by_size(PRESETS, 6)`): `roles` resolved by
    `preset_roles` from `n_players` (default `n_default`); a name that is no preset is `invalid_config`."""
    def resolve(cls: type, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        n = data.get("n_players", n_default)
        data = preset_roles(data, presets, n if type(n) is int else n_default)
        if isinstance(data.get("roles"), str):
            raise PydanticCustomError("invalid_config", f"unknown preset {data['roles']!r}; presets: "
                                      f"{', '.join(presets)}", {"field": "roles"})
        return data
    return model_validator(mode="before")(classmethod(resolve))  # type: ignore[arg-type]


def max_rounds_by_size(n_default: int) -> Any:
    """A config model's before-validator: `max_rounds` absent or null → `n_players` (default `n_default`)."""
    def resolve(cls: type, data: Any) -> Any:
        if isinstance(data, dict) and data.get("max_rounds") is None:
            n = data.get("n_players", n_default)
            data = {**data, "max_rounds": n if type(n) is int else n_default}
        return data
    return model_validator(mode="before")(classmethod(resolve))  # type: ignore[arg-type]


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
