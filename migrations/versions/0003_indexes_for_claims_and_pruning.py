"""Indexes for claiming the next pending mail and for pruning old rate-limit rows.

Without them, claiming a mail walks every mail ever sent in id order, and pruning the
rate-limit counter reads the whole table.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('mails', schema=None) as batch_op:
        batch_op.create_index('ix_mails_status_id', ['status', 'id'], unique=False)

    with op.batch_alter_table('rate_events', schema=None) as batch_op:
        batch_op.create_index('ix_rate_events_at', ['at'], unique=False)


def downgrade():
    with op.batch_alter_table('rate_events', schema=None) as batch_op:
        batch_op.drop_index('ix_rate_events_at')

    with op.batch_alter_table('mails', schema=None) as batch_op:
        batch_op.drop_index('ix_mails_status_id')
