"""The bodies of `POST /api/matches/{id}/action`: one request model per action type (the kit validates a body with
the model of its `type`; the docstrings are the docs' action table)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt, StrictStr

from app.games.kit import Request

MAX_TEXT = 500
_TEXT = f"what you say to the table, at most {MAX_TEXT} characters (longer → 422 `text_too_long`)"


class Propose(Request):
    """The leader names the quest's team (exactly `team_size` distinct seats, any seats, yourself too) and may say
    why; the table then speaks once each and votes."""

    type: Literal["propose"]
    team: list[StrictInt] = Field(description="the team's seats; allowed_actions gives team_size and the candidates")
    text: StrictStr | None = Field(default=None, description=_TEXT)


class Speak(Request):
    """Your one speech on the proposed team (discussion, your turn only)."""

    type: Literal["speak"]
    text: StrictStr = Field(description=_TEXT)


class Skip(Request):
    """Pass your speech on the proposed team."""

    type: Literal["skip"]


class Vote(Request):
    """Approve or reject the proposed team (every seat, at once; all votes are revealed together)."""

    type: Literal["vote"]
    choice: Literal["approve", "reject"]


class Quest(Request):
    """A team member plays a secret card: success, or fail (evil seats only); only the count of fails is public."""

    type: Literal["quest"]
    card: Literal["success", "fail"]


class Lady(Request):
    """Lady of the Lake: the holder learns one seat's side (privately); that seat takes the Lady."""

    type: Literal["lady"]
    target_seat: StrictInt


class Confer(Request):
    """Evil seats (Oberon excepted) talk privately while the assassin chooses (`private:role:evil`)."""

    type: Literal["confer"]
    text: StrictStr = Field(description=_TEXT)


class Assassinate(Request):
    """The assassin names the seat it takes for Merlin; Merlin named → evil wins, else good wins."""

    type: Literal["assassinate"]
    target_seat: StrictInt
