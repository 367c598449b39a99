"""The request schema of every action (the kit validates a body with the model of its `type`; the request is
the command).

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

from typing import Literal

from pydantic import Field, StrictInt, StrictStr

from app.games.kit import Request

ActionName = Literal["list_clues", "list_items", "inspect", "speak", "reveal_clue", "investigate", "use_power",
                     "use_item", "trade", "private_chat", "vote", "ready"]
READ_ONLY = frozenset({"list_clues", "list_items", "inspect"})
MAX_SPEECH = 300


class ListCluesRequest(Request):
    """Read-only (stages 1–11): the clues you hold and the public ones, in the answer's `clues`."""

    type: Literal["list_clues"]


class ListItemsRequest(Request):
    """Read-only (stages 1–11): your items, in the answer's `items`."""

    type: Literal["list_items"]


class InspectRequest(Request):
    """Read-only (stages 1–11): one of your items, a clue you found or a public clue, in the answer's `inspected`."""

    type: Literal["inspect"]
    item: StrictStr | None = Field(None, description="an item id you hold")
    clue: StrictStr | None = Field(None, description="a clue id you found, or a public one")


class SpeakRequest(Request):
    """Table talk: self_intro (your turn, once), discuss_r1, discuss_r2, final_discuss."""

    type: Literal["speak"]
    text: StrictStr = Field(description=f"at most {MAX_SPEECH} characters (longer → 422 `text_too_long`)")


class RevealClueRequest(Request):
    """Show one of your clues (or items) to the table: discuss_r1, discuss_r2, final_discuss."""

    type: Literal["reveal_clue"]
    clue: StrictStr | None = Field(None, description="a clue id you found")
    item: StrictStr | None = Field(None, description="an item id you hold")


class InvestigateRequest(Request):
    """Search a location (explore_r1, explore_r2; at most 3 a round; only unlocked locations)."""

    type: Literal["investigate"]
    location: StrictStr = Field(description="an unlocked location id")


class UsePowerRequest(Request):
    """Use your character's power (explore_r1, explore_r2; once a game)."""

    type: Literal["use_power"]
    power: StrictStr = Field(description="your power's id")
    target: StrictInt | StrictStr | None = Field(None, description="a seat (character target) or a location id")


class UseItemRequest(Request):
    """Use an item you hold that has uses left (explore_r1, explore_r2)."""

    type: Literal["use_item"]
    item: StrictStr = Field(description="an item id you hold")
    target: StrictInt | StrictStr | None = Field(None, description="a seat (character target) or a location id")


class TradeRequest(Request):
    """Give a tradable clue item to another seat (explore_r1, explore_r2; never a key item)."""

    type: Literal["trade"]
    to: StrictInt = Field(description="the receiving seat")
    item: StrictStr = Field(description="an item id you hold")


class PrivateChatRequest(Request):
    """A private message to one seat (explore and discuss stages); visibility `private:pair:<a>:<b>`."""

    type: Literal["private_chat"]
    to: StrictInt = Field(description="another seat")
    text: StrictStr = Field(description=f"at most {MAX_SPEECH} characters")


class VoteRequest(Request):
    """The final vote (final_vote only, once a vote round), privately to the DM."""

    type: Literal["vote"]
    target: StrictInt = Field(description="the seat you accuse (in a second vote: one of the tied seats)")


class ReadyRequest(Request):
    """You are done with this stage (stages 1–9); the stage ends when every seat is."""

    type: Literal["ready"]
