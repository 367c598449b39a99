"""The state of one script_kill match: plain pydantic data, stored as JSON in the match row.

`phase` is `waiting` (the gm_init stage: the room fills), then a sub-stage id of `stages.SUB_STAGES`
(`script_handout` … `review`), then `finished`; an aborted match keeps the phase it stopped in (`stage` says
`aborted`). The script itself is not copied into the state:
`script_id` names the shipped package, which the rules load (read-only) when they need it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.games.kit import KitSeat, KitState
from app.games.script_kill.config import ScriptKillConfig
from app.games.script_kill.package import Script, load_script
from app.games.script_kill.stages import INDEX, SUB_STAGES


class Player(KitSeat):
    """One seat. `clues` are the clues this seat's character found or was shown privately, in order."""

    character: str | None = None
    items: list[str] = Field(default_factory=list)
    clues: list[str] = Field(default_factory=list)
    investigations: int = 0
    extra_investigations: int = 0
    power_used: bool = False
    ready: bool = False
    spoke: bool = False
    chat_read_seq: int = 0

    @property
    def dealt(self) -> bool:
        return self.character is not None


class Chat(BaseModel):
    """One private chat, kept for the unread count of a seat's snapshot."""

    seq: int
    from_seat: int
    to_seat: int
    text: str


class MatchState(KitState[ScriptKillConfig, Player]):
    """Everything the rules need to continue a match; JSON in, JSON out."""

    act: int = 1
    unlocked_locations: list[str] = Field(default_factory=list)
    unlocked_powers: list[str] = Field(default_factory=list)
    public_clues: list[str] = Field(default_factory=list)
    anchors: list[str] = Field(default_factory=list)
    item_uses: dict[str, int] = Field(default_factory=dict)
    taken_items: list[str] = Field(default_factory=list)
    speaker: int | None = None
    chats: list[Chat] = Field(default_factory=list)
    votes: dict[int, int] = Field(default_factory=dict)
    vote_round: int = 1
    vote_candidates: list[int] = Field(default_factory=list)
    tally: list[dict[str, Any]] = Field(default_factory=list)
    voted_out: int | None = None
    ending: str | None = None

    @property
    def script(self) -> Script:
        return load_script(self.config.script)

    @property
    def stage_index(self) -> int:
        """The sub-stage's number (0 while waiting, 11 for the review, 12 after the end or an abort)."""
        if self.at in INDEX:
            return INDEX[self.at]
        return 0 if self.at == "waiting" else len(SUB_STAGES)

    @property
    def at(self) -> str:
        """The phase as the rules and views read it: `aborted` once aborted (the stored `phase` stays where the
        match stopped, as the protocol's phases name no `aborted`)."""
        return "aborted" if self.status == "aborted" else self.phase

    @property
    def stage(self) -> str:
        """The seed's code stage (prepare, opening, free_talk, search, action, vote, settlement, or the status)."""
        if self.at in INDEX:
            return SUB_STAGES[INDEX[self.at]].stage
        return "prepare" if self.at == "waiting" else self.at

    @property
    def round_no(self) -> int:
        return SUB_STAGES[min(self.stage_index, len(SUB_STAGES) - 1)].round_no

    def seat_of(self, character: str) -> int:
        return next(p.seat for p in self.players if p.character == character)

    def holder(self, item: str) -> int | None:
        """The seat holding `item`, or None (still lying somewhere, or never dealt)."""
        return next((p.seat for p in self.players if item in p.items), None)

    def found_anywhere(self) -> set[str]:
        """Clues found by any seat or published to the table."""
        return set(self.public_clues).union(*(p.clues for p in self.players))

