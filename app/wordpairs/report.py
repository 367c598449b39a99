"""Per word pair: finished matches and the undercover side's win rate, and the pairs outside the band."""

from __future__ import annotations

from app.db import matches as repo
from app.db.database import Database
from app.games.undercover.fairness import BAND_HIGH, BAND_LOW, MIN_GAMES, PairRecord, records


async def pair_records(db: Database) -> list[PairRecord]:
    async with db.reader() as session:
        finished = await repo.finished_content(session, "undercover")
    return records((content, (result or {}).get("winner_camp")) for content, result in finished)


def render(rows: list[PairRecord], *, everything: bool = False) -> str:
    """The report: the out-of-band pairs (or every pair), one line each."""
    shown = rows if everything else [r for r in rows if r.out_of_band]
    head = (f"pairs with >= {MIN_GAMES} finished matches whose undercover win rate lies outside "
            f"[{BAND_LOW:.0%}, {BAND_HIGH:.0%}]: {sum(r.out_of_band for r in rows)} of {len(rows)} pairs played")
    lines = [f"{r.key:<24} games {r.games:>5}  undercover wins {r.undercover_win_rate:6.1%}"
             f"{'  OUT OF BAND' if r.out_of_band else ''}" for r in shown]
    return "\n".join([head, *lines])
