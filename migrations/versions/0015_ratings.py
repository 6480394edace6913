"""Ratings: `games.rated` (a game created rated moves its players' ratings) and `ratings`, each
player's rating per game (`pbem.players.ratings`). Existing games are unrated.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('rated', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        'ratings',
        sa.Column('player', sa.String(length=254), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('player', 'game'),
    )
    op.create_index('ix_ratings_game_mu', 'ratings', ['game', 'mu'])


def downgrade():
    op.drop_index('ix_ratings_game_mu', table_name='ratings')
    op.drop_table('ratings')
    with op.batch_alter_table('games') as batch:
        batch.drop_column('rated')
