"""Words between players, private notes, time banks and vacations.

- `messages`: a game's conversation, append-only (only `hidden_at` changes: the operator hid it);
- `message_marks`: per seat, the last message its mails have carried (the next mail carries
  those after it);
- `notes`: a player's private notes on a game, one row per seat;
- `clocks`: a game's time bank (start, increment per move, cap, in days); a game without a row
  has the fixed time per move of `games.time_limit_days`, or none;
- `vacations`: an address's vacations (started by the player, or by itself when a clock would
  run out), in whole days counted against VACATION_DAYS_PER_YEAR.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'messages',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('game_id', sa.String(length=16), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('hidden_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_messages_game_id_id', 'messages', ['game_id', 'id'], unique=False)
    op.create_table(
        'message_marks',
        sa.Column('game_id', sa.String(length=16), nullable=False),
        sa.Column('seat', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('message_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('game_id', 'seat'),
    )
    op.create_table(
        'notes',
        sa.Column('game_id', sa.String(length=16), nullable=False),
        sa.Column('seat', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('game_id', 'seat'),
    )
    op.create_table(
        'clocks',
        sa.Column('game_id', sa.String(length=16), nullable=False),
        sa.Column('start_days', sa.Integer(), nullable=False),
        sa.Column('increment_days', sa.Integer(), nullable=False),
        sa.Column('cap_days', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('game_id'),
    )
    op.create_table(
        'vacations',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('address', sa.String(length=254), nullable=False),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('automatic', sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_vacations_address_ends_at', 'vacations', ['address', 'ends_at'], unique=False)


def downgrade():
    op.drop_index('ix_vacations_address_ends_at', table_name='vacations')
    op.drop_table('vacations')
    op.drop_table('clocks')
    op.drop_table('notes')
    op.drop_table('message_marks')
    op.drop_index('ix_messages_game_id_id', table_name='messages')
    op.drop_table('messages')
