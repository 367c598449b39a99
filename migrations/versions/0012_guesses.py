"""spectator guesses: a logged-in spectator names a live match's hidden seats, round by round (issue 33)

Revision ID: 0012_guesses
Revises: 0011
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0012_guesses'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        'spectator_guesses',
        sa.Column('id', sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column('match_id', sa.String(16), sa.ForeignKey('matches.match_id', ondelete='CASCADE'), nullable=False),
        sa.Column('owner_id', sa.String(16), sa.ForeignKey('owners.owner_id', ondelete='CASCADE'), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('seats', JSON, nullable=False),
        sa.Column('made_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('hits', sa.Integer(), nullable=True),
        sa.Column('misses', sa.Integer(), nullable=True),
        sa.UniqueConstraint('match_id', 'owner_id', 'round', name='uq_guesses_match_owner_round'),
    )
    op.create_index('ix_guesses_owner', 'spectator_guesses', ['owner_id'])


def downgrade() -> None:
    op.drop_index('ix_guesses_owner', table_name='spectator_guesses')
    op.drop_table('spectator_guesses')
