"""The state of one undercover match: plain pydantic data, stored as JSON in the match row.

`phase` is `waiting`, `speak_round_N`, `vote_round_N`, `reveal_round_N` or `finished` (an aborted match keeps
the phase it stopped in); the spec's `dealing` is transient and never stored. `timer` is the next thing the
scheduler must fire; its `token` comes from the monotonic `timer_tokens` counter, so a stale `Timeout` can
never match a newer timer.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.games.kit import Outcome as KitOutcome
from app.games.kit import Step as KitStep
from app.games.kit.state import RoundSeat, RoundState
from app.games.undercover.config import UndercoverConfig

Role = Literal["civilian", "undercover", "blank"]
RevealKind = Literal["guess_word", "last_words"]


class Player(RoundSeat):
    """One seat at the table."""

    role: Role | None = None
    word: str | None = None
    eliminated_in: str | None = None


class WordPair(BaseModel):
    """The two secret words: the civilians' and the undercovers'."""

    civilian: str
    undercover: str



class RevealAction(BaseModel):
    """Something an eliminated seat may still do during `reveal_round_N`."""

    seat: int
    kind: RevealKind


class SpokenTurn(BaseModel):
    """A speaking turn as the record keeps it (`text` None: skipped or timed out)."""

    seat: int
    round: int
    text: str | None
    pk: bool = False
    timeout: bool = False


class CastVote(BaseModel):
    """A vote as the record keeps it."""

    seat: int
    round: int
    target: int
    pk: bool = False


class Record(BaseModel):
    """The public facts the host and the recap read, folded from the events as the match runs (`table`).

    Kept only in rooms with a table extension (`config.table_extensions`); a default room has none.
    """

    speeches: list[SpokenTurn] = Field(default_factory=list)
    votes: list[CastVote] = Field(default_factory=list)
    abstained: dict[int, int] = Field(default_factory=dict)  # seat → votes it let run out
    debate_posts: dict[int, int] = Field(default_factory=dict)  # seat → debate messages in the match
    addressed: dict[int, int] = Field(default_factory=dict)  # seat → debate messages that named it
    guesses: dict[int, bool] = Field(default_factory=dict)  # blank seat → its guess was right
    steered: dict[int, int] = Field(default_factory=dict)  # round → the seat the chaos host pushed to the top
    folded: int = 0  # the last seq folded in


def _unset(value: object) -> bool:
    return not value


class MatchState(RoundState[UndercoverConfig, Player]):
    """Everything the rules need to continue a match; JSON in, JSON out."""

    wordpair: WordPair | None = None
    first_speaker_seat: int | None = None
    pending: list[RevealAction] = Field(default_factory=list)
    whisper_count: int = 0
    # Table extensions (issue 17): left out of the dump while unused, so a default room's state is unchanged.
    debate_index: int = Field(0, exclude_if=_unset)
    debate_posts: dict[int, int] = Field(default_factory=dict, exclude_if=_unset)
    debate_done: list[int] = Field(default_factory=list, exclude_if=_unset)
    record: Record | None = Field(None, exclude_if=lambda value: value is None)
    # Seat → its public texts of the current round so far (speech, debate messages), read with its next text so a
    # word split between two of them is caught (issue 26); emptied when a round opens, left out while empty.
    said: dict[int, str] = Field(default_factory=dict, exclude_if=_unset)


Step = KitStep[MatchState]
"""One application of a command: the kit's `Step` over the undercover state."""
Outcome = KitOutcome[MatchState]
