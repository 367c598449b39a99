"""Ratings when a match ends (issue 19): decide whether it is rated, then move the seated agents' ratings and the
composition's side anchors with the pure model of `app.ratings.model`. The same `apply` replays every rated match
for `python -m app.ratings rebuild`, so live and rebuilt ratings are the same numbers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as agents_repo
from app.db import ratings as repo
from app.db.models import Agent, AgentRating, Match, RatingAnchor, RatingChange, Seat
from app.protocol.registry import AnyGame
from app.ratings.eligibility import SeatFacts, owner_identities, seats_matter, unrated_reason
from app.ratings.model import PROVISIONAL_UNDER, SeatResult, Skill, composition, default_anchors, rate, wilson
from app.settings import Settings


@dataclass(frozen=True)
class Rules:
    """The operator's part of the rule: the providers whose owner claims count, and the repeat window."""

    trusted: frozenset[str]
    repeat_window: timedelta

    @classmethod
    def of(cls, settings: Settings) -> Rules:
        return cls(settings.provider_allowlist_set, timedelta(hours=settings.rating_repeat_window_hours))


def competitive(config: Mapping[str, Any]) -> bool:
    """Spec §7.3's `config.compete_mode`: the protocol-level switch that makes a match rated."""
    return config.get("compete_mode") is True


async def record(session: AsyncSession, match: Match, game: AnyGame, state: object, seats: Sequence[Seat],
                 rules: Rules) -> None:
    """Call once, in the transaction that ended the match: sets `match.rated` and, if rated, applies it."""
    sides = game.seat_sides(state) if competitive(match.config) else {}
    await judge(session, match, sides, seats, rules)
    if match.rated:
        await apply(session, match, game.name, sides, seats)


async def judge(session: AsyncSession, match: Match, sides: Mapping[int, str], seats: Sequence[Seat],
                rules: Rules) -> str | None:
    """Decide whether the finished `match` is rated (`app.ratings.eligibility`, then the repeat window over the
    rated matches before it); sets `match.rated` and `match.pairing`, returns why not (None: rated). The live end
    and `rebuild` both call this, so they apply one rule."""
    facts: list[SeatFacts] = []
    if seats_matter(match.status, competitive(match.config)):  # a casual match is unrated whoever sat: no reads
        agents = await agents_repo.by_ids(session, [s.agent_id for s in seats if s.agent_id])
        facts = [_facts(seat, agents.get(seat.agent_id or ""), match.finished_at, rules.trusted) for seat in seats]
    verdict = unrated_reason(status=match.status, competitive=competitive(match.config), seats=facts,
                             sides=[s.seat for s in seats if s.seat in sides])
    reason = verdict.reason if match.result or verdict.reason else "no_result"
    if reason is None and verdict.pairing and rules.repeat_window and match.finished_at is not None and \
            await repo.pairing_rated_since(session, match.game, verdict.pairing,
                                           match.finished_at - rules.repeat_window, match.match_id):
        reason = "repeat_pairing"
    match.rated, match.pairing = reason is None, verdict.pairing
    return reason


def _facts(seat: Seat, agent: Agent | None, finished_at: datetime | None, trusted: frozenset[str]) -> SeatFacts:
    meta = seat.meta or {}
    claimed = agent is not None and agent.claimed_at is not None and (
        finished_at is None or agent.claimed_at <= finished_at)
    owners = owner_identities(agent.owner_id if agent else None, claimed, meta.get("provider_id"),
                              (meta.get("proxy_agent_meta") or {}).get("owner_id"), trusted)
    if seat.is_reference:  # as an official bot plays its own seat: no guest, and no takeover
        return SeatFacts(None, True, frozenset(), False, acted=bool(seat.acted), conceded=bool(seat.conceded))
    return SeatFacts(seat.agent_id, bool(agent and agent.is_official), owners, seat.taken_over,
                     bool(agent and agent.is_human), bool(seat.acted), bool(seat.conceded))


async def record_acts(session: AsyncSession, match: Match, acted: Sequence[int]) -> None:
    """The evidence the rule reads at the end, kept in competitive matches only: these seats sent a command that
    moved the match (a concession is marked for every match: `matches.mark_conceded`)."""
    if competitive(match.config) and acted:
        await session.execute(update(Seat).where(Seat.match_id == match.match_id, Seat.seat.in_(sorted(set(acted))),
                                                 Seat.acted.is_(False)).values(acted=True))


REFERENCE = "reference:"  # a reference seat's place in the model: a fixed, default skill, never stored


def seat_results(match: Match, sides: Mapping[int, str], seats: Sequence[Seat]) -> list[SeatResult]:
    winners = set((match.result or {}).get("winning_seats") or ())
    return [SeatResult(f"{REFERENCE}{s.seat}" if s.is_reference else str(s.agent_id), sides[s.seat],
                       s.seat in winners) for s in seats]


async def apply(session: AsyncSession, match: Match, game: str, sides: Mapping[int, str],
                seats: Sequence[Seat]) -> None:
    """Rate one finished match: lock the seated agents' ratings and the composition's anchors, update both, and
    write one history row per seat."""
    results = seat_results(match, sides, seats)
    key = composition(match.n_players, results)
    agent_ids = sorted({r.agent_id for r in results if not r.agent_id.startswith(REFERENCE)})
    await repo.ensure(session, [_rating_row(a, game, Skill(), 0) for a in agent_ids])
    await repo.ensure(session, [RatingAnchor(game=game, composition=key, side=side, mu=s.mu, sigma=s.sigma, games=0)
                                for side, s in sorted(default_anchors(results).items())])
    rows = await repo.ratings(session, game, agent_ids, lock=True)
    anchor_rows = await repo.anchors(session, game, key, lock=True)
    before = {a: Skill(row.mu, row.sigma) for a, row in rows.items()}
    outcome = rate(results, before, {side: Skill(row.mu, row.sigma) for side, row in anchor_rows.items()})
    for result in results:
        if result.agent_id.startswith(REFERENCE):
            continue  # the frozen reference plays at the default skill every time: nothing of it is kept
        row, old, new = rows[result.agent_id], before[result.agent_id], outcome.agents[result.agent_id]
        row.mu, row.sigma, row.conservative, row.games = new.mu, new.sigma, new.conservative, row.games + 1
        session.add(RatingChange(match_id=match.match_id, agent_id=result.agent_id, game=game, side=result.side,
                                 won=result.won, mu_before=old.mu, sigma_before=old.sigma, mu_after=new.mu,
                                 sigma_after=new.sigma, created_at=match.finished_at))
    for side, skill in outcome.anchors.items():
        anchor = anchor_rows[side]
        anchor.mu, anchor.sigma, anchor.games = skill.mu, skill.sigma, anchor.games + 1
    await session.flush()


def _rating_row(agent_id: str, game: str, skill: Skill, games: int) -> AgentRating:
    return AgentRating(agent_id=agent_id, game=game, mu=skill.mu, sigma=skill.sigma, games=games,
                       conservative=skill.conservative)


def rating_fields(row: AgentRating | None) -> dict[str, Any]:
    """The public rating of one agent in one game (a new agent: the model's prior, provisional)."""
    skill = Skill(row.mu, row.sigma) if row else Skill()
    games = row.games if row else 0
    return {"rating": round(skill.conservative, 2), "mu": round(skill.mu, 3), "sigma": round(skill.sigma, 3),
            "rated_games": games, "provisional": games < PROVISIONAL_UNDER}


def side_record(games: int, wins: int) -> dict[str, Any]:
    """One side's record with its win rate and 95 % Wilson interval."""
    interval = wilson(wins, games)
    return {"games": games, "wins": wins, "win_rate": round(wins / games, 3) if games else None,
            "interval": [round(interval[0], 3), round(interval[1], 3)] if interval else None}


def history_entry(change: RatingChange) -> dict[str, Any]:
    return {"match_id": change.match_id, "side": change.side, "result": "win" if change.won else "loss",
            "rating_before": round(Skill(change.mu_before, change.sigma_before).conservative, 2),
            "rating_after": round(Skill(change.mu_after, change.sigma_after).conservative, 2),
            "mu_before": round(change.mu_before, 3), "mu_after": round(change.mu_after, 3),
            "at": change.created_at.isoformat() if change.created_at else None}
