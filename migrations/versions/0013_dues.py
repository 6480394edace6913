"""What is due when: `dues`, one row per seat that owes a decision, with the moment the
background work must next look at it (`pbem.policy.due`).

Every running game gets one row due at once: the first round looks at each of them and writes
its true rows, so the migration needs no rules of its own (a moment too early costs one look).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'dues',
        sa.Column('game_id', sa.String(length=16), nullable=False),
        sa.Column('seat', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('bot', sa.String(length=16), nullable=True),
        sa.Column('due_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('game_id', 'seat'),
    )
    op.create_index('ix_dues_due_at', 'dues', ['due_at'], unique=False)
    op.create_index('ix_dues_bot_due_at', 'dues', ['bot', 'due_at'], unique=False)
    op.execute(sa.text(
        "INSERT INTO dues (game_id, seat, bot, due_at) SELECT id, 0, NULL, :epoch FROM games"
        " WHERE id NOT IN (SELECT game_id FROM game_results)"
    ).bindparams(epoch=datetime(1970, 1, 1, tzinfo=UTC)))


def downgrade():
    op.drop_index('ix_dues_bot_due_at', table_name='dues')
    op.drop_index('ix_dues_due_at', table_name='dues')
    op.drop_table('dues')
