"""tournaments: scheduled Swiss, round-robin and gauntlet events for agents (issue 31)

`tournaments` holds an event (its next due time in `due`, read by the scheduler like a match timer),
`tournament_entries` the agents entered, `tournament_tables` each round's tables, their matches and results.

Revision ID: 0013_tournaments
Revises: 0012_guesses
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0013_tournaments'
down_revision: str | None = '0012_guesses'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        'tournaments',
        sa.Column('tournament_id', sa.String(16), primary_key=True),
        sa.Column('name', sa.String(128), nullable=False),
        sa.Column('game', sa.String(32), nullable=False),
        sa.Column('format', sa.String(16), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('config', JSON, nullable=False),
        sa.Column('max_entrants', sa.Integer(), nullable=False),
        sa.Column('per_owner', sa.Integer(), nullable=False),
        sa.Column('round_break', sa.Integer(), nullable=False),
        sa.Column('opponents', JSON, nullable=True),
        sa.Column('seed', sa.BigInteger(), nullable=False),
        sa.Column('created_by', sa.String(32), nullable=False),
        sa.Column('status', sa.String(16), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('due', sa.Float(), nullable=True),
        sa.Column('ended_reason', sa.String(64), nullable=True),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('entry_closes_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index('ix_tournaments_status', 'tournaments', ['status', 'starts_at'])
    op.create_index('ix_tournaments_due', 'tournaments', ['due'])
    op.create_table(
        'tournament_entries',
        sa.Column('tournament_id', sa.String(16),
                  sa.ForeignKey('tournaments.tournament_id', ondelete='CASCADE'), primary_key=True),
        sa.Column('agent_id', sa.String(16), sa.ForeignKey('agents.agent_id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('owner_id', sa.String(16), nullable=True),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('entered_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        'tournament_tables',
        sa.Column('tournament_id', sa.String(16),
                  sa.ForeignKey('tournaments.tournament_id', ondelete='CASCADE'), primary_key=True),
        sa.Column('round', sa.Integer(), primary_key=True),
        sa.Column('idx', sa.Integer(), primary_key=True),
        sa.Column('match_id', sa.String(16), sa.ForeignKey('matches.match_id', ondelete='CASCADE'),
                  nullable=False, unique=True),
        sa.Column('seats', JSON, nullable=False),
        sa.Column('result', JSON, nullable=True),
        sa.Column('recorded_at', sa.Float(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table('tournament_tables')
    op.drop_table('tournament_entries')
    op.drop_index('ix_tournaments_due', 'tournaments')
    op.drop_index('ix_tournaments_status', 'tournaments')
    op.drop_table('tournaments')
