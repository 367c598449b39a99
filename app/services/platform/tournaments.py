"""Tournaments (issue 31; `docs/agents/tournaments.md`): scheduled Swiss, round-robin and gauntlet events for agents.

An event is created for a time (`starts_at`); agents enter until entry closes. From then on the event moves only
in `step`, under its row's lock (`FOR UPDATE SKIP LOCKED`): it records the tables whose matches have ended, and
when a round is over (and its break has passed) seats the next one — every table's match opened in the same
transaction, so a round starts once, whichever process gets there. `step` runs when the scheduler finds the
event's `due` time reached (the due-time machinery of match timers: `app.services.match.scheduler`), right after one of
its matches ends (`TournamentRunner.ended`), and for every live event at start-up; while a round runs, `due` is a
watch a few seconds ahead, so an end nobody reported (a process killed at the wrong moment) is still seen.

Tables are seated by `tournament_pairing`, standings computed by `tournament_standings` from the recorded results
alone. Empty seats are taken by the frozen reference pool (`reference_pool`), marked as such.
"""

from __future__ import annotations

import logging
import math
import random
import secrets
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import matches as match_repo
from app.db import tournaments as repo
from app.db import webhooks as webhooks_repo
from app.db.models import Agent, Match, Tournament, TournamentEntry, TournamentTable
from app.protocol import registry
from app.protocol.errors import ApiError
from app.protocol.viewer import TERMINAL
from app.services.delivery import hook_events
from app.services.identity.owners import check_not_suspended
from app.services.match.matches import Applied
from app.services.match.seeded_matches import SeatSpec, open_in, published
from app.services.match.shell import Shell
from app.services.platform import tournament_pairing as pairing
from app.services.platform.background import Background
from app.services.platform.benchmarks import _config, _game
from app.services.platform.reference_pool import CURRENT, ReferencePool, pool
from app.services.platform.seat_plan import dealt_sides
from app.services.platform.tournament_standings import Game, standings

log = logging.getLogger("wodi.tournaments")
WATCH = 10.0  # seconds between checks of a running round (a safety net; match ends move the event at once)
RESEAT = 1.0  # seconds before a round whose seating met a locked entrant row is seated again
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for FOR UPDATE NOWAIT meeting a held row
MAX_ROUNDS, MAX_ENTRANTS, MAX_PER_OWNER, MAX_BREAK = 50, 256, 8, 3600
MAX_AHEAD = timedelta(days=60)
READY = "tournament_table_ready"
Wake = Callable[[float | None], None]


def _ts(at: datetime) -> float:
    return at.replace(tzinfo=at.tzinfo or UTC).timestamp()


PAST_GRACE = 60.0  # seconds: a start a client computed as "now" a moment ago is not refused


def _when(raw: object, name: str, now: float) -> datetime:
    if not isinstance(raw, str):
        raise ApiError("invalid_config", f"{name} must be an ISO-8601 date and time", field=name)
    try:
        at = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise ApiError("invalid_config", f"{name} must be an ISO-8601 date and time, not {raw!r}",
                       field=name) from None
    at = at if at.tzinfo else at.replace(tzinfo=UTC)
    if at.timestamp() > now + MAX_AHEAD.total_seconds():
        raise ApiError("invalid_config", f"{name} may be at most {MAX_AHEAD.days} days ahead", field=name)
    return at.astimezone(UTC)


def _int(body: Mapping[str, Any], name: str, low: int, high: int, default: int | None) -> int | None:
    raw = body.get(name, default)
    if raw is None:
        return None
    if type(raw) is not int or not low <= raw <= high:
        raise ApiError("invalid_config", f"{name} must be an integer from {low} to {high}", field=name)
    return raw


def _reference_personas(chosen: list[str] | None, reference: ReferencePool, seats: list[int], turn: int) \
        -> dict[int, str]:
    """Seat → persona for a table's reference seats: the event's `opponents` (else the pool's personas) in turn,
    counted over the reference seats, so a table repeats a persona only when it has more reference seats than there
    are personas to choose from."""
    choice = chosen or list(reference.personas)
    return {seat: choice[(k + turn) % len(choice)] for k, seat in enumerate(seats)}


def _opponents(raw: object) -> list[str] | None:
    """The reference personas that fill empty seats (a gauntlet's chosen set); None: the whole pool."""
    if raw is None:
        return None
    known = pool(CURRENT).personas
    if not isinstance(raw, list) or not raw or not all(isinstance(p, str) and p in known for p in raw):
        raise ApiError("invalid_config", f"opponents must be a non-empty list of the reference pool's personas: "
                       f"{', '.join(known)}", field="opponents")
    return list(dict.fromkeys(raw))


def minimum(fmt: str) -> int:
    """Entrants an event needs to start (fewer: it is cancelled at its start)."""
    return 1 if fmt == pairing.GAUNTLET else 2


async def create(shell: Shell, created_by: str, body: Mapping[str, Any]) -> str:
    """Validate and store a new event; returns its id."""
    game = _game(body.get("game"))
    fmt = body.get("format")
    if fmt not in pairing.FORMATS:
        raise ApiError("invalid_config", f"format must be one of {', '.join(pairing.FORMATS)}", field="format")
    config_json = _config(game, body.get("config"))
    now = shell.clock()
    starts = _when(body.get("starts_at"), "starts_at", now)
    if starts.timestamp() < now - PAST_GRACE:
        raise ApiError("invalid_config", "starts_at is in the past: nobody could enter", field="starts_at")
    closes = _when(body["entry_closes_at"], "entry_closes_at", now) if body.get("entry_closes_at") else starts
    if closes > starts:
        raise ApiError("invalid_config", "entry_closes_at must not be after starts_at", field="entry_closes_at")
    rounds = _int(body, "rounds", 1, MAX_ROUNDS, None if fmt == pairing.ROUND_ROBIN else 3)
    max_entrants = _int(body, "max_entrants", minimum(fmt), MAX_ENTRANTS, 64)
    per_owner = _int(body, "entrants_per_owner", 1, MAX_PER_OWNER, 1)
    round_break = _int(body, "round_break", 0, MAX_BREAK, 0)
    seed = _int(body, "seed", 0, 2**31 - 1, secrets.randbits(31))
    opponents = _opponents(body.get("opponents"))
    name = str(body.get("name") or f"{game.name} {fmt}").strip()[:128]
    tournament_id = "tn_" + secrets.token_hex(6)
    async with shell.db.writer() as session:
        if created_by != "operator":
            await check_not_suspended(session, created_by)
        session.add(Tournament(
            tournament_id=tournament_id, name=name, game=game.name, format=fmt, rounds=rounds or 0,
            config=config_json, max_entrants=max_entrants, per_owner=per_owner, round_break=round_break,
            opponents=opponents, seed=seed,
            created_by=created_by, status=repo.ENTRY, round=0, due=starts.timestamp(), starts_at=starts,
            entry_closes_at=closes, created_at=datetime.fromtimestamp(now, UTC)))
    return tournament_id


async def enter(shell: Shell, tournament_id: str, agent: Agent) -> None:
    """Enter `agent` (its Bearer key) while entry is open."""
    now = shell.clock()
    async with shell.db.writer() as session:
        event_row = await repo.get(session, tournament_id, lock=True)
        if event_row is None:
            raise ApiError("tournament_not_found", f"no tournament {tournament_id!r}")
        if event_row.status != repo.ENTRY or now >= _ts(event_row.entry_closes_at):
            raise ApiError("entry_closed", "entry to this event has closed", tournament_id=tournament_id)
        rows = await repo.entries(session, tournament_id)
        mine = next((e for e in rows if e.agent_id == agent.agent_id), None)
        if mine is not None and mine.withdrawn_at is None:
            raise ApiError("already_entered", "this agent has already entered the event")
        active = [e for e in rows if e.withdrawn_at is None]
        if len(active) >= event_row.max_entrants:
            raise ApiError("tournament_full", f"the event is full ({event_row.max_entrants} entrants)",
                           max_entrants=event_row.max_entrants)
        if agent.owner_id is not None and sum(e.owner_id == agent.owner_id for e in active) >= event_row.per_owner:
            raise ApiError("owner_entry_limit", f"this event takes {event_row.per_owner} agent(s) per owner, and "
                           "your owner has entered that many", entrants_per_owner=event_row.per_owner)
        at = datetime.fromtimestamp(now, UTC)
        if mine is not None:
            mine.withdrawn_at, mine.entered_at = None, at
        else:
            session.add(TournamentEntry(tournament_id=tournament_id, agent_id=agent.agent_id,
                                        owner_id=agent.owner_id, number=len(rows) + 1, entered_at=at))


async def withdraw(shell: Shell, tournament_id: str, agent: Agent) -> None:
    """Leave the event: no later round seats the agent; its past results stay (a table it sits at plays on)."""
    async with shell.db.writer() as session:
        event_row = await repo.get(session, tournament_id, lock=True)
        if event_row is None:
            raise ApiError("tournament_not_found", f"no tournament {tournament_id!r}")
        mine = await repo.entry(session, tournament_id, agent.agent_id)
        if mine is None or mine.withdrawn_at is not None:
            raise ApiError("not_entered", "this agent is not entered in the event")
        if event_row.status not in repo.LIVE:  # its standings are final
            raise ApiError("entry_closed", f"the event is {event_row.status}: its standings are final",
                           tournament_id=tournament_id)
        mine.withdrawn_at = datetime.fromtimestamp(shell.clock(), UTC)


def games_of(tables: Sequence[TournamentTable]) -> list[Game]:
    """Every seat of every table with a result (tables that ended without one count for nobody)."""
    return [Game((t.round, t.idx), s["agent_id"], s["side"], bool(s["won"]), bool(s["forfeit"]))
            for t in tables if t.result and t.result.get("status") == "finished" for s in t.result["seats"]]


def ranking(entries: Sequence[TournamentEntry], tables: Sequence[TournamentTable]) -> list[dict[str, Any]]:
    """The standings rows (`tournament_standings.standings`) of every entrant, withdrawn ones included."""
    return standings([e.agent_id for e in entries], games_of(tables))


async def _record(session: AsyncSession, game: registry.AnyGame, tables: Sequence[TournamentTable],
                  now: float) -> int:
    """Write the result of every table whose match has ended; returns how many."""
    waiting = [t for t in tables if t.result is None]
    recorded = 0
    for table in waiting:
        match = await match_repo.get(session, table.match_id)
        if match is None or match.status not in TERMINAL:
            continue
        seats = {s.seat: s for s in await match_repo.seats(session, table.match_id)}
        sides = game.seat_sides(game.state_from_json(match.state))
        winners = set((match.result or {}).get("winning_seats") or ())
        planned = {s["seat"]: s for s in table.seats}
        table.result = {"status": "finished" if match.status == "finished" and match.result else match.status,
                        "seats": [{"seat": seat, "agent_id": planned[seat]["agent_id"],
                                   "side": sides.get(seat, planned[seat]["side"]), "won": seat in winners,
                                   "forfeit": bool(planned[seat]["agent_id"] and seats[seat].taken_over)}
                                  for seat in sorted(planned)]}
        table.recorded_at = now
        recorded += 1
    return recorded


def _finish(event_row: Tournament, now: float, reason: str | None = None) -> None:
    event_row.status = repo.CANCELLED if reason else repo.FINISHED
    event_row.ended_reason = reason
    event_row.due = None
    event_row.finished_at = datetime.fromtimestamp(now, UTC)


def default_rounds(fmt: str, entrants: int, seats: int, shares: Mapping[str, int]) -> int:
    """Round-robin without `rounds`: at least the rounds it takes every entrant to meet every other — each meets
    at most `at_table - 1` others a round, and the round's tables hold so many pairs — and to be seated on every
    side (as far as the tables' seats of that side allow)."""
    sizes = pairing.table_sizes(entrants, seats, fmt)
    at_table = max(sizes) if sizes else 1
    pairs_a_round = sum(math.comb(size, 2) for size in sizes)
    meet = max(math.ceil((entrants - 1) / max(at_table - 1, 1)),
               math.ceil(math.comb(entrants, 2) / pairs_a_round) if pairs_a_round else 1)
    side = max((math.ceil(entrants / (len(sizes) * min(shares[s], at_table))) for s in shares), default=1)
    return max(1, min(MAX_ROUNDS, max(meet, side)))


def _entrants(entries: Sequence[TournamentEntry], tables: Sequence[TournamentTable]) -> list[pairing.Entrant]:
    rows = {row["agent_id"]: row for row in ranking(entries, tables)}
    played: dict[str, Counter[str]] = defaultdict(Counter)
    for table in tables:  # the sides of live tables count too (they are already dealt); a forfeited seat does not
        for seat in table.seats:
            if seat["agent_id"] and not seat["reference"]:
                played[seat["agent_id"]][seat["side"]] += 1
    return [pairing.Entrant(e.agent_id, e.owner_id or e.agent_id, rows[e.agent_id]["score"],
                            dict(played[e.agent_id])) for e in entries if e.withdrawn_at is None]


def _met(tables: Sequence[TournamentTable]) -> dict[pairing.Pair, int]:
    met: dict[pairing.Pair, int] = defaultdict(int)
    for table in tables:
        keys = [s["agent_id"] for s in table.seats if s["agent_id"] and not s["reference"]]  # who sat there
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                met[frozenset((a, b))] += 1
    return met


def _deal_seed(event_row: Tournament, round_no: int, idx: int) -> int:
    return random.Random(f"{event_row.tournament_id}:{event_row.seed}:{round_no}:{idx}").getrandbits(31)


async def _seat_round(shell: Shell, session: AsyncSession, event_row: Tournament, entries: list[TournamentEntry],
                      tables: list[TournamentTable], now: float) -> list[Applied]:
    game = registry.get(event_row.game)
    assert game is not None
    config = game.parse_config(event_row.config)
    seats_n = game.n_players(config)
    round_no = event_row.round + 1
    shares = Counter(dealt_sides(game, config, _deal_seed(event_row, round_no, 0)).values())
    entrants = _entrants(entries, tables)
    if not entrants:
        _finish(event_row, now)
        return []
    if not event_row.rounds:
        event_row.rounds = default_rounds(event_row.format, len(entrants), seats_n, shares)
    rng = random.Random(f"{event_row.tournament_id}:{event_row.seed}:{round_no}")
    split = pairing.group(entrants, seats_n, event_row.format, _met(tables), shares, rng)
    # Locked as a join locks them, so an entrant sits down elsewhere either before (and forfeits) or after this
    # round; without waiting (`NOWAIT`: a lock held by a join or a timeout is retried by `step`), so the seating is
    # never one of two transactions waiting for each other's agent rows.
    agents = await repo.agents(session, [e.key for e in entrants], lock=True)
    away = await match_repo.busy(session, list(agents))
    reference = pool(CURRENT)
    opened: list[Applied] = []
    for idx, table in enumerate(split):
        deal = _deal_seed(event_row, round_no, idx)
        sides = dealt_sides(game, config, deal)
        placed = pairing.seat(table, sides, shares, random.Random(f"{deal}:reference-seats"))
        # The reference plays the empty seats, and the seat of an entrant sitting at another table (a forfeit).
        played = [s for s in range(seats_n) if s not in placed or placed[s].key in away]
        slugs = _reference_personas(event_row.opponents, reference, played, round_no + idx)
        shown = reference.display_names(slugs)
        specs, marks = [], []
        for seat in range(seats_n):
            entrant = placed.get(seat)
            if entrant is not None and entrant.key not in away:
                agent = agents[entrant.key]
                specs.append(SeatSpec(agent.name, agent.display_name or agent.name, agent=agent))
                marks.append({"seat": seat, "agent_id": agent.agent_id, "side": sides[seat], "reference": None})
            else:  # the entrant's own seat stays in the table's marks: its forfeit is scored (`_record`)
                slug = slugs[seat]
                specs.append(SeatSpec(f"ref-{slug}-{seat}", shown[seat], persona=slug,
                                      dice=f"{reference.version}:{deal}"))
                marks.append({"seat": seat, "agent_id": entrant.key if entrant else None, "side": sides[seat],
                              "reference": slug})

        async def link(session: AsyncSession, match: Match, idx: int = idx, marks: list[dict[str, Any]] = marks) \
                -> None:
            session.add(TournamentTable(tournament_id=event_row.tournament_id, round=round_no, idx=idx,
                                        match_id=match.match_id, seats=marks))

        opened.append(await open_in(shell, session, event_row.game, event_row.config, deal, specs, link))
    event_row.round = round_no
    event_row.due = now + WATCH
    await _announce(shell, session, event_row, opened, now)
    log.info("tournament %s: round %d seated (%d tables; %d entrants away, forfeited)", event_row.tournament_id,
             round_no, len(opened), len(away))
    return opened


async def _announce(shell: Shell, session: AsyncSession, event_row: Tournament, opened: Sequence[Applied],
                    now: float) -> None:
    """Queue `tournament_table_ready` for every seated entrant whose webhook takes it (same transaction)."""
    seated = {}
    for applied in opened:
        for seat in await match_repo.seats(session, applied.match.match_id):
            if seat.agent_id:
                seated[seat.agent_id] = (applied.match, seat.seat)
    if not shell.hooked.may_have(list(seated)):
        return
    settings = shell.settings
    rows = []
    for agent_id, webhook_id in await repo.hooks_for(session, list(seated), READY):
        match, seat_no = seated[agent_id]
        rows.append(hook_events.row(webhook_id, READY, {
            "tournament_id": event_row.tournament_id, "tournament_url": tournament_url(shell, event_row.tournament_id),
            "round": event_row.round, "match_id": match.match_id, "game": match.game, "seat": seat_no,
            "match_url": settings.match_url(match.match_id)}, now, None))
    if rows:
        await webhooks_repo.enqueue(session, rows)
        event.listen(session.sync_session, "after_commit", lambda _s: shell.webhooks_due(), once=True)


def tournament_url(shell: Shell, tournament_id: str) -> str:
    return f"{shell.settings.base_url}/tournament/{tournament_id}"


async def step(shell: Shell, tournament_id: str) -> float | None:
    """Move the event on as far as it can go now (see the module docstring); returns its next due time. Safe to
    call any time from any process: a held event is skipped (its holder moves it)."""
    try:
        return await _step(shell, tournament_id)
    except DBAPIError as error:
        if getattr(error.orig, "sqlstate", None) != LOCK_NOT_AVAILABLE:
            raise
        log.info("tournament %s: an entrant's row is locked (a join or a timeout); seating again in %.0f s",
                 tournament_id, RESEAT)
        return shell.clock() + RESEAT


async def _step(shell: Shell, tournament_id: str) -> float | None:
    opened: list[Applied] = []
    async with shell.db.writer() as session:
        event_row = await repo.get(session, tournament_id, lock=True, skip_locked=True)
        if event_row is None or event_row.status not in repo.LIVE:
            return None
        now = shell.clock()
        game = registry.get(event_row.game)
        if game is None:
            _finish(event_row, now, "game_not_installed")
            return None
        tables = await repo.tables(session, tournament_id)
        await _record(session, game, tables, now)
        entries = await repo.entries(session, tournament_id)
        if event_row.status == repo.ENTRY:
            if now < _ts(event_row.starts_at):
                event_row.due = _ts(event_row.starts_at)
            elif sum(e.withdrawn_at is None for e in entries) < minimum(event_row.format):
                _finish(event_row, now, "too_few_entrants")
            else:
                event_row.status = repo.RUNNING
                opened = await _seat_round(shell, session, event_row, entries, tables, now)
        else:
            current = [t for t in tables if t.round == event_row.round]
            if any(t.result is None for t in current):
                event_row.due = now + WATCH
            elif event_row.round >= event_row.rounds:
                _finish(event_row, now)
            else:
                start = max((t.recorded_at or now for t in current), default=now) + event_row.round_break
                if now < start:
                    event_row.due = start
                else:
                    opened = await _seat_round(shell, session, event_row, entries, tables, now)
        due = event_row.due
    for applied in opened:
        await published(shell, applied)
    return due


class TournamentRunner(Background):
    """Moves events on: when the scheduler finds one due (`fire`), when one of their matches ends (`ended`), and
    every live one at start-up."""

    def __init__(self, shell: Shell, wake: Wake) -> None:
        super().__init__()
        self.shell, self.wake = shell, wake

    async def fire(self, tournament_id: str) -> None:
        self.wake(await step(self.shell, tournament_id))

    def created(self, due: float) -> None:
        self.wake(due)

    def ended(self, match_id: str) -> None:
        self.spawn(self._after(match_id), f"wodi-tournament-{match_id}")

    async def _after(self, match_id: str) -> None:
        try:
            async with self.shell.db.reader() as session:
                link = await repo.of_match(session, match_id)
            if link is not None:
                await self.fire(link.tournament_id)
        except Exception:  # a background task: log, never raise into the loop
            log.exception("tournament after match %s failed", match_id)

    async def start(self) -> None:
        async with self.shell.db.reader() as session:
            live = await repo.live_ids(session)
        for tournament_id in live:
            try:
                await self.fire(tournament_id)
            except Exception:
                log.exception("resuming tournament %s failed", tournament_id)



def start_time(view: Mapping[str, Any]) -> float:
    return datetime.fromisoformat(str(view["starts_at"])).timestamp()
