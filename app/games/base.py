"""What every game shares with the protocol layer, without importing it.

The shapes here are the data half of `app.protocol.registry.Game`: a game returns them, the
protocol layer and the services read them. Nothing in here knows any particular game.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, TypedDict

MatchStatus = Literal["waiting", "in_progress", "finished", "aborted"]
# `player_idle`, `player_conceded`, `player_left`: a quick start whose only person timed out turn after turn,
# conceded, or closed the page ended early to free its bots (the services send these for quick starts only).
AbortReason = Literal["host_cancelled", "janitor_timeout", "player_idle", "player_conceded", "player_left"]
ABORT_SUMMARIES: dict[str, str] = {
    "host_cancelled": "房主取消了对局",
    "janitor_timeout": "对局长时间无进展，已被系统清理",
    "player_idle": "唯一的真人玩家连续超时，对局提前结束，机器人已离桌",
    "player_conceded": "唯一的真人玩家认输离场，对局提前结束，机器人已离桌",
    "player_left": "唯一的真人玩家离开了页面，对局提前结束，机器人已离桌",
}

Event = dict[str, Any]
"""One log entry as a game emits it: `seq` (int, contiguous per match from 1), `type` (str), `visibility`
(`public`, `god_only`, `private:seat:N`, `private:role:R` or `private:host`), the type's own fields, and
`ts` (the command's `now`, epoch seconds; the services store it as ISO-8601)."""


class TimerSummary(TypedDict):
    """The one deadline a match waits for: fire `Timeout(token)` at `due` (epoch seconds)."""

    due: float
    kind: str
    token: int


class MatchSummary(TypedDict):
    """What the services copy from a state into the match row."""

    status: MatchStatus
    phase: str
    result: dict[str, Any] | None
    timer: TimerSummary | None


class ErrorSpec(NamedTuple):
    """One of a game's own error codes: the HTTP status it answers with and its default message."""

    status: int
    message: str


class GameError(Exception):
    """A command the rules refuse. `code` is a protocol error code (e.g. `wrong_phase`) or one the game declares in
    its `errors`."""

    def __init__(self, code: str, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail
