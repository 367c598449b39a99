"""an agent's usage totals count only the matches in which it reported usage

A decision that reported no usage stores JSON `null` in `decisions.usage`, which SQL's `IS NOT NULL` and `COUNT`
count; so every finished match an agent played added one to its `usage_games` (and to `usage_wins` when it won),
usage or not. The code now asks for a value other than JSON `null`; this revision takes back what the old code
added for matches without any reported usage. Token and cost totals were right (such decisions add zero).

Revision ID: 0017_usage_games
Revises: 0016_aborted_phase
Create Date: 2026-12-07
"""
import json
from collections import Counter
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0017_usage_games'
down_revision: str | None = '0016_aborted_phase'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

REPORTED = "CASE WHEN d.usage IS NOT NULL AND CAST(d.usage AS TEXT) <> 'null' THEN 1 ELSE 0 END"
# Each (agent, match) the old code counted as a match with usage although no decision of it reported any: the
# agent's own decisions in a finished match that was not the showcase (`stats.record_end`).
UNREPORTED = sa.text(f"""
    SELECT d.agent_id, d.match_id FROM decisions d JOIN matches m ON m.match_id = d.match_id
    WHERE d.by = 'agent' AND d.agent_id IS NOT NULL AND m.status = 'finished' AND NOT m.showcase
    GROUP BY d.agent_id, d.match_id HAVING SUM({REPORTED}) = 0""")  # noqa: S608 - no input in it
RESULT = sa.text("SELECT result FROM matches WHERE match_id = :match_id")
SEATS = sa.text("SELECT seat FROM seats WHERE match_id = :match_id AND agent_id = :agent_id AND NOT taken_over")
TAKE_BACK = sa.text("UPDATE agents SET usage_games = CASE WHEN usage_games > :games THEN usage_games - :games ELSE 0 "
                    "END, usage_wins = CASE WHEN usage_wins > :wins THEN usage_wins - :wins ELSE 0 END "
                    "WHERE agent_id = :agent_id")


def upgrade() -> None:
    bind = op.get_bind()
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for agent_id, match_id in bind.execute(UNREPORTED).all():
        result = bind.execute(RESULT, {"match_id": match_id}).scalar()
        result = json.loads(result) if isinstance(result, str) else result
        if not result:  # the old code counted nothing for a match without a result
            continue
        games[agent_id] += 1
        seats = {row.seat for row in bind.execute(SEATS, {"match_id": match_id, "agent_id": agent_id})}
        wins[agent_id] += bool(seats & set(result.get("winning_seats") or ()))
    for agent_id, count in games.items():
        bind.execute(TAKE_BACK, {"agent_id": agent_id, "games": count, "wins": wins[agent_id]})


def downgrade() -> None:
    """Nothing to undo: the older code reads any count."""
