"""Mail replies, reminders and time limits.

Adds the inbound mails ingested, the reminders sent, the rate-limit counter,
each mail's Reply-To, each game's time limit, and the seats owing a decision
at the start of a game and after each event.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('inbound',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=True),
    sa.Column('sender', sa.String(length=254), nullable=False),
    sa.Column('result', sa.String(length=32), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    op.create_table('rate_events',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('key', sa.String(length=300), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('rate_events', schema=None) as batch_op:
        batch_op.create_index('ix_rate_events_key_at', ['key', 'at'], unique=False)

    op.create_table('reminders',
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'seat', 'seq', 'kind')
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('owed', sa.JSON(), nullable=True))

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('time_limit_days', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('owed', sa.JSON(), nullable=True))

    with op.batch_alter_table('mails', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reply_to', sa.String(length=320), nullable=True))



def downgrade():
    with op.batch_alter_table('mails', schema=None) as batch_op:
        batch_op.drop_column('reply_to')

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('owed')
        batch_op.drop_column('time_limit_days')

    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('owed')

    op.drop_table('reminders')
    with op.batch_alter_table('rate_events', schema=None) as batch_op:
        batch_op.drop_index('ix_rate_events_key_at')

    op.drop_table('rate_events')
    op.drop_table('inbound')
