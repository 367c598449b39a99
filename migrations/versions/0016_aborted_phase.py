"""an aborted match keeps the phase it stopped in: the protocol's phases name no `aborted` (§4)

Rows written before this revision say `phase = 'aborted'`; each gets the phase of its last `phase_started` event,
or `waiting` when it never started one (a room cancelled before it filled, or a game that names its phases
without that event).

Revision ID: 0016_aborted_phase
Revises: 0015_decision_due
Create Date: 2026-12-06
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0016_aborted_phase'
down_revision: str | None = '0015_decision_due'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')
matches = sa.table('matches', sa.column('match_id', sa.String), sa.column('phase', sa.String),
                   sa.column('state', JSON))
events = sa.table('events', sa.column('match_id', sa.String), sa.column('seq', sa.Integer),
                  sa.column('type', sa.String), sa.column('body', JSON))
BATCH = 500


def upgrade() -> None:
    bind = op.get_bind()
    while True:
        rows = bind.execute(sa.select(matches.c.match_id, matches.c.state)
                            .where(matches.c.phase == 'aborted').limit(BATCH)).all()
        for match_id, state in rows:
            last = bind.execute(sa.select(events.c.body)
                                .where(events.c.match_id == match_id, events.c.type == 'phase_started')
                                .order_by(events.c.seq.desc()).limit(1)).scalar()
            phase = str(last.get('phase') or 'waiting') if isinstance(last, dict) else 'waiting'
            bind.execute(sa.update(matches).where(matches.c.match_id == match_id)
                         .values(phase=phase, state={**state, 'phase': phase}))
        if len(rows) < BATCH:
            return


def downgrade() -> None:
    """Nothing to undo: the older code reads any phase an aborted match has."""
