"""The legal actions of a seat, read from its snapshot's `you.allowed_actions` and the game's action schemas
(`GET /api/games`) — no game's rules are written here, so a game installed tomorrow works the same way.

An `allowed_actions` row is `{"type": …}` plus, for each choice the action takes, either a fixed value (a
werewolf row's `"action": "kill"`) or a list of options (`targets`, `locations`, `items`, `clues`, `powers` …).
`LegalAction` maps each list to the body field it fills (`targets` → the schema's `target_seat`, `target` or
`to`; `locations` → `location` …), knows the required fields no list fills (`text`, `word` …), checks a body
against the row and the schema's types (`check`) and fills a random legal body (`random_body`).

A row's `<field>_size: n`, where the schema's `<field>` is a list, asks for a list of exactly n distinct options
(an Avalon leader's `"team_size": 2` with `targets`: `"team": [0, 3]`); `targets` fills that list when the action
takes no single seat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

SEAT_FIELDS = ("target_seat", "target", "to")  # where a row's `targets` (seats) go, in order of preference
SIZE_SUFFIX = "_size"  # a row's `<field>_size`: how many options the list field `<field>` holds
SKIP_KEYS = ("type", "deadline_ts")
RESERVED_FIELDS = ("type", "expected_seq", "analysis", "usage")  # fields the kit or the server handle itself
JSON_TYPES: dict[str, tuple[type, ...]] = {"string": (str,), "integer": (int,), "number": (int, float),
                                           "boolean": (bool,), "array": (list,), "object": (dict,),
                                           "null": (type(None),)}
NOUNS = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
         "array": "a list", "object": "an object", "null": "null"}


@dataclass
class LegalAction:
    """One `allowed_actions` row, read against its action's JSON Schema."""

    type: str
    fixed: dict[str, Any] = field(default_factory=dict)
    options: dict[str, list[Any]] = field(default_factory=dict)  # body field → the values it may take
    free: list[str] = field(default_factory=list)  # required body fields no option list fills (free text …)
    optional: list[str] = field(default_factory=list)  # body fields with options the action may also leave out
    sizes: dict[str, int] = field(default_factory=dict)  # list body field → how many distinct options it holds
    deadline_ts: int | None = None
    row: dict[str, Any] = field(default_factory=dict)
    schema: dict[str, Any] = field(default_factory=dict)

    @property
    def properties(self) -> dict[str, Any]:
        props = self.schema.get("properties")
        return props if isinstance(props, dict) else {}

    def body(self, **fields: Any) -> dict[str, Any]:
        """`{"type": …, <fixed values>, **fields}` — the action with this row's fixed values filled in."""
        return {"type": self.type, **self.fixed, **fields}

    def check(self, body: dict[str, Any]) -> str | None:
        """Why `body` is not this row's action (None: it is)."""
        if body.get("type") != self.type:
            return f"type is {body.get('type')!r}, not {self.type!r}"
        for name, value in self.fixed.items():
            if body.get(name) != value:
                return f"{name} must be {value!r}"
        props = self.properties
        for name, value in body.items():
            if name in RESERVED_FIELDS:
                continue
            if props and name not in props:
                return f"{self.type} takes no field {name!r} (it takes {sorted(p for p in props if p != 'type')})"
            if value is not None and isinstance(props.get(name), dict) and not fits(value, props[name]):
                return f"{name}={value!r} is not {describe(props[name])}"
            if name in self.sizes and value is not None:
                problem = self._check_list(name, value)
                if problem is not None:
                    return problem
            elif name in self.options and value is not None and value not in self.options[name]:
                return f"{name}={value!r} is not one of {self.options[name]}"
        for name in self.required:
            if body.get(name) is None:
                return f"{self.type} needs {name!r}"
        for name in self.free:
            if isinstance(body.get(name), str) and not body[name].strip():
                return f"{name} is empty"
        return None

    def _check_list(self, name: str, value: Any) -> str | None:
        size, options = self.sizes[name], self.options.get(name)
        if not isinstance(value, list):
            return f"{name} must be a list of {size}, not {value!r}"
        if len(value) != size:
            return f"{name} must hold exactly {size}, not {len(value)}"
        if any(value.count(item) > 1 for item in value):
            return f"{name}={value!r} repeats a value (it takes {size} distinct ones)"
        strays = [item for item in value if options is not None and item not in options]
        return f"{name}: {strays} not among {options}" if strays else None

    @property
    def required(self) -> list[str]:
        required = self.schema.get("required")
        return [str(r) for r in required if r not in RESERVED_FIELDS] if isinstance(required, list) else []

    def random_body(self, rng: random.Random, text: str = "……") -> dict[str, Any] | None:
        """A random legal body (free text fields get `text`), or None when a required choice has no option."""
        body = self.body()
        for name in self.required:
            if name in body:
                continue
            if name in self.options:
                body[name] = self._pick(name, rng)
                if body[name] is None:
                    return None
            elif name in self.free:
                body[name] = text
            else:
                return None
        optional = [name for name in self.optional if name not in body and self.options.get(name)]
        if optional:  # at most one optional choice: e.g. a power's target, or the item *or* the clue to show
            name = rng.choice(optional)
            value = self._pick(name, rng)
            if value is not None:
                body[name] = value
        return body

    def _pick(self, name: str, rng: random.Random) -> Any:
        """One option of `name` at random, or for a list field its size's distinct options (None: too few)."""
        options, size = self.options.get(name) or [], self.sizes.get(name)
        if size is None:
            return rng.choice(options) if options else None
        return rng.sample(options, size) if len(options) >= size else None


def field_for(key: str, props: dict[str, Any], lists: tuple[str, ...] = ()) -> str | None:
    """The body field a row's option list `key` fills (None: the schema has no such field); `lists` are the list
    fields the row gives a size for, which `targets` fills when the action takes no single seat."""
    if key == "targets":
        return next((name for name in (*SEAT_FIELDS, *lists) if name in props), None)
    singular = key[:-1] if key.endswith("s") else key
    if singular in props:
        return singular
    return "target" if "target" in props else None


def legal_actions(rows: list[dict[str, Any]], schemas: dict[str, dict[str, Any]]) -> list[LegalAction]:
    """Each `allowed_actions` row as a `LegalAction`, given the game's action schemas (`GameInfo.actions`)."""
    legal = []
    for row in rows:
        kind = str(row.get("type"))
        schema = schemas.get(kind) or {}
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        assert isinstance(props, dict)
        action = LegalAction(type=kind, row=row, schema=schema, deadline_ts=row.get("deadline_ts"),
                             sizes=list_sizes(row, props))
        for key, value in row.items():
            if key in SKIP_KEYS:
                continue
            if isinstance(value, list):
                name = field_for(key, props, tuple(action.sizes))
                if name is not None:
                    action.options.setdefault(name, [])
                    action.options[name] += [v for v in value if v not in action.options[name]]
            elif key in props:
                action.fixed[key] = value
        required = [str(r) for r in schema.get("required") or [] if r not in RESERVED_FIELDS]
        action.free = [name for name in required
                       if name not in action.options and name not in action.fixed and name not in action.sizes]
        action.optional = [name for name in action.options if name not in required]
        legal.append(action)
    return legal


def list_sizes(row: dict[str, Any], props: dict[str, Any]) -> dict[str, int]:
    """The row's `<field>_size: n` entries whose `<field>` the schema takes as a list: field → n."""
    sizes = {}
    for key, value in row.items():
        name, prop = key.removesuffix(SIZE_SUFFIX), props.get(key.removesuffix(SIZE_SUFFIX))
        if name != key and type(value) is int and isinstance(prop, dict) and fits([], prop):
            sizes[name] = value
    return sizes


def fits(value: Any, schema: dict[str, Any]) -> bool:
    """Whether `value` has the JSON type `schema` gives it (its `type`, `anyOf`, `enum`, `const` and list `items`;
    bounds and lengths are the server's to check)."""
    alternatives = schema.get("anyOf")
    if isinstance(alternatives, list):
        return any(fits(value, option) for option in alternatives if isinstance(option, dict))
    if "const" in schema and value != schema["const"]:
        return False
    if isinstance(schema.get("enum"), list) and value not in schema["enum"]:
        return False
    kinds = JSON_TYPES.get(str(schema.get("type")))
    if kinds is not None and (not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)):
        return False
    items = schema.get("items")
    return not (isinstance(value, list) and isinstance(items, dict) and not all(fits(v, items) for v in value))


def describe(schema: dict[str, Any]) -> str:
    """A JSON Schema's type in words: "a list (each item an integer)", "a string or null" …"""
    alternatives = schema.get("anyOf")
    if isinstance(alternatives, list):
        return " or ".join(describe(option) for option in alternatives if isinstance(option, dict))
    if "const" in schema:
        return repr(schema["const"])
    if isinstance(schema.get("enum"), list):
        return f"one of {schema['enum']}"
    noun = NOUNS.get(str(schema.get("type")), "a value")
    items = schema.get("items")
    return f"{noun} (each item {describe(items)})" if noun == "a list" and isinstance(items, dict) else noun


def check_action(body: Any, legal: list[LegalAction]) -> str | None:
    """Why `body` is not one of the legal actions (None: it is one)."""
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        return "an action is a JSON object with a string `type`"
    rows = [action for action in legal if action.type == body["type"]]
    if not rows:
        return f"{body['type']!r} is not allowed now (allowed: {sorted({a.type for a in legal})})"
    reasons = [action.check(body) for action in rows]
    if any(reason is None for reason in reasons):
        return None
    return "; ".join(r for r in reasons if r)
