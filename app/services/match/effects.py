"""A stored command's side effects, registered in one place.

Every write to a match ends the same way (`matches._store`): the rules have applied (and any taken-over seat has
moved) and the match row is updated in memory; then each handler of `IN_TRANSACTION` runs in order inside the
transaction (before the row and the events are written, so a handler may still set a column of the row), and once
it has committed each handler of `AFTER_COMMIT` whose `when` holds. A new side effect is
one function and one line below; no command changes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match
from app.protocol.registry import Game
from app.protocol.viewer import TERMINAL
from app.services.delivery import hook_events
from app.services.match import match_cache
from app.services.match.shell import Shell
from app.services.platform import metrics
from app.services.rating import ratings, stats


@dataclass
class Stored:
    """What one transaction wrote to one match: what the handlers see."""

    shell: Shell
    session: AsyncSession
    match: Match
    game: Game
    before: Any | None  # the state the command started from (None: a match opened already dealt)
    before_status: str
    state: Any
    events: list[dict[str, Any]]
    now: float
    seats_changed: bool = False  # a taken seat changed (its play token, say): other processes drop their copy
    webhooks: int = 0  # deliveries staged by this transaction

    @property
    def ended(self) -> bool:
        """This transaction ended the match."""
        return self.before_status not in TERMINAL and self.match.status in TERMINAL


async def _record_end(s: Stored) -> None:
    if s.ended:  # statistics and ratings; sets `match.rated` and `match.pairing`
        await stats.record_end(s.session, s.match, s.game, s.state, ratings.Rules.of(s.shell.settings))


async def _stage_wakeup(s: Stored) -> None:
    notifier = s.shell.notifier
    carry = match_cache.carry(s.match, s.events, seats_changed=s.seats_changed) if notifier.carries else None
    await notifier.stage(s.session, s.match.match_id, s.events[-1]["seq"], s.match.timer_due, carry)


async def _stage_webhooks(s: Stored) -> None:
    s.webhooks = await hook_events.stage(s.session, s.shell, s.match, s.game, s.before, s.before_status, s.state,
                                         s.now)


def _count_end(s: Stored) -> None:
    metrics.match_ended(s.match.game, s.match.status)


def _after_the_end(s: Stored) -> None:  # afterwords, benchmark and tournament progress
    s.shell.match_ended(s.match.match_id)


CONCEDED = "player_conceded"  # the protocol's event of a concession (spec §2.8), in every game


def _after_a_concession(s: Stored) -> None:  # a benchmark run whose agent left stops
    s.shell.seat_left(s.match.match_id)


def _conceded(s: Stored) -> bool:
    return not s.ended and any(e["type"] == CONCEDED for e in s.events)


def _wake_sender(s: Stored) -> None:  # the sender could not see the deliveries before the commit
    s.shell.webhooks_due()


@dataclass(frozen=True)
class AfterCommit:
    when: Callable[[Stored], bool]
    run: Callable[[Stored], None]


IN_TRANSACTION: tuple[Callable[[Stored], Awaitable[None]], ...] = (_record_end, _stage_wakeup, _stage_webhooks)
AFTER_COMMIT: tuple[AfterCommit, ...] = (
    AfterCommit(lambda s: s.ended, _count_end),
    AfterCommit(lambda s: s.ended, _after_the_end),
    AfterCommit(_conceded, _after_a_concession),
    AfterCommit(lambda s: s.webhooks > 0, _wake_sender),
)


async def run(stored: Stored) -> None:
    """Run the in-transaction handlers now and arrange the after-commit ones (only if any applies: a listener
    costs a little on every command otherwise)."""
    for handler in IN_TRANSACTION:
        await handler(stored)
    due = [h.run for h in AFTER_COMMIT if h.when(stored)]
    if due:
        event.listen(stored.session.sync_session, "after_commit", lambda _s: [handler(stored) for handler in due],
                     once=True)
