"""The initial schema: games, seats, seat nonces, the event log and the outbox.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('games',
    sa.Column('id', sa.String(length=16), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('first', sa.Integer(), nullable=True),
    sa.Column('seats', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('events',
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('type', sa.String(length=32), nullable=False),
    sa.Column('v', sa.Integer(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'seq')
    )
    op.create_table('mails',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=True),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('to_name', sa.String(length=100), nullable=False),
    sa.Column('to_addr', sa.String(length=254), nullable=False),
    sa.Column('from_name', sa.String(length=200), nullable=False),
    sa.Column('subject', sa.String(length=300), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('html', sa.Text(), nullable=False),
    sa.Column('message_id', sa.String(length=200), nullable=False),
    sa.Column('in_reply_to', sa.String(length=200), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('message_id')
    )
    with op.batch_alter_table('mails', schema=None) as batch_op:
        batch_op.create_index('ix_mails_due', ['status', 'next_attempt_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_mails_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_mails_to_addr'), ['to_addr'], unique=False)

    op.create_table('seat_nonces',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('nonce', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('seat_nonces', schema=None) as batch_op:
        batch_op.create_index('ix_seat_nonces_game_seat', ['game_id', 'seat', 'id'], unique=False)

    op.create_table('seats',
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'seat')
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_email'), ['email'], unique=False)



def downgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seats_email'))

    op.drop_table('seats')
    with op.batch_alter_table('seat_nonces', schema=None) as batch_op:
        batch_op.drop_index('ix_seat_nonces_game_seat')

    op.drop_table('seat_nonces')
    with op.batch_alter_table('mails', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mails_to_addr'))
        batch_op.drop_index(batch_op.f('ix_mails_game_id'))
        batch_op.drop_index('ix_mails_due')

    op.drop_table('mails')
    op.drop_table('events')
    op.drop_table('games')
