"""an aborted match keeps the phase it stopped in: the protocol's phases name no `aborted` (§4)

Rows written before this revision say `phase = 'aborted'`; each gets the phase its last phase-opening event names
(`phase_started` in 谁是卧底 and 狼人杀, `stage_changed` in 剧本杀, the event that opens each of 阿瓦隆's phases),
or `waiting` when it has none (a room cancelled before it filled).

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
# The event that opens a phase → the phase it opened: a field of the event, or the phase itself (阿瓦隆's).
OPENS: dict[str, tuple[str, str]] = {
    'phase_started': ('field', 'phase'), 'stage_changed': ('field', 'sub_stage'),
    'proposal_opened': ('phase', 'propose'), 'speaker_up': ('phase', 'discuss'), 'vote_opened': ('phase', 'vote'),
    'quest_started': ('phase', 'quest'), 'lady_opened': ('phase', 'lady'),
    'assassination_opened': ('phase', 'assassinate'),
}
BATCH = 500


def _stopped_in(bind: sa.Connection, match_id: str) -> str:
    row = bind.execute(sa.select(events.c.type, events.c.body)
                       .where(events.c.match_id == match_id, events.c.type.in_(list(OPENS)))
                       .order_by(events.c.seq.desc()).limit(1)).first()
    if row is None:
        return 'waiting'
    how, what = OPENS[row.type]
    if how == 'phase':
        return what
    return str(row.body.get(what) or 'waiting') if isinstance(row.body, dict) else 'waiting'


def upgrade() -> None:
    bind = op.get_bind()
    after = ''
    while True:  # keyset pages by match id: each row is read once, whatever its update did
        rows = bind.execute(sa.select(matches.c.match_id, matches.c.state)
                            .where(matches.c.phase == 'aborted', matches.c.match_id > after)
                            .order_by(matches.c.match_id).limit(BATCH)).all()
        for match_id, state in rows:
            phase = _stopped_in(bind, match_id)
            bind.execute(sa.update(matches).where(matches.c.match_id == match_id)
                         .values(phase=phase, state={**state, 'phase': phase}))
        if len(rows) < BATCH:
            return
        after = rows[-1].match_id


def downgrade() -> None:
    """Nothing to undo: the older code reads any phase an aborted match has."""
