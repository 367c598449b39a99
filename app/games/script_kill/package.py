"""The script package: one JSON file per script, read into frozen pydantic models.

A package (`scripts/<id>.json`) holds 6 characters (public text, relations, a 3-day timeline, secret,
`secret_phrases`, private script, win condition, initial items), the culprit, locations (act 1 open from the start,
act 2 unlocked by anchor_r1 or an effect), 40–50 clues in three tiers, 20–30 items, 1–2 powers and 2–3 events per
act, the two anchors, the endings and the review. `"test_only": true` (the `tiny` script) lifts the count ranges.
Every shipped package is checked when the game registers; a bad one fails naming the bad field's path (CLI:
`python -m app.games.script_kill.validate [FILE…]`).

The models check each record's own shape; `check_package` checks what spans records (every reference
resolves, counts per act, key items not tradable …). `load_script` does both, so a bad package never loads.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

SCRIPTS_DIR = Path(__file__).parent / "scripts"

Id = Annotated[str, Field(pattern=r"^[a-z0-9_]+$", min_length=1, max_length=40)]
Text = Annotated[str, Field(min_length=1)]
Act = Literal[1, 2]
Target = Literal["none", "character", "location"]
StageId = Literal[
    "explore_r1", "discuss_r1", "explore_r2", "discuss_r2", "final_discuss",
]
ItemType = Literal["clue_item", "tool", "weapon", "personal"]


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Relation(Record):
    to: Id
    text: Text


class TimelineEntry(Record):
    day: Annotated[int, Field(ge=1, le=3)]
    time: Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    text: Text


class Character(Record):
    id: Id
    name: Text
    public: Text
    relations: list[Relation] = []
    timeline: list[TimelineEntry]
    secret: Text
    secret_phrases: Annotated[list[Text], Field(min_length=1)]
    script: Text
    win: Text
    items: list[Id] = []


class Location(Record):
    id: Id
    name: Text
    act: Act


class Clue(Record):
    id: Id
    tier: Literal[1, 2, 3]
    act: Act
    location: Id | None = None  # None: only reachable by an effect, a power or the DM
    text: Text
    is_key: bool = False
    about: list[Id] = []
    weights: dict[Id, int] = {}


class RevealClue(Record):
    kind: Literal["reveal_clue"]
    clue: Id


class UnlockLocation(Record):
    kind: Literal["unlock_location"]
    location: Id


class PeekItems(Record):
    kind: Literal["peek_items"]
    target: Target = "character"


class PeekClues(Record):
    kind: Literal["peek_clues"]
    target: Target = "character"


class ExtraInvestigation(Record):
    kind: Literal["extra_investigation"]
    count: Annotated[int, Field(ge=1, le=3)] = 1


class PublishClue(Record):
    kind: Literal["publish_clue"]
    clue: Id


ItemEffect = Annotated[RevealClue | UnlockLocation | PeekItems, Field(discriminator="kind")]
PowerEffect = Annotated[RevealClue | PeekItems | PeekClues | ExtraInvestigation, Field(discriminator="kind")]
EventEffect = Annotated[PublishClue | UnlockLocation, Field(discriminator="kind")]


class Item(Record):
    id: Id
    name: Text
    type: ItemType
    text: Text
    is_key: bool = False
    tradable: bool = True
    uses: Literal[1, 2] | None = None  # None: unlimited (with an effect), or not usable (without)
    effect: ItemEffect | None = None
    location: Id | None = None


class Power(Record):
    id: Id
    act: Act
    owner: Id
    name: Text
    text: Text
    target: Target = "none"
    effect: PowerEffect


class ScriptEvent(Record):
    id: Id
    act: Act
    stage: StageId
    text: Text
    effect: EventEffect | None = None


class Anchor(Record):
    text: Text
    unlock_locations: list[Id] = []
    unlock_powers: list[Id] = []
    hint: str = ""


class Anchors(Record):
    anchor_r1: Anchor
    anchor_r2: Anchor


class Endings(Record):
    perfect: Text
    normal: Text
    failure: Text


class Review(Record):
    truth: Text
    timeline: Annotated[list[TimelineEntry], Field(min_length=1)]


class Script(Record):
    id: Id
    title: Text
    intro: Text
    test_only: bool = False
    characters: list[Character]
    culprit: Id
    locations: list[Location]
    clues: list[Clue]
    items: list[Item]
    powers: list[Power]
    events: list[ScriptEvent]
    anchors: Anchors
    endings: Endings
    review: Review

    def character(self, cid: str) -> Character:
        return next(c for c in self.characters if c.id == cid)

    def clue(self, kid: str) -> Clue:
        return next(k for k in self.clues if k.id == kid)

    def item(self, iid: str) -> Item:
        return next(i for i in self.items if i.id == iid)

    def location(self, lid: str) -> Location:
        return next(x for x in self.locations if x.id == lid)

    def power(self, pid: str) -> Power:
        return next(p for p in self.powers if p.id == pid)


CLUES_RANGE = (40, 50)
ITEMS_RANGE = (20, 30)
POWERS_PER_ACT = (1, 2)
EVENTS_PER_ACT = (2, 3)
ACT_STAGES = {1: ("explore_r1", "discuss_r1"), 2: ("explore_r2", "discuss_r2", "final_discuss")}


class PackageError(ValueError):
    """A package that does not hold together; `problems` are 'path: what is wrong' lines."""

    def __init__(self, name: str, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"script package {name!r} is invalid:\n  " + "\n  ".join(problems))


def _path(loc: Iterable[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "(root)"


def parse(raw: str, name: str = "package") -> Script:
    """The package's JSON read into models, or PackageError naming each bad field's path."""
    try:
        return Script.model_validate_json(raw)
    except ValidationError as exc:
        problems = [f"{_path(e['loc'])}: {e['msg']}" for e in exc.errors()]
        raise PackageError(name, problems) from None


def _duplicates(kind: str, ids: list[str]) -> Iterator[str]:
    for ident, n in Counter(ids).items():
        if n > 1:
            yield f"{kind}: id {ident!r} appears {n} times"


def _in_range(path: str, n: int, bounds: tuple[int, int]) -> Iterator[str]:
    if not bounds[0] <= n <= bounds[1]:
        yield f"{path}: {n} found, {bounds[0]}–{bounds[1]} required"


def _characters(s: Script) -> Iterator[str]:
    ids = {c.id for c in s.characters}
    items = {i.id for i in s.items}
    if len(s.characters) != 6:
        yield f"characters: exactly 6 required, {len(s.characters)} found"
    yield from _duplicates("characters", [c.id for c in s.characters])
    if s.culprit not in ids:
        yield f"culprit: unknown character {s.culprit!r}"
    for n, c in enumerate(s.characters):
        for r, rel in enumerate(c.relations):
            if rel.to not in ids or rel.to == c.id:
                yield f"characters[{n}].relations[{r}].to: {rel.to!r} is not another character"
        missing = {1, 2, 3} - {t.day for t in c.timeline}
        if missing:
            yield f"characters[{n}].timeline: no entry for day {', '.join(map(str, sorted(missing)))}"
        for p, phrase in enumerate(c.secret_phrases):
            if not phrase.strip():
                yield f"characters[{n}].secret_phrases[{p}]: blank phrase"
        for i, item in enumerate(c.items):
            if item not in items:
                yield f"characters[{n}].items[{i}]: unknown item {item!r}"
    holders = Counter(i for c in s.characters for i in c.items)
    for item, count in holders.items():
        if count > 1:
            yield f"characters: item {item!r} is held by {count} characters"


def _clues(s: Script) -> Iterator[str]:
    chars = {c.id for c in s.characters}
    locs = {x.id: x for x in s.locations}
    if not s.test_only:
        yield from _in_range("clues", len(s.clues), CLUES_RANGE)
    yield from _duplicates("clues", [k.id for k in s.clues])
    for n, k in enumerate(s.clues):
        if k.location is not None and k.location not in locs:
            yield f"clues[{n}].location: unknown location {k.location!r}"
        elif k.location is not None and locs[k.location].act > k.act:
            yield f"clues[{n}].location: {k.location!r} opens in act 2, the clue belongs to act {k.act}"
        for a, who in enumerate(k.about):
            if who not in chars:
                yield f"clues[{n}].about[{a}]: unknown character {who!r}"
        for who in k.weights:
            if who not in chars:
                yield f"clues[{n}].weights.{who}: unknown character"
    for act in (1, 2):
        if not any(k.is_key and k.act == act for k in s.clues):
            yield f"clues: no key clue in act {act}"


def _solvable(s: Script) -> Iterator[str]:
    totals = Counter({c.id: 0 for c in s.characters})
    for k in s.clues:
        if k.is_key:
            totals.update(k.weights)
    top = max(totals.values(), default=0)
    if s.culprit in totals and (totals[s.culprit] != top or list(totals.values()).count(top) > 1):
        yield f"clues: key clues' weights do not single out the culprit ({dict(totals)})"


def _effect_refs(path: str, effect: object, s: Script) -> Iterator[str]:
    clues = {k.id for k in s.clues}
    locs = {x.id for x in s.locations}
    clue = getattr(effect, "clue", None)
    if clue is not None and clue not in clues:
        yield f"{path}.clue: unknown clue {clue!r}"
    location = getattr(effect, "location", None)
    if location is not None and location not in locs:
        yield f"{path}.location: unknown location {location!r}"


def _items(s: Script) -> Iterator[str]:
    locs = {x.id for x in s.locations}
    held = {i for c in s.characters for i in c.items}
    if not s.test_only:
        yield from _in_range("items", len(s.items), ITEMS_RANGE)
    yield from _duplicates("items", [i.id for i in s.items])
    for n, item in enumerate(s.items):
        if item.is_key and item.tradable:
            yield f"items[{n}].tradable: key item {item.id!r} must not be tradable"
        if item.location is not None and item.location not in locs:
            yield f"items[{n}].location: unknown location {item.location!r}"
        if item.location is not None and item.id in held:
            yield f"items[{n}].location: {item.id!r} is also held by a character"
        if item.effect is not None:
            yield from _effect_refs(f"items[{n}].effect", item.effect, s)


def _powers(s: Script) -> Iterator[str]:
    chars = {c.id for c in s.characters}
    yield from _duplicates("powers", [p.id for p in s.powers])
    for act in (1, 2):
        yield from _in_range(f"powers (act {act})", sum(p.act == act for p in s.powers), POWERS_PER_ACT)
    for n, p in enumerate(s.powers):
        if p.owner not in chars:
            yield f"powers[{n}].owner: unknown character {p.owner!r}"
        yield from _effect_refs(f"powers[{n}].effect", p.effect, s)
        if p.effect.kind in ("peek_items", "peek_clues") and p.target == "none":
            yield f"powers[{n}].target: {p.effect.kind} needs a character or location target"
    owners = Counter(p.owner for p in s.powers)
    for owner, count in owners.items():
        if count > 1:
            yield f"powers: {owner!r} owns {count} powers (one per character)"


def _events(s: Script) -> Iterator[str]:
    yield from _duplicates("events", [e.id for e in s.events])
    for act in (1, 2):
        yield from _in_range(f"events (act {act})", sum(e.act == act for e in s.events), EVENTS_PER_ACT)
    for n, e in enumerate(s.events):
        if e.stage not in ACT_STAGES[e.act]:
            yield f"events[{n}].stage: {e.stage!r} is not a stage of act {e.act}"
        if e.effect is not None:
            yield from _effect_refs(f"events[{n}].effect", e.effect, s)


def _anchors_and_locations(s: Script) -> Iterator[str]:
    locs = {x.id for x in s.locations}
    powers = {p.id for p in s.powers}
    yield from _duplicates("locations", [x.id for x in s.locations])
    if not any(x.act == 1 for x in s.locations):
        yield "locations: no location open in act 1"
    for name in ("anchor_r1", "anchor_r2"):
        anchor = getattr(s.anchors, name)
        for n, loc in enumerate(anchor.unlock_locations):
            if loc not in locs:
                yield f"anchors.{name}.unlock_locations[{n}]: unknown location {loc!r}"
        for n, power in enumerate(anchor.unlock_powers):
            if power not in powers:
                yield f"anchors.{name}.unlock_powers[{n}]: unknown power {power!r}"
    unlocked = set(s.anchors.anchor_r1.unlock_locations)
    effects = [i.effect for i in s.items] + [e.effect for e in s.events]
    unlocked.update(e.location for e in effects if isinstance(e, UnlockLocation))
    for n, x in enumerate(s.locations):
        if x.act == 2 and x.id not in unlocked:
            yield f"locations[{n}]: act-2 location {x.id!r} is unlocked by neither anchor_r1 nor an effect"


def problems(script: Script, stem: str | None = None) -> list[str]:
    """Every cross-record problem of `script` ('path: what is wrong'); empty when the package holds together."""
    found: list[str] = []
    if stem is not None and stem != script.id:
        found.append(f"id: {script.id!r} differs from the file name {stem!r}")
    for check in (_characters, _clues, _solvable, _items, _powers, _events, _anchors_and_locations):
        found.extend(check(script))
    return found


def check_package(script: Script, stem: str | None = None) -> None:
    """Raise PackageError when `script` has any problem."""
    found = problems(script, stem)
    if found:
        raise PackageError(script.id, found)


def parse_script(raw: str, stem: str | None = None) -> Script:
    """Parse and cross-check one package; raises `PackageError` naming the bad field's path."""
    script = parse(raw, stem or "package")
    check_package(script, stem)
    return script


def script_ids() -> list[str]:
    """The shipped scripts' ids (file stems), sorted."""
    return sorted(p.stem for p in SCRIPTS_DIR.glob("*.json"))


@cache
def load_script(script_id: str) -> Script:
    """The shipped script `script_id`, validated (cached: packages are read once per process)."""
    path = SCRIPTS_DIR / f"{script_id}.json"
    return parse_script(path.read_text(encoding="utf-8"), path.stem)


def dump_schema() -> str:
    """The package's JSON Schema (documentation for script authors)."""
    return json.dumps(Script.model_json_schema(), ensure_ascii=False, indent=2)
