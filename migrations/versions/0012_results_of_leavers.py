"""A finished game's places, and the players who had left it: a seat a computer took over is
never its player's win (his result is that he left, and where the computer finished).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game_results') as batch:
        batch.add_column(sa.Column('places', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('left', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('game_results') as batch:
        batch.drop_column('left')
        batch.drop_column('places')
