"""decisions remember whether the seat was due: an agent's turns and refusals are counted when its match ends (issue 29)

Revision ID: 0014_decision_due
Revises: 0013_tournaments
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014_decision_due'
down_revision: str | None = '0013_tournaments'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('decisions', sa.Column('due', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('decisions') as batch:
        batch.drop_column('due')
