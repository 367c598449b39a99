"""rating evidence: whether each seat acted or conceded, and each rated match's pairing

Issue 26: a rated match needs evidence that its seats are independent. `seats.acted` (the seat sent a command
that moved the match) and `seats.conceded` (it conceded) let "a concession before every seat has acted is not
rated" be judged at the end and again by `python -m app.ratings rebuild`; `matches.pairing` (a digest of the owner
identities at the table) lets "the same pairing within the window counts once" be one indexed lookup.

Revision ID: 0008
Revises: 0006
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('acted', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column('conceded', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('pairing', sa.String(length=64), nullable=True))
        batch.create_index('ix_matches_pairing', ['pairing'])


def downgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.drop_index('ix_matches_pairing')
        batch.drop_column('pairing')
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('conceded')
        batch.drop_column('acted')
