"""The `config` of an undercover match (spec §2.1 plus the extensions this server adds).

Every extension beyond the protocol is off by default, so a default match has exactly the
spec's phases, events and `next_action` values (issue 18 §1): `last_words` (遗言),
`blank_guess` (白板猜词) and `compete_mode` (refuse instruction-like speech) must be turned on.

Bounds chosen where the spec is silent:

- `speak_timeout` 1–600 s, `vote_timeout` 1–900 s (whole seconds).
- `max_rounds` defaults to `n_players` (spec D12) and may be 1–2×`n_players`, so a table with
  `noop_then_random` can still play out.
- `n_undercover + n_blank < n_players / 2`: the non-civilians start as a strict minority.
- `first_speaker` is a seat (0…n_players-1) or `"random"` (drawn at the deal).
- `wordpair_tag` is not read by the rules: the caller filters the word-pair library with it
  and hands the engine the candidate pairs.
- `takeover_after_timeouts` (null = off): after that many timeouts in a row of one seat the official bot
  plays it to the end (the services do it; the rules mark the seat, `take_over`).
- Unknown keys are refused; every error names the first bad field.

Table extensions (issue 17; all off by default, and a default config's `model_dump()` does not even
name them, so default matches and their golden transcripts are unchanged):

- `host` `"off"` (default) | `"plain"` | `"chaos"`: after each speaking round (after the debate, when
  there is one, before the vote opens) a public `host_commentary` event with a short summary and a
  suspicion ranking over public information only. `"chaos"` may steer suspicion toward an innocent seat
  and says so (`may_mislead: true`).
- `debate_rounds` 0 (default) – 2: after each round's speeches, that many debate rounds (phase
  `debate_round_N`) where every living seat may post up to `DEBATE_MAX_MESSAGES` (2) messages of at most
  `DEBATE_MAX_CHARS` (120) characters (`debate`) or pass (`debate_pass`); a debate round ends when every
  living seat has passed or used its messages, or at its deadline.
- `debate_timeout` 10–600 s (default 90): the deadline of one debate round.
- `recap` (default false): the finished result carries a `recap` (acting scores, 本场最佳, 翻车现场, a
  highlight per seat). Always on when `host` is not `"off"` or `debate_rounds` ≥ 1.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from app.games.kit.config import COMPETE_MODE, TAKEOVER_AFTER_TIMEOUTS, max_rounds_by_size

TieBreak = Literal["random", "revote", "noop_then_random"]
Host = Literal["off", "plain", "chaos"]

DEBATE_MAX_MESSAGES = 2
"""Messages one seat may post in one debate round."""
DEBATE_MAX_CHARS = 120
"""Characters (after trimming) of one debate message."""

# The table extensions and their defaults: left out of `model_dump()` while at the default.
EXTENSION_DEFAULTS: dict[str, Any] = {"host": "off", "debate_rounds": 0, "debate_timeout": 90, "recap": False,
                                      "detailed_events": False}


def _bad(field: str, message: str) -> PydanticCustomError:
    return PydanticCustomError("invalid_config", message, {"field": field})


class UndercoverConfig(BaseModel):
    """A validated, immutable match configuration; `model_dump()` is the full resolved config."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    n_players: int = Field(6, ge=4, le=12, description="seats at the table")
    n_undercover: int = Field(2, ge=1, description="undercovers; n_undercover + n_blank < n_players / 2")
    n_blank: int = Field(0, ge=0, description="blanks (白板, no word; they win with the undercovers)")
    speak_timeout: int = Field(60, ge=1, le=600, description="seconds per speech (also for last words and the blank's "
                               "guess, when on)")
    vote_timeout: int = Field(90, ge=1, le=900, description="seconds for a vote")
    max_rounds: int = Field(0, ge=1, description="the undercovers win when round max_rounds resolves with no winner; "
                            "default n_players, at most 2 × n_players")
    tie_break: TieBreak = Field("random", description="a tied vote: random among the tied, revote (a PK of the "
                                "tied), or noop_then_random (nobody out unless the previous round was a noop too)")
    wordpair_tag: str | None = Field(None, max_length=64, description="draw the pair from this tag of the word "
                                     "library (null: the whole library)")
    allow_whisper: bool = Field(False, description="undercovers may whisper to each other (and learn each other)")
    fellow_roles_visible: bool = Field(False, description="undercovers learn each other's seats")
    first_speaker: int | Literal["random"] = Field(0, description="the first speaker's seat, or random (drawn at "
                                                   "the deal)")
    last_words: bool = Field(False, description="extension: a seat voted out may say one last thing (next_action "
                             "last_words)")
    blank_guess: bool = Field(False, description="extension: a blank voted out guesses the civilians' word "
                              "(next_action guess_word)")
    compete_mode: bool = COMPETE_MODE
    takeover_after_timeouts: int | None = TAKEOVER_AFTER_TIMEOUTS
    host: Host = Field("off", description="extension: plain or chaos — the host's commentary after each round's "
                       "speeches")
    debate_rounds: int = Field(0, ge=0, le=2, description="extension: debate rounds between the speeches and "
                               "the vote")
    debate_timeout: int = Field(90, ge=10, le=600, description="extension: seconds per debate round")
    recap: bool = Field(False, description="extension: the finished result carries a recap; always on with host "
                        "or debate_rounds")
    detailed_events: bool = Field(False, description="extension: two public events the protocol does not name — "
                                  "vote_abstained (the seats that did not vote by the deadline) and votes_voided "
                                  "(the votes for a seat that conceded mid-vote; its voters are asked again)")

    @property
    def table_extensions(self) -> bool:
        """True when the room asked for the host, a debate or the recap."""
        return self.host != "off" or self.debate_rounds > 0 or self.recap

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for key, default in EXTENSION_DEFAULTS.items():
            if data.get(key, default) == default:
                data.pop(key, None)
        return data

    _max_rounds = max_rounds_by_size(6)

    @model_validator(mode="after")
    def _check_together(self) -> UndercoverConfig:
        n = self.n_players
        if self.n_undercover + self.n_blank >= n / 2:
            raise _bad("n_undercover", "n_undercover + n_blank must be less than n_players / 2")
        if self.max_rounds > 2 * n:
            raise _bad("max_rounds", "max_rounds must be at most 2 × n_players")
        if isinstance(self.first_speaker, int) and not 0 <= self.first_speaker < n:
            raise _bad("first_speaker", "first_speaker must be a seat (0…n_players-1) or 'random'")
        return self
