"""What one seat knows, read from its own snapshot only (`you`, `characters`, `public_clues`, the logs).

The brain never looks at a god field: its character, items, found clues and power come from `you`; the table's
clues from `public_clues` and the `clue_revealed` events; trust from the trades and private chats it was part
of. The views do not show a clue's preset `weights` (the NPCs' suspicion data, seed 002): the brain reads them
from the script package, by id, for the clues it may see; and whether its own character is the culprit (what
that character's script tells its player). Nothing else of the package. The current stage's own actions
(speeches, chats, trades, reveals) are counted from the log after the last `stage_changed`, the round's chats
from the events of the current `round_no`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from app.games.script_kill.package import load_script

EXPLORE = ("explore_r1", "explore_r2")
DISCUSS = ("discuss_r1", "discuss_r2", "final_discuss")


@dataclass
class Seat:
    """The seat's whole knowledge, as plain data."""

    me: int
    character: str
    name: str
    culprit: bool
    sub_stage: str
    round_no: int
    your_turn: bool
    allowed: dict[str, dict[str, Any]]
    phrases: tuple[str, ...]
    secret: str
    private_text: str  # the seat's script, secret and timeline: where its own story happened
    characters: dict[str, dict[str, Any]]  # character id → {seat, character, name, public}
    seat_of: dict[str, int]  # character id → seat
    locations: dict[str, str]  # unlocked location id → name
    clues: dict[str, dict[str, Any]]  # every clue this seat may see: its own and the table's
    mine: dict[str, dict[str, Any]]  # the clues this seat found
    public: set[str]  # clue ids the table knows (published or shown)
    items: dict[str, dict[str, Any]]
    power: dict[str, Any] | None
    events: list[dict[str, Any]]  # public and private log, in seq order
    stage_events: list[dict[str, Any]] = field(default_factory=list)  # since the stage began
    searched: dict[str, int] = field(default_factory=dict)  # location → my investigations there
    found_at: dict[str, int] = field(default_factory=dict)  # location → clues I found there
    hidden_keys: dict[str, int] = field(default_factory=dict)  # location → key clues a peek showed still hide there

    def row(self, kind: str) -> dict[str, Any] | None:
        """The `allowed_actions` entry of `kind`, or None when the seat may not send it now."""
        return self.allowed.get(kind)

    def options(self, kind: str, key: str) -> list[Any]:
        """One option list (`targets`, `locations`, `items`, `powers`, `clues`) of an allowed action."""
        row = self.allowed.get(kind) or {}
        return list(row.get(key) or [])

    def mine_now(self, kind: str) -> list[dict[str, Any]]:
        """This stage's events of `kind` sent by this seat."""
        return [e for e in self.stage_events if e.get("type") == kind and e.get("seat") == self.me]

    def my_round_chats(self) -> list[dict[str, Any]]:
        """The private chats this seat sent in the current round (explore and discuss of one act)."""
        return [e for e in self.events if e.get("type") == "private_chat" and e.get("seat") == self.me
                and e.get("round") == self.round_no]

    def name_of_seat(self, seat: int) -> str:
        for cid, s in self.seat_of.items():
            if s == seat:
                return str(self.characters[cid].get("name") or f"{seat}号")
        return f"{seat}号"


def read(snapshot: dict[str, Any]) -> Seat:
    """The seat's knowledge from its own `GET /api/matches/{id}` snapshot."""
    you: dict[str, Any] = snapshot.get("you") or {}
    me = int(you.get("seat", -1))
    character = you.get("character") or {}
    script_id = str((snapshot.get("script") or {}).get("id") or "")
    cast = {str(c["character"]): c for c in snapshot.get("characters") or [] if c.get("character")}
    events = sorted(_events(snapshot, you), key=lambda e: int(e.get("seq") or 0))
    mine = {str(k["id"]): k for k in you.get("clues") or [] if k.get("id")}
    clues = {str(k["id"]): k for k in snapshot.get("public_clues") or [] if k.get("id")}
    public = set(clues)
    for event in events:
        shown = _shown_clue(event)
        if shown is not None:
            clues.setdefault(str(shown["id"]), shown)
            public.add(str(shown["id"]))
    clues.update(mine)
    presets = preset_weights(script_id)
    clues = {cid: _weighed(k, presets.get(cid)) for cid, k in clues.items()}
    mine = {cid: clues[cid] for cid in mine}
    seat = Seat(
        me=me, character=str(character.get("id") or ""), name=str(character.get("name") or f"{me}号"),
        culprit=_is_culprit(you, character, script_id), sub_stage=str(snapshot.get("sub_stage") or ""),
        round_no=int(snapshot.get("round_no") or 0), your_turn=bool(you.get("your_turn")),
        allowed={str(r["type"]): r for r in you.get("allowed_actions") or []},
        phrases=tuple(str(p) for p in character.get("secret_phrases") or [] if str(p).strip()),
        secret=str(character.get("secret") or ""), private_text=_private_text(character),
        characters=cast, seat_of={cid: int(c["seat"]) for cid, c in cast.items() if c.get("seat") is not None},
        locations={str(x["id"]): str(x.get("name") or x["id"]) for x in snapshot.get("unlocked_locations") or []},
        clues=clues, mine=mine, public=public,
        items={str(i["id"]): i for i in you.get("items") or [] if i.get("id")}, power=you.get("power"),
        events=events,
    )
    seat.stage_events = _since_stage_began(events)
    for event in events:
        if event.get("seat") == me and event.get("type") in ("investigated", "clue_found", "item_obtained"):
            where = event.get("location")
            if where and event.get("type") == "investigated":
                seat.searched[str(where)] = seat.searched.get(str(where), 0) + 1
    seat.hidden_keys = _peeked(events, me, set(mine))
    for clue in mine.values():
        where = clue.get("location")
        if where:
            seat.found_at[str(where)] = seat.found_at.get(str(where), 0) + 1
    return seat


@cache
def preset_weights(script_id: str) -> dict[str, dict[str, int]]:
    """Clue id → its preset suspicion weights in the shipped script `script_id` ({} for an unknown script)."""
    if not _shipped_id(script_id):
        return {}
    try:
        script = load_script(script_id)
    except (OSError, ValueError):
        return {}
    return {k.id: dict(k.weights) for k in script.clues}


@cache
def culprit_of(script_id: str) -> str | None:
    """The culprit's character id in the shipped script `script_id` (None for an unknown script)."""
    if not _shipped_id(script_id):
        return None
    try:
        return load_script(script_id).culprit
    except (OSError, ValueError):
        return None


def _shipped_id(script_id: str) -> bool:
    return bool(script_id) and script_id.replace("_", "").isalnum() and script_id.isascii()


def _weighed(clue: dict[str, Any], preset: dict[str, int] | None) -> dict[str, Any]:
    if clue.get("weights") or preset is None:
        return clue
    return {**clue, "weights": preset}


def _peeked(events: list[dict[str, Any]], me: int, found: set[str]) -> dict[str, int]:
    """Location → the key clues a peek of this seat (a power or an item) showed there and it has not found yet."""
    out: dict[str, int] = {}
    for event in events:
        result = event.get("result")
        if event.get("seat") != me or event.get("type") not in ("power_result", "item_used"):
            continue
        if not isinstance(result, dict) or not result.get("location") or not isinstance(result.get("clues"), list):
            continue
        keys = [k for k in result["clues"] if isinstance(k, dict) and k.get("is_key") and k.get("id") not in found]
        out[str(result["location"])] = len(keys)
    return out


def _events(snapshot: dict[str, Any], you: dict[str, Any]) -> list[dict[str, Any]]:
    seen: dict[int, dict[str, Any]] = {}
    for event in [*(snapshot.get("public_log") or []), *(you.get("private_log") or [])]:
        seen[int(event.get("seq") or 0)] = event
    return list(seen.values())


def _since_stage_began(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    start = 0
    for index, event in enumerate(events):
        if event.get("type") == "stage_changed":
            start = index + 1
    return events[start:]


def _shown_clue(event: dict[str, Any]) -> dict[str, Any] | None:
    """The clue record a `clue_published` / `clue_revealed` event carries, if any."""
    if event.get("type") not in ("clue_published", "clue_revealed"):
        return None
    record = event.get("clue")
    if isinstance(record, dict) and record.get("id"):
        return record
    return None


def _is_culprit(you: dict[str, Any], character: dict[str, Any], script_id: str) -> bool:
    """Whether the seat plays the culprit: its own script says so (the package names the culprit's character;
    the views show it only to god until the end)."""
    if you.get("side") is not None:
        return you.get("side") == "culprit"
    return bool(character.get("id")) and culprit_of(script_id) == character.get("id")


def _private_text(character: dict[str, Any]) -> str:
    timeline = " ".join(str(t.get("text") or "") for t in character.get("timeline") or [] if isinstance(t, dict))
    return " ".join([str(character.get("script") or ""), str(character.get("secret") or ""), timeline])
