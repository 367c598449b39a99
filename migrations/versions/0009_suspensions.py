"""suspensions: the operator's record of suspended agents and owners

`suspensions` keeps every suspension with its reason and, once lifted, when and why; `agents.suspended` holds the
code a suspended agent's key is refused with (`agent_suspended` or `owner_suspended`), so the key check reads it
with the row it reads anyway.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'suspensions',
        sa.Column('id', sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column('subject', sa.String(8), nullable=False),
        sa.Column('subject_id', sa.String(16), nullable=False),
        sa.Column('name', sa.String(64), nullable=False),
        sa.Column('reason', sa.String(500), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('lifted_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('lift_reason', sa.String(500), nullable=True),
    )
    op.create_index('ix_suspensions_subject', 'suspensions', ['subject', 'subject_id'])
    with op.batch_alter_table('agents') as batch:
        batch.add_column(sa.Column('suspended', sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('agents') as batch:
        batch.drop_column('suspended')
    op.drop_index('ix_suspensions_subject', table_name='suspensions')
    op.drop_table('suspensions')
