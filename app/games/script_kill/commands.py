"""Commands the rules accept, the request schema of every action, and the parser for HTTP action bodies.

Action types (`POST /action` bodies; `stages.GATES` says where each is allowed):

- `list_clues`, `list_items` — read-only: the answer's `clues` / `items` carry the list (no event, nothing counted).
- `inspect` `{item}` or `{clue}` — read-only: the full text of one of your items, a clue you found, or a public clue.
- `speak` `{text}` — table talk (self_intro: in seat order, once each).
- `reveal_clue` `{clue}` or `{item}` — show one of yours to the table.
- `investigate` `{location}` — search an unlocked location (≤ 3 a round).
- `use_power` `{power, target?}` — your character's power, once a game (`target`: a seat or a location id).
- `use_item` `{item, target?}` — an item with uses left.
- `trade` `{to, item}` — give a tradable clue item to another seat.
- `private_chat` `{to, text}` — a message only you and seat `to` read.
- `vote` `{target}` — final_vote only, once per vote round: the seat you think plays the culprit.
- `ready` — you are done with this stage (when every seat is, the stage ends early).

Every body may carry `expected_seq` (checked by the services); unknown fields are refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from app.games.base import GameError
from app.games.common.commands import Abort, Concede, GameCommand, TakeOver, Timeout

ActionName = Literal["list_clues", "list_items", "inspect", "speak", "reveal_clue", "investigate", "use_power",
                     "use_item", "trade", "private_chat", "vote", "ready"]
READ_ONLY = frozenset({"list_clues", "list_items", "inspect"})
MAX_SPEECH = 300


class Join(GameCommand):
    """A player takes the next free seat."""

    type: Literal["join"] = "join"
    name: str
    display_name: str


class Act(GameCommand):
    """One seat's action (`action` names it; the fields it does not take stay None)."""

    type: Literal["act"] = "act"
    seat: int
    action: ActionName
    text: str | None = None
    clue: str | None = None
    item: str | None = None
    location: str | None = None
    power: str | None = None
    target: int | str | None = None
    to: int | None = None


Command = Annotated[Join | Act | Concede | Abort | Timeout | TakeOver, Field(discriminator="type")]


class _Request(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    expected_seq: StrictInt | None = Field(
        None, ge=0, description="optional: the `events_total` your decision is based on; if the match has moved "
                                "past it → 409 `stale_state`")


class ListCluesRequest(_Request):
    """Read-only (stages 1–11): the clues you hold and the public ones, in the answer's `clues`."""

    type: Literal["list_clues"]


class ListItemsRequest(_Request):
    """Read-only (stages 1–11): your items, in the answer's `items`."""

    type: Literal["list_items"]


class InspectRequest(_Request):
    """Read-only (stages 1–11): one of your items, a clue you found or a public clue, in the answer's `inspected`."""

    type: Literal["inspect"]
    item: StrictStr | None = Field(None, description="an item id you hold")
    clue: StrictStr | None = Field(None, description="a clue id you found, or a public one")


class SpeakRequest(_Request):
    """Table talk: self_intro (your turn, once), discuss_r1, discuss_r2, final_discuss."""

    type: Literal["speak"]
    text: StrictStr = Field(description=f"at most {MAX_SPEECH} characters (longer → 422 `text_too_long`)")


class RevealClueRequest(_Request):
    """Show one of your clues (or items) to the table: discuss_r1, discuss_r2, final_discuss."""

    type: Literal["reveal_clue"]
    clue: StrictStr | None = Field(None, description="a clue id you found")
    item: StrictStr | None = Field(None, description="an item id you hold")


class InvestigateRequest(_Request):
    """Search a location (explore_r1, explore_r2; at most 3 a round; only unlocked locations)."""

    type: Literal["investigate"]
    location: StrictStr = Field(description="an unlocked location id")


class UsePowerRequest(_Request):
    """Use your character's power (explore_r1, explore_r2; once a game)."""

    type: Literal["use_power"]
    power: StrictStr = Field(description="your power's id")
    target: StrictInt | StrictStr | None = Field(None, description="a seat (character target) or a location id")


class UseItemRequest(_Request):
    """Use an item you hold that has uses left (explore_r1, explore_r2)."""

    type: Literal["use_item"]
    item: StrictStr = Field(description="an item id you hold")
    target: StrictInt | StrictStr | None = Field(None, description="a seat (character target) or a location id")


class TradeRequest(_Request):
    """Give a tradable clue item to another seat (explore_r1, explore_r2; never a key item)."""

    type: Literal["trade"]
    to: StrictInt = Field(description="the receiving seat")
    item: StrictStr = Field(description="an item id you hold")


class PrivateChatRequest(_Request):
    """A private message to one seat (explore and discuss stages); visibility `private:pair:<a>:<b>`."""

    type: Literal["private_chat"]
    to: StrictInt = Field(description="another seat")
    text: StrictStr = Field(description=f"at most {MAX_SPEECH} characters")


class VoteRequest(_Request):
    """The final vote (final_vote only, once a vote round), privately to the DM."""

    type: Literal["vote"]
    target: StrictInt = Field(description="the seat you accuse (in a second vote: one of the tied seats)")


class ReadyRequest(_Request):
    """You are done with this stage (stages 1–9); the stage ends when every seat is."""

    type: Literal["ready"]


ACTIONS: Mapping[str, type[BaseModel]] = MappingProxyType({
    "list_clues": ListCluesRequest,
    "list_items": ListItemsRequest,
    "inspect": InspectRequest,
    "speak": SpeakRequest,
    "reveal_clue": RevealClueRequest,
    "investigate": InvestigateRequest,
    "use_power": UsePowerRequest,
    "use_item": UseItemRequest,
    "trade": TradeRequest,
    "private_chat": PrivateChatRequest,
    "vote": VoteRequest,
    "ready": ReadyRequest,
})


def parse_command(raw: Mapping[str, Any], seat: int) -> Act:
    """An HTTP action body as `seat`'s command; `GameError("bad_request", errors=[...])` when malformed."""
    if not isinstance(raw, Mapping):
        raise GameError("bad_request", "the action body must be a JSON object",
                        errors=[{"loc": [], "msg": "not an object", "type": "dict_type"}])
    kind = raw.get("type")
    request = ACTIONS.get(kind) if isinstance(kind, str) else None
    if request is None:
        raise GameError("bad_request", f"unknown action type: {kind!r}", allowed=sorted(ACTIONS),
                        errors=[{"loc": ["type"], "msg": "unknown action type", "type": "literal_error"}])
    try:
        body = request.model_validate(dict(raw))
    except ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        field = ".".join(str(part) for part in errors[0]["loc"])
        raise GameError("bad_request", f"{field}: {errors[0]['msg']}", field=field, errors=errors) from None
    fields = body.model_dump(exclude={"expected_seq", "type"})
    return Act(seat=seat, action=kind, **fields)  # type: ignore[arg-type]
