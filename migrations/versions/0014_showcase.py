"""showcase: the platform's own match, bots only, shown in the lobby when nothing else is live (issue 33)

`matches.showcase` marks it; a partial unique index lets at most one showcase be waiting or in progress at a time,
whichever process opens it.

Revision ID: 0014_showcase
Revises: 0013_tournaments
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014_showcase'
down_revision: str | None = '0013_tournaments'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE_SHOWCASE = sa.text("showcase AND status IN ('waiting', 'in_progress')")


def upgrade() -> None:
    op.add_column('matches', sa.Column('showcase', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index('uq_matches_live_showcase', 'matches', ['showcase'], unique=True,
                    postgresql_where=LIVE_SHOWCASE, sqlite_where=LIVE_SHOWCASE)


def downgrade() -> None:
    op.drop_index('uq_matches_live_showcase', table_name='matches')
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('showcase')
