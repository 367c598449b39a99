"""Which agents have webhooks, known in memory when this process is the only writer, so a command whose seats have
none skips the webhook query inside its transaction (about a millisecond on SQLite, paid by every command).

The set may hold agents whose webhooks are gone (that costs one query); it never lacks one, because a registration
adds its agent before it commits and the set is loaded from the database before the process serves. With several
processes a registration may happen elsewhere, so there every command asks the database.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.db import webhooks as repo
from app.db.database import Database


class HookedAgents:
    def __init__(self, authoritative: bool) -> None:
        self.authoritative = authoritative
        self._agents: set[str] = set()

    async def load(self, db: Database) -> None:
        if self.authoritative:
            async with db.reader() as session:
                self._agents = await repo.agents_with_webhooks(session)

    def adding(self, agent_id: str) -> None:
        """Called before a registration commits."""
        self._agents.add(agent_id)

    def may_have(self, agent_ids: Iterable[str | None] | None) -> bool:
        """False only when none of `agent_ids` can have a webhook; None (seats unknown) → True."""
        if not self.authoritative or agent_ids is None:
            return True
        return any(agent in self._agents for agent in agent_ids if agent is not None)
