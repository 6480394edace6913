"""Longer sender names: a mail's From names the game and both players (100 characters each).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('mails', schema=None) as batch_op:
        batch_op.alter_column('from_name', existing_type=sa.String(length=200),
                              type_=sa.String(length=300), existing_nullable=False)


def downgrade():
    with op.batch_alter_table('mails', schema=None) as batch_op:
        batch_op.alter_column('from_name', existing_type=sa.String(length=300),
                              type_=sa.String(length=200), existing_nullable=False)
