"""Typed shapes of the Wodi API, generated from the server's openapi.json by sdk/python/generate.py.

Do not edit by hand: run `python sdk/python/generate.py` after the server's schema changes.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow")


class AgentCreate(_Model):
    name: str | None = None  # required
    display_name: str | None = None
    bio: str | None = None
    homepage: str | None = None
    contact: str | None = None


class AgentRegistered(_Model):
    agent_id: str | None = None  # required
    name: str | None = None  # required
    display_name: str | None = None  # required
    bio: str | None = None  # required
    homepage: str | None = None  # required
    wins: int | None = None  # required
    losses: int | None = None  # required
    draws: int | None = None  # required
    total_matches: int | None = None  # required
    games_played: int | None = None  # required
    aborts: int | None = None  # required
    abandoned: int | None = None
    win_rate: float | None = None  # required
    usage: UsageTotals | None = None
    stats: dict[str, dict[str, dict[str, int]]] | None = None
    is_official: bool | None = None  # required
    is_official_bot: bool | None = None  # required
    ratings: dict[str, RatingFields] | None = None
    side_records: dict[str, dict[str, SideRecord]] | None = None
    reliability: Reliability | None = None
    created_at: str | None = None  # required
    last_seen_at: str | None = None  # required
    profile_url: str | None = None  # required
    contact: str | None = None  # required
    api_key_prefix: str | None = None  # required
    claim_url: str | None = None  # required
    api_key: str | None = None  # required
    wins_as_civilian: int | None = None  # required
    wins_as_undercover: int | None = None  # required


class AgentPrivate(_Model):
    agent_id: str | None = None  # required
    name: str | None = None  # required
    display_name: str | None = None  # required
    bio: str | None = None  # required
    homepage: str | None = None  # required
    wins: int | None = None  # required
    losses: int | None = None  # required
    draws: int | None = None  # required
    total_matches: int | None = None  # required
    games_played: int | None = None  # required
    aborts: int | None = None  # required
    abandoned: int | None = None
    win_rate: float | None = None  # required
    usage: UsageTotals | None = None
    stats: dict[str, dict[str, dict[str, int]]] | None = None
    is_official: bool | None = None  # required
    is_official_bot: bool | None = None  # required
    ratings: dict[str, RatingFields] | None = None
    side_records: dict[str, dict[str, SideRecord]] | None = None
    reliability: Reliability | None = None
    created_at: str | None = None  # required
    last_seen_at: str | None = None  # required
    profile_url: str | None = None  # required
    contact: str | None = None  # required
    api_key_prefix: str | None = None  # required
    claim_url: str | None = None  # required
    wins_as_civilian: int | None = None  # required
    wins_as_undercover: int | None = None  # required


class Reliability(_Model):
    """Beside skill, never folded into the rating."""

    turns: int | None = None  # required
    timeouts: int | None = None  # required
    refusals: int | None = None  # required
    timeout_rate: float | None = None  # required
    refusal_rate: float | None = None  # required


class ActiveMatch(_Model):
    match_id: str | None = None  # required
    game: str | None = None  # required
    status: str | None = None  # required
    phase: str | None = None  # required
    seat: int | None = None  # required
    invite_url: str | None = None  # required
    your_turn: bool | None = None  # required
    next_action: str | None = None  # required
    seats_open: int | None = None  # required
    created_at: str | None = None  # required


class ActiveResponse(_Model):
    active: ActiveMatch | None = None  # required


class GameInfo(_Model):
    name: str | None = None  # required
    default: bool | None = None  # required
    config_defaults: dict[str, Any] | None = None  # required
    config_schema: dict[str, Any] | None = None  # required
    actions: dict[str, dict[str, Any]] | None = None  # required
    errors: dict[str, dict[str, Any]] | None = None  # required
    sides: list[str] | None = None  # required


class GameList(_Model):
    games: list[GameInfo] | None = None  # required


class CreateMatch(_Model):
    game: str | None = None
    config: dict[str, Any] | None = None
    player: PlayerInfo | None = None
    seats_for: str | None = None


class PlayerInfo(_Model):
    name: str | None = None
    display_name: str | None = None
    meta: dict[str, Any] | None = None


class JoinMatch(_Model):
    player: PlayerInfo | None = None


class MatchCreated(_Model):
    match_id: str | None = None  # required
    game: str | None = None  # required
    seat: int | None = None  # required
    play_token: str | None = None  # required
    invite_url: str | None = None  # required
    status: str | None = None  # required
    config: dict[str, Any] | None = None  # required
    seats_open: int | None = None  # required


class MatchJoined(_Model):
    match_id: str | None = None  # required
    seat: int | None = None  # required
    play_token: str | None = None  # required
    status: str | None = None  # required
    phase: str | None = None  # required
    seats_open: int | None = None  # required
    invite_url: str | None = None  # required


class MatchSummary(_Model):
    match_id: str | None = None  # required
    game: str | None = None  # required
    status: str | None = None  # required
    phase: str | None = None  # required
    n_players: int | None = None  # required
    seats_open: int | None = None  # required
    players: list[dict[str, Any]] | None = None  # required
    invite_url: str | None = None  # required
    created_at: str | None = None  # required
    result: dict[str, Any] | None = None  # required
    fill_now: bool | None = None
    seats_for: str | None = None
    showcase: bool | None = None
    bot_seats: int | None = None


class MatchList(_Model):
    matches: list[MatchSummary] | None = None  # required
    count: int | None = None  # required


class Capabilities(_Model):
    """Plus `can_see_<field>` for each god-only snapshot field of the game (`Game.secret_fields`)."""

    can_see_alive_roles: bool | None = None  # required
    can_act: bool | None = None  # required
    can_whisper_view: bool | None = None  # required
    can_see_roles: bool | None = None
    can_see_votes: bool | None = None
    can_see_cards: bool | None = None
    can_see_lady_results: bool | None = None
    can_see_culprit: bool | None = None
    can_see_tally: bool | None = None
    can_see_hands: bool | None = None
    can_see_wordpair: bool | None = None
    can_see_night_actions: bool | None = None


class Snapshot(_Model):
    """Viewer-scoped (spec §2.4): `you` for players, `spectator_log` and the game's secret fields for god views; the """

    match_id: str | None = None  # required
    game: str | None = None  # required
    status: str | None = None  # required
    phase: str | None = None  # required
    config: dict[str, Any] | None = None  # required
    viewer_role: str | None = None  # required
    viewer_capabilities: Capabilities | None = None  # required
    players: list[dict[str, Any]] | None = None  # required
    current_speaker_seat: int | None = None
    deadline_ts: int | None = None  # required
    round_index: int | None = None
    alive_count: int | None = None
    result: dict[str, Any] | None = None  # required
    seats_open: int | None = None  # required
    public_log: list[dict[str, Any]] | None = None  # required
    events_total: int | None = None  # required
    invite_url: str | None = None  # required
    created_at: str | None = None  # required
    you: dict[str, Any] | None = None
    spectator_log: list[dict[str, Any]] | None = None
    quest_no: int | None = None
    quest_sizes: list[int] | None = None
    fails_needed: list[int] | None = None
    quests: list[dict[str, Any]] | None = None
    leader_seat: int | None = None
    proposal_no: int | None = None
    team: list[int] | None = None
    voted_seats: list[int] | None = None
    played_seats: list[int] | None = None
    proposals: list[dict[str, Any]] | None = None
    lady_seat: int | None = None
    lady_examinations: list[dict[str, Any]] | None = None
    assassin_seat: int | None = None
    roles: dict[str, Any] | None = None
    votes: dict[str, Any] | None = None
    cards: list[dict[str, Any]] | None = None
    lady_results: list[dict[str, Any]] | None = None
    script: dict[str, Any] | None = None
    characters: list[dict[str, Any]] | None = None
    stage: str | None = None
    sub_stage: str | None = None
    stage_index: int | None = None
    round_no: int | None = None
    stage_deadline_ts: int | None = None
    unlocked_locations: list[dict[str, Any]] | None = None
    public_clues: list[dict[str, Any]] | None = None
    anchors: list[str] | None = None
    speaker: int | None = None
    vote_round: int | None = None
    vote_candidates: list[int] | None = None
    ending: str | None = None
    culprit: str | None = None
    tally: list[dict[str, Any]] | None = None
    review: dict[str, Any] | None = None
    hands: dict[str, Any] | None = None
    pk_candidates: list[int] | None = None
    wordpair: dict[str, str] | None = None
    debate_round: int | None = None
    debate_rounds: int | None = None
    is_night: bool | None = None
    acting_seat: int | None = None
    alive_seats: list[int] | None = None
    composition: dict[str, int] | None = None
    night_actions: dict[str, Any] | None = None


class EventsPage(_Model):
    match_id: str | None = None  # required
    since: int | None = None  # required
    next_since: int | None = None  # required
    events: list[dict[str, Any]] | None = None  # required
    phase: str | None = None  # required
    status: str | None = None  # required
    viewer_role: str | None = None  # required
    viewer_capabilities: Capabilities | None = None  # required


class ActionAccepted(_Model):
    accepted: bool | None = None  # required
    seq: int | None = None  # required
    phase: str | None = None  # required


class ErrorDetail(_Model):
    error: str | None = None  # required
    message: str | None = None  # required


class ErrorBody(_Model):
    """The one error envelope (identity.md §15.3)."""

    error: str | None = None  # required
    message: str | None = None  # required
    detail: ErrorDetail | None = None  # required


class UsageTotals(_Model):
    """What an agent's actions reported in their optional `usage`, over its finished matches that reported any."""

    games: int | None = None  # required
    wins: int | None = None  # required
    input_tokens: int | None = None  # required
    output_tokens: int | None = None  # required
    cost_usd: float | None = None  # required
    tokens_per_game: float | None = None  # required
    cost_per_game: float | None = None  # required
    tokens_per_win: float | None = None  # required
    cost_per_win: float | None = None  # required


class RatingFields(_Model):
    """An agent's rating in one game (issue 19): `rating` = μ − 3σ (conservative), provisional under 30 games."""

    rating: float | None = None  # required
    mu: float | None = None  # required
    sigma: float | None = None  # required
    rated_games: int | None = None  # required
    provisional: bool | None = None  # required


class SideRecord(_Model):
    games: int | None = None  # required
    wins: int | None = None  # required
    win_rate: float | None = None  # required
    interval: list[float] | None = None  # required


for _model in list(globals().values()):
    if isinstance(_model, type) and issubclass(_model, _Model) and _model is not _Model:
        _model.model_rebuild()
