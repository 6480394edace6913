"""Leagues by mail (`pbem.play.leagues`): `leagues`, `league_members` (asked and joined) and
`league_games` (the games a league started).

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'leagues',
        sa.Column('id', sa.String(length=16), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('least', sa.Integer(), nullable=False),
        sa.Column('most', sa.Integer(), nullable=False),
        sa.Column('clock', sa.String(length=32), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('min_on_time', sa.Integer(), nullable=True),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('creator', sa.String(length=254), nullable=True),
        sa.Column('client', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_leagues_status_starts', 'leagues', ['status', 'starts_at'])
    op.create_table(
        'league_members',
        sa.Column('league_id', sa.String(length=16), nullable=False),
        sa.Column('address', sa.String(length=254), nullable=False),
        sa.Column('ticket', sa.String(length=32), nullable=False),
        sa.Column('joined', sa.Boolean(), nullable=False),
        sa.Column('asked_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('joined_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['league_id'], ['leagues.id']),
        sa.PrimaryKeyConstraint('league_id', 'address'),
    )
    op.create_index('ix_league_members_address', 'league_members', ['address'])
    op.create_table(
        'league_games',
        sa.Column('game_id', sa.String(length=16), nullable=False),
        sa.Column('league_id', sa.String(length=16), nullable=False),
        sa.Column('players', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.ForeignKeyConstraint(['league_id'], ['leagues.id']),
        sa.PrimaryKeyConstraint('game_id'),
    )
    op.create_index('ix_league_games_league_id', 'league_games', ['league_id'])


def downgrade():
    op.drop_index('ix_league_games_league_id', table_name='league_games')
    op.drop_table('league_games')
    op.drop_index('ix_league_members_address', table_name='league_members')
    op.drop_table('league_members')
    op.drop_index('ix_leagues_status_starts', table_name='leagues')
    op.drop_table('leagues')
