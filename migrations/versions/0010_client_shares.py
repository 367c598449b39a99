"""one client's share: who opened a quick start, which client holds a guest seat, who may sit in a room

`matches.quick_client` is a digest of the client (agent, owner or IP) that opened a quick start, so "live quick-start
tables per client" is one indexed query on the shared database; `seats.client` is the digest of the client behind a
guest seat (one guest seat per client per room); `matches.seats_for` is the room option of who may sit: `all`
(people and agents, the default), `agents` or `people` (issue 26 item 8, issue 33).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('quick_client', sa.String(length=64), nullable=True))
        batch.add_column(sa.Column('seats_for', sa.String(length=8), nullable=False, server_default='all'))
        batch.create_index('ix_matches_quick_client', ['quick_client'])
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('client', sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('client')
    with op.batch_alter_table('matches') as batch:
        batch.drop_index('ix_matches_quick_client')
        batch.drop_column('seats_for')
        batch.drop_column('quick_client')
