"""Channels beside mail: an address's webhooks and browsers' push subscriptions, and their
outbox of notices, written with the mail each one accompanies (`pbem.mail.notices`).

Revision ID: 0019
Revises: 0015 (0016-0018 were set aside for work not merged)
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0019'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'channels',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('address', sa.String(length=254), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('target', sa.String(length=2000), nullable=False),
        sa.Column('secret', sa.String(length=200), nullable=False),
        sa.Column('failures', sa.Integer(), nullable=False),
        sa.Column('off_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('delivered_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('failed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_channels_address', 'channels', ['address'])
    op.create_table(
        'notices',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('channel_id', sa.Integer(), nullable=False),
        sa.Column('mail_id', sa.Integer(), nullable=True),
        sa.Column('game_id', sa.String(length=16), nullable=True),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('body', sa.JSON(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(['channel_id'], ['channels.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_notices_channel_id', 'notices', ['channel_id'])
    op.create_index('ix_notices_game_id', 'notices', ['game_id'])
    op.create_index('ix_notices_due', 'notices', ['status', 'next_attempt_at'])


def downgrade():
    op.drop_table('notices')
    op.drop_table('channels')
