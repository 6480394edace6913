"""Computer players: a seat may be played by a bot, and a player who leaves a game of three
or four hands his seat to one.

- seats.bot: the level of the computer that plays the seat now (null: a person);
- games.takeover: the level of the computer that takes over the seat of a player who
  resigns or runs out of time in a game of three or four (existing games: normal);
- takeovers: who left which seat, when (the point of the log) and why, so the record can
  say who played which turns.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot', sa.String(length=16), nullable=True))
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('takeover', sa.String(length=16), nullable=False,
                                      server_default='normal'))
    op.create_table('takeovers',
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('seat', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=16), nullable=False),
    sa.Column('level', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'seat')
    )


def downgrade():
    op.drop_table('takeovers')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('takeover')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('bot')
