"""Open challenges: a game offered to strangers, and the seats taken in it
(`pbem.play.challenges`).

Revision ID: 0016
Revises: 0020
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0016'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'challenges',
        sa.Column('id', sa.String(length=16), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('seats', sa.Integer(), nullable=False),
        sa.Column('taken', sa.Integer(), nullable=False),
        sa.Column('terms', sa.JSON(), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('lowest', sa.Integer(), nullable=True),
        sa.Column('highest', sa.Integer(), nullable=True),
        sa.Column('on_time', sa.Integer(), nullable=True),
        sa.Column('days', sa.Integer(), nullable=False),
        sa.Column('poster', sa.String(length=254), nullable=False),
        sa.Column('poster_name', sa.String(length=100), nullable=False),
        sa.Column('client', sa.String(length=64), nullable=False),
        sa.Column('status', sa.String(length=12), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_challenges_poster', 'challenges', ['poster'])
    op.create_index('ix_challenges_status', 'challenges', ['status'])
    op.create_index('ix_challenges_expires_at', 'challenges', ['expires_at'])
    op.create_table(
        'challenge_seats',
        sa.Column('challenge_id', sa.String(length=16), nullable=False),
        sa.Column('address', sa.String(length=254), nullable=False),
        sa.Column('name', sa.String(length=100), nullable=False),
        sa.Column('language', sa.String(length=8), nullable=True),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['challenge_id'], ['challenges.id']),
        sa.PrimaryKeyConstraint('challenge_id', 'address'),
    )


def downgrade():
    op.drop_table('challenge_seats')
    op.drop_index('ix_challenges_expires_at', 'challenges')
    op.drop_index('ix_challenges_status', 'challenges')
    op.drop_index('ix_challenges_poster', 'challenges')
    op.drop_table('challenges')
