"""The schema. Tables are created only by the Alembic migrations in `migrations/`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Index, Integer, String, UniqueConstraint, false, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, query_expression

from app.db.types import JSONType, UTCDateTime, utcnow

LIVE_SHOWCASE = text("showcase AND status IN ('waiting', 'in_progress')")


class Base(DeclarativeBase):
    pass


class Owner(Base):
    """A human who owns agents (claim) and watches matches (viewer layers)."""

    __tablename__ = "owners"

    owner_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    nickname: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_login_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Agent(Base):
    """An AI agent identity. The API key is kept only as its SHA-256 and a 12-character prefix."""

    __tablename__ = "agents"

    agent_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    display_name: Mapped[str | None] = mapped_column(String(128))
    bio: Mapped[str | None] = mapped_column(String(280))
    homepage: Mapped[str | None] = mapped_column(String(256))
    contact: Mapped[str | None] = mapped_column(String(128))
    api_key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    api_key_prefix: Mapped[str] = mapped_column(String(12))
    claim_token: Mapped[str | None] = mapped_column(String(64), unique=True)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    owner_id: Mapped[str | None] = mapped_column(ForeignKey("owners.owner_id"), index=True)
    is_official: Mapped[bool] = mapped_column(Boolean, default=False)
    # An owner's own player record (a person at the table, not an agent): no usable key, on no leaderboard.
    is_human: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    provider_id: Mapped[str | None] = mapped_column(String(64))
    provider_meta: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    aborts: Mapped[int] = mapped_column(Integer, default=0)
    turns: Mapped[int] = mapped_column(Integer, default=0)  # seat turns that ended: acted in time or timed out
    timeouts: Mapped[int] = mapped_column(Integer, default=0)
    refusals: Mapped[int] = mapped_column(Integer, default=0)  # seated commands the server refused
    abandoned: Mapped[int] = mapped_column(Integer, default=0)  # matches its seat was taken over in
    # The usage its actions reported (`usage`), summed over its finished matches; wins among those matches.
    input_tokens: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    output_tokens: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    usage_games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    usage_wins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_seen_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Set while the operator suspends the agent or its owner: the code its key is refused with (`agent_suspended`,
    # `owner_suspended`); the record and its reason are in `suspensions`.
    suspended: Mapped[str | None] = mapped_column(String(32))


class Suspension(Base):
    """The operator suspended an agent or an owner (`subject`: "agent" | "owner"), why, and when it was lifted."""

    __tablename__ = "suspensions"
    __table_args__ = (Index("ix_suspensions_subject", "subject", "subject_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subject: Mapped[str] = mapped_column(String(8))
    subject_id: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(64))  # the agent's name or the owner's username, as it was
    reason: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    lifted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lift_reason: Mapped[str | None] = mapped_column(String(500))


class AgentSideStat(Base):
    """An agent's finished matches and wins on one side of one game (sides are the game's `sides`)."""

    __tablename__ = "agent_side_stats"

    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.agent_id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    side: Mapped[str] = mapped_column(String(32), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)


class Match(Base):
    """A match: current state (JSON) and version for fast reads; the event log is the truth."""

    __tablename__ = "matches"
    __table_args__ = (
        Index("ix_matches_status_created", "status", "created_at"),
        # One showcase waiting or in progress at a time, whichever process opens it (`app.services.match.showcase`).
        Index("uq_matches_live_showcase", "showcase", unique=True, postgresql_where=LIVE_SHOWCASE,
              sqlite_where=LIVE_SHOWCASE),
    )

    match_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    phase: Mapped[str] = mapped_column(String(32))
    config: Mapped[dict[str, Any]] = mapped_column(JSONType)
    state: Mapped[dict[str, Any]] = mapped_column(JSONType)
    version: Mapped[int] = mapped_column(Integer, default=0)
    events_total: Mapped[int] = mapped_column(Integer, default=0)
    n_players: Mapped[int] = mapped_column(Integer)
    seats_taken: Mapped[int] = mapped_column(Integer, default=0)
    timer_due: Mapped[float | None] = mapped_column(Float, index=True)
    timer_kind: Mapped[str | None] = mapped_column(String(32))
    timer_token: Mapped[int | None] = mapped_column(Integer)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    content: Mapped[str | None] = mapped_column(String(128))  # what the deal drew (`RemembersContent`)
    fill_now: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # bots sit at once
    # A digest of the owner identities at a competitive table (`app.ratings.eligibility.pairing`): the same pairing
    # rated again within the window is not rated (issue 26).
    pairing: Mapped[str | None] = mapped_column(String(64), index=True)
    # A digest of the client that opened a quick start (`app.services.identity.clients`): its share of the bot pool.
    quick_client: Mapped[str | None] = mapped_column(String(64), index=True)
    seats_for: Mapped[str] = mapped_column(String(8), default="all", server_default="all")  # all | agents | people
    # The platform's own bots-only match, shown in the lobby while nothing else is live: on no board, never rated.
    showcase: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Seat(Base):
    """A player's seat. `meta` holds provider headers and is never shown publicly."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("match_id", "agent_id", name="uq_seats_match_agent"),
        Index("ix_seats_agent", "agent_id"),
    )

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.match_id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    agent_id: Mapped[str | None] = mapped_column(ForeignKey("agents.agent_id"))
    name: Mapped[str] = mapped_column(String(64))
    display_name: Mapped[str] = mapped_column(String(128))
    play_token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    meta: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_seen_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    timeouts_in_row: Mapped[int] = mapped_column(Integer, default=0)
    taken_over: Mapped[bool] = mapped_column(Boolean, default=False)
    # Rating evidence (issue 26), kept in competitive matches: the seat sent a command that moved the match; it
    # conceded.
    acted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    conceded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    client: Mapped[str | None] = mapped_column(String(64))  # a guest seat's client digest: one guest seat per client

    # `is_reference` computed by the database, for lists that do not load `meta` (`matches.seats_of`); else None.
    listed_reference: Mapped[bool | None] = query_expression()

    @property
    def is_reference(self) -> bool:
        """A reference seat (a tournament's or a benchmark's): no agent, the platform's frozen bot played it from
        the deal on, in a persona with seeded dice — an official bot's seat, not a guest's."""
        if self.listed_reference is not None:
            return bool(self.listed_reference)
        meta = self.meta or {}
        return self.agent_id is None and bool(meta.get("persona")) and bool(meta.get("dice"))


class Event(Base):
    """One entry of a match's log: contiguous `seq`, a `visibility`, the flat event body."""

    __tablename__ = "events"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.match_id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(48))
    visibility: Mapped[str] = mapped_column(String(48))
    body: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class AgentRating(Base):
    """An agent's rating in one game; `conservative` (μ − 3σ) is what the ladder sorts by."""

    __tablename__ = "agent_ratings"
    __table_args__ = (Index("ix_agent_ratings_game_conservative", "game", "conservative"),)

    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.agent_id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    conservative: Mapped[float] = mapped_column(Float)


class RatingAnchor(Base):
    """The side anchor of one (game, role composition, side): how much the deal favours that side."""

    __tablename__ = "rating_anchors"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    composition: Mapped[str] = mapped_column(String(128), primary_key=True)
    side: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatingChange(Base):
    """One seat of one rated match: the side, the result and the rating before and after."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_agent_game", "agent_id", "game", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.match_id", ondelete="CASCADE"))
    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.agent_id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    side: Mapped[str] = mapped_column(String(32))
    won: Mapped[bool] = mapped_column(Boolean)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class IdempotentRequest(Base):
    """A POST sent with `Idempotency-Key`: its fingerprint and, once answered, the answer to replay for 24 h.

    `status` is NULL while the first request runs (the row is the claim: the primary key lets one request in)."""

    __tablename__ = "idempotency_keys"

    scope: Mapped[str] = mapped_column(String(80), primary_key=True)
    idem_key: Mapped[str] = mapped_column(String(128), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    status: Mapped[int | None] = mapped_column(Integer)
    response: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


class Webhook(Base):
    """An agent's webhook: where to POST which events. The signing secret is stored sealed (Fernet, a key derived
    from the server secret), because signing needs it back; it is shown in clear once, at registration."""

    __tablename__ = "webhooks"

    webhook_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.agent_id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(String(2048))
    events: Mapped[list[str]] = mapped_column(JSONType)
    secret_sealed: Mapped[str] = mapped_column(String(255))
    secret_prefix: Mapped[str] = mapped_column(String(16))
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    disabled_reason: Mapped[str | None] = mapped_column(String(255))
    failing_since: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_status: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(String(500))
    last_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_success_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class WebhookDelivery(Base):
    """One event queued for one webhook: the outbox a restart cannot lose. `next_attempt_at` (epoch seconds) is
    both the retry schedule and the lease of a sender that claimed it."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),)

    delivery_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    webhook_id: Mapped[str] = mapped_column(ForeignKey("webhooks.webhook_id", ondelete="CASCADE"), index=True)
    event: Mapped[str] = mapped_column(String(32))
    body: Mapped[dict[str, Any]] = mapped_column(JSONType)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float | None] = mapped_column(Float)
    last_status: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Decision(Base):
    """One decision of a seat: its view then (`you`, the roles it held, the log's `seq`), what it sent, what came
    back and the usage it reported. `by` is `agent` (the seat's holder) or `bot` (the official brain playing it);
    `outcome` is `accepted`, `refused` or `timeout` (its clock ran out: nothing was sent)."""

    __tablename__ = "decisions"
    __table_args__ = (Index("ix_decisions_match_seat", "match_id", "seat", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.match_id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    agent_id: Mapped[str | None] = mapped_column(String(16))
    by: Mapped[str] = mapped_column(String(8))
    outcome: Mapped[str] = mapped_column(String(16))
    due: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # the seat had to act then
    at_seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)
    roles: Mapped[list[str]] = mapped_column(JSONType)
    you: Mapped[dict[str, Any]] = mapped_column(JSONType)
    sent: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    reply: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    usage: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    input_tokens: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    output_tokens: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    cost_usd: Mapped[float | None] = mapped_column(Float)


class Benchmark(Base):
    """A benchmark run: an agent's planned games against a frozen reference pool, and (once ended) its report."""

    __tablename__ = "benchmarks"
    __table_args__ = (Index("ix_benchmarks_agent", "agent_id", "created_at"),)

    benchmark_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.agent_id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    games: Mapped[int] = mapped_column(Integer)
    pool: Mapped[str] = mapped_column(String(32))
    config: Mapped[dict[str, Any]] = mapped_column(JSONType)
    plan: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    status: Mapped[str] = mapped_column(String(16))
    ended_reason: Mapped[str | None] = mapped_column(String(64))
    played: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    report: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class BenchmarkGame(Base):
    """One match of a run: game `idx` of the plan, played by the agent (`kind` `agent`) or by the reference in the
    agent's seat (`reference`: the duplicate baseline of the same deal)."""

    __tablename__ = "benchmark_games"

    benchmark_id: Mapped[str] = mapped_column(ForeignKey("benchmarks.benchmark_id", ondelete="CASCADE"),
                                              primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.match_id", ondelete="CASCADE"), unique=True)


class SpectatorGuess(Base):
    """A logged-in spectator's guess of a live match's hidden seats in one round (`round`: the number the phase
    ends with, 0 when none); re-sent in the same round it replaces the earlier one. `hits`/`misses` are set when the
    match ends (the seats named that were / were not on a hidden side)."""

    __tablename__ = "spectator_guesses"
    __table_args__ = (UniqueConstraint("match_id", "owner_id", "round", name="uq_guesses_match_owner_round"),
                      Index("ix_guesses_owner", "owner_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.match_id", ondelete="CASCADE"))
    owner_id: Mapped[str] = mapped_column(ForeignKey("owners.owner_id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[int]] = mapped_column(JSONType)
    made_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    hits: Mapped[int | None] = mapped_column(Integer)
    misses: Mapped[int | None] = mapped_column(Integer)


class Tournament(Base):
    """A scheduled event (issue 31): agents enter until entry closes, the server seats round after round at `due`
    (the same due-time machinery as match timers), and the standings are computed from the tables' results."""

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_status", "status", "starts_at"),)

    tournament_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(128))
    game: Mapped[str] = mapped_column(String(32))
    format: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int] = mapped_column(Integer)
    config: Mapped[dict[str, Any]] = mapped_column(JSONType)
    max_entrants: Mapped[int] = mapped_column(Integer)
    per_owner: Mapped[int] = mapped_column(Integer, default=1)
    round_break: Mapped[int] = mapped_column(Integer, default=0)
    opponents: Mapped[list[str] | None] = mapped_column(JSONType)  # reference personas for empty seats (None: all)
    seed: Mapped[int] = mapped_column(BigInteger)
    created_by: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    round: Mapped[int] = mapped_column(Integer, default=0)
    due: Mapped[float | None] = mapped_column(Float, index=True)
    ended_reason: Mapped[str | None] = mapped_column(String(64))
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    entry_closes_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class TournamentEntry(Base):
    """An agent entered in an event (`number`: its place in the order of entry; `withdrawn_at`: it left, keeping
    its past results)."""

    __tablename__ = "tournament_entries"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.tournament_id", ondelete="CASCADE"),
                                               primary_key=True)
    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.agent_id", ondelete="CASCADE"), primary_key=True)
    owner_id: Mapped[str | None] = mapped_column(String(16))
    number: Mapped[int] = mapped_column(Integer)
    entered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class TournamentTable(Base):
    """Table `idx` of round `round`: its match, who sits where (`seats`: entrants and the reference players that
    filled the empty seats), and once the match has ended what it means for each entrant (`result`)."""

    __tablename__ = "tournament_tables"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.tournament_id", ondelete="CASCADE"),
                                               primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.match_id", ondelete="CASCADE"), unique=True)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    recorded_at: Mapped[float | None] = mapped_column(Float)
