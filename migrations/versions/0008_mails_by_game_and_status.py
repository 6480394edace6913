"""Mail found by game and status: a page counts the game's undelivered mail in one index.

The seat's facts count a game's failed and suppressed mail on every page; with an index on
the game alone, that read every mail the game ever sent (two a turn). The composite index
serves every lookup by game as well, so it replaces the old one.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('mails', schema=None) as batch_op:
        batch_op.create_index('ix_mails_game_status', ['game_id', 'status'], unique=False)
        batch_op.drop_index('ix_mails_game_id')


def downgrade():
    with op.batch_alter_table('mails', schema=None) as batch_op:
        batch_op.create_index('ix_mails_game_id', ['game_id'], unique=False)
        batch_op.drop_index('ix_mails_game_status')
