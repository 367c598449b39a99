"""The state of one werewolf match: plain pydantic data, stored as JSON in the match row.

`phase` is `waiting`, `night_round_N`, `hunter_round_N`, `last_words_round_N`, `speak_round_N`, `vote_round_N`
or `finished` (an aborted match keeps the phase it stopped in). `night` holds what the night roles did this
night (god only); `pending` is the queue of dead seats that still act (the hunter's shot, last words). `timer`
is the next thing the scheduler must fire; its `token` comes from the monotonic `timer_tokens` counter, so a
stale `Timeout` never matches a newer timer.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.games.kit import Outcome as KitOutcome
from app.games.kit import Step as KitStep
from app.games.kit.state import RoundSeat, RoundState
from app.games.werewolf.config import GODS, Camp, Role, WerewolfConfig, camp_of

TimerKind = Literal["night_expire", "witch_expire", "speak_expire", "vote_expire", "shoot_expire",
                    "last_words_expire"]
DeathCause = Literal["killed", "poisoned", "voted", "shot", "conceded"]
PendingKind = Literal["shoot", "last_words"]


class Player(RoundSeat):
    """One seat at the table. `revealed_*` is what the public has been shown of a dead seat."""

    role: Role | None = None
    died_in: str | None = None
    death_cause: DeathCause | None = None
    revealed_camp: Camp | None = None

    @property
    def camp(self) -> Camp | None:
        return None if self.role is None else camp_of(self.role)


class Night(BaseModel):
    """What happened in the current night so far. `wolf_choices` maps a wolf to its target (None: no kill)."""

    step: Literal["wolves", "witch"] = "wolves"
    wolf_choices: dict[int, int | None] = Field(default_factory=dict)
    wolves_done: bool = False
    victim: int | None = None
    seer_done: bool = False
    seer_target: int | None = None
    guard_done: bool = False
    guard_target: int | None = None
    witch_done: bool = False
    witch_informed: bool = False
    saved: bool = False
    poison_target: int | None = None


class SeerCheck(BaseModel):
    """One of the seer's results: the seat's camp, learnt on night `round`."""

    seat: int
    round: int
    camp: Camp


class Pending(BaseModel):
    """A dead seat that still acts: the hunter's shot, or last words. `last_words_for_victim`: a shot
    from this hunter gives its victim last words too."""

    seat: int
    kind: PendingKind
    last_words_for_victim: bool = False



class MatchState(RoundState[WerewolfConfig, Player]):
    """Everything the rules need to continue a match; JSON in, JSON out."""

    night: Night = Field(default_factory=Night)
    last_guarded: int | None = None
    antidote: bool = True
    poison: bool = True
    seer_checks: list[SeerCheck] = Field(default_factory=list)
    pending: list[Pending] = Field(default_factory=list)
    then_night: bool = False

    def living_gods(self) -> list[int]:
        """Living seats holding a god role."""
        return self.alive_with(*GODS)

    def holder(self, role: Role) -> Player | None:
        """The living seat holding a one-of role (seer, witch, hunter, guard), or None."""
        return next((p for p in self.players if p.alive and p.role == role), None)


Step = KitStep[MatchState]
"""One application of a command: the kit's `Step` over the werewolf state."""
Outcome = KitOutcome[MatchState]
