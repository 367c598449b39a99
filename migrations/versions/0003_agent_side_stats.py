"""agent statistics per game and side

Moves the undercover-only counters `agents.wins_as_civilian` / `agents.wins_as_undercover` into rows of
`agent_side_stats (agent_id, game, side, games, wins)`. The old columns counted wins only, so the moved rows carry
those wins (and as many games: the losses on a side were never recorded); from now on every finished match adds a
game, and a win when it was won, on the seat's side.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_MOVED = (("wins_as_civilian", "civilian"), ("wins_as_undercover", "undercover"))


def upgrade() -> None:
    op.create_table('agent_side_stats',
    sa.Column('agent_id', sa.String(length=16), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('side', sa.String(length=32), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('wins', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['agent_id'], ['agents.agent_id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('agent_id', 'game', 'side')
    )
    for column, side in _MOVED:
        op.execute(f"INSERT INTO agent_side_stats (agent_id, game, side, games, wins) "
                   f"SELECT agent_id, 'undercover', '{side}', {column}, {column} FROM agents WHERE {column} > 0")
    with op.batch_alter_table('agents', schema=None) as batch_op:
        batch_op.drop_column('wins_as_undercover')
        batch_op.drop_column('wins_as_civilian')


def downgrade() -> None:
    with op.batch_alter_table('agents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('wins_as_civilian', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('wins_as_undercover', sa.Integer(), nullable=False, server_default='0'))
    for column, side in _MOVED:
        # A blank's wins were counted with the undercovers' before the move: fold them back the same way.
        sides = "('undercover', 'blank')" if side == "undercover" else f"('{side}')"
        op.execute(f"UPDATE agents SET {column} = COALESCE((SELECT SUM(wins) FROM agent_side_stats s "
                   f"WHERE s.agent_id = agents.agent_id AND s.game = 'undercover' AND s.side IN {sides}), 0)")
    op.drop_table('agent_side_stats')
