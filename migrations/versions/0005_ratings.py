"""ratings, side anchors, rating history, reliability counters, takeover marks

One rating per (agent, game) (`agent_ratings`), the side anchors per (game, composition, side)
(`rating_anchors`), one `rating_history` row per seat of a rated match, `matches.rated` (the decision made when
the match ended: what `python -m app.ratings rebuild` replays), `matches.content` (what the deal drew, as the game
keys it: the next deals avoid what their players saw recently), the agents' reliability counters (`turns`,
`timeouts`, `refusals`), `abandoned` (matches finished by the bot that took the agent's seat over) and, per seat, the consecutive timeouts and the takeover mark.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('agent_ratings',
    sa.Column('agent_id', sa.String(length=16), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('conservative', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['agent_id'], ['agents.agent_id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('agent_id', 'game')
    )
    op.create_index('ix_agent_ratings_game_conservative', 'agent_ratings', ['game', 'conservative'])
    op.create_table('rating_anchors',
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('composition', sa.String(length=128), nullable=False),
    sa.Column('side', sa.String(length=32), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('game', 'composition', 'side')
    )
    op.create_table('rating_history',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('match_id', sa.String(length=16), nullable=False),
    sa.Column('agent_id', sa.String(length=16), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('side', sa.String(length=32), nullable=False),
    sa.Column('won', sa.Boolean(), nullable=False),
    sa.Column('mu_before', sa.Float(), nullable=False),
    sa.Column('sigma_before', sa.Float(), nullable=False),
    sa.Column('mu_after', sa.Float(), nullable=False),
    sa.Column('sigma_after', sa.Float(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['agent_id'], ['agents.agent_id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['match_id'], ['matches.match_id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_rating_history_agent_game', 'rating_history', ['agent_id', 'game', 'id'])
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('content', sa.String(length=128), nullable=True))
    with op.batch_alter_table('agents', schema=None) as batch_op:
        for column in ('turns', 'timeouts', 'refusals', 'abandoned'):
            batch_op.add_column(sa.Column(column, sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('timeouts_in_row', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('taken_over', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('taken_over')
        batch_op.drop_column('timeouts_in_row')
    with op.batch_alter_table('agents', schema=None) as batch_op:
        for column in ('abandoned', 'refusals', 'timeouts', 'turns'):
            batch_op.drop_column(column)
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('content')
        batch_op.drop_column('rated')
    op.drop_index('ix_rating_history_agent_game', table_name='rating_history')
    op.drop_table('rating_history')
    op.drop_table('rating_anchors')
    op.drop_index('ix_agent_ratings_game_conservative', table_name='agent_ratings')
    op.drop_table('agent_ratings')
