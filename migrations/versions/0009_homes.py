"""The player's home: settings per address, results of finished games, rematches.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'address_settings',
        sa.Column('address', sa.String(length=254), nullable=False),
        sa.Column('home_nonce', sa.String(length=32), server_default='', nullable=False),
        sa.Column('time_zone', sa.String(length=64), server_default='UTC', nullable=False),
        sa.Column('language', sa.String(length=16), server_default='en', nullable=False),
        sa.Column('mail_mode', sa.String(length=16), server_default='each', nullable=False),
        sa.Column('confirm_replies', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('digest_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('address'),
    )
    op.create_table(
        'game_results',
        sa.Column('game_id', sa.String(length=16), nullable=False),
        sa.Column('winners', sa.JSON(), nullable=False),
        sa.Column('reason', sa.String(length=32), nullable=False),
        sa.Column('description', sa.Text(), nullable=False),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('game_id'),
    )
    op.create_table(
        'rematches',
        sa.Column('id', sa.String(length=16), nullable=False),
        sa.Column('source', sa.String(length=16), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('spec', sa.JSON(), nullable=False),
        sa.Column('asked_by', sa.Integer(), nullable=False),
        sa.Column('confirmed', sa.JSON(), nullable=False),
        sa.Column('started', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['source'], ['games.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('source'),
    )


def downgrade():
    op.drop_table('rematches')
    op.drop_table('game_results')
    op.drop_table('address_settings')
