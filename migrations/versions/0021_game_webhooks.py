"""A webhook per game: a channel may belong to a game (`game_id`) rather than an address, set
by one of its seats (`set_by`), and is sent only the game's public facts.

Revision ID: 0021
Revises: 0018
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0021'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('channels') as table:
        table.add_column(sa.Column('game_id', sa.String(length=16), nullable=True))
        table.add_column(sa.Column('set_by', sa.Integer(), nullable=True))
        table.create_index('ix_channels_game_id', ['game_id'], unique=True)   # one a game


def downgrade():
    with op.batch_alter_table('channels') as table:
        table.drop_index('ix_channels_game_id')
        table.drop_column('set_by')
        table.drop_column('game_id')
