"""benchmarks, decisions and usage: measure an agent against a frozen reference (issue 30)

`decisions` holds one row per decision of a seat (what it was shown, sent and got back, the usage it reported);
`benchmarks` and `benchmark_games` hold a benchmark run and the matches it played; `agents` gains the usage totals
its finished matches reported.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        'decisions',
        sa.Column('id', sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column('match_id', sa.String(16), sa.ForeignKey('matches.match_id', ondelete='CASCADE'), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('agent_id', sa.String(16), nullable=True),
        sa.Column('by', sa.String(8), nullable=False),
        sa.Column('outcome', sa.String(16), nullable=False),
        sa.Column('at_seq', sa.Integer(), nullable=False),
        sa.Column('at', sa.Float(), nullable=False),
        sa.Column('roles', JSON, nullable=False),
        sa.Column('you', JSON, nullable=False),
        sa.Column('sent', JSON, nullable=True),
        sa.Column('reply', JSON, nullable=True),
        sa.Column('usage', JSON, nullable=True),
        sa.Column('input_tokens', sa.BigInteger(), nullable=False, server_default='0'),
        sa.Column('output_tokens', sa.BigInteger(), nullable=False, server_default='0'),
        sa.Column('cost_usd', sa.Float(), nullable=True),
    )
    op.create_index('ix_decisions_match_seat', 'decisions', ['match_id', 'seat', 'id'])
    op.create_table(
        'benchmarks',
        sa.Column('benchmark_id', sa.String(16), primary_key=True),
        sa.Column('agent_id', sa.String(16), sa.ForeignKey('agents.agent_id', ondelete='CASCADE'), nullable=False),
        sa.Column('game', sa.String(32), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('pool', sa.String(32), nullable=False),
        sa.Column('config', JSON, nullable=False),
        sa.Column('plan', JSON, nullable=False),
        sa.Column('status', sa.String(16), nullable=False),
        sa.Column('ended_reason', sa.String(64), nullable=True),
        sa.Column('played', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('report', JSON, nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index('ix_benchmarks_agent', 'benchmarks', ['agent_id', 'created_at'])
    op.create_table(
        'benchmark_games',
        sa.Column('benchmark_id', sa.String(16), sa.ForeignKey('benchmarks.benchmark_id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('idx', sa.Integer(), primary_key=True),
        sa.Column('kind', sa.String(16), primary_key=True),
        sa.Column('match_id', sa.String(16), sa.ForeignKey('matches.match_id', ondelete='CASCADE'), nullable=False,
                  unique=True),
    )
    with op.batch_alter_table('agents') as batch:
        batch.add_column(sa.Column('input_tokens', sa.BigInteger(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('output_tokens', sa.BigInteger(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('cost_usd', sa.Float(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('usage_games', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('usage_wins', sa.Integer(), nullable=False, server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('agents') as batch:
        for column in ('usage_wins', 'usage_games', 'cost_usd', 'output_tokens', 'input_tokens'):
            batch.drop_column(column)
    op.drop_table('benchmark_games')
    op.drop_index('ix_benchmarks_agent', 'benchmarks')
    op.drop_table('benchmarks')
    op.drop_index('ix_decisions_match_seat', 'decisions')
    op.drop_table('decisions')
