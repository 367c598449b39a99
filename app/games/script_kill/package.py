"""The script package: one JSON file per script, read into frozen pydantic models.

The models check each record's own shape; `validate.check_package` checks what spans records (every reference
resolves, counts per act, key items not tradable …). `load_script` does both, so a bad package never loads.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

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
    uses: Literal[1, 2] | None = None
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


def parse_script(raw: str, stem: str | None = None) -> Script:
    """Parse and cross-check one package; raises `validate.PackageError` naming the bad field's path."""
    from app.games.script_kill.validate import check_package, parse

    script = parse(raw)
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
