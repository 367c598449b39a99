"""After the end: the optional rephrasing of a finished match's public text by an outside writer (the operator's
LLM, `WODI_LLM_BASE_URL`), recorded through the game's `registry.Rewrites` seam.

It never holds the match's writer while the writer thinks: the source is read outside any transaction, the writer
is awaited with no lock held, and only its answer goes through the match's queue (`matches.record_rewrite`), where
the game checks it against the record. No writer, no source (a room that did not ask for it), a writer that fails,
times out or answers something the game refuses: the record stays as the rules wrote it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.db import matches as repo
from app.protocol import registry
from app.services.match import matches
from app.services.match.shell import Shell
from app.services.platform.background import Background

log = logging.getLogger("wodi.afterword")

Writer = Callable[[str, dict[str, Any]], Awaitable[Any]]
"""`writer(game_name, source)`: the proposal for `Rewrites.rewrite`, or None."""


async def rewrite(shell: Shell, match_id: str, writer: Writer, budget: float) -> bool:
    """Ask `writer` (within `budget` seconds) to rephrase the ended match's source; True when it was recorded."""
    async with shell.db.reader() as session:
        match = await repo.get(session, match_id)
    game = registry.get(match.game) if match is not None else None
    if match is None or not isinstance(game, registry.Rewrites):
        return False
    source = game.rewrite_source(game.state_from_json(match.state))
    if source is None:
        return False
    try:
        proposal = await asyncio.wait_for(writer(game.name, source), timeout=budget)
    except TimeoutError:
        log.info("match %s: no rewrite within %.1fs, the rule text stays", match_id, budget)
        return False
    except Exception as exc:  # noqa: BLE001 - any failure of the writer: the rule text stays
        log.info("match %s: rewrite failed (%s: %s), the rule text stays", match_id, type(exc).__name__, exc)
        return False
    if proposal is None:
        return False
    return await matches.record_rewrite(shell, match_id, proposal)


class Afterwords(Background):
    """The after-the-end tasks of one process (none when no writer is configured)."""

    def __init__(self, shell: Shell, writer: Writer | None, budget: float) -> None:
        super().__init__()
        self.shell = shell
        self.writer = writer
        self.budget = budget

    def ended(self, match_id: str) -> None:
        if self.writer is not None:
            self.spawn(self._run(match_id), f"wodi-afterword-{match_id}")

    async def _run(self, match_id: str) -> bool:
        assert self.writer is not None
        try:
            return await rewrite(self.shell, match_id, self.writer, self.budget)
        except Exception:  # a background task: log, never raise into the loop
            log.exception("match %s: afterword failed", match_id)
            return False

    async def stop(self) -> None:
        await super().stop()
        if self.writer is not None and hasattr(self.writer, "aclose"):
            await self.writer.aclose()
