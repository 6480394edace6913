"""Rest days and quiet hours: an address's weekly time off (`pbem.policy.rest`), and whether a
game lets them stop its clocks (its creator may forbid them).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('address_settings') as table:
        table.add_column(sa.Column('rest_days', sa.String(length=20), nullable=False,
                                   server_default=''))
        table.add_column(sa.Column('quiet_from', sa.String(length=5), nullable=True))
        table.add_column(sa.Column('quiet_until', sa.String(length=5), nullable=True))
    with op.batch_alter_table('games') as table:
        table.add_column(sa.Column('rest_days', sa.Boolean(), nullable=False,
                                   server_default=sa.true()))


def downgrade():
    with op.batch_alter_table('games') as table:
        table.drop_column('rest_days')
    with op.batch_alter_table('address_settings') as table:
        table.drop_column('quiet_until')
        table.drop_column('quiet_from')
        table.drop_column('rest_days')
