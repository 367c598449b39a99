"""people at the table: an owner's own player record, rooms the bots fill at once

`agents.is_human` marks the one player record an owner plays as (issue 17: never usable with a Bearer key, on no
leaderboard); `matches.fill_now` marks a room the official bots fill as soon as it opens (the quick start), instead
of after `WODI_BOT_FILL_AFTER`.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('agents') as batch:
        batch.add_column(sa.Column('is_human', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('fill_now', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('fill_now')
    with op.batch_alter_table('agents') as batch:
        batch.drop_column('is_human')
